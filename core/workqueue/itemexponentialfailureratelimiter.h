#pragma once

#include "core/workqueue/ratelimiter.h"

#include <QHash>

#include <mutex>

namespace Cachescope {

// ItemExponentialFailureRateLimiter is client-go's per-key exponential backoff: the n-th
// failure of a key (counting from 0 since its last forget()) waits baseDelay * 2^n, capped at
// maxDelay (the cap also guards against overflow). Keys back off independently. Thread-safe.
// Memory: one counter per key that failed and was not forgotten.
class ItemExponentialFailureRateLimiter final : public RateLimiter
{
public:
    static constexpr Duration DefaultBaseDelay = std::chrono::milliseconds(5);
    static constexpr Duration DefaultMaxDelay = std::chrono::seconds(1000);

    explicit ItemExponentialFailureRateLimiter(Duration baseDelay = DefaultBaseDelay, Duration maxDelay = DefaultMaxDelay);

    [[nodiscard]] Duration when(const QString &item) override;
    void forget(const QString &item) override;
    [[nodiscard]] int numRequeues(const QString &item) const override;

    [[nodiscard]] Duration baseDelay() const { return m_baseDelay; }
    [[nodiscard]] Duration maxDelay() const { return m_maxDelay; }

private:
    const Duration m_baseDelay;
    const Duration m_maxDelay;
    mutable std::mutex m_mutex;
    QHash<QString, int> m_failures;
};

} // namespace Cachescope
