#pragma once

#include "core/sim/apierror.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace Cachescope::Sim {

struct HttpRequest;
struct ResourceType;

// Authenticator is the simulator's authentication and authorization, the two filters a real
// apiserver runs before any handler: authenticate() says who a request comes from (the bearer
// token of the kubeconfig's user, a client certificate our CA issued, the restricted user's
// token) or refuses it with 401; authorize() refuses the restricted user every verb on
// restrictedResources with the 403 RBAC words, so that clients meet a Forbidden as they do on
// real clusters. Nobody else is ever refused.
//
// A value type of settings and pure functions: thread-free and cheap.
class Authenticator final
{
public:
    struct Settings
    {
        QString bearerToken; // empty: no token accepted
        // A second token, of a user whom RBAC denies every verb on restrictedResources (by
        // plural name).
        QString restrictedToken;
        QStringList restrictedResources{QStringLiteral("pods"), QStringLiteral("secrets")};
        // false: a request without valid credentials is served as Anonymous (the restricted
        // token is still restricted).
        bool requireAuthentication = true;
    };

    enum class Caller {
        Anonymous, // no valid credentials, and none required
        TokenUser, // the bearer token
        CertificateUser, // a client certificate of our CA
        RestrictedUser, // the restricted token: denied restrictedResources
    };

    explicit Authenticator(const Settings &settings);

    // Who request comes from; verifiedClientCertificate is whether its TLS peer showed a client
    // certificate of our CA. The restricted token wins over every other credential.
    [[nodiscard]] std::variant<Caller, ApiError> authenticate(const HttpRequest &request, bool verifiedClientCertificate) const;
    // The 403 for caller's verb on a resource of type (name empty for a collection), or nothing
    // when it is allowed.
    [[nodiscard]] std::optional<ApiError>
    authorize(Caller caller, const QString &verb, const ResourceType &type, const QString &name, const QString &namespaceName) const;

    // The user name RBAC messages give the restricted user.
    static QString restrictedUserName();
    // The authorizer's verb for a request, as RBAC rules name them: watch (a /watch/ path or
    // ?watch=true), get or list, create, update, patch, delete or deletecollection.
    [[nodiscard]] static QString verbOf(const HttpRequest &request, bool watchPath, bool named);

private:
    Settings m_settings;
};

} // namespace Cachescope::Sim
