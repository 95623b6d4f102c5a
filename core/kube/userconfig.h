#pragma once

#include "core/kube/execconfig.h"
#include "core/kube/secret.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace Cachescope {

// UserConfig is one `users:` entry (an AuthInfo) of a kubeconfig file, relative paths resolved
// against the file's directory. Every credential it carries is a Secret; certificates are not
// secret and stay plain. `authProvider` is only the provider's name: Cachescope does not run the
// removed in-tree providers (gcp, azure, oidc) and says so when such a user is used.
struct UserConfig
{
    QString name;
    QString file;
    int line = 0;

    QString clientCertificate; // absolute path, or empty
    QByteArray clientCertificateData; // PEM
    QString clientKey; // absolute path, or empty
    Secret clientKeyData; // PEM
    Secret token;
    QString tokenFile; // absolute path, re-read by the credential provider
    QString username;
    Secret password;
    QString impersonate;
    QString impersonateUid;
    QStringList impersonateGroups;
    QMap<QString, QStringList> impersonateUserExtra;
    std::optional<ExecConfig> exec;
    QString authProvider;
};

} // namespace Cachescope
