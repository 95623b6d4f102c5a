#pragma once

#include <QString>

namespace Cachescope {

// version() is Cachescope's version, as set by the project() call of the top CMakeLists.txt.
QString version();

// userAgent() is the User-Agent every request of Cachescope carries: "cachescope/VERSION".
QString userAgent();

} // namespace Cachescope
