#pragma once

#include "core/util/clock.h"

#include <QtGlobal>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace Cachescope {

// ClockWaiter lets one thread sleep until a deadline on a Clock, and lets other threads cut the
// sleep short with wake(). It is how the delaying queue's waiting loop waits for the next ready
// item without sleeping in real time under a FakeClock.
// Thread-safe: waitUntil() is called by one thread at a time, wake() by any thread. A wake()
// that comes while nobody waits is remembered and ends the next waitUntil() at once, so none is
// lost. Keeps its clock alive (shared ownership).
class ClockWaiter final
{
public:
    explicit ClockWaiter(std::shared_ptr<Clock> clock);
    ~ClockWaiter();
    Q_DISABLE_COPY_MOVE(ClockWaiter)

    // Blocks until deadline has passed on the clock or wake() was called. Returns true when it
    // returned because of wake().
    bool waitUntil(TimePoint deadline);
    void wake();

    [[nodiscard]] const std::shared_ptr<Clock> &clock() const { return m_clock; }

private:
    friend class FakeClock;
    void clockAdvanced();

    std::shared_ptr<Clock> m_clock;
    std::mutex m_mutex;
    std::condition_variable m_cond;
    bool m_woken = false;
};

} // namespace Cachescope
