#pragma once

#include "core/cache/deltaqueue.h"
#include "core/cache/indexer.h"
#include "core/cache/notification.h"
#include "core/cache/reflector.h"
#include "core/cache/resourceeventhandler.h"

#include <QList>
#include <QMutex>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

class QThread;

namespace Cachescope {

class ListerWatcher;
class ProcessorListener;

// SharedIndexInformer is client-go's SharedIndexInformer: a Reflector fills a DeltaQueue
// (RealFifo by default, as client-go ≥ 1.33; DeltaFifo on request), a processing thread pops
// it, updates the Indexer and then hands a notification to every registered handler.
//
// - By default (client-go 1.36) a relist reaches the informer as one ReplacedAll delta: the
//   indexer takes the whole list in one step, then handlers get a tombstoned onDelete for every
//   object that vanished, then onAdd / onUpdate(old, new) for every listed object, all from that
//   one delta. With Options::atomicReplace off, a relist is a delta per object (1.33–1.35).
//
// - Handlers may be added before or after run(). One added late first receives a synthetic add
//   (isInInitialList) for every object in the cache, with no event lost or doubled in between.
//   Each handler has its own unbounded buffer and thread (ProcessorListener) and its own
//   hasSynced(): true once the informer synced and the handler returned from every initial add.
// - A Sync delta (resync) reaches only the handlers whose resync period is due; a Replaced
//   delta of an unchanged object (same resourceVersion) counts as a resync too. As in client-go,
//   every handler counts as due until the first resync check, so with resync off every handler
//   gets onUpdate(old, new) for the unchanged objects of a relist.
// - A handler's resync period is raised to at least 1 s; one added before run() lowers the
//   informer's check period to its own, one added after is raised to the check period; when the
//   informer's resyncPeriod is 0 no handler resyncs (client-go's determineResyncPeriod).
// - hasSynced() becomes true once every object of the first list has been popped into the
//   indexer *and* handed to the handlers.
//
// Threads: the informer object lives where it was made (usually the GUI thread); its Reflector
// and ListerWatcher live on `networkThread` (the cluster's worker thread), its processing loop on
// a thread of its own, each handler on its own. indexer() is safe to read from any thread.
// Ownership: it owns the ListerWatcher (handed to the network thread, deleted there), the queue,
// the indexer and the listeners; handlers are shared with the caller. Stopping never blocks on
// the network: the reflector is stopped and deleted on its thread after the informer is gone.
class SharedIndexInformer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedIndexInformer)

