#pragma once

#include "core/util/tokenbucket.h"
#include "core/workqueue/ratelimiter.h"

#include <memory>

namespace Cachescope {

// BucketRateLimiter is client-go's overall (not per-key) limiter: one TokenBucket (x/time/rate
// reservation semantics) for every key. when() reserves a token, so at one instant the first
// burst calls get 0 and the following ones 1/qps, 2/qps, … ; qps <= 0 means no refill, and
// after the burst when() returns Duration::max() ("never").
// It counts no per-key failures: numRequeues() is 0 and forget() does nothing.
// Thread-safe; O(1).
class BucketRateLimiter final : public RateLimiter
{
public:
    static constexpr double DefaultQps = 10.0;
    static constexpr int DefaultBurst = 100;

    explicit BucketRateLimiter(double qps = DefaultQps, int burst = DefaultBurst, std::shared_ptr<Clock> clock = {});

    [[nodiscard]] Duration when(const QString &item) override;
    void forget(const QString &item) override;
    [[nodiscard]] int numRequeues(const QString &item) const override;

    [[nodiscard]] double qps() const { return m_bucket.qps(); }
    [[nodiscard]] int burst() const { return m_bucket.burst(); }

private:
    TokenBucket m_bucket;
};

} // namespace Cachescope
