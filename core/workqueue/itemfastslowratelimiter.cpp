#include "core/workqueue/itemfastslowratelimiter.h"

namespace Cachescope {

ItemFastSlowRateLimiter::ItemFastSlowRateLimiter(Duration fastDelay, Duration slowDelay, int maxFastAttempts)
    : m_fastDelay(fastDelay)
    , m_slowDelay(slowDelay)
    , m_maxFastAttempts(maxFastAttempts)
{
}

Duration ItemFastSlowRateLimiter::when(const QString &item)
{
    const std::lock_guard lock(m_mutex);
    int &failures = m_failures[item];
    if (failures < std::numeric_limits<int>::max()) {
        ++failures;
    }
    return failures <= m_maxFastAttempts ? m_fastDelay : m_slowDelay;
}

void ItemFastSlowRateLimiter::forget(const QString &item)
{
    const std::lock_guard lock(m_mutex);
    m_failures.remove(item);
}

int ItemFastSlowRateLimiter::numRequeues(const QString &item) const
{
    const std::lock_guard lock(m_mutex);
    return m_failures.value(item, 0);
}

} // namespace Cachescope
