#pragma once

#include "core/util/clock.h"

#include <chrono>

namespace Cachescope {

// ControllerSettings configures a Controller. The defaults are client-go's: the default
// controller rate limiter (per-key exponential backoff 5 ms … 1000 s, overall bucket 10 qps with
// a burst of 100, the larger delay wins) and the retry budget of client-go's workqueue example
// controller (5). A plain value.
struct ControllerSettings
{
    int workers = 2;
    Duration baseDelay = std::chrono::milliseconds(5);
    Duration maxDelay = std::chrono::seconds(1000);
    double qps = 10.0;
    int burst = 100;
    // A key that failed maxRetries times is retried no more: it is forgotten and given up on.
    int maxRetries = 5;
    // The handler's resync period: every object is queued again this often. 0 = never;
    // negative = the informer's own default.
    std::chrono::milliseconds resyncPeriod{0};
    // Capacity of the queue's event feed and of the controller's ProcessLog.
    qsizetype eventCapacity = 16384;
};

} // namespace Cachescope
