#include "core/cache/backoff.h"

#include <QDeadlineTimer>

#include <algorithm>

namespace Cachescope {

Backoff::Backoff()
    : Backoff(Parameters())
{
}

Backoff::Backoff(const Parameters &parameters, Clock clock, quint32 seed)
    : m_parameters(parameters)
    , m_clock(std::move(clock))
    , m_random(seed ? seed : QRandomGenerator::global()->generate())
    , m_current(parameters.initial)
{
    if (!m_clock) {
        m_clock = [] {
            return std::chrono::milliseconds(QDeadlineTimer::current().deadline());
        };
    }
}

std::chrono::milliseconds Backoff::next()
{
    const auto now = m_clock();
    if (m_lastCall.count() >= 0 && now - m_lastCall >= m_parameters.resetAfter) {
        m_current = m_parameters.initial;
    }
    m_lastCall = now;
    const auto base = m_current;
    const auto jitter = std::chrono::milliseconds(static_cast<qint64>(m_random.generateDouble() * m_parameters.jitter * static_cast<double>(base.count())));
    m_current = std::min(m_parameters.cap, std::chrono::milliseconds(static_cast<qint64>(static_cast<double>(base.count()) * m_parameters.factor)));
    return base + jitter;
}

void Backoff::reset()
{
    m_current = m_parameters.initial;
    m_lastCall = std::chrono::milliseconds(-1);
}

} // namespace Cachescope
