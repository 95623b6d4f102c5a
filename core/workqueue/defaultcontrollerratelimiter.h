#pragma once

#include "core/workqueue/ratelimiter.h"

#include <memory>

namespace Cachescope {

// defaultControllerRateLimiter() is client-go's DefaultControllerRateLimiter: the max of a
// per-key exponential backoff (5 ms doubling up to 1000 s) and an overall token bucket (10 qps,
// burst 100, which only matters when very many keys fail at once). clock drives the bucket;
// null means the real clock. The parameters let the controller settings change the defaults.
[[nodiscard]] std::unique_ptr<RateLimiter> defaultControllerRateLimiter(std::shared_ptr<Clock> clock = {},
                                                                        Duration baseDelay = std::chrono::milliseconds(5),
                                                                        Duration maxDelay = std::chrono::seconds(1000),
                                                                        double qps = 10.0,
                                                                        int burst = 100);

} // namespace Cachescope
