#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace Cachescope {

class SharedIndexInformer;

// CacheStatistics sums what the status bar shows over the informers it is given: objects
// cached, an estimate of the memory they take, and the deltas per second the caches absorb
// (from consecutive samples, once a second by default). Informers deleted meanwhile drop out.
//
// The memory estimate is what the objects' JSON takes stored (Indexer::storedBytes(), exact; its
// keys numbered, about half the JSON's own size, Indexer::jsonBytes()) plus a fixed overhead per
// object for its extracted fields, its key and its index entries (PerObjectOverhead): close
// enough to tell 50 MiB from 500 MiB, not an allocator's account (bench_scale, 100k pods: 2.84 KB
// of heap a pod, estimated 1.5 + 1.1 KB).
// Thread: GUI thread. Ownership: informers are not owned. Cost per sample: O(informers).
class CacheStatistics final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheStatistics)

public:
    // Bytes per cached object besides its stored JSON: the KubeObject's data block and extracted
    // strings (many interned), the key, hash nodes and index entries, and malloc's headers
    // (bench_scale at 100k pods: 1.1-1.3 KB; bench_cache's smaller pods: 0.6 KB).
    static constexpr qint64 PerObjectOverhead = 1024;

    explicit CacheStatistics(QObject *parent = nullptr);
    ~CacheStatistics() override;

    void setInformers(const QList<SharedIndexInformer *> &informers);
    QList<SharedIndexInformer *> informers() const;

    // The sampling interval (1 s by default); 0 stops the timer (sample() by hand).
    std::chrono::milliseconds interval() const;
    void setInterval(std::chrono::milliseconds interval);
    // sample() reads every informer now and emits changed().
    void sample();

    qint64 objects() const { return m_objects; }
    qint64 jsonBytes() const { return m_jsonBytes; }
    qint64 storedBytes() const { return m_storedBytes; }
    qint64 memoryBytes() const { return m_storedBytes + m_objects * PerObjectOverhead; }
    double eventsPerSecond() const { return m_eventsPerSecond; }
    int informerCount() const;
    int syncedCount() const { return m_synced; }

Q_SIGNALS:
    void changed();

private:
    QList<QPointer<SharedIndexInformer>> m_informers; // not owned
    // Deltas processed at the previous sample, per informer, for the rate.
    QHash<const SharedIndexInformer *, quint64> m_previousDeltas;
    QElapsedTimer m_sinceSample;
    QTimer m_timer;
    qint64 m_objects = 0;
    qint64 m_jsonBytes = 0;
    qint64 m_storedBytes = 0;
    double m_eventsPerSecond = 0;
    int m_synced = 0;
};

} // namespace Cachescope
