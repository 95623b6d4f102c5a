#pragma once

#include "core/util/clock.h"

#include <memory>
#include <mutex>

namespace Cachescope {

// TokenBucket is the one token bucket of Cachescope, with the reservation semantics of
// golang.org/x/time/rate that both of client-go's buckets share (flowcontrol's client-side
// limiter and the workqueue's BucketRateLimiter). It holds up to burst tokens, starts full and
// refills at qps tokens a second on its Clock; every reserve() takes one token now, going into
// debt when the bucket is empty, and returns how long until that debt is paid. So at one instant
// the first burst reservations get 0 and the following ones 1/qps, 2/qps, … . A clock that went
// back counts as "no time passed", never as a refund. qps <= 0 means no refill: after the burst,
// reserve() returns Duration::max() ("never").
//
// Nothing here blocks: callers schedule the work after the returned delay (ApiClient with a
// timer on its thread, the workqueue through its delaying queue). Thread-safe; O(1).
class TokenBucket
{
public:
    TokenBucket(double qps, int burst, std::shared_ptr<Clock> clock = {});
    Q_DISABLE_COPY_MOVE(TokenBucket)

    [[nodiscard]] Duration reserve();

    [[nodiscard]] double qps() const { return m_qps; }
    [[nodiscard]] int burst() const { return m_burst; }

private:
    const double m_qps;
    const int m_burst;
    const std::shared_ptr<Clock> m_clock;
    std::mutex m_mutex;
    double m_tokens; // negative while in debt
    TimePoint m_last; // when m_tokens was last brought up to date
};

} // namespace Cachescope
