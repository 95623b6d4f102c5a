#include "core/workqueue/itemexponentialfailureratelimiter.h"

#include <cmath>

namespace Cachescope {

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(Duration baseDelay, Duration maxDelay)
    : m_baseDelay(baseDelay)
    , m_maxDelay(maxDelay)
{
}

Duration ItemExponentialFailureRateLimiter::when(const QString &item)
{
    const std::lock_guard lock(m_mutex);
    int &failures = m_failures[item];
    const int exponent = failures;
    if (failures < std::numeric_limits<int>::max()) {
        ++failures;
    }
    // In floating point, so that 2^exponent cannot overflow before the cap applies (client-go
    // compares against MaxInt64 for the same reason).
    const double backoff = static_cast<double>(m_baseDelay.count()) * std::exp2(static_cast<double>(exponent));
    if (backoff >= static_cast<double>(m_maxDelay.count())) {
        return m_maxDelay;
    }
    return Duration(static_cast<Duration::rep>(backoff));
}

void ItemExponentialFailureRateLimiter::forget(const QString &item)
{
    const std::lock_guard lock(m_mutex);
    m_failures.remove(item);
}

int ItemExponentialFailureRateLimiter::numRequeues(const QString &item) const
{
    const std::lock_guard lock(m_mutex);
    return m_failures.value(item, 0);
}

} // namespace Cachescope
