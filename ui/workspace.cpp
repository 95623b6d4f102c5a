#include "ui/workspace.h"

#include "core/cache/cluster.h"
#include "ui/failedcontextwatch.h"

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Workspace::Workspace(QObject *parent)
    : QObject(parent)
    , m_failedContexts(new FailedContextWatch(this))
{
}

Workspace::~Workspace()
{
    // Clusters wait for their worker threads in their destructors; children go with us anyway,
    // this only fixes the order (newest first) for predictable shutdown.
    while (!m_order.isEmpty()) {
        disconnectContext(m_order.constLast());
    }
}

void Workspace::setKubeconfig(const Kubeconfig &kubeconfig)
{
    while (!m_order.isEmpty()) {
        disconnectContext(m_order.constLast());
    }
    m_kubeconfig = kubeconfig;
    Q_EMIT kubeconfigChanged();
}

Cluster *Workspace::connectContext(const ContextId &context, QString *errorMessage)
{
    if (Cluster *existing = cluster(context)) {
        return existing;
    }
    const auto resolved = m_kubeconfig.restConfig(context.name, context.file);
    if (const auto *error = std::get_if<KubeconfigError>(&resolved)) {
        if (errorMessage != nullptr) {
            *errorMessage = error->toString();
        }
        return nullptr;
    }
    auto *cluster = new Cluster(std::get<RestConfig>(resolved), this);
    m_clusters.insert(idKey(context), cluster);
    m_order.append(context);
    Q_EMIT clusterConnected(cluster, context);
    cluster->start();
    return cluster;
}

Cluster *Workspace::reconnectContext(const ContextId &context, QString *errorMessage)
{
    disconnectContext(context);
    const auto same = [](const QList<ContextConfig> &a, const QList<ContextConfig> &b) {
        return std::equal(
            a.cbegin(), a.cend(), b.cbegin(), b.cend(), [](const ContextConfig &x, const ContextConfig &y) { return x.name == y.name && x.file == y.file; });
    };
    // The fix may be in the kubeconfig itself. A reread that lists other contexts would need the
    // views to start over: that is opening the kubeconfig again, the user's call.
    const Kubeconfig reread = Kubeconfig::loadFiles(m_kubeconfig.files(), false);
    if (!m_kubeconfig.files().isEmpty() && same(reread.contexts(), m_kubeconfig.contexts())) {
        m_kubeconfig = reread;
    }
    return connectContext(context, errorMessage);
}

void Workspace::disconnectContext(const ContextId &context)
{
    Cluster *cluster = m_clusters.take(idKey(context));
    if (cluster == nullptr) {
        return;
    }
    m_order.removeOne(context);
    Q_EMIT clusterDisconnecting(cluster, context);
    delete cluster;
}

Cluster *Workspace::cluster(const ContextId &context) const
{
    return m_clusters.value(idKey(context));
}

std::optional<Workspace::ContextId> Workspace::contextOf(const Cluster *cluster) const
{
    for (const ContextId &context : m_order) {
        if (m_clusters.value(idKey(context)) == cluster) {
            return context;
        }
    }
    return std::nullopt;
}

QList<Cluster *> Workspace::clusters() const
{
    QList<Cluster *> list;
    for (const ContextId &context : m_order) {
        list.append(m_clusters.value(idKey(context)));
    }
    return list;
}

} // namespace Cachescope
