#include "core/util/fakeclock.h"

#include "core/util/clockwaiter.h"

#include <algorithm>

namespace Cachescope {

FakeClock::FakeClock(TimePoint start)
    : m_now(start.time_since_epoch().count())
{
}

FakeClock::~FakeClock() = default;

TimePoint FakeClock::now() const
{
    return TimePoint(Duration(m_now.load(std::memory_order_acquire)));
}

void FakeClock::step(Duration d)
{
    m_now.fetch_add(d.count(), std::memory_order_acq_rel);
    wakeWaiters();
}

void FakeClock::setTime(TimePoint t)
{
    m_now.store(t.time_since_epoch().count(), std::memory_order_release);
    wakeWaiters();
}

int FakeClock::waiterCount() const
{
    const std::lock_guard lock(m_waitersMutex);
    return static_cast<int>(m_waiters.size());
}

void FakeClock::waitUntil(std::condition_variable &cond, std::unique_lock<std::mutex> &lock, TimePoint)
{
    // No timed wait: fake time only passes in step(), which notifies every attached waiter.
    cond.wait(lock);
}

void FakeClock::attach(ClockWaiter *waiter)
{
    const std::lock_guard lock(m_waitersMutex);
    m_waiters.push_back(waiter);
}

void FakeClock::detach(ClockWaiter *waiter)
{
    const std::lock_guard lock(m_waitersMutex);
    m_waiters.erase(std::remove(m_waiters.begin(), m_waiters.end(), waiter), m_waiters.end());
}

void FakeClock::wakeWaiters()
{
    // The new time is published before any waiter's mutex is taken, and a waiter reads the time
    // under that mutex before blocking, so a step can never fall between its check and its wait.
    const std::lock_guard lock(m_waitersMutex);
    for (ClockWaiter *waiter : m_waiters) {
        waiter->clockAdvanced();
    }
}

} // namespace Cachescope
