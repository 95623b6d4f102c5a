#pragma once

#include "core/cache/deltaqueue.h"
#include "core/cache/keylistergetter.h"
#include "core/cache/keys.h"

#include <QHash>
#include <QMutex>
#include <QStringList>
#include <QWaitCondition>

namespace Cachescope {

// DeltaFifo is client-go's DeltaFIFO, the queue the seed article describes: one entry per key,
// in the order keys were first queued, each holding every delta that arrived for the key since
// it was last popped. Two consecutive Deleted deltas are merged into one (the older, unless it
// is a tombstone). replace() queues Replaced (or, with emitDeltaTypeReplaced off, Sync) deltas
// for the listed objects, then tombstones for queued keys and for keys of knownObjects missing
// from the list; resync() queues Sync deltas only for known keys that have nothing queued, so a
// resync never carries an older object than what is already waiting. remove() of a key that is
// neither queued nor known is dropped (it was deleted by a relist already).
//
// See DeltaQueue for threading, pop() and hasSynced(). knownObjects is not owned and must
// outlive the queue; without it, replace() tombstones only queued keys and resync() does
// nothing. Cost: each operation is O(1) amortised except replace() and resync(), which are
// O(list + known keys); memory is one Deltas list per queued key.
class DeltaFifo final : public DeltaQueue
{
public:
    struct Options
    {
        KeyFunction keyFunction;
        const KeyListerGetter *knownObjects = nullptr; // not owned
        // client-go leaves this off only for old callers; every informer turns it on.
        bool emitDeltaTypeReplaced = true;
    };

    DeltaFifo();
    explicit DeltaFifo(const Options &options);
    Q_DISABLE_COPY_MOVE(DeltaFifo)

    Kind kind() const override { return Kind::DeltaFifo; }
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

    // addIfNotPresent() puts popped deltas back (e.g. after a failed process) unless something
    // was queued for the key in the meantime, which is newer and wins.
    void addIfNotPresent(const Deltas &deltas);
    // listKeys() returns the queued keys in pop order.
    QStringList listKeys() const;
    // list() returns the newest object of each queued key, in pop order (for a tombstone, its
    // last known object).
    QList<KubeObject> list() const;
    // getByKey() returns a copy of the deltas queued for key.
    std::optional<Deltas> getByKey(const QString &key) const;
    // keyOf() is the key an object is queued under (a tombstone's own key).
    QString keyOf(const DeltaObject &object) const;

private:
    void queueActionLocked(DeltaType type, const DeltaObject &object);
    QString keyOfLocked(const DeltaObject &object) const;
    bool hasSyncedLocked() const { return m_populated && m_initialPopulationCount == 0; }

    const Options m_options;
    mutable QMutex m_mutex;
    QWaitCondition m_notEmpty;
    QHash<QString, Deltas> m_items;
    QStringList m_queue; // keys in pop order; each key of m_items exactly once
    bool m_populated = false;
    qsizetype m_initialPopulationCount = 0;
    bool m_closed = false;
    quint64 m_queuedCount = 0;
    quint64 m_poppedCount = 0;
};

} // namespace Cachescope
