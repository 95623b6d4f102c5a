#pragma once

#include "core/cache/backoff.h"
#include "core/kube/apierror.h"
#include "core/kube/discoveryresult.h"
#include "core/kube/restconfig.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

class QThread;

namespace Cachescope {

class ApiClient;
class InformerFactory;
class SharedIndexInformer;

// Cluster is one connected kubeconfig context: it owns a worker QThread on which its ApiClient
// (with its QNetworkAccessManagers), discovery and every reflector of its informers run, and
// the InformerFactory that hands out its informers. start() runs discovery; when discovery
// fails for a reason that may pass (server unreachable, TLS, a refusal) the cluster shows
// Retrying with the error and tries again with backoff (800 ms ×2 up to 30 s, with jitter)
// until it succeeds or is destroyed. When the kubeconfig's material cannot be used (an
// unreadable certificate file, an exec plugin that is missing or fails: ApiError Config or
// Credentials) retrying cannot cure it: the cluster shows Failed and waits, as kubectl gives up
// at once; whoever fixes the cause connects the context anew (Workspace::reconnectContext).
// Informers may be asked for before discovery ended.
//
// Thread: the Cluster object lives on the thread that made it (the GUI thread, or the CLI's
// main thread) and emits there; nothing here blocks that thread except the destructor, which
// stops the informers and waits for the worker thread to finish its event loop (requests in
// flight are aborted, not waited for). Ownership: owns the worker thread, the client (deleted
// on the worker thread) and the factory.
class Cluster final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Cluster)

public:
    enum class State { Idle, Connecting, Connected, Retrying, Failed };
    Q_ENUM(State)

    explicit Cluster(const RestConfig &config, QObject *parent = nullptr);
    ~Cluster() override;

    // name() is the context name.
    QString name() const { return m_config.contextName(); }
    const RestConfig &restConfig() const { return m_config; }
    QString server() const;
    // warnings() are the client's (TLS verification off, ...), for the UI to show.
    QStringList warnings() const { return m_warnings; }

    void start();

    State state() const { return m_state; }
    // lastError() is the error that made the cluster retry (none once connected).
    ApiError lastError() const { return m_lastError; }
    bool isDiscovered() const { return m_discovered; }
    const DiscoveryResult &discovery() const { return m_discovery; }

    InformerFactory *informers() const { return m_factory; }
    // informerOf() is the factory's informer of a resource named as discovery resolves it
    // ("pods", "jobs.batch"), of namespaceName when the resource is namespaced (all when empty);
    // nullptr when discovery does not know the resource or the server cannot list and watch it.
    // Created, not started: informers()->start() runs it.
    SharedIndexInformer *informerOf(const QString &resource, const QString &namespaceName = {}) const;
    // client() lives on workerThread(): call it only there (QMetaObject::invokeMethod).
    ApiClient *client() const { return m_client; }
    QThread *workerThread() const { return m_thread; }

    void setRetryBackoff(const Backoff::Parameters &parameters) { m_backoff = Backoff(parameters); }

    static QString stateName(State state);

Q_SIGNALS:
    void stateChanged(Cachescope::Cluster::State state);
    void discovered(const Cachescope::DiscoveryResult &result);
    // discoveryFailed() reports each failed attempt; `retryIn` is the delay before the next one
    // (zero when the cluster Failed and does not try again).
    void discoveryFailed(const Cachescope::ApiError &error, std::chrono::milliseconds retryIn);

private:
    void discover();
    void onDiscovered(const DiscoveryResult &result);
    void onDiscoveryFailed(const ApiError &error);
    void setState(State state);

    RestConfig m_config;
    QThread *m_thread = nullptr; // owned
    ApiClient *m_client = nullptr; // owned, lives on m_thread, deleted there when it finishes
    InformerFactory *m_factory = nullptr; // owned (child)
    QStringList m_warnings;
    State m_state = State::Idle;
    ApiError m_lastError;
    bool m_discovered = false;
    DiscoveryResult m_discovery;
    Backoff m_backoff;
    QTimer m_retryTimer;
};

} // namespace Cachescope
