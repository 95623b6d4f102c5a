#pragma once

// What the transport tests share: a client configuration for the simulator reached through the
// TCP fault proxy.

#include "core/sim/simcluster.h"
#include "simclusterfixture.h"
#include "tcpfaultproxy.h"

#include <optional>

namespace Cachescope::Test {

// restConfigThroughProxy() is the simulator's `sim-token` context with its server's port replaced
// by the proxy's (TLS passes through the proxy, so the certificate still matches); nothing when
// the kubeconfig does not resolve.
inline std::optional<RestConfig> restConfigThroughProxy(const Sim::SimCluster &sim, const TcpFaultProxy &proxy)
{
    std::optional<RestConfig> config = CachescopeTest::simRestConfig(sim);
    if (!config) {
        return std::nullopt;
    }
    QUrl server = config->cluster.server;
    server.setPort(proxy.port());
    config->cluster.server = server;
    return config;
}

} // namespace Cachescope::Test
