#pragma once

#include "core/util/clock.h"
#include "core/workqueue/queueeventlog.h"
#include "core/workqueue/queuemetrics.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>

namespace Cachescope {

// Queue is client-go's workqueue (util/workqueue Type): a FIFO of keys with a dirty set and a
// processing set, which together guarantee that
//  - a key is never handed to two workers at once: get() skips a key while it is processing;
//  - a key added while it is processing is processed again after done(), once;
//  - adding a key that is already waiting merges into it (the queue holds each key once).
// Threads: every method is thread-safe. Workers are plain threads that block in get(); no Qt
// event loop is involved. One mutex guards the state, metrics and the order of the event feed.
// Shutdown: after shutDown() adds are ignored, get() still hands out the keys already queued
// and returns std::nullopt once the queue is empty. shutDownWithDrain() also blocks its caller
// until no key is being processed (calling shutDown() from another thread ends that wait early),
// exactly as client-go's ShutDownWithDrain: a key re-queued by its done() is still handed out by
// get() afterwards, so workers must keep calling get() until it returns std::nullopt.
// Instrumentation: metrics() returns a snapshot of client-go's workqueue metrics, with times read
// from the queue's Clock; eventLog() is the feed the timeline reads (see QueueEventLog).
// Cost: add/get/done are O(1) amortised plus one event append; metrics() is O(keys processing).
class Queue
{
public:
    // A null clock means the real one. eventCapacity 0 disables the event feed.
    explicit Queue(std::shared_ptr<Clock> clock = {}, const QString &name = {}, qsizetype eventCapacity = QueueEventLog::DefaultCapacity);
    virtual ~Queue();
    Q_DISABLE_COPY_MOVE(Queue)

    // add() marks item as needing processing.
    void add(const QString &item);
    // get() blocks until a key can be processed and returns it, or std::nullopt when the queue is
    // shut down and empty: the caller's worker loop should end. worker only labels the feed's Got
    // and Done events. The caller must call done(key) when it has finished.
    [[nodiscard]] std::optional<QString> get(int worker = -1);
    // done() ends the processing of item; if it was added meanwhile, it is queued again.
    // done() for a key that is not being processed is ignored.
    void done(const QString &item);

    // len() is the number of keys waiting for a worker; for display, not to gate add() or get().
    [[nodiscard]] qsizetype len() const;

    virtual void shutDown();
    virtual void shutDownWithDrain();
    [[nodiscard]] bool shuttingDown() const;

    [[nodiscard]] virtual QueueMetrics metrics() const;
    [[nodiscard]] const std::shared_ptr<QueueEventLog> &eventLog() const { return m_events; }
    [[nodiscard]] const std::shared_ptr<Clock> &clock() const { return m_clock; }
    [[nodiscard]] QString name() const { return m_name; }

protected:
    void record(QueueEventType type, const QString &key, Duration delay = Duration(0), int requeues = 0) const;

private:
    void beginShutDown(bool drain);

    struct Processing
    {
        TimePoint since;
        int worker = -1;
    };

    const std::shared_ptr<Clock> m_clock;
    const QString m_name;
    const std::shared_ptr<QueueEventLog> m_events;

    mutable std::mutex m_mutex;
    std::condition_variable m_itemQueued; // get() waits on it
    std::condition_variable m_drained; // shutDownWithDrain() waits on it
    std::deque<QString> m_queue; // each key in it is dirty and not processing
    QSet<QString> m_dirty;
    QHash<QString, Processing> m_processing;
    bool m_shuttingDown = false;
    bool m_drain = false;

    // Metrics, guarded by m_mutex.
    QHash<QString, TimePoint> m_addTimes; // first add of each dirty key, for queue latency
    qint64 m_depth = 0;
    quint64 m_adds = 0;
    DurationHistogram m_latency;
    DurationHistogram m_workDuration;
};

} // namespace Cachescope
