#pragma once

#include "core/cache/deltaqueue.h"
#include "core/cache/keylistergetter.h"
#include "core/cache/keys.h"

#include <QList>
#include <QMutex>
#include <QWaitCondition>

namespace Cachescope {

// RealFifo is client-go's RealFIFO, the informer queue by default since client-go 1.33: every
// notification is kept and popped in arrival order, one Delta at a time, with no per-key
// merging, so handlers see every intermediate state and deletions of objects that were
// re-created. replace() first queues tombstoned Deleted deltas for keys queued (whose last
// delta is not already a delete) or known to the store but absent from the list, then a
// Replaced delta per listed object; resync() queues Sync deltas for known keys with nothing
// queued.
//
// With atomicReplace (client-go 1.36's AtomicFIFO, the informer's default), replace() drops
// what is queued (the list supersedes it) and queues one ReplacedAll delta that carries the whole
// list, and resync() queues one SyncAll delta: the consumer swaps its store in one step and works
// out the notifications itself (see SharedIndexInformer), so a relist is never half applied.
// In that mode knownObjects is not consulted and pop() calls process *without* the queue's lock
// (nothing here reads the store then), so the reflector is not held up while a large list is
// applied. Without it, replace() and resync() behave as in client-go 1.33–1.35 (above).
//
// See DeltaQueue for threading, pop() and hasSynced(). knownObjects is required without
// atomicReplace (as in client-go), not owned, and must outlive the queue. Cost:
// add/update/remove/pop O(1); replace() and resync() O(queued + list + known keys), or O(list)
// and O(1) with atomicReplace.
class RealFifo final : public DeltaQueue
{
public:
    struct Options
    {
        KeyFunction keyFunction;
        const KeyListerGetter *knownObjects = nullptr; // not owned; required unless atomicReplace
        bool atomicReplace = false;
    };

    explicit RealFifo(const Options &options);
    Q_DISABLE_COPY_MOVE(RealFifo)

    Kind kind() const override { return Kind::RealFifo; }
    bool isAtomicReplace() const override { return m_options.atomicReplace; }
    void add(const KubeObject &object) override;
    void update(const KubeObject &object) override;
    void remove(const DeltaObject &object) override;
    void replace(const QList<KubeObject> &list, const QString &resourceVersion) override;
    void resync() override;
    [[nodiscard]] std::optional<Deltas> pop(const PopProcess &process, QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever)) override;
    void close() override;
    bool isClosed() const override;
    bool hasSynced() const override;
    Counters counters() const override;

    // queued() returns a copy of every delta waiting, in pop order.
    Deltas queued() const;
    QString keyOf(const DeltaObject &object) const;

private:
    void appendLocked(DeltaType type, const DeltaObject &object);
    bool hasSyncedLocked() const { return m_populated && m_initialPopulationCount == 0; }

    const Options m_options;
    mutable QMutex m_mutex;
    QWaitCondition m_notEmpty;
    Deltas m_items;
    bool m_populated = false;
    qsizetype m_initialPopulationCount = 0;
    bool m_closed = false;
    quint64 m_queuedCount = 0;
    quint64 m_poppedCount = 0;
};

} // namespace Cachescope
