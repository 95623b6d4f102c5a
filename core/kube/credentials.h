#pragma once

#include "core/kube/secret.h"

#include <QDateTime>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

namespace Cachescope {

// Credentials is what a request presents to the apiserver, as produced by CredentialProvider:
// a bearer token, or basic auth, and/or a client certificate with its key. `expiry` is when an
// exec plugin said they stop being valid (invalid QDateTime: no expiry). Value type; the token
// and password are Secrets and QSslKey prints no key material, so qDebug() of the parts is safe.
struct Credentials
{
    Secret bearerToken;
    QString username;
    Secret password;
    QSslCertificate clientCertificate;
    QList<QSslCertificate> clientCertificateChain;
    QSslKey clientKey;
    QDateTime expiry;

    bool hasClientCertificate() const { return !clientCertificate.isNull() && !clientKey.isNull(); }
    bool isExpiredAt(const QDateTime &now) const { return expiry.isValid() && now >= expiry; }
};

} // namespace Cachescope
