#include "core/workqueue/maxofratelimiter.h"

#include <algorithm>

namespace Cachescope {

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters)
    : m_limiters(std::move(limiters))
{
}

Duration MaxOfRateLimiter::when(const QString &item)
{
    Duration longest(0);
    // Every limiter is asked, not just until the longest is known: each one counts the failure.
    for (const auto &limiter : m_limiters) {
        longest = std::max(longest, limiter->when(item));
    }
    return longest;
}

void MaxOfRateLimiter::forget(const QString &item)
{
    for (const auto &limiter : m_limiters) {
        limiter->forget(item);
    }
}

int MaxOfRateLimiter::numRequeues(const QString &item) const
{
    int most = 0;
    for (const auto &limiter : m_limiters) {
        most = std::max(most, limiter->numRequeues(item));
    }
    return most;
}

} // namespace Cachescope
