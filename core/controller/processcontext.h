#pragma once

#include <QtGlobal>

namespace Cachescope {

// ProcessContext tells a ProcessFunction which attempt this is: worker is the id of the worker
// thread running it (0 … workers-1), attempt the key's failures since it last succeeded or was
// forgotten (the RateLimitingQueue's numRequeues()), so 0 on a first try. A plain value.
struct ProcessContext
{
    int worker = -1;
    int attempt = 0;
};

} // namespace Cachescope
