#include "core/sim/apierror.h"

#include "core/sim/resourcecatalog.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
QString qualified(const ResourceType &type)
{
    // The apiserver names a resource "pods" in the core group and "deployments.apps" elsewhere.
    return type.id();
}

ApiError make(int code, const QString &reason, const QString &message)
{
    ApiError error;
    error.code = code;
    error.reason = reason;
    error.message = message;
    return error;
}

ApiError withDetails(ApiError error, const ResourceType &type, const QString &name)
{
    QJsonObject details{{u"name"_s, name}, {u"kind"_s, type.plural}};
    if (!type.group.isEmpty())
        details.insert(u"group"_s, type.group);
    error.details = details;
    return error;
}
} // namespace

QJsonObject ApiError::toStatusObject() const
{
    QJsonObject status{
        {u"kind"_s, u"Status"_s},
        {u"apiVersion"_s, u"v1"_s},
        {u"metadata"_s, QJsonObject()},
        {u"status"_s, u"Failure"_s},
        {u"message"_s, message},
        {u"reason"_s, reason},
        {u"code"_s, code},
    };
    if (!details.isEmpty())
        status.insert(u"details"_s, details);
    return status;
}

QByteArray ApiError::toStatus() const
{
    return QJsonDocument(toStatusObject()).toJson(QJsonDocument::Compact);
}

ApiError ApiError::badRequest(const QString &message)
{
    return make(400, u"BadRequest"_s, message);
}

ApiError ApiError::notFound(const ResourceType &type, const QString &name)
{
    return withDetails(make(404, u"NotFound"_s, u"%1 \"%2\" not found"_s.arg(qualified(type), name)), type, name);
}

ApiError ApiError::notFoundPath(const QString &path)
{
    Q_UNUSED(path)
    return make(404, u"NotFound"_s, u"the server could not find the requested resource"_s);
}

ApiError ApiError::alreadyExists(const ResourceType &type, const QString &name)
{
    return withDetails(make(409, u"AlreadyExists"_s, u"%1 \"%2\" already exists"_s.arg(qualified(type), name)), type, name);
}

ApiError ApiError::conflict(const ResourceType &type, const QString &name)
{
    return withDetails(make(409,
                            u"Conflict"_s,
                            u"Operation cannot be fulfilled on %1 \"%2\": the object has been modified; please apply your changes to the latest "
                            u"version and try again"_s.arg(qualified(type), name)),
                       type,
                       name);
}

ApiError ApiError::expired(const QString &message)
{
    return make(410, u"Expired"_s, message);
}

ApiError ApiError::gone(const QString &message)
{
    return make(410, u"Gone"_s, message);
}

ApiError ApiError::tooLargeResourceVersion(quint64 requested, quint64 current, int retryAfterSeconds)
{
    ApiError error = make(504, u"Timeout"_s, u"Too large resource version: %1, current: %2"_s.arg(requested).arg(current));
    error.details = QJsonObject{
        {u"causes"_s, QJsonArray{QJsonObject{{u"reason"_s, u"ResourceVersionTooLarge"_s}, {u"message"_s, u"Too large resource version"_s}}}},
    };
    if (retryAfterSeconds > 0)
        error.details.insert(u"retryAfterSeconds"_s, retryAfterSeconds);
    return error;
}

ApiError ApiError::unauthorized()
{
    return make(401, u"Unauthorized"_s, u"Unauthorized"_s);
}

ApiError ApiError::forbidden(const ResourceType &type, const QString &name, const QString &user, const QString &verb, const QString &namespaceName)
{
    const QString subject = name.isEmpty() ? qualified(type) : u"%1 \"%2\""_s.arg(qualified(type), name);
    const QString scope = namespaceName.isEmpty() ? u"at the cluster scope"_s : u"in the namespace \"%1\""_s.arg(namespaceName);
    return withDetails(
        make(403,
             u"Forbidden"_s,
             u"%1 is forbidden: User \"%2\" cannot %3 resource \"%4\" in API group \"%5\" %6"_s.arg(subject, user, verb, type.plural, type.group, scope)),
        type,
        name);
}

ApiError ApiError::methodNotAllowed()
{
    return make(405, u"MethodNotAllowed"_s, u"the server does not allow this method on the requested resource"_s);
}

ApiError ApiError::invalid(const ResourceType &type, const QString &name, const QString &message)
{
    return withDetails(make(422, u"Invalid"_s, u"%1 \"%2\" is invalid: %3"_s.arg(type.kind, name, message)), type, name);
}

ApiError ApiError::tooManyRequests(int retryAfterSeconds)
{
    ApiError error = make(429, u"TooManyRequests"_s, u"Too many requests, please try again later."_s);
    error.details = QJsonObject{{u"retryAfterSeconds"_s, retryAfterSeconds}};
    return error;
}

ApiError ApiError::internal(const QString &message)
{
    return make(500, u"InternalError"_s, message);
}

ApiError ApiError::unavailable(const QString &message)
{
    return make(503, u"ServiceUnavailable"_s, message);
}

ApiError ApiError::unsupportedMediaType(const QString &contentType)
{
    return make(415,
                u"UnsupportedMediaType"_s,
                u"the body of the request was in an unknown format - accepted media types include: "
                u"application/json, application/merge-patch+json, application/strategic-merge-patch+json, "
                u"application/json-patch+json (got %1)"_s.arg(contentType));
}

} // namespace Cachescope::Sim
