#pragma once

#include "core/cache/delta.h"
#include "core/cache/kubeobject.h"

#include <QDeadlineTimer>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Cachescope {

// DeltaQueue is the queue between a Reflector and a SharedIndexInformer (client-go's
// cache.Queue): the reflector feeds it add/update/remove/replace/resync, the informer pops
// Deltas. DeltaFifo (per-key merging, the queue of the seed article) and RealFifo (every event
// in order, client-go's default since 1.33) implement it, so an informer can take either.
// Not to be confused with the controller work queue (core/workqueue), which holds keys.
//
// Contract shared by both implementations:
// - Thread-safe: producers (the reflector, on the cluster's network thread) and one consumer
//   (the informer's processing thread) may call concurrently.
// - pop() blocks until something is queued, the deadline passes, or close() is called with
//   nothing left; it removes the item and calls process with it *under the queue's lock*, so
//   that the consumer can update the store in step with the queue (a concurrent replace() sees
//   either the object queued or already stored, never neither). process must therefore be quick
//   and must not call back into this queue. (A RealFifo with atomicReplace never reads the
//   store, and calls process after releasing its lock.)
// - hasSynced() is true once the items of the first replace() have all been popped, or as soon
//   as add/update/remove came before any replace() (client-go's HasSynced).
// - Objects are stored as given: the decode transform (KubeObject::fromJson) has already run.
// - An invalid KubeObject passed to add/update/remove/replace has no key and is ignored.
//
// An informer's processing loop, in outline (the store is the queue's knownObjects):
//
//     while (queue.pop([&](const Deltas &deltas, bool isInInitialList) {
//         for (const Delta &delta : deltas) {
//             if (delta.type == DeltaType::Deleted) {
//                 indexer.remove(delta.object);          // a tombstone removes its key
//             } else {
//                 indexer.update(delta.kubeObject());    // then notify handlers (add or update)
//             }
//         }
//     })) { }
class DeltaQueue
{
public:
    enum class Kind {
        DeltaFifo,
        RealFifo,
    };

    // PopProcess receives the popped deltas (one key's, oldest first) and whether they belong to
    // the initial list, i.e. were popped before hasSynced() became true.
    using PopProcess = std::function<void(const Deltas &deltas, bool isInInitialList)>;

    // Counters for the pipeline view; cheap to read.
    struct Counters
    {
        qsizetype depth = 0; // items waiting to be popped (keys for a DeltaFifo, deltas for a RealFifo)
        quint64 queued = 0; // deltas ever queued
        quint64 popped = 0; // items ever popped
    };

    virtual ~DeltaQueue() = default;

    virtual Kind kind() const = 0;
    // isAtomicReplace() says whether a relist comes as one ReplacedAll delta (and a resync as one
    // SyncAll) instead of a delta per object; only a RealFifo can be asked for it.
    virtual bool isAtomicReplace() const { return false; }

    virtual void add(const KubeObject &object) = 0;
    virtual void update(const KubeObject &object) = 0;
    // remove() queues a Deleted delta; object may be a DeletedFinalStateUnknown.
    virtual void remove(const DeltaObject &object) = 0;
    // replace() is a relist: list is the complete current state at resourceVersion. Keys known
    // to the store or queued but absent from list get a Deleted delta with a tombstone.
    virtual void replace(const QList<KubeObject> &list, const QString &resourceVersion) = 0;
    // resync() queues a Sync delta for every object of the store that has nothing queued.
    virtual void resync() = 0;

    // pop() returns the popped deltas, or std::nullopt when the queue is closed and empty or
    // the deadline passed first.
    [[nodiscard]] virtual std::optional<Deltas> pop(const PopProcess &process, QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever)) = 0;
    // close() wakes every blocked pop(); items still queued can be popped afterwards.
    virtual void close() = 0;
    virtual bool isClosed() const = 0;
    virtual bool hasSynced() const = 0;
    virtual Counters counters() const = 0;
};

} // namespace Cachescope
