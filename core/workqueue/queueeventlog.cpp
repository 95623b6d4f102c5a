#include "core/workqueue/queueeventlog.h"

#include <algorithm>

namespace Cachescope {

QueueEventLog::QueueEventLog(qsizetype capacity)
    : m_ring(static_cast<size_t>(std::max<qsizetype>(capacity, 0)))
{
}

void QueueEventLog::append(QueueEvent event)
{
    if (m_ring.empty()) {
        return;
    }
    const std::lock_guard lock(m_mutex);
    event.sequence = m_next;
    m_ring[m_next % m_ring.size()] = std::move(event);
    ++m_next;
}

QueueEventLog::Batch QueueEventLog::eventsSince(quint64 sequence) const
{
    Batch batch;
    const std::lock_guard lock(m_mutex);
    const quint64 oldest = m_next > m_ring.size() ? m_next - m_ring.size() : 0;
    const quint64 first = std::max(sequence, oldest);
    batch.missed = first > sequence ? first - sequence : 0;
    batch.nextSequence = std::max(m_next, sequence);
    if (first < m_next) {
        batch.events.reserve(static_cast<qsizetype>(m_next - first));
        for (quint64 s = first; s < m_next; ++s) {
            batch.events.append(m_ring[s % m_ring.size()]);
        }
    }
    return batch;
}

quint64 QueueEventLog::appended() const
{
    const std::lock_guard lock(m_mutex);
    return m_next;
}

} // namespace Cachescope
