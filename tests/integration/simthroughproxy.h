#pragma once

// What the transport tests share: a client configuration for the simulator reached through the
// TCP fault proxy, and an informer's cache in the form SimCluster::truth() gives the server's.

#include "core/cache/keys.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"
#include "tcpfaultproxy.h"

#include <QHash>

#include <optional>

namespace Cachescope::Test {

// restConfigThroughProxy() is the simulator's `sim-token` context with its server's port replaced
// by the proxy's (TLS passes through the proxy, so the certificate still matches); nothing when
// the kubeconfig does not resolve.
inline std::optional<RestConfig> restConfigThroughProxy(const Sim::SimCluster &sim, const TcpFaultProxy &proxy)
{
    const Kubeconfig kubeconfig = Kubeconfig::loadFiles({sim.kubeconfigPath()}, true);
    const auto rest = kubeconfig.restConfig(QStringLiteral("sim-token"));
    if (!std::holds_alternative<RestConfig>(rest)) {
        return std::nullopt;
    }
    RestConfig config = std::get<RestConfig>(rest);
    QUrl server = config.cluster.server;
    server.setPort(proxy.port());
    config.cluster.server = server;
    return config;
}

// cacheState() maps each cached object's key to its resourceVersion.
inline QHash<QString, quint64> cacheState(const SharedIndexInformer &informer)
{
    QHash<QString, quint64> state;
    const QList<KubeObject> objects = informer.indexer().list();
    for (const KubeObject &object : objects) {
        state.insert(metaNamespaceKey(object), object.resourceVersion().toULongLong());
    }
    return state;
}

} // namespace Cachescope::Test
