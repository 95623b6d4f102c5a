#pragma once

#include "core/workqueue/ratelimiter.h"

#include <memory>
#include <mutex>

namespace Cachescope {

// BucketRateLimiter is client-go's overall (not per-key) limiter: a token bucket with the
// reservation semantics of golang.org/x/time/rate. The bucket holds up to burst tokens, starts
// full and refills at qps tokens a second on the limiter's Clock; every when() takes one token
// now, going into debt when the bucket is empty, and returns how long until that debt is paid.
// So at one instant the first burst calls get 0 and the following ones 1/qps, 2/qps, … .
// It counts no per-key failures: numRequeues() is 0 and forget() does nothing.
// qps <= 0 means no refill: after the burst, when() returns Duration::max() ("never").
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

    [[nodiscard]] double qps() const { return m_qps; }
    [[nodiscard]] int burst() const { return m_burst; }

private:
    const double m_qps;
    const int m_burst;
    const std::shared_ptr<Clock> m_clock;
    std::mutex m_mutex;
    double m_tokens; // negative while in debt
    TimePoint m_last; // when m_tokens was last brought up to date
};

} // namespace Cachescope
