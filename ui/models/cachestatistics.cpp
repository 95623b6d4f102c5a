#include "ui/models/cachestatistics.h"

#include "core/cache/sharedindexinformer.h"

namespace Cachescope {

CacheStatistics::CacheStatistics(QObject *parent)
    : QObject(parent)
{
    // Once a second: a status bar figure that changes faster cannot be read.
    m_timer.setInterval(std::chrono::seconds(1));
    connect(&m_timer, &QTimer::timeout, this, &CacheStatistics::sample);
}

CacheStatistics::~CacheStatistics() = default;

void CacheStatistics::setInformers(const QList<SharedIndexInformer *> &informers)
{
    m_informers.clear();
    for (SharedIndexInformer *informer : informers) {
        if (informer) {
            m_informers.append(informer);
        }
    }
    m_previousDeltas.clear();
    m_sinceSample.invalidate();
    if (m_timer.interval() > 0) {
        m_timer.start();
    }
    sample();
}

QList<SharedIndexInformer *> CacheStatistics::informers() const
{
    QList<SharedIndexInformer *> result;
    for (const auto &informer : m_informers) {
        if (informer) {
            result.append(informer.data());
        }
    }
    return result;
}

std::chrono::milliseconds CacheStatistics::interval() const
{
    return m_timer.intervalAsDuration();
}

void CacheStatistics::setInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
    if (interval.count() > 0) {
        m_timer.start();
    } else {
        m_timer.stop();
    }
}

int CacheStatistics::informerCount() const
{
    return static_cast<int>(informers().size());
}

void CacheStatistics::sample()
{
    const double seconds = m_sinceSample.isValid() ? double(m_sinceSample.nsecsElapsed()) / 1e9 : 0.0;
    m_sinceSample.start();
    qint64 objects = 0;
    qint64 jsonBytes = 0;
    qint64 storedBytes = 0;
    quint64 newDeltas = 0;
    int synced = 0;
    QHash<const SharedIndexInformer *, quint64> deltas;
    for (const auto &pointer : std::as_const(m_informers)) {
        const SharedIndexInformer *informer = pointer.data();
        if (!informer) {
            continue;
        }
        objects += informer->indexer().size();
        jsonBytes += informer->indexer().jsonBytes();
        storedBytes += informer->indexer().storedBytes();
        synced += informer->hasSynced() ? 1 : 0;
        const quint64 processed = informer->counters().deltasProcessed;
        const auto previous = m_previousDeltas.constFind(informer);
        // An informer seen for the first time contributes from the next sample on, so that its
        // history does not count as one burst.
        if (previous != m_previousDeltas.cend() && processed >= *previous) {
            newDeltas += processed - *previous;
        }
        deltas.insert(informer, processed);
    }
    m_previousDeltas = deltas;
    m_objects = objects;
    m_jsonBytes = jsonBytes;
    m_storedBytes = storedBytes;
    m_synced = synced;
    m_eventsPerSecond = seconds > 0 ? double(newDeltas) / seconds : 0.0;
    Q_EMIT changed();
}

} // namespace Cachescope
