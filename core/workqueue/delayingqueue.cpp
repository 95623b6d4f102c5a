#include "core/workqueue/delayingqueue.h"

#include <vector>

namespace Cachescope {

namespace {
// client-go's waiting loop also wakes every 10 s ("insurance against weird things"); ours does
// the same, so a missed wake-up could only ever delay a key by that much.
constexpr Duration MaxWait = std::chrono::seconds(10);

TimePoint saturatingAdd(TimePoint t, Duration d)
{
    if (d > TimePoint::max() - t) {
        return TimePoint::max();
    }
    return t + d;
}
} // namespace

DelayingQueue::DelayingQueue(std::shared_ptr<Clock> clock, const QString &name, qsizetype eventCapacity)
    : Queue(std::move(clock), name, eventCapacity)
    , m_waiter(Queue::clock())
    , m_thread([this] { waitingLoop(); })
{
}

DelayingQueue::~DelayingQueue()
{
    stopWaiting();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void DelayingQueue::addAfter(const QString &item, Duration delay)
{
    addAfter(item, delay, QueueEventType::AddedAfter, 0);
}

void DelayingQueue::addAfter(const QString &item, Duration delay, QueueEventType eventType, int requeues)
{
    if (shuttingDown()) {
        record(QueueEventType::Rejected, item);
        return;
    }
    m_retries.fetch_add(1, std::memory_order_relaxed);
    record(eventType, item, delay, requeues);
    if (delay <= Duration(0)) {
        add(item);
        return;
    }
    const TimePoint readyAt = saturatingAdd(clock()->now(), delay);
    bool newHead = false;
    {
        const std::lock_guard lock(m_waitingMutex);
        if (m_stopping) {
            return;
        }
        std::multimap<TimePoint, QString>::iterator entry;
        if (const auto known = m_waitingByKey.find(item); known != m_waitingByKey.end()) {
            // The sooner time wins: a later add never postpones a key that is already waiting.
            if (readyAt >= (*known)->first) {
                return;
            }
            m_waiting.erase(*known);
            entry = m_waiting.emplace(readyAt, item);
            *known = entry;
        } else {
            entry = m_waiting.emplace(readyAt, item);
            m_waitingByKey.insert(item, entry);
        }
        newHead = entry == m_waiting.begin();
    }
    // The loop sleeps until the earliest ready time; a key due later does not change that, and
    // not waking the loop for it keeps a burst of retries from bouncing between two threads.
    if (newHead) {
        m_waiter.wake();
    }
}

qsizetype DelayingQueue::waitingCount() const
{
    const std::lock_guard lock(m_waitingMutex);
    return static_cast<qsizetype>(m_waiting.size());
}

void DelayingQueue::stopWaiting()
{
    {
        const std::lock_guard lock(m_waitingMutex);
        m_stopping = true;
        m_waiting.clear();
        m_waitingByKey.clear();
    }
    m_waiter.wake();
}

void DelayingQueue::shutDown()
{
    Queue::shutDown();
    stopWaiting();
}

void DelayingQueue::shutDownWithDrain()
{
    // Stop the waiting keys first: a key added by the waiting loop during the drain would be
    // rejected anyway.
    stopWaiting();
    Queue::shutDownWithDrain();
}

QueueMetrics DelayingQueue::metrics() const
{
    QueueMetrics m = Queue::metrics();
    m.retries = m_retries.load(std::memory_order_relaxed);
    return m;
}

void DelayingQueue::waitingLoop()
{
    std::vector<QString> ready;
    for (;;) {
        TimePoint next;
        {
            const std::lock_guard lock(m_waitingMutex);
            if (m_stopping) {
                return;
            }
            const TimePoint now = clock()->now();
            while (!m_waiting.empty() && m_waiting.begin()->first <= now) {
                const auto first = m_waiting.begin();
                m_waitingByKey.remove(first->second);
                ready.push_back(std::move(first->second));
                m_waiting.erase(first);
            }
            next = saturatingAdd(now, MaxWait);
            if (!m_waiting.empty()) {
                next = std::min(next, m_waiting.begin()->first);
            }
        }
        // Added outside the waiting lock: add() takes the queue's lock, and addAfter() never
        // holds both.
        for (const QString &item : ready) {
            record(QueueEventType::DelayReady, item);
            add(item);
        }
        ready.clear();
        m_waiter.waitUntil(next);
    }
}

} // namespace Cachescope
