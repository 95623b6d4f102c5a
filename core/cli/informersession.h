#pragma once

#include "core/cli/informerrequest.h"
#include "core/kube/apiresource.h"
#include "core/kube/kubeconfig.h"

#include <QObject>
#include <QTimer>

#include <memory>

class QTextStream;

namespace Cachescope {

class Cluster;
class SharedIndexInformer;

// InformerSession is how a CLI command gets a synced informer: it resolves the context of the
// kubeconfig, connects a Cluster (its client on a worker thread), resolves the resource through
// discovery as kubectl does, starts the informer of the request and reports ready() once it has
// synced — or failed() with a message (kubeconfig errors name the file; an unknown resource; a
// server that stays unreachable or an informer that cannot sync within the request's timeout,
// with the last error). Connection retries and informer errors are reported on `err` as they
// happen. Lives on the CLI's main thread; owns the Cluster.
class InformerSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InformerSession)

public:
    InformerSession(const Kubeconfig &config, const QString &context, const InformerRequest &request, QTextStream &err, QObject *parent = nullptr);
    ~InformerSession() override;

    void start();

    // informer() is the synced informer once ready() was emitted (owned by the cluster).
    SharedIndexInformer *informer() const { return m_informer; }
    Cluster *cluster() const { return m_cluster.get(); }
    // resource() is what discovery resolved the request's resource to (once ready()).
    const ApiResource &resource() const { return m_resource; }
    const InformerRequest &request() const { return m_request; }

Q_SIGNALS:
    // informerStarting() comes just before the informer runs: handlers added now see every
    // notification, the initial adds included.
    void informerStarting(Cachescope::SharedIndexInformer *informer);
    void ready();
    void failed(const QString &message);

private:
    void onDiscovered();
    void fail(const QString &message);

    Kubeconfig m_config;
    QString m_context;
    InformerRequest m_request;
    QTextStream &m_err;
    std::unique_ptr<Cluster> m_cluster;
    SharedIndexInformer *m_informer = nullptr; // owned by the cluster's factory
    ApiResource m_resource;
    QString m_lastError;
    QTimer m_deadline;
    bool m_done = false;
};

} // namespace Cachescope
