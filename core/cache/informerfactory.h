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
// Memory: malloc keeps the pages a process frees. After an informer's list (the first, a relist,
// or one that failed) the response and the old objects have been freed, and the views then free
// what they built from the notifications; under churn, freed pages collect between objects still
// live. While informers run, the factory has them given back (releaseFreedHeap(), on a thread of
// backgroundPool()) every 60 s, every 500 ms while a list goes on, and 10 s after a list ends
// (setHeapTrimTiming(); the relists of a burst, as after an apiserver restart, in one release), so
// that resident memory follows what the cache and the views hold instead of ratcheting up with
// each relist's peak (bench_soak: +13 MB a restart, and ~1.5 MB a minute of churn at 1,000
// changes/s, while the heap in use stayed flat; bench_scale at 1M pods: what malloc kept of a
// list's garbage made the peak RSS 1.5x the heap in use; at 100k pods a release every 10 s while
// listing left the peak at 1.78x the steady RSS, every 1 s 1.35x, every 500 ms 1.21x, with the time
// to sync unchanged).
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

    // setHeapTrimTiming() sets how long after a list ends, how often while informers run, and
    // how often while a list goes on, freed heap is released (defaults 10 s, 60 s and 500 ms).
    void setHeapTrimTiming(std::chrono::milliseconds afterList, std::chrono::milliseconds every, std::chrono::milliseconds whileListing);
    // heapTrims() counts the releases asked for.
    [[nodiscard]] quint64 heapTrims() const { return m_heapTrims; }

Q_SIGNALS:
    void informerCreated(Cachescope::SharedIndexInformer *informer, const Cachescope::InformerKey &key);

private:
    QPointer<ApiClient> m_client; // not owned; lives on m_networkThread
    QThread *m_networkThread; // not owned
    SharedIndexInformer::Options m_defaults;
    ListerWatcherWrapper m_wrapper;
    QHash<InformerKey, SharedIndexInformer *> m_informers; // owned (children)
    QTimer m_heapTrim; // single-shot: the next release
    std::chrono::milliseconds m_heapTrimDelay{10000};
    std::chrono::milliseconds m_heapTrimInterval{60000};
    std::chrono::milliseconds m_heapTrimWhileListing{500};
    quint64 m_heapTrims = 0;
    int m_listing = 0; // informers whose reflector lists now
    QList<InformerKey> m_order; // creation order, for the UI
};

} // namespace Cachescope
