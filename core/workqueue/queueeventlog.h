#pragma once

#include "core/workqueue/queueevent.h"

#include <QList>

#include <mutex>
#include <vector>

namespace Cachescope {

// QueueEventLog is a workqueue's event feed: a bounded ring buffer of the latest QueueEvents that
// a reader (the timeline, a test, the CLI) drains by sequence number, at its own pace.
// Threads: any thread appends, any thread reads. Appending takes a leaf mutex for the time of a
// copy into a preallocated slot (a QString reference count, no allocation), so recording never
// waits on a reader for longer than that; readers copy out under the same mutex.
// Ordering: sequence numbers follow append order; the queue appends while it holds its own lock,
// so the feed's order is the order in which the queue changed.
// When a reader falls behind by more than the capacity, the oldest events are overwritten and
// eventsSince() reports how many it missed.
class QueueEventLog final
{
public:
    static constexpr qsizetype DefaultCapacity = 16384;

    // A capacity of 0 disables the log: append() returns at once.
    explicit QueueEventLog(qsizetype capacity = DefaultCapacity);
    Q_DISABLE_COPY_MOVE(QueueEventLog)

    // Fills in event.sequence.
    void append(QueueEvent event);

    struct Batch
    {
        QList<QueueEvent> events; // in sequence order
        quint64 nextSequence = 0; // pass to the next eventsSince()
        quint64 missed = 0; // events after the requested sequence that were overwritten
    };
    // The retained events with sequence >= sequence.
    [[nodiscard]] Batch eventsSince(quint64 sequence) const;

    [[nodiscard]] qsizetype capacity() const { return static_cast<qsizetype>(m_ring.size()); }
    // The number of events ever appended (the next sequence number).
    [[nodiscard]] quint64 appended() const;

private:
    mutable std::mutex m_mutex;
    std::vector<QueueEvent> m_ring;
    quint64 m_next = 0;
};

} // namespace Cachescope
