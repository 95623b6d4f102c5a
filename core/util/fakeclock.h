#pragma once

#include "core/util/clock.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace Cachescope {

// FakeClock is a Clock that only moves when a test steps it, like client-go's testing clock:
// now() stays put, and every ClockWaiter blocked on it re-checks its deadline after each step()
// or setTime(). Thread-safe: a test thread steps while queue threads wait.
// Stepping wakes waiters synchronously but does not wait for them to act on the new time; tests
// wait for the visible effect (an item in the queue) with QTRY_COMPARE.
class FakeClock final : public Clock
{
public:
    // The clock starts at start; the default is an arbitrary, fixed instant.
    explicit FakeClock(TimePoint start = TimePoint(std::chrono::hours(1)));
    ~FakeClock() override;

    [[nodiscard]] TimePoint now() const override;

    // step() moves the clock forward by d (negative d moves it back, which real clocks never do).
    void step(Duration d);
    void setTime(TimePoint t);

    // waiterCount() is the number of ClockWaiters attached (each delaying queue has one).
    [[nodiscard]] int waiterCount() const;

protected:
    void waitUntil(std::condition_variable &cond, std::unique_lock<std::mutex> &lock, TimePoint deadline) override;
    void attach(ClockWaiter *waiter) override;
    void detach(ClockWaiter *waiter) override;

private:
    void wakeWaiters();

    std::atomic<Duration::rep> m_now;
    // Guards m_waiters and is held while waking them, so a waiter that detaches (its destructor)
    // cannot be destroyed while a step is notifying it. Lock order: m_waitersMutex, then a
    // waiter's own mutex.
    mutable std::mutex m_waitersMutex;
    std::vector<ClockWaiter *> m_waiters; // not owned
};

} // namespace Cachescope
