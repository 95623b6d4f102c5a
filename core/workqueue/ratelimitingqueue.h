#pragma once

#include "core/workqueue/delayingqueue.h"
#include "core/workqueue/ratelimiter.h"

#include <memory>

namespace Cachescope {

// RateLimitingQueue is client-go's rate limiting queue: a DelayingQueue whose addRateLimited()
// waits as long as its RateLimiter says. The controller pattern: get() a key, process it, then
// forget() it on success, or addRateLimited() it on failure (until numRequeues() reaches a
// maximum, then forget() it), and always done(). forget() only clears the limiter's memory of
// the key; done() is still required.
// Threads: thread-safe like DelayingQueue. Owns its limiter; a null limiter means
// defaultControllerRateLimiter() on the queue's clock.
// Feed: addRateLimited() records RateLimited with the delay and the key's requeue count,
// forget() records Forgotten.
class RateLimitingQueue final : public DelayingQueue
{
public:
    explicit RateLimitingQueue(std::unique_ptr<RateLimiter> limiter = {},
                               std::shared_ptr<Clock> clock = {},
                               const QString &name = {},
                               qsizetype eventCapacity = QueueEventLog::DefaultCapacity);
    ~RateLimitingQueue() override;

    void addRateLimited(const QString &item);
    void forget(const QString &item);
    [[nodiscard]] int numRequeues(const QString &item) const;

    [[nodiscard]] RateLimiter &rateLimiter() const { return *m_limiter; }

private:
    const std::unique_ptr<RateLimiter> m_limiter;
};

} // namespace Cachescope
