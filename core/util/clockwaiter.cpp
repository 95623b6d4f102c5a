#include "core/util/clockwaiter.h"

namespace Cachescope {

ClockWaiter::ClockWaiter(std::shared_ptr<Clock> clock)
    : m_clock(std::move(clock))
{
    m_clock->attach(this);
}

ClockWaiter::~ClockWaiter()
{
    m_clock->detach(this);
}

bool ClockWaiter::waitUntil(TimePoint deadline)
{
    std::unique_lock lock(m_mutex);
    while (!m_woken && m_clock->now() < deadline) {
        m_clock->waitUntil(m_cond, lock, deadline);
    }
    const bool woken = m_woken;
    m_woken = false;
    return woken;
}

void ClockWaiter::wake()
{
    const std::lock_guard lock(m_mutex);
    m_woken = true;
    m_cond.notify_all();
}

void ClockWaiter::clockAdvanced()
{
    // Taking the mutex orders this notification after the waiter's check of now().
    const std::lock_guard lock(m_mutex);
    m_cond.notify_all();
}

} // namespace Cachescope
