#pragma once

#include "core/cache/informerkey.h"
#include "core/cache/sharedindexinformer.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>

class QThread;

namespace Cachescope {

class ApiClient;
class ListerWatcher;

// InformerFactory is client-go's SharedInformerFactory for one cluster: informer() hands out
// one SharedIndexInformer per InformerKey (resource + namespace + selectors + metadata-only),
// creating it on first request, so that every view and controller that needs pods of a cluster
// shares one list, one watch and one cache. As in client-go, a new informer does not run until
// start() is called; start() runs every informer not yet running and may be called again after
// more informers were asked for. shutdown() stops them all.
//
// Every informer gets the factory's default options (queue kind, resync, reflector settings)
// and the default indexers of its resource (defaultIndexers(): namespace for every namespaced
// resource; for pods also node, owner uid and the `app` label).
//
// Memory: when an informer's list ends (the first, a relist, or one that failed), what it went
// through (the response, the old objects) has been freed, but malloc keeps the pages; HeapTrimDelay
// after the last list of a burst (every informer relists after an apiserver restart) the factory
// has them released (releaseFreedHeap(), on a QThreadPool thread), so that resident memory
// follows the cache instead of ratcheting up with each relist's peak.
//
// Thread: lives on the thread that uses the informers (the GUI thread in the app); the
// informers' reflectors run on `networkThread`, with `client`, which lives there. Ownership:
// owns its informers (QObject children); the client and the thread are not owned.
class InformerFactory final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InformerFactory)

public:
    InformerFactory(ApiClient *client, QThread *networkThread, QObject *parent = nullptr);
    ~InformerFactory() override;

    // setDefaultOptions() applies to informers created afterwards (name and indexers are set
    // per informer).
    void setDefaultOptions(const SharedIndexInformer::Options &options) { m_defaults = options; }
    const SharedIndexInformer::Options &defaultOptions() const { return m_defaults; }

    // ListerWatcherWrapper takes the ListerWatcher an informer is about to be made with and
    // returns the one it gets instead (a decorator around it: a recording tee). Called on the
    // factory's thread, once per informer created.
    using ListerWatcherWrapper = std::function<std::unique_ptr<ListerWatcher>(const InformerKey &key, std::unique_ptr<ListerWatcher> listerWatcher)>;
    // setListerWatcherWrapper() applies to informers created afterwards.
    void setListerWatcherWrapper(ListerWatcherWrapper wrapper) { m_wrapper = std::move(wrapper); }

    // informer() returns the informer of `key`, created (not started) if needed. Keys are
    // compared in their canonical() form, which keys() and informerCreated() report.
    SharedIndexInformer *informer(const InformerKey &requested);
    // find() returns the informer of `key` if it exists.
    SharedIndexInformer *find(const InformerKey &key) const;
    QList<SharedIndexInformer *> informers() const;
    QList<InformerKey> keys() const { return m_order; }

    void start();
    void shutdown();

    // hasSynced() is true when every started informer has synced.
    [[nodiscard]] bool hasSynced() const;

    static Indexers defaultIndexers(const ApiResource &resource);

    static constexpr std::chrono::milliseconds HeapTrimDelay{2000};
    // heapTrims() counts the releases asked for after lists ended.
    [[nodiscard]] quint64 heapTrims() const { return m_heapTrims; }

Q_SIGNALS:
    void informerCreated(Cachescope::SharedIndexInformer *informer, const Cachescope::InformerKey &key);

private:
    QPointer<ApiClient> m_client; // not owned; lives on m_networkThread
    QThread *m_networkThread; // not owned
    SharedIndexInformer::Options m_defaults;
    ListerWatcherWrapper m_wrapper;
    QHash<InformerKey, SharedIndexInformer *> m_informers; // owned (children)
    QTimer m_heapTrim; // single-shot, restarted by every list that ends
    quint64 m_heapTrims = 0;
    QList<InformerKey> m_order; // creation order, for the UI
};

} // namespace Cachescope
