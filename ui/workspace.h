#pragma once

#include "core/kube/kubeconfig.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <optional>

namespace Cachescope {

class Cluster;
class FailedContextWatch;

// Workspace is what the user has open: one kubeconfig (merged from its files as kubectl does)
// and the contexts of it that are connected — several at once, each a Cluster with its own
// worker thread and informers. A context is identified by name and file, so that a shadowed
// context can be connected too. Connecting twice returns the same Cluster; opening another
// kubeconfig disconnects everything. A context whose Cluster Failed is connected again when a
// file it depends on changes (FailedContextWatch).
//
// Thread: GUI thread. Ownership: owns the Clusters (children); callers keep plain pointers only
// until clusterDisconnected()/kubeconfigChanged().
class Workspace final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Workspace)

public:
    struct ContextId
    {
        QString name;
        QString file;
        friend bool operator==(const ContextId &, const ContextId &) = default;
    };

    explicit Workspace(QObject *parent = nullptr);
    ~Workspace() override;

    void setKubeconfig(const Kubeconfig &kubeconfig);
    const Kubeconfig &kubeconfig() const { return m_kubeconfig; }

    // connectContext() connects a context (discovery starts at once) or returns the Cluster
    // already connected; on a context that cannot be resolved it returns null and says why.
    Cluster *connectContext(const ContextId &context, QString *errorMessage = nullptr);
    // reconnectContext() connects a context anew: its Cluster goes and a new one reads the
    // kubeconfig's files and the files they name again (what a user fixed after a failure).
    // The kubeconfig is read again too when its contexts are still the same ones.
    Cluster *reconnectContext(const ContextId &context, QString *errorMessage = nullptr);
    void disconnectContext(const ContextId &context);
    Cluster *cluster(const ContextId &context) const;
    // contextOf() is the context a connected Cluster stands for (nothing for another cluster).
    std::optional<ContextId> contextOf(const Cluster *cluster) const;
    QList<Cluster *> clusters() const;

Q_SIGNALS:
    void kubeconfigChanged();
    void clusterConnected(Cachescope::Cluster *cluster, const Cachescope::Workspace::ContextId &context);
    // clusterDisconnecting() comes just before the Cluster is deleted.
    void clusterDisconnecting(Cachescope::Cluster *cluster, const Cachescope::Workspace::ContextId &context);

private:
    static QString idKey(const ContextId &context) { return context.file + u'\n' + context.name; }

    Kubeconfig m_kubeconfig;
    QHash<QString, Cluster *> m_clusters; // owned (children), by idKey()
    QList<ContextId> m_order; // connection order
    FailedContextWatch *m_failedContexts; // child
};

} // namespace Cachescope
