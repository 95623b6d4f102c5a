#pragma once

#include "core/workqueue/queuemetrics.h"

namespace Cachescope {

// TimelineMetrics is what the metrics panel under the timeline shows: the queue's own snapshot
// (client-go's workqueue metrics: depth, latency and work duration histograms, retries,
// unfinished work, longest running) plus rates that TimelineModel derives from successive
// snapshots over a short sliding window. A plain value.
struct TimelineMetrics
{
    bool valid = false; // false until a queue has been sampled
    QueueMetrics queue;
    double addsPerSecond = 0;
    double retriesPerSecond = 0;
    quint64 eventsMissed = 0; // feed events overwritten before the model read them
};

} // namespace Cachescope
