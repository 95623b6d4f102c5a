#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

namespace Cachescope {

// ClusterConfig is one `clusters:` entry of a kubeconfig file, as written there, with relative
// paths already resolved against the directory of the file that names them (kubectl's rule).
// `file` and `line` say where it came from, for messages. Plain value type.
struct ClusterConfig
{
    QString name;
    QString file;
    int line = 0;

    QUrl server;
    QString certificateAuthority; // absolute path, or empty
    QByteArray certificateAuthorityData; // PEM, decoded from base64
    bool insecureSkipTlsVerify = false;
    QString tlsServerName;
    QUrl proxyUrl;
    bool disableCompression = false;
};

} // namespace Cachescope
