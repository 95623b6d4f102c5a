#pragma once

#include "core/cache/informerfactory.h"
#include "core/cli/informerrequest.h"
#include "core/kube/apierror.h"
#include "core/kube/apiresource.h"
#include "core/kube/kubeconfig.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

class QTextStream;

namespace Cachescope {

class Cluster;
class SharedIndexInformer;

// InformerSession is how a CLI command gets synced informers: it resolves the context of the
// kubeconfig, connects a Cluster (its client on a worker thread), resolves each resource of the
// request through discovery as kubectl does ("pods,configmaps" is two: one informer each, all
// over the one client), starts their informers and reports ready() once every one has synced —
// or failed() with a message (kubeconfig errors name the file; an unknown resource; a server
// that stays unreachable or an informer that cannot sync within the request's timeout, with the
// last error). Connection retries and informer errors are reported on `err` as they happen;
// a configuration error (configurationProblem()) fails the session at once, naming the file.
// With setFailFast() (what `get` does, as kubectl), a server whose certificate cannot be trusted,
// credentials it refuses (401, 403) and a list it refuses for good (401, 403, 404) fail the
// session at once with the reason instead of being retried with backoff (what `watch` and the
// app do). Lives on the CLI's main thread; owns the Cluster.
class InformerSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InformerSession)

public:
    InformerSession(const Kubeconfig &config, const QString &context, const InformerRequest &request, QTextStream &err, QObject *parent = nullptr);
    ~InformerSession() override;

    // Target is one resource of the request and its informer (owned by the cluster's factory).
    struct Target
    {
        ApiResource resource;
        SharedIndexInformer *informer = nullptr;
    };

    void setFailFast(bool failFast) { m_failFast = failFast; }
    // setListerWatcherWrapper() is handed to the cluster's factory before any informer is made
    // (what `record` tees through); call it before start().
    void setListerWatcherWrapper(InformerFactory::ListerWatcherWrapper wrapper) { m_wrapper = std::move(wrapper); }
    // configurationProblem() is the kubeconfig entry an error comes from when retrying cannot
    // help (the cluster's TLS material or server, the user's credentials: a file that cannot be
    // read, an exec plugin that is missing or fails), with the context it breaks; else nothing.
    // A session fails at once on such an error, whatever setFailFast() says.
    [[nodiscard]] static std::optional<KubeconfigError> configurationProblem(const RestConfig &rest, const ApiError &error);
    void start();

    // targets() are the request's resources in the order given, once informerStarting() was
    // emitted; informer() and resource() are the first's (the only one for `control`).
    const QList<Target> &targets() const { return m_targets; }
    SharedIndexInformer *informer() const { return m_targets.isEmpty() ? nullptr : m_targets.constFirst().informer; }
    const ApiResource &resource() const;
    Cluster *cluster() const { return m_cluster.get(); }
    const InformerRequest &request() const { return m_request; }

Q_SIGNALS:
    // informerStarting() comes once for each target just before the informers run: handlers
    // added now see every notification, the initial adds included.
    void informerStarting(Cachescope::SharedIndexInformer *informer);
    void ready();
    void failed(const QString &message);

private:
    void onDiscovered();
    void onSynced();
    void fail(const QString &message);

    Kubeconfig m_config;
    QString m_context;
    InformerRequest m_request;
    QTextStream &m_err;
    std::unique_ptr<Cluster> m_cluster;
    QList<Target> m_targets;
    QString m_lastError;
    QTimer m_deadline{this};
    bool m_failFast = false;
    bool m_done = false;
    InformerFactory::ListerWatcherWrapper m_wrapper;
};

} // namespace Cachescope
