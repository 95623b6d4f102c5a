#pragma once

#include "core/cache/kubeobject.h"

#include <QString>

namespace Cachescope {

// DeletedFinalStateUnknown is the tombstone a DeltaFifo or RealFifo queues, inside a Deleted
// delta, when a relist (Replace) no longer contains an object it knew: the object was deleted
// while the watch was down, so its final state is unknown. `object` is the last state the
// queue or the store had; it may be stale, and it is invalid when nothing was known.
// A plain value; cheap to copy (the object is implicitly shared).
struct DeletedFinalStateUnknown
{
    QString key;
    KubeObject object;

    friend bool operator==(const DeletedFinalStateUnknown &, const DeletedFinalStateUnknown &) = default;
};

} // namespace Cachescope
