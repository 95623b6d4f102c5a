#include "core/workqueue/bucketratelimiter.h"

namespace Cachescope {

BucketRateLimiter::BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock)
    : m_bucket(qps, burst, std::move(clock))
{
}

Duration BucketRateLimiter::when(const QString &)
{
    return m_bucket.reserve();
}

void BucketRateLimiter::forget(const QString &)
{
}

int BucketRateLimiter::numRequeues(const QString &) const
{
    return 0;
}

} // namespace Cachescope
