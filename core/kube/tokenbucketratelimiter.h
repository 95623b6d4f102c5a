#pragma once

#include <QElapsedTimer>

#include <chrono>
#include <functional>

namespace Cachescope {

// TokenBucketRateLimiter is client-go's client-side token bucket (flowcontrol.NewTokenBucketRateLimiter):
// `qps` tokens a second, at most `burst` saved up, every request takes one. Instead of
// blocking like client-go's Wait(), reserve() takes a token now and returns how long the
// caller must wait before using it, so ApiClient can schedule the request with a timer and
// never block its thread. qps <= 0 disables limiting. The clock is injectable for tests.
// Not thread-safe: owned by one ApiClient on its thread.
class TokenBucketRateLimiter
{
public:
    using Clock = std::function<std::chrono::nanoseconds()>;

    TokenBucketRateLimiter(double qps, int burst, Clock clock = {});

    [[nodiscard]] std::chrono::milliseconds reserve();
    double qps() const { return m_qps; }
    int burst() const { return m_burst; }

private:
    std::chrono::nanoseconds now() const;

    double m_qps;
    int m_burst;
    Clock m_clock;
    QElapsedTimer m_elapsed;
    double m_tokens;
    std::chrono::nanoseconds m_last{0};
};

} // namespace Cachescope
