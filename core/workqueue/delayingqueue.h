#pragma once

#include "core/util/clockwaiter.h"
#include "core/workqueue/queue.h"

#include <atomic>
#include <map>
#include <thread>

namespace Cachescope {

// DelayingQueue is a Queue that can add a key later: client-go's delaying queue. addAfter() puts
// the key in a waiting set ordered by ready time; a thread of the queue's own adds each key when
// the queue's Clock reaches its time. A key waits at most once: adding it again while it waits
// keeps the sooner of the two ready times (an earlier add wins over a later one, and a sooner
// re-add moves it forward). Keys ready at the same time are added in the order they were given.
// Threads: thread-safe like Queue. The waiting thread starts in the constructor and stops at
// shutdown or in the destructor; with a FakeClock it only wakes when the clock is stepped or a
// key is added, never on a timer.
// Shutdown drops the keys still waiting.
// Cost: addAfter() is O(log n) in the number of waiting keys.
class DelayingQueue : public Queue
{
public:
    explicit DelayingQueue(std::shared_ptr<Clock> clock = {}, const QString &name = {}, qsizetype eventCapacity = QueueEventLog::DefaultCapacity);
    ~DelayingQueue() override;

    // addAfter() adds item once delay has passed on the queue's clock; at once if delay <= 0.
    // Ignored after shutdown. Counts as a retry in metrics(), as in client-go.
    void addAfter(const QString &item, Duration delay);

    // The number of keys waiting for their time.
    [[nodiscard]] qsizetype waitingCount() const;

    void shutDown() override;
    void shutDownWithDrain() override;
    [[nodiscard]] QueueMetrics metrics() const override;

protected:
    // addAfter() recording eventType (AddedAfter or RateLimited) in the feed.
    void addAfter(const QString &item, Duration delay, QueueEventType eventType, int requeues);

private:
    void stopWaiting();
    void waitingLoop();

    std::atomic<quint64> m_retries{0};

    mutable std::mutex m_waitingMutex;
    // Ready time → key; a multimap keeps keys of equal time in insertion order.
    std::multimap<TimePoint, QString> m_waiting;
    QHash<QString, std::multimap<TimePoint, QString>::iterator> m_waitingByKey;
    bool m_stopping = false;

    ClockWaiter m_waiter;
    std::thread m_thread; // last: started once everything it reads exists
};

} // namespace Cachescope
