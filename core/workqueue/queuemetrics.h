#pragma once

#include "core/workqueue/durationhistogram.h"

#include <QString>

namespace Cachescope {

// QueueMetrics is a snapshot of the metrics client-go's workqueue exports (workqueue_depth,
// _adds_total, _queue_duration_seconds, _work_duration_seconds, _unfinished_work_seconds,
// _longest_running_processor_seconds, _retries_total), taken atomically by Queue::metrics().
// A plain value; copying it copies two histograms (a few KiB).
struct QueueMetrics
{
    QString name;
    TimePoint takenAt; // on the queue's clock
    // Keys added and not yet handed to a worker, including keys re-added while being processed
    // (client-go counts those at Add, not at Done).
    qint64 depth = 0;
    quint64 adds = 0; // adds that were not merged into a waiting key
    quint64 retries = 0; // addAfter() and addRateLimited() calls (DelayingQueue and up)
    DurationHistogram queueLatency; // first add of a key until a worker got it
    DurationHistogram workDuration; // get until done
    Duration unfinishedWork{0}; // sum over keys in processing of the time since get
    Duration longestRunningProcessor{0}; // the largest of those
    int processing = 0; // keys being processed now
};

} // namespace Cachescope
