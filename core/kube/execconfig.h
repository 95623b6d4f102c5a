#pragma once

#include "core/kube/secret.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace Cachescope {

// ExecConfig is the `exec:` block of a kubeconfig user: a credential plugin that prints an
// ExecCredential (client.authentication.k8s.io v1 or v1beta1) on stdout. Environment values are
// Secrets because plugins are routinely configured with keys there. `command` is resolved
// against the kubeconfig's directory when it is a relative path with a slash in it (kubectl's
// rule); a bare name is looked up on the login shell's PATH when the plugin runs.
struct ExecConfig
{
    enum class InteractiveMode { Never, IfAvailable, Always };

    QString apiVersion;
    QString command;
    QStringList args;
    QList<QPair<QString, Secret>> env;
    QString installHint;
    bool provideClusterInfo = false;
    InteractiveMode interactiveMode = InteractiveMode::IfAvailable;
};

} // namespace Cachescope
