#include "core/workqueue/ratelimitingqueue.h"

#include "core/workqueue/defaultcontrollerratelimiter.h"

namespace Cachescope {

RateLimitingQueue::RateLimitingQueue(std::unique_ptr<RateLimiter> limiter, std::shared_ptr<Clock> clock, const QString &name, qsizetype eventCapacity)
    : DelayingQueue(std::move(clock), name, eventCapacity)
    , m_limiter(limiter ? std::move(limiter) : defaultControllerRateLimiter(DelayingQueue::clock()))
{
}

RateLimitingQueue::~RateLimitingQueue() = default;

void RateLimitingQueue::addRateLimited(const QString &item)
{
    const Duration delay = m_limiter->when(item);
    addAfter(item, delay, QueueEventType::RateLimited, m_limiter->numRequeues(item));
}

void RateLimitingQueue::forget(const QString &item)
{
    m_limiter->forget(item);
    record(QueueEventType::Forgotten, item);
}

int RateLimitingQueue::numRequeues(const QString &item) const
{
    return m_limiter->numRequeues(item);
}

} // namespace Cachescope
