#pragma once

#include "core/util/clock.h"

#include <QString>

namespace Cachescope {

// RateLimiter decides how long a key waits before it is retried: client-go's workqueue
// RateLimiter. when() is called once per failure and returns the delay for this retry (and,
// for per-key limiters, counts the failure); forget() clears what the limiter tracks for the
// key, on success or when giving up; numRequeues() is the number of failures counted since.
// Implementations are thread-safe: several workers call them at once.
class RateLimiter
{
public:
    RateLimiter() = default;
    virtual ~RateLimiter();
    Q_DISABLE_COPY_MOVE(RateLimiter)

    [[nodiscard]] virtual Duration when(const QString &item) = 0;
    virtual void forget(const QString &item) = 0;
    [[nodiscard]] virtual int numRequeues(const QString &item) const = 0;
};

} // namespace Cachescope
