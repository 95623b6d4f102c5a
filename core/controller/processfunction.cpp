#include "core/controller/processfunction.h"

namespace Cachescope {

// Out of line so that the vtable lives in one translation unit.
ProcessFunction::~ProcessFunction() = default;

} // namespace Cachescope
