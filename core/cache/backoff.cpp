#include "core/cache/backoff.h"

#include "core/util/realclock.h"

#include <algorithm>

namespace Cachescope {

Backoff::Backoff()
    : Backoff(Parameters())
{
}

Backoff::Backoff(const Parameters &parameters, std::shared_ptr<Clock> clock, quint32 seed)
    : m_parameters(parameters)
    , m_clock(clock ? std::move(clock) : RealClock::instance())
    , m_random(seed ? seed : QRandomGenerator::global()->generate())
    , m_current(parameters.initial)
{
}

std::chrono::milliseconds Backoff::next()
{
    const TimePoint now = m_clock->now();
    // Measured from the last reset, not from the last call (wait.Backoff's backoffManager): a
    // call every few seconds must not keep the delay at its cap forever.
    if (m_parameters.resetAfter.count() <= 0 || !m_lastReset || now - *m_lastReset > m_parameters.resetAfter) {
        m_current = m_parameters.initial;
        m_lastReset = now;
    }
    const auto base = m_current;
    const auto jitter = std::chrono::milliseconds(static_cast<qint64>(m_random.generateDouble() * m_parameters.jitter * static_cast<double>(base.count())));
    m_current = std::min(m_parameters.cap, std::chrono::milliseconds(static_cast<qint64>(static_cast<double>(base.count()) * m_parameters.factor)));
    return base + jitter;
}

void Backoff::reset()
{
    m_current = m_parameters.initial;
    m_lastReset.reset();
}

} // namespace Cachescope
