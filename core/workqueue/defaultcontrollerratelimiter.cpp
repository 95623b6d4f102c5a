#include "core/workqueue/defaultcontrollerratelimiter.h"

#include "core/workqueue/bucketratelimiter.h"
#include "core/workqueue/itemexponentialfailureratelimiter.h"
#include "core/workqueue/maxofratelimiter.h"

#include <vector>

namespace Cachescope {

std::unique_ptr<RateLimiter> defaultControllerRateLimiter(std::shared_ptr<Clock> clock, Duration baseDelay, Duration maxDelay, double qps, int burst)
{
    std::vector<std::unique_ptr<RateLimiter>> limiters;
    limiters.push_back(std::make_unique<ItemExponentialFailureRateLimiter>(baseDelay, maxDelay));
    limiters.push_back(std::make_unique<BucketRateLimiter>(qps, burst, std::move(clock)));
    return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
}

} // namespace Cachescope
