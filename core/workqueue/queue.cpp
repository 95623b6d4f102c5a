#include "core/workqueue/queue.h"

#include "core/util/realclock.h"

namespace Cachescope {

Queue::Queue(std::shared_ptr<Clock> clock, const QString &name, qsizetype eventCapacity)
    : m_clock(clock ? std::move(clock) : RealClock::instance())
    , m_name(name)
    , m_events(std::make_shared<QueueEventLog>(eventCapacity))
{
}

Queue::~Queue() = default;

void Queue::record(QueueEventType type, const QString &key, Duration delay, int requeues) const
{
    QueueEvent event;
    event.time = m_clock->now();
    event.type = type;
    event.key = key;
    event.delay = delay;
    event.requeues = requeues;
    m_events->append(std::move(event));
}

void Queue::add(const QString &item)
{
    const std::lock_guard lock(m_mutex);
    if (m_shuttingDown) {
        record(QueueEventType::Rejected, item);
        return;
    }
    if (m_dirty.contains(item)) {
        record(QueueEventType::Merged, item);
        return;
    }
    // client-go counts an add into depth even when the key is processing and only queued at
    // Done; keeping that makes our depth comparable with its workqueue_depth.
    ++m_adds;
    ++m_depth;
    if (!m_addTimes.contains(item)) {
        m_addTimes.insert(item, m_clock->now());
    }
    m_dirty.insert(item);
    if (m_processing.contains(item)) {
        record(QueueEventType::AddedWhileProcessing, item);
        return;
    }
    m_queue.push_back(item);
    record(QueueEventType::Added, item);
    m_itemQueued.notify_one();
}

std::optional<QString> Queue::get(int worker)
{
    std::unique_lock lock(m_mutex);
    m_itemQueued.wait(lock, [this] { return !m_queue.empty() || m_shuttingDown; });
    if (m_queue.empty()) {
        return std::nullopt;
    }
    QString item = std::move(m_queue.front());
    m_queue.pop_front();

    const TimePoint now = m_clock->now();
    --m_depth;
    if (const auto added = m_addTimes.constFind(item); added != m_addTimes.cend()) {
        m_latency.observe(now - *added);
        m_addTimes.erase(added);
    }
    m_processing.insert(item, Processing{now, worker});
    m_dirty.remove(item);

    QueueEvent event;
    event.time = now;
    event.type = QueueEventType::Got;
    event.key = item;
    event.worker = worker;
    m_events->append(std::move(event));
    return item;
}

void Queue::done(const QString &item)
{
    const std::lock_guard lock(m_mutex);
    const auto processing = m_processing.constFind(item);
    if (processing == m_processing.cend()) {
        // client-go would queue a dirty key a second time here; a stray done() must not.
        return;
    }
    const TimePoint now = m_clock->now();
    m_workDuration.observe(now - processing->since);
    QueueEvent event;
    event.time = now;
    event.type = QueueEventType::Done;
    event.key = item;
    event.worker = processing->worker;
    m_events->append(std::move(event));
    m_processing.erase(processing);

    if (m_dirty.contains(item)) {
        m_queue.push_back(item);
        record(QueueEventType::Requeued, item);
        m_itemQueued.notify_one();
    }
    if (m_processing.isEmpty()) {
        m_drained.notify_all();
    }
}

qsizetype Queue::len() const
{
    const std::lock_guard lock(m_mutex);
    return static_cast<qsizetype>(m_queue.size());
}

void Queue::beginShutDown(bool drain)
{
    const std::lock_guard lock(m_mutex);
    m_drain = drain;
    if (!m_shuttingDown) {
        m_shuttingDown = true;
        record(QueueEventType::ShutDown, QString());
    }
    m_itemQueued.notify_all();
    // A plain shutDown() ends a drain that another thread is waiting for.
    m_drained.notify_all();
}

void Queue::shutDown()
{
    beginShutDown(false);
}

void Queue::shutDownWithDrain()
{
    beginShutDown(true);
    std::unique_lock lock(m_mutex);
    m_drained.wait(lock, [this] { return m_processing.isEmpty() || !m_drain; });
}

bool Queue::shuttingDown() const
{
    const std::lock_guard lock(m_mutex);
    return m_shuttingDown;
}

QueueMetrics Queue::metrics() const
{
    QueueMetrics m;
    m.name = m_name;
    const std::lock_guard lock(m_mutex);
    m.takenAt = m_clock->now();
    m.depth = m_depth;
    m.adds = m_adds;
    m.queueLatency = m_latency;
    m.workDuration = m_workDuration;
    // client-go refreshes these two gauges every 500 ms from a goroutine; computing them when
    // asked gives the same values without a thread and follows a fake clock exactly.
    for (const Processing &p : m_processing) {
        const Duration running = m.takenAt - p.since;
        m.unfinishedWork += running;
        m.longestRunningProcessor = std::max(m.longestRunningProcessor, running);
    }
    m.processing = static_cast<int>(m_processing.size());
    return m;
}

} // namespace Cachescope
