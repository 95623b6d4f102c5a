#include "core/util/realclock.h"

namespace Cachescope {

std::shared_ptr<Clock> RealClock::instance()
{
    static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
    return clock;
}

TimePoint RealClock::now() const
{
    return std::chrono::time_point_cast<Duration>(std::chrono::steady_clock::now());
}

void RealClock::waitUntil(std::condition_variable &cond, std::unique_lock<std::mutex> &lock, TimePoint deadline)
{
    // A far deadline (a limiter's "never") would overflow the conversion to the timespec the
    // condition variable waits with; waking once an hour and re-checking costs nothing.
    const TimePoint cap = now() + std::chrono::hours(1);
    cond.wait_until(lock, std::min(deadline, cap));
}

} // namespace Cachescope
