#include "core/kube/tokenbucketratelimiter.h"

#include <algorithm>
#include <cmath>

namespace Cachescope {

TokenBucketRateLimiter::TokenBucketRateLimiter(double qps, int burst, Clock clock)
    : m_qps(qps)
    , m_burst(std::max(1, burst))
    , m_clock(std::move(clock))
    , m_tokens(m_burst)
{
    m_elapsed.start();
    m_last = now();
}

std::chrono::nanoseconds TokenBucketRateLimiter::now() const
{
    return m_clock ? m_clock() : std::chrono::nanoseconds(m_elapsed.nsecsElapsed());
}

std::chrono::milliseconds TokenBucketRateLimiter::reserve()
{
    if (m_qps <= 0) {
        return std::chrono::milliseconds(0);
    }
    const auto current = now();
    const double elapsedSecs = std::chrono::duration<double>(current - m_last).count();
    m_last = current;
    m_tokens = std::min<double>(m_burst, m_tokens + elapsedSecs * m_qps);
    // Tokens may go negative: that is the queue of reservations already handed out, each
    // waiting its turn, exactly like golang.org/x/time/rate's Reserve().
    m_tokens -= 1.0;
    if (m_tokens >= 0) {
        return std::chrono::milliseconds(0);
    }
    return std::chrono::milliseconds(static_cast<qint64>(std::ceil(-m_tokens / m_qps * 1000.0)));
}

} // namespace Cachescope
