#pragma once

#include "core/controller/processrecord.h"

#include <QList>

#include <mutex>
#include <vector>

namespace Cachescope {

// ProcessLog is a controller's feed of ProcessRecords: a bounded ring buffer of the latest
// attempts that readers (the timeline's hover, the CLI, tests) drain by sequence number, like
// the workqueue's QueueEventLog beside it.
// Threads: workers append, any thread reads; one leaf mutex held for a copy.
// When a reader falls behind by more than the capacity the oldest records are overwritten and
// recordsSince() reports how many it missed.
class ProcessLog final
{
public:
    static constexpr qsizetype DefaultCapacity = 8192;

    // A capacity of 0 disables the log.
    explicit ProcessLog(qsizetype capacity = DefaultCapacity);
    Q_DISABLE_COPY_MOVE(ProcessLog)

    // Fills in record.sequence.
    void append(ProcessRecord record);

    struct Batch
    {
        QList<ProcessRecord> records; // in sequence order
        quint64 nextSequence = 0; // pass to the next recordsSince()
        quint64 missed = 0; // records after the requested sequence that were overwritten
    };
    [[nodiscard]] Batch recordsSince(quint64 sequence) const;

    [[nodiscard]] qsizetype capacity() const { return static_cast<qsizetype>(m_ring.size()); }
    [[nodiscard]] quint64 appended() const;

private:
    mutable std::mutex m_mutex;
    std::vector<ProcessRecord> m_ring;
    quint64 m_next = 0;
};

} // namespace Cachescope
