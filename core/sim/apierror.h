#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace Cachescope::Sim {

struct ResourceType;

// ApiError is a failed API call as the apiserver reports it: an HTTP code, a machine-readable
// reason (NotFound, AlreadyExists, Conflict, Expired, ...) and a message. toStatus() renders the
// `Status` object every error response and watch ERROR event carries. A value type.
struct ApiError
{
    int code = 500;
    QString reason;
    QString message;
    QJsonObject details;

    [[nodiscard]] QJsonObject toStatusObject() const;
    [[nodiscard]] QByteArray toStatus() const;

    static ApiError badRequest(const QString &message);
    static ApiError notFound(const ResourceType &type, const QString &name);
    static ApiError notFoundPath(const QString &path);
    static ApiError alreadyExists(const ResourceType &type, const QString &name);
    static ApiError conflict(const ResourceType &type, const QString &name);
    static ApiError expired(const QString &message);
    static ApiError gone(const QString &message);
    // tooLargeResourceVersion() is the watch cache's answer to a version it has not reached
    // (apimachinery's NewTooLargeResourceVersionError: 504 with the cause ResourceVersionTooLarge),
    // to a watch or a list; it asks to retry after retryAfterSeconds unless that is 0.
    static ApiError tooLargeResourceVersion(quint64 requested, quint64 current, int retryAfterSeconds);
    static ApiError unauthorized();
    // forbidden() is the authorizer's refusal, worded as the apiserver words it.
    static ApiError forbidden(const ResourceType &type, const QString &name, const QString &user, const QString &verb, const QString &namespaceName);
    static ApiError methodNotAllowed();
    static ApiError invalid(const ResourceType &type, const QString &name, const QString &message);
    static ApiError tooManyRequests(int retryAfterSeconds);
    static ApiError internal(const QString &message);
    static ApiError unavailable(const QString &message);
    static ApiError unsupportedMediaType(const QString &contentType);
};

} // namespace Cachescope::Sim
