#pragma once

#include <QtGlobal>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace Cachescope {

class ClockWaiter;

// Durations and instants of the client, the cache and the workqueue. Instants are on the monotonic clock (a fake clock
// starts wherever its test puts it), so they order events but are not wall-clock times.
using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::time_point<std::chrono::steady_clock, Duration>;

// Clock is the time source of the workqueue, the delaying queue's waiting loop, the rate
// limiters (the workqueue's and the API client's token bucket) and the reflector's backoff, so
// that tests can replace real time by a FakeClock they step (as client-go takes a k8s.io/utils
// clock). now() is thread-safe and cheap.
//
// Waiting is done through a ClockWaiter, never by sleeping: the waiter asks its clock to block
// until a deadline, which a real clock does with a timed wait and a fake clock does until a test
// steps it past the deadline. A Clock is shared (std::shared_ptr) by everything that reads it and
// must outlive every ClockWaiter attached to it (the waiter holds a reference).
class Clock
{
public:
    Clock() = default;
    virtual ~Clock();
    Q_DISABLE_COPY_MOVE(Clock)

    [[nodiscard]] virtual TimePoint now() const = 0;

protected:
    friend class ClockWaiter;

    // Blocks on cond, releasing lock while blocked, until the deadline passes on this clock,
    // cond is notified, or spuriously. Callers re-check their condition in a loop.
    virtual void waitUntil(std::condition_variable &cond, std::unique_lock<std::mutex> &lock, TimePoint deadline) = 0;

    // A fake clock keeps its waiters so that stepping it can wake them; a real clock needs not.
    virtual void attach(ClockWaiter *waiter);
    virtual void detach(ClockWaiter *waiter);
};

} // namespace Cachescope
