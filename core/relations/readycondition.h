#pragma once

#include "core/relations/objectref.h"

#include <QString>

namespace Cachescope {

// ReadyCondition is what kubectl-tree writes in its READY and REASON columns for an object: the
// status and reason of its Ready condition, "-" and no reason when it has none, "-" and
// "Dangling" for a dangling owner, "-" and "Unknown" for one not found yet. The one reading of
// readiness that `cachescope-cli tree` and the object pane's Relations tab share. Plain value type.
struct ReadyCondition
{
    QString status;
    QString reason;

    [[nodiscard]] static ReadyCondition of(const ObjectRef &object);
};

} // namespace Cachescope
