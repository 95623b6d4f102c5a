#include "core/workqueue/ratelimiter.h"

namespace Cachescope {

RateLimiter::~RateLimiter() = default;

} // namespace Cachescope
