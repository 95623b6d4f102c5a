#include "core/util/tokenbucket.h"

#include "core/util/realclock.h"

#include <algorithm>
#include <cmath>

namespace Cachescope {

TokenBucket::TokenBucket(double qps, int burst, std::shared_ptr<Clock> clock)
    : m_qps(qps)
    , m_burst(burst)
    , m_clock(clock ? std::move(clock) : RealClock::instance())
    , m_tokens(burst)
    , m_last(m_clock->now())
{
}

Duration TokenBucket::reserve()
{
    const std::lock_guard lock(m_mutex);
    const TimePoint now = m_clock->now();
    // x/time/rate takes a clock that went back as the new reference ("no time passed").
    if (now < m_last) {
        m_last = now;
    }
    if (m_qps > 0) {
        const double elapsed = std::chrono::duration<double>(now - m_last).count();
        m_tokens = std::min(m_tokens + elapsed * m_qps, static_cast<double>(m_burst));
    }
    m_last = now;
    m_tokens -= 1.0;
    if (m_tokens >= 0) {
        return Duration(0);
    }
    if (m_qps <= 0) {
        return Duration::max();
    }
    const double waitNs = -m_tokens / m_qps * 1e9;
    // Rounded to the nanosecond: 1/qps of a whole qps is then exact (10 qps → 100 ms steps).
    return Duration(static_cast<Duration::rep>(std::llround(waitNs)));
}

} // namespace Cachescope
