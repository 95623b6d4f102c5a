#pragma once

#include "core/workqueue/queuemetrics.h"

namespace Cachescope {

// TimelineMetrics is what the metrics panel under the timeline shows: the queue's own snapshot
// (client-go's workqueue metrics: depth, latency and work duration histograms, retries,
// unfinished work, longest running), rates that TimelineModel derives from successive
// snapshots over a short sliding window, and rolling quantiles of the spans it built. A plain value.
struct TimelineMetrics
{
    bool valid = false; // false until a queue has been sampled
    QueueMetrics queue;
    double addsPerSecond = 0;
    double retriesPerSecond = 0;
    quint64 eventsMissed = 0; // feed events overwritten before the model read them

    // Rolling figures over the last recentWindow of the model's time, from the spans it closed:
    // waiting in the queue (add or requeue to get) and processing (get to done). The queue's
    // histograms above are cumulative, as client-go exports them; these show what happens now.
    Duration recentWindow{0};
    qsizetype recentLatencyCount = 0;
    Duration recentLatencyP50{0};
    Duration recentLatencyP99{0};
    qsizetype recentWorkCount = 0;
    Duration recentWorkP50{0};
    Duration recentWorkP99{0};
};

} // namespace Cachescope
