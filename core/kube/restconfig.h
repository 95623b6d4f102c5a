#pragma once

#include "core/kube/clusterconfig.h"
#include "core/kube/contextconfig.h"
#include "core/kube/userconfig.h"

#include <QString>

namespace Cachescope {

// RestConfig is one context of a kubeconfig resolved into everything needed to talk to its
// cluster (client-go's rest.Config): the context, its cluster and its user (empty when the
// context names no user). Produced by Kubeconfig::restConfig(); consumed by ApiClient and
// CredentialProvider. Plain value type; carries Secrets, so never log it field by field.
struct RestConfig
{
    ContextConfig context;
    ClusterConfig cluster;
    UserConfig user;

    QString contextName() const { return context.name; }
    QString defaultNamespace() const { return context.ns.isEmpty() ? QStringLiteral("default") : context.ns; }
};

} // namespace Cachescope
