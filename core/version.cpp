#include "core/version.h"

namespace Cachescope {

QString version()
{
    return QStringLiteral(CACHESCOPE_VERSION);
}

QString userAgent()
{
    return QStringLiteral("cachescope/" CACHESCOPE_VERSION);
}

} // namespace Cachescope
