#include "core/controller/finding.h"

namespace Cachescope {

QLatin1String findingSeverityName(FindingSeverity severity)
{
    switch (severity) {
    case FindingSeverity::Info:
        return QLatin1String("Info");
    case FindingSeverity::Warning:
        return QLatin1String("Warning");
    case FindingSeverity::Error:
        return QLatin1String("Error");
    }
    return QLatin1String("Unknown");
}

} // namespace Cachescope