public:
    struct Options
    {
        QString name; // the resource, for the UI ("pods", "deployments.apps")
        DeltaQueue::Kind queueKind = DeltaQueue::Kind::RealFifo;
        // RealFifo only: a relist is applied to the indexer in one step and its notifications
        // worked out from the difference (client-go 1.36's default, AtomicFIFO); false gives the
        // 1.33–1.35 RealFifo, which queues a tombstone or Replaced delta per object.
        bool atomicReplace = true;
        Indexers indexers;
        std::chrono::milliseconds resyncPeriod{0}; // default for handlers; 0 = never
        Reflector::Options reflector; // name and resync are filled in by the informer
    };

    // Registration identifies one added handler; hasSynced() is that handler's.
    class Registration
    {
    public:
        Registration() = default;
        bool isValid() const { return m_listener != nullptr; }
        [[nodiscard]] bool hasSynced() const;
        // resyncPeriod() is the period that applies to this handler (0 = it never resyncs).
        std::chrono::milliseconds resyncPeriod() const;

    private:
        friend class SharedIndexInformer;
        const SharedIndexInformer *m_informer = nullptr;
        std::shared_ptr<ProcessorListener> m_listener;
    };

    // Counters is a snapshot for the pipeline view.
    struct Counters
    {
        Reflector::Status reflector;
        DeltaQueue::Counters queue;
        DeltaQueue::Kind queueKind = DeltaQueue::Kind::RealFifo;
        bool atomicReplace = false; // the queue applies relists in one step (DeltaQueue::isAtomicReplace)
        qsizetype storeSize = 0;
        quint64 deltasProcessed = 0;
        QList<qsizetype> handlerBacklogs;
        bool synced = false;
    };

    SharedIndexInformer(std::unique_ptr<ListerWatcher> listerWatcher, QThread *networkThread, const Options &options, QObject *parent = nullptr);
    ~SharedIndexInformer() override;

    // run() starts the reflector and the processing loop; stop() ends both (idempotent).
    void run();
    void stop();
    bool isRunning() const { return m_running; }
    // retryNow() ends the reflector's backoff, if it is backing off (Reflector::retryNow()).
    // Any thread.
    void retryNow();

    Registration addEventHandler(std::shared_ptr<ResourceEventHandler> handler, std::chrono::milliseconds resyncPeriod = std::chrono::milliseconds(-1));
    void removeEventHandler(const Registration &registration);

    [[nodiscard]] bool hasSynced() const { return m_synced.load(); }
    const Indexer &indexer() const { return *m_state->indexer; }
    // addIndexers() adds indexes at runtime (they are built for what the cache holds).
    [[nodiscard]] bool addIndexers(const Indexers &indexers, QString *errorMessage = nullptr);
    QString name() const { return m_options.name; }
    DeltaQueue::Kind queueKind() const { return m_options.queueKind; }
    // resyncCheckPeriod() is how often the reflector asks whether a handler is due (0 = never).
    std::chrono::milliseconds resyncCheckPeriod() const;
    Counters counters() const;

Q_SIGNALS:
    // synced() is emitted on the informer's thread once hasSynced() became true.
    void synced();
    // errorOccurred() forwards every list and watch error of the reflector (a WatchErrorHandler).
    void errorOccurred(const Cachescope::ApiError &error);
    // reflectorStateChanged() forwards the reflector's state changes.
    void reflectorStateChanged(Cachescope::Reflector::State state);
    // listProgress() forwards the reflector's progress through the first list and relists.
    void listProgress(qint64 itemsSoFar, qint64 remaining);

private:
    // State shared with the reflector, which may outlive the informer by a moment on its thread.
    struct State
    {
        std::unique_ptr<Indexer> indexer;
        std::unique_ptr<DeltaQueue> queue;
    };

    void processLoop();
    void handleDeltas(const Deltas &deltas, bool isInInitialList);
    void handleReplacedAll(const Delta &delta, bool isInInitialList);
    void distribute(const Notification &notification, bool isSync);
    bool shouldResync();

    Options m_options;
    std::shared_ptr<State> m_state;
    std::unique_ptr<ListerWatcher> m_pendingListerWatcher; // until run() hands it to the reflector
    QThread *m_networkThread; // not owned
    QPointer<Reflector> m_reflector; // owned, lives on m_networkThread, deleted there
    // The reflector's last status, kept by stop() so counters() stays true after it is gone
    // (the CLI prints its summary after stopping). Guarded by m_mutex.
    Reflector::Status m_finalReflectorStatus;
    std::thread m_processor;
    bool m_running = false;
    std::atomic<bool> m_synced{false};
    std::atomic<quint64> m_deltasProcessed{0};

    // Guards the listeners and the resync selection; handleDeltas() holds it while it updates
    // the indexer and distributes, so that addEventHandler() sees a consistent cache.
    mutable QMutex m_mutex;
    // Guards m_listeners too, for counters() alone: whoever changes the list holds both, and
    // counters() only this one, which no one holds while a delta is processed. A view asking for
    // counters must never wait for a list of a million objects to be applied.
    mutable QMutex m_listenersMutex;
    QList<std::shared_ptr<ProcessorListener>> m_listeners;
    QList<std::shared_ptr<ProcessorListener>> m_syncingListeners;
    std::chrono::milliseconds m_resyncCheckPeriod; // guarded by m_mutex; client-go's resyncCheckPeriod
};

} // namespace Cachescope
