#include "core/controller/processlog.h"

#include <algorithm>

namespace Cachescope {

ProcessLog::ProcessLog(qsizetype capacity)
    : m_ring(static_cast<size_t>(std::max<qsizetype>(capacity, 0)))
{
}

void ProcessLog::append(ProcessRecord record)
{
    if (m_ring.empty()) {
        return;
    }
    const std::lock_guard lock(m_mutex);
    record.sequence = m_next;
    m_ring[m_next % m_ring.size()] = std::move(record);
    ++m_next;
}

ProcessLog::Batch ProcessLog::recordsSince(quint64 sequence) const
{
    Batch batch;
    const std::lock_guard lock(m_mutex);
    const quint64 oldest = m_next > m_ring.size() ? m_next - m_ring.size() : 0;
    const quint64 first = std::max(sequence, oldest);
    batch.missed = first > sequence ? first - sequence : 0;
    batch.nextSequence = std::max(m_next, sequence);
    if (first < m_next) {
        batch.records.reserve(static_cast<qsizetype>(m_next - first));
        for (quint64 s = first; s < m_next; ++s) {
            batch.records.append(m_ring[s % m_ring.size()]);
        }
    }
    return batch;
}

quint64 ProcessLog::appended() const
{
    const std::lock_guard lock(m_mutex);
    return m_next;
}

} // namespace Cachescope
