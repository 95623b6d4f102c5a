#pragma once

#include "core/util/sequencedring.h"
#include "core/workqueue/queueevent.h"

namespace Cachescope {

// QueueEventLog is a workqueue's event feed: the latest QueueEvents in a SequencedRing, which a
// reader (the timeline, a test, the CLI) drains with since() at its own pace. The queue appends
// while it holds its own lock, so the feed's order is the order in which the queue changed.
class QueueEventLog final : public SequencedRing<QueueEvent>
{
public:
    static constexpr qsizetype DefaultCapacity = 16384;

    // A capacity of 0 disables the log: append() returns at once.
    explicit QueueEventLog(qsizetype capacity = DefaultCapacity)
        : SequencedRing(capacity)
    {
    }
};

} // namespace Cachescope
