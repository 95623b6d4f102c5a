#include "core/controller/processrecord.h"

namespace Cachescope {

QLatin1String processOutcomeName(ProcessOutcome outcome)
{
    switch (outcome) {
    case ProcessOutcome::Succeeded:
        return QLatin1String("Succeeded");
    case ProcessOutcome::Retrying:
        return QLatin1String("Retrying");
    case ProcessOutcome::GaveUp:
        return QLatin1String("GaveUp");
    case ProcessOutcome::Dropped:
        return QLatin1String("Dropped");
    }
    return QLatin1String("Unknown");
}

} // namespace Cachescope
