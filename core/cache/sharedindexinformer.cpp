#include "core/cache/sharedindexinformer.h"

#include "core/cache/deltafifo.h"
#include "core/cache/listerwatcher.h"
#include "core/cache/processorlistener.h"
#include "core/cache/realfifo.h"
#include "core/util/processmemory.h"

#include <QHash>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace Cachescope {

bool SharedIndexInformer::Registration::hasSynced() const
{
    return m_informer && m_listener && m_informer->hasSynced() && m_listener->pendingInitial() == 0;
}

std::chrono::milliseconds SharedIndexInformer::Registration::resyncPeriod() const
{
    if (!m_informer || !m_listener) {
        return std::chrono::milliseconds(0);
    }
    QMutexLocker locker(&m_informer->m_mutex);
    return m_listener->resyncPeriod();
}

SharedIndexInformer::SharedIndexInformer(std::unique_ptr<ListerWatcher> listerWatcher, QThread *networkThread, const Options &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_state(std::make_shared<State>())
    , m_pendingListerWatcher(std::move(listerWatcher))
    , m_networkThread(networkThread)
    , m_resyncCheckPeriod(std::max(options.resyncPeriod, std::chrono::milliseconds(0)))
{
    m_state->indexer = std::make_unique<Indexer>(options.indexers);
    if (options.queueKind == DeltaQueue::Kind::DeltaFifo) {
        DeltaFifo::Options fifo;
        fifo.keyFunction = metaNamespaceKey;
        fifo.knownObjects = m_state->indexer.get();
        m_state->queue = std::make_unique<DeltaFifo>(fifo);
    } else {
        RealFifo::Options fifo;
        fifo.keyFunction = metaNamespaceKey;
        fifo.knownObjects = m_state->indexer.get();
        fifo.atomicReplace = options.atomicReplace;
        m_state->queue = std::make_unique<RealFifo>(fifo);
    }
}

SharedIndexInformer::~SharedIndexInformer()
{
    stop();
}

void SharedIndexInformer::run()
{
    if (m_running || !m_pendingListerWatcher) {
        return;
    }
    m_running = true;

    Reflector::Options reflectorOptions = m_options.reflector;
    reflectorOptions.name = m_options.name;
    {
        // The reflector checks at client-go's resyncCheckPeriod: the informer's period, lowered
        // by handlers added before run(); handlers added later cannot resync more often.
        QMutexLocker locker(&m_mutex);
        reflectorOptions.resyncPeriod = m_resyncCheckPeriod;
    }
    reflectorOptions.shouldResync = [this] {
        return shouldResync();
    };
    m_options.reflector.resyncPeriod = reflectorOptions.resyncPeriod;

    ListerWatcher *listerWatcher = m_pendingListerWatcher.get();
    auto *reflector = new Reflector(listerWatcher, m_state->queue.get(), reflectorOptions);
    reflector->adopt(std::move(m_pendingListerWatcher), m_state);
    reflector->moveToThread(m_networkThread);
    m_reflector = reflector;
    connect(reflector, &Reflector::errorOccurred, this, &SharedIndexInformer::errorOccurred);
    connect(reflector, &Reflector::stateChanged, this, &SharedIndexInformer::reflectorStateChanged);
    connect(reflector, &Reflector::listProgress, this, &SharedIndexInformer::listProgress);
    QMetaObject::invokeMethod(reflector, &Reflector::start, Qt::QueuedConnection);

    m_processor = std::thread([this] { processLoop(); });
}

void SharedIndexInformer::retryNow()
{
    if (Reflector *reflector = m_reflector.data()) {
        QMetaObject::invokeMethod(reflector, &Reflector::retryNow);
    }
}

void SharedIndexInformer::stop()
{
    if (!m_running) {
        return;
    }
    m_running = false;
    if (Reflector *reflector = m_reflector.data()) {
        {
            QMutexLocker locker(&m_mutex);
            m_finalReflectorStatus = reflector->status();
            m_finalReflectorStatus.state = Reflector::State::Stopped;
        }
        m_reflector.clear();
        reflector->disconnect(this);
        // The reflector stops and is deleted on its own thread; the queue and indexer it uses
        // stay alive (adopted shared state) until then, so nothing here waits on the network.
        QMetaObject::invokeMethod(reflector, [reflector] {
            reflector->stop();
            delete reflector;
        });
    }
    m_state->queue->close();
    if (m_processor.joinable()) {
        m_processor.join();
    }
    QList<std::shared_ptr<ProcessorListener>> listeners;
    {
        QMutexLocker locker(&m_mutex);
        QMutexLocker listenersLocker(&m_listenersMutex);
        listeners = std::exchange(m_listeners, {});
        m_syncingListeners.clear();
    }
    for (const auto &listener : std::as_const(listeners)) {
        listener->stop();
    }
}

void SharedIndexInformer::processLoop()
{
    DeltaQueue &queue = *m_state->queue;
    while (true) {
        // A bounded wait: an empty first list makes the queue synced without anything to pop.
        const auto popped = queue.pop([this](const Deltas &deltas, bool isInInitialList) { handleDeltas(deltas, isInInitialList); }, QDeadlineTimer(100));
        if (!popped && queue.isClosed()) {
            return;
        }
        if (!m_synced.load() && queue.hasSynced()) {
            // Checked after pop() returned: the last initial item has been processed, not only
            // taken off the queue.
            m_synced.store(true);
            // The initial list leaves the heap full of holes: the pieces it was decoded from
            // (response chunks, list frames, queue nodes) were freed between the cached objects
            // allocated after them, and glibc keeps those pages resident. releaseFreedHeap() hands
            // the free pages back: bench_scale, 100k pods, steady RSS 653 -> 507 MiB (streaming
            // list) and 691 -> 487 MiB (one-piece list), for 55-90 ms of this thread's CPU. It
            // walks the whole process heap, so a small list (most informers of an app) is not
            // worth one here (the factory releases the heap after lists too, later). Before
            // synced(): whoever reacts to it (a status bar, bench_scale's steady RSS) sees the
            // trimmed heap, and the GUI never waits on it.
            constexpr qsizetype TrimAfterListOf = 10000;
            if (m_state->indexer->size() >= TrimAfterListOf) {
                (void)releaseFreedHeap();
            }
            QMetaObject::invokeMethod(
                this, [this] { Q_EMIT synced(); }, Qt::QueuedConnection);
        }
    }
}

void SharedIndexInformer::handleDeltas(const Deltas &deltas, bool isInInitialList)
{
    QMutexLocker locker(&m_mutex);
    Indexer &indexer = *m_state->indexer;
    for (const Delta &delta : deltas) {
        ++m_deltasProcessed;
        switch (delta.type) {
        case DeltaType::Sync:
        case DeltaType::Replaced:
        case DeltaType::Added:
        case DeltaType::Updated: {
            const KubeObject object = delta.kubeObject();
            const QString key = indexer.keyOf(object);
            const KubeObject old = indexer.getByKey(key);
            if (old.isValid()) {
                indexer.update(object);
                const bool isSync = delta.type == DeltaType::Sync || (delta.type == DeltaType::Replaced && old.resourceVersion() == object.resourceVersion());
                distribute(Notification::update(key, old, object), isSync);
            } else {
                indexer.add(object);
                distribute(Notification::add(key, object, isInInitialList), false);
            }
            break;
        }
        case DeltaType::Deleted: {
            const QString key = indexer.keyOf(delta.object);
            indexer.remove(delta.object);
            distribute(Notification::remove(key, delta.object), false);
            break;
        }
        case DeltaType::ReplacedAll:
            handleReplacedAll(delta, isInInitialList);
            break;
        case DeltaType::SyncAll: {
            // A resync of the whole store, as one event: every object to the due handlers.
            const QList<KubeObject> objects = indexer.list();
            for (const KubeObject &object : objects) {
                distribute(Notification::update(indexer.keyOf(object), object, object), true);
            }
            break;
        }
        }
    }
}

void SharedIndexInformer::handleReplacedAll(const Delta &delta, bool isInInitialList)
{
    // client-go's processAtomicReplaced: note what the store held, swap the list in at once (a
    // reader of the indexer never sees half a relist), then tell handlers what changed.
    Indexer &indexer = *m_state->indexer;
    const QList<KubeObject> listed = delta.list ? *delta.list : QList<KubeObject>();
    const QList<KubeObject> before = indexer.list();
    // Each object's key is made once (a relist may hold 100k objects).
    QStringList beforeKeys;
    beforeKeys.reserve(before.size());
    QHash<QString, KubeObject> old;
    old.reserve(before.size());
    for (const KubeObject &object : before) {
        beforeKeys.append(indexer.keyOf(object));
        old.insert(beforeKeys.constLast(), object);
    }
    // The keys, made once, serve the store's content, the check for what went away and the
    // notifications (which share their strings).
    QStringList listedKeyList;
    listedKeyList.reserve(listed.size());
    QHash<QString, KubeObject> listedItems;
    listedItems.reserve(listed.size());
    for (const KubeObject &object : listed) {
        listedKeyList.append(indexer.keyOf(object));
        listedItems.insert(listedKeyList.constLast(), object);
    }
    indexer.replaceItems(listedItems);
    m_deltasProcessed += static_cast<quint64>(listed.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const QString &key = beforeKeys.at(i);
        if (!listedItems.contains(key)) {
            distribute(Notification::remove(key, DeletedFinalStateUnknown{key, before.at(i)}), false);
        }
    }
    for (qsizetype i = 0; i < listed.size(); ++i) {
        const KubeObject &object = listed.at(i);
        const QString &key = listedKeyList.at(i);
        const auto it = old.constFind(key);
        if (it == old.cend()) {
            distribute(Notification::add(key, object, isInInitialList), false);
        } else {
            // An unchanged object counts as a resync, as for a Replaced delta.
            distribute(Notification::update(key, *it, object), it->resourceVersion() == object.resourceVersion());
        }
    }
}

void SharedIndexInformer::distribute(const Notification &notification, bool isSync)
{
    const auto &targets = isSync ? m_syncingListeners : m_listeners;
    for (const auto &listener : targets) {
        listener->add(notification);
    }
}

bool SharedIndexInformer::shouldResync()
{
    QMutexLocker locker(&m_mutex);
    const auto now = std::chrono::steady_clock::now();
    m_syncingListeners.clear();
    for (const auto &listener : std::as_const(m_listeners)) {
        if (listener->shouldResync(now)) {
            m_syncingListeners.append(listener);
            listener->determineNextResync(now);
        }
    }
    return !m_syncingListeners.isEmpty();
}

namespace {

// client-go's determineResyncPeriod(): a handler resyncs no more often than the informer checks,
// and not at all when the informer never does.
std::chrono::milliseconds effectiveResyncPeriod(std::chrono::milliseconds requested, std::chrono::milliseconds checkPeriod)
{
    if (requested.count() <= 0 || checkPeriod.count() <= 0) {
        return std::chrono::milliseconds(0);
    }
    return std::max(requested, checkPeriod);
}

// client-go's minimumResyncPeriod: shorter periods would turn resync into a busy loop.
constexpr std::chrono::milliseconds minimumResyncPeriod{1000};

} // namespace

SharedIndexInformer::Registration SharedIndexInformer::addEventHandler(std::shared_ptr<ResourceEventHandler> handler, std::chrono::milliseconds resyncPeriod)
{
    if (resyncPeriod.count() < 0) {
        resyncPeriod = m_options.resyncPeriod;
    }
    std::shared_ptr<ProcessorListener> listener;
    {
        // Holding the lock that handleDeltas() holds: the synthetic adds are exactly the cache
        // as it is between two deltas, and every later delta reaches this listener too.
        QMutexLocker locker(&m_mutex);
        if (resyncPeriod.count() > 0) {
            resyncPeriod = std::max(resyncPeriod, minimumResyncPeriod);
            if (resyncPeriod < m_resyncCheckPeriod) {
                if (m_running) {
                    resyncPeriod = m_resyncCheckPeriod;
                } else {
                    // Not started yet: the informer checks more often for this handler, and the
                    // handlers already added get their periods worked out again.
                    m_resyncCheckPeriod = resyncPeriod;
                    for (const auto &existing : std::as_const(m_listeners)) {
                        existing->setResyncPeriod(effectiveResyncPeriod(existing->requestedResyncPeriod(), m_resyncCheckPeriod));
                    }
                }
            }
        }
        listener = std::make_shared<ProcessorListener>(std::move(handler), resyncPeriod, effectiveResyncPeriod(resyncPeriod, m_resyncCheckPeriod));
        const Indexer &indexer = *m_state->indexer;
        const QList<KubeObject> objects = indexer.list();
        for (const KubeObject &object : objects) {
            listener->add(Notification::add(indexer.keyOf(object), object, true));
        }
        {
            QMutexLocker listenersLocker(&m_listenersMutex);
            m_listeners.append(listener);
        }
        // client-go puts every new listener among the resync receivers until the next resync
        // check sorts them: with resync off that check never comes, so every handler hears the
        // unchanged objects of a relist (a Replaced delta with the same resourceVersion).
        m_syncingListeners.append(listener);
    }
    Registration registration;
    registration.m_informer = this;
    registration.m_listener = listener;
    return registration;
}

void SharedIndexInformer::removeEventHandler(const Registration &registration)
{
    if (!registration.m_listener) {
        return;
    }
    {
        QMutexLocker locker(&m_mutex);
        QMutexLocker listenersLocker(&m_listenersMutex);
        m_listeners.removeAll(registration.m_listener);
        m_syncingListeners.removeAll(registration.m_listener);
    }
    registration.m_listener->stop();
}

std::chrono::milliseconds SharedIndexInformer::resyncCheckPeriod() const
{
    QMutexLocker locker(&m_mutex);
    return m_resyncCheckPeriod;
}

bool SharedIndexInformer::addIndexers(const Indexers &indexers, QString *errorMessage)
{
    return m_state->indexer->addIndexers(indexers, errorMessage);
}

SharedIndexInformer::Counters SharedIndexInformer::counters() const
{
    Counters counters;
    if (const Reflector *reflector = m_reflector.data()) {
        counters.reflector = reflector->status();
    } else {
        QMutexLocker locker(&m_mutex);
        counters.reflector = m_finalReflectorStatus;
    }
    counters.queue = m_state->queue->counters();
    counters.queueKind = m_options.queueKind;
    counters.atomicReplace = m_state->queue->isAtomicReplace();
    counters.storeSize = m_state->indexer->size();
    counters.deltasProcessed = m_deltasProcessed.load();
    counters.synced = m_synced.load();
    QList<std::shared_ptr<ProcessorListener>> listeners;
    {
        QMutexLocker locker(&m_listenersMutex); // not m_mutex: see m_listenersMutex
        listeners = m_listeners;
    }
    for (const auto &listener : std::as_const(listeners)) {
        counters.handlerBacklogs.append(listener->backlog());
    }
    return counters;
}

} // namespace Cachescope
