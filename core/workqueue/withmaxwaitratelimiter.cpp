#include "core/workqueue/withmaxwaitratelimiter.h"

#include <algorithm>

namespace Cachescope {

WithMaxWaitRateLimiter::WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter> limiter, Duration maxDelay)
    : m_limiter(std::move(limiter))
    , m_maxDelay(maxDelay)
{
}

Duration WithMaxWaitRateLimiter::when(const QString &item)
{
    return std::min(m_limiter->when(item), m_maxDelay);
}

void WithMaxWaitRateLimiter::forget(const QString &item)
{
    m_limiter->forget(item);
}

int WithMaxWaitRateLimiter::numRequeues(const QString &item) const
{
    return m_limiter->numRequeues(item);
}

} // namespace Cachescope
