#include "core/cache/informerfactory.h"

#include "core/cache/apilisterwatcher.h"
#include "core/cache/indexfunctions.h"
#include "core/kube/apiclient.h"
#include "core/util/backgroundpool.h"
#include "core/util/processmemory.h"

#include <QThreadPool>

#include <algorithm>
#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

InformerFactory::InformerFactory(ApiClient *client, QThread *networkThread, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_networkThread(networkThread)
{
    m_heapTrim.setSingleShot(true);
    connect(&m_heapTrim, &QTimer::timeout, this, [this] {
        ++m_heapTrims;
        backgroundPool()->start([] { (void)releaseFreedHeap(); });
        const bool running = std::any_of(m_informers.cbegin(), m_informers.cend(), [](const SharedIndexInformer *informer) { return informer->isRunning(); });
        if (running) {
            // A large list frees as fast as it allocates (each frame once decoded, the pieces
            // of each object): released only at its end, what malloc kept of it made the peak
            // (bench_scale, 1M pods: peak RSS 7.4 GB beside a heap in use of at most 4.8 GB).
            m_heapTrim.start(m_listing > 0 ? std::min(m_heapTrimWhileListing, m_heapTrimInterval) : m_heapTrimInterval);
        }
    });
}

InformerFactory::~InformerFactory()
{
    shutdown();
}

Indexers InformerFactory::defaultIndexers(const ApiResource &resource)
{
    Indexers indexers;
    if (resource.namespaced) {
        indexers.insert(u"namespace"_s, namespaceIndexFunction());
    }
    if (resource.gvr.group().isEmpty() && resource.gvr.resource() == u"pods"_s) {
        indexers.insert(u"node"_s, nodeNameIndexFunction());
        indexers.insert(u"owner"_s, ownerUidIndexFunction());
        indexers.insert(u"label:app"_s, labelIndexFunction(u"app"_s));
    }
    return indexers;
}

SharedIndexInformer *InformerFactory::informer(const InformerKey &requested)
{
    const InformerKey key = requested.canonical();
    if (SharedIndexInformer *existing = find(key)) {
        return existing;
    }
    ApiListerWatcher::Target target;
    target.resource = key.resource;
    target.namespaceName = key.namespaceName;
    target.labelSelector = key.labelSelector;
    target.fieldSelector = key.fieldSelector;
    target.metadataOnly = key.metadataOnly;

    SharedIndexInformer::Options options = m_defaults;
    options.name = key.name();
    options.indexers = defaultIndexers(key.resource);
    std::unique_ptr<ListerWatcher> listerWatcher = std::make_unique<ApiListerWatcher>(m_client, target);
    if (m_wrapper) {
        listerWatcher = m_wrapper(key, std::move(listerWatcher));
    }
    auto *informer = new SharedIndexInformer(std::move(listerWatcher), m_networkThread, options, this);
    connect(informer, &SharedIndexInformer::reflectorStateChanged, this, [this, listing = false](Reflector::State state) mutable {
        const bool nowListing = state == Reflector::State::Listing;
        if (std::exchange(listing, nowListing) == nowListing) {
            return;
        }
        m_listing += nowListing ? 1 : -1;
        // A list begins: released often while it goes on. A list ends: once, a delay later.
        const std::chrono::milliseconds next = m_listing > 0 ? std::min(m_heapTrimWhileListing, m_heapTrimDelay) : m_heapTrimDelay;
        if (!m_heapTrim.isActive() || m_heapTrim.remainingTimeAsDuration() > next) {
            m_heapTrim.start(next);
        }
    });
    m_informers.insert(key, informer);
    m_order.append(key);
    Q_EMIT informerCreated(informer, key);
    return informer;
}

SharedIndexInformer *InformerFactory::find(const InformerKey &key) const
{
    return m_informers.value(key.canonical());
}

QList<SharedIndexInformer *> InformerFactory::informers() const
{
    QList<SharedIndexInformer *> list;
    list.reserve(m_order.size());
    for (const InformerKey &key : m_order) {
        list.append(m_informers.value(key));
    }
    return list;
}

void InformerFactory::start()
{
    for (const InformerKey &key : std::as_const(m_order)) {
        SharedIndexInformer *informer = m_informers.value(key);
        if (!informer->isRunning()) {
            informer->run();
        }
    }
    if (!m_heapTrim.isActive() && !m_informers.isEmpty()) {
        m_heapTrim.start(m_heapTrimInterval);
    }
}

void InformerFactory::shutdown()
{
    for (SharedIndexInformer *informer : std::as_const(m_informers)) {
        informer->stop();
    }
    m_heapTrim.stop();
}

void InformerFactory::setHeapTrimTiming(std::chrono::milliseconds afterList, std::chrono::milliseconds every, std::chrono::milliseconds whileListing)
{
    m_heapTrimDelay = afterList;
    m_heapTrimInterval = every;
    m_heapTrimWhileListing = whileListing;
    if (m_heapTrim.isActive()) {
        m_heapTrim.start(std::min(m_heapTrim.remainingTimeAsDuration(), m_heapTrimInterval));
    }
}

bool InformerFactory::hasSynced() const
{
    for (const SharedIndexInformer *informer : m_informers) {
        if (informer->isRunning() && !informer->hasSynced()) {
            return false;
        }
    }
    return true;
}

} // namespace Cachescope
