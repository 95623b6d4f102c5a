#pragma once

#include "core/workqueue/ratelimiter.h"

#include <QHash>

#include <mutex>

namespace Cachescope {

// ItemFastSlowRateLimiter is client-go's fast-then-slow limiter: the first maxFastAttempts
// failures of a key wait fastDelay, every later one slowDelay, until forget(). Thread-safe.
class ItemFastSlowRateLimiter final : public RateLimiter
{
public:
    ItemFastSlowRateLimiter(Duration fastDelay, Duration slowDelay, int maxFastAttempts);

    [[nodiscard]] Duration when(const QString &item) override;
    void forget(const QString &item) override;
    [[nodiscard]] int numRequeues(const QString &item) const override;

private:
    const Duration m_fastDelay;
    const Duration m_slowDelay;
    const int m_maxFastAttempts;
    mutable std::mutex m_mutex;
    QHash<QString, int> m_failures;
};

} // namespace Cachescope
