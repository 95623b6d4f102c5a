#include "core/sim/authenticator.h"

#include "core/sim/httprequest.h"
#include "core/sim/resourcecatalog.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

Authenticator::Authenticator(const Settings &settings)
    : m_settings(settings)
{
}

std::variant<Authenticator::Caller, ApiError> Authenticator::authenticate(const HttpRequest &request, bool verifiedClientCertificate) const
{
    const QByteArray authorization = request.header("authorization");
    const QByteArray bearer = authorization.startsWith("Bearer ") ? authorization.mid(7).trimmed() : QByteArray();
    const auto matches = [&bearer](const QString &token) {
        return !token.isEmpty() && !bearer.isEmpty() && bearer == token.toLatin1();
    };
    if (matches(m_settings.restrictedToken))
        return Caller::RestrictedUser;
    if (matches(m_settings.bearerToken))
        return Caller::TokenUser;
    if (verifiedClientCertificate)
        return Caller::CertificateUser;
    if (!m_settings.requireAuthentication)
        return Caller::Anonymous;
    return ApiError::unauthorized();
}

std::optional<ApiError>
Authenticator::authorize(Caller caller, const QString &verb, const ResourceType &type, const QString &name, const QString &namespaceName) const
{
    if (caller != Caller::RestrictedUser || !m_settings.restrictedResources.contains(type.plural))
        return std::nullopt;
    return ApiError::forbidden(type, name, restrictedUserName(), verb, namespaceName);
}

QString Authenticator::restrictedUserName()
{
    return u"restricted"_s;
}

QString Authenticator::verbOf(const HttpRequest &request, bool watchPath, bool named)
{
    if (watchPath || request.queryValue(QStringLiteral("watch")) == QStringLiteral("true") ||
        request.queryValue(QStringLiteral("watch")) == QStringLiteral("1")) {
        return QStringLiteral("watch");
    }
    const QByteArray method = request.method;
    if (method == "GET" || method == "HEAD") {
        return named ? QStringLiteral("get") : QStringLiteral("list");
    }
    if (method == "POST") {
        return QStringLiteral("create");
    }
    if (method == "PUT") {
        return QStringLiteral("update");
    }
    if (method == "PATCH") {
        return QStringLiteral("patch");
    }
    if (method == "DELETE") {
        return named ? QStringLiteral("delete") : QStringLiteral("deletecollection");
    }
    return QString::fromLatin1(method).toLower();
}

} // namespace Cachescope::Sim
