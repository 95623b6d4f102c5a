#include "core/util/clock.h"

namespace Cachescope {

Clock::~Clock() = default;

void Clock::attach(ClockWaiter *)
{
}

void Clock::detach(ClockWaiter *)
{
}

} // namespace Cachescope
