#pragma once

#include "core/workqueue/ratelimiter.h"

#include <memory>
#include <vector>

namespace Cachescope {

// MaxOfRateLimiter combines limiters: when() asks every one of them (so each counts the failure)
// and returns the longest delay; numRequeues() is the largest count; forget() forgets in all.
// client-go's default controller limiter is the max of a per-key exponential and an overall
// bucket limiter: a key backs off on its own and all retries together stay under the bucket's
// rate. Owns its limiters. Thread-safe as its limiters are.
class MaxOfRateLimiter final : public RateLimiter
{
public:
    explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);

    [[nodiscard]] Duration when(const QString &item) override;
    void forget(const QString &item) override;
    [[nodiscard]] int numRequeues(const QString &item) const override;

    [[nodiscard]] const std::vector<std::unique_ptr<RateLimiter>> &limiters() const { return m_limiters; }

private:
    const std::vector<std::unique_ptr<RateLimiter>> m_limiters;
};

} // namespace Cachescope
