#pragma once

#include "core/workqueue/ratelimiter.h"

#include <memory>

namespace Cachescope {

// WithMaxWaitRateLimiter caps the delays of another limiter at maxDelay (client-go's
// WithMaxWaitRateLimiter); forget() and numRequeues() pass through. Owns the wrapped limiter.
class WithMaxWaitRateLimiter final : public RateLimiter
{
public:
    WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter> limiter, Duration maxDelay);

    [[nodiscard]] Duration when(const QString &item) override;
    void forget(const QString &item) override;
    [[nodiscard]] int numRequeues(const QString &item) const override;

private:
    const std::unique_ptr<RateLimiter> m_limiter;
    const Duration m_maxDelay;
};

} // namespace Cachescope
