#pragma once

#include <QList>
#include <QtGlobal>

#include <algorithm>
#include <mutex>
#include <vector>

namespace Cachescope {

// SequencedRing is a feed: a bounded ring buffer of the latest entries, each numbered in append
// order, that readers drain by sequence number at their own pace. The workqueue's QueueEventLog
// and the controller's ProcessLog are both this ring. Entry is copyable and has a
// `quint64 sequence` member, which append() fills in.
// Threads: any thread appends, any thread reads. Appending takes a leaf mutex for the time of a
// move into a preallocated slot, so recording never waits on a reader for longer than a copy;
// readers copy out under the same mutex. Sequence numbers follow append order, so an owner that
// appends while holding its own lock gets a feed in the order its state changed.
// When a reader falls behind by more than the capacity, the oldest entries are overwritten and
// since() reports how many it missed. A capacity of 0 disables the feed: append() returns at once.
template<typename Entry>
class SequencedRing
{
public:
    explicit SequencedRing(qsizetype capacity)
        : m_ring(static_cast<size_t>(std::max<qsizetype>(capacity, 0)))
    {
    }
    Q_DISABLE_COPY_MOVE(SequencedRing)

    void append(Entry entry)
    {
        if (m_ring.empty()) {
            return;
        }
        const std::lock_guard lock(m_mutex);
        entry.sequence = m_next;
        m_ring[m_next % m_ring.size()] = std::move(entry);
        ++m_next;
    }

    struct Batch
    {
        QList<Entry> entries; // in sequence order
        quint64 nextSequence = 0; // pass to the next since()
        quint64 missed = 0; // entries after the requested sequence that were overwritten
    };

    // The retained entries with sequence >= sequence.
    [[nodiscard]] Batch since(quint64 sequence) const
    {
        Batch batch;
        const std::lock_guard lock(m_mutex);
        const quint64 oldest = m_next > m_ring.size() ? m_next - m_ring.size() : 0;
        const quint64 first = std::max(sequence, oldest);
        batch.missed = first > sequence ? first - sequence : 0;
        batch.nextSequence = std::max(m_next, sequence);
        if (first < m_next) {
            batch.entries.reserve(static_cast<qsizetype>(m_next - first));
            for (quint64 s = first; s < m_next; ++s) {
                batch.entries.append(m_ring[s % m_ring.size()]);
            }
        }
        return batch;
    }

    [[nodiscard]] qsizetype capacity() const { return static_cast<qsizetype>(m_ring.size()); }
    // The number of entries ever appended (the next sequence number).
    [[nodiscard]] quint64 appended() const
    {
        const std::lock_guard lock(m_mutex);
        return m_next;
    }

private:
    mutable std::mutex m_mutex;
    std::vector<Entry> m_ring;
    quint64 m_next = 0;
};

} // namespace Cachescope
