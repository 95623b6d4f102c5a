#include "core/kube/apierror.h"

#include <QDebug>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ApiError::ApiError(Kind kind, QString message, int code, QString reason)
    : m_kind(kind)
    , m_code(code)
    , m_reason(std::move(reason))
    , m_message(std::move(message))
{
}

namespace {

// The reason the apiserver would have given for a bare status code, for answers without a
// Status body (client-go's NewGenericServerResponse does the same).
QString reasonForCode(int code)
{
    switch (code) {
    case 400:
        return u"BadRequest"_s;
    case 401:
        return u"Unauthorized"_s;
    case 403:
        return u"Forbidden"_s;
    case 404:
        return u"NotFound"_s;
    case 405:
        return u"MethodNotAllowed"_s;
    case 406:
        return u"NotAcceptable"_s;
    case 409:
        return u"Conflict"_s;
    case 410:
        return u"Gone"_s;
    case 415:
        return u"UnsupportedMediaType"_s;
    case 422:
        return u"Invalid"_s;
    case 429:
        return u"TooManyRequests"_s;
    case 500:
        return u"InternalError"_s;
    case 503:
        return u"ServiceUnavailable"_s;
    case 504:
        return u"Timeout"_s;
    default:
        return code >= 500 ? u"InternalError"_s : u"Unknown"_s;
    }
}

} // namespace

ApiError ApiError::fromStatus(const QByteArray &statusJson)
{
    const QJsonObject status = QJsonDocument::fromJson(statusJson).object();
    if (status.value(u"kind"_s).toString() != u"Status"_s) {
        return ApiError(Kind::Decode, u"expected a Status object"_s);
    }
    ApiError error(Kind::Http, status.value(u"message"_s).toString(), status.value(u"code"_s).toInt(), status.value(u"reason"_s).toString());
    if (error.m_reason.isEmpty() && error.m_code) {
        error.m_reason = reasonForCode(error.m_code);
    }
    const QJsonObject details = status.value(u"details"_s).toObject();
    const QJsonValue retry = details.value(u"retryAfterSeconds"_s);
    if (retry.isDouble() && retry.toInt() >= 0) {
        error.m_retryAfter = std::chrono::seconds(retry.toInt());
    }
    const QJsonArray causes = details.value(u"causes"_s).toArray();
    for (const QJsonValue &cause : causes) {
        const QJsonObject object = cause.toObject();
        error.m_causeTypes.append(object.value(u"reason"_s).toString());
        // The message of a cause without a type is what 1.17.0–1.18.5 servers sent instead.
        if (error.m_causeTypes.constLast().isEmpty() && object.value(u"message"_s).toString() == u"Too large resource version"_s) {
            error.m_causeTypes.last() = u"ResourceVersionTooLarge"_s;
        }
    }
    return error;
}

ApiError ApiError::fromResponse(int httpStatus, const QByteArray &body, const QByteArray &retryAfterHeader, const QDateTime &now)
{
    ApiError error = fromStatus(body);
    if (error.m_kind != Kind::Http) {
        // Not a Status: keep a short, printable excerpt so a proxy's HTML page is recognisable
        // without flooding the UI.
        QString excerpt = QString::fromUtf8(body.left(200)).simplified();
        if (body.size() > 200) {
            excerpt += u"…"_s;
        }
        QString message = u"the server answered with HTTP status "_s + QString::number(httpStatus);
        if (!excerpt.isEmpty()) {
            message += u": "_s + excerpt;
        }
        error = ApiError(Kind::Http, message, httpStatus, reasonForCode(httpStatus));
    }
    // The HTTP status is the truth for retry decisions; a Status body normally agrees.
    if (error.m_code == 0) {
        error.m_code = httpStatus;
    }
    if (auto header = parseRetryAfter(retryAfterHeader, now)) {
        error.m_retryAfter = header;
    }
    return error;
}

std::optional<std::chrono::seconds> ApiError::parseRetryAfter(QByteArrayView header, const QDateTime &now)
{
    const QByteArray value = header.toByteArray().trimmed();
    if (value.isEmpty()) {
        return std::nullopt;
    }
    bool ok = false;
    const qlonglong seconds = value.toLongLong(&ok);
    if (ok) {
        if (seconds < 0) {
            return std::nullopt;
        }
        return std::chrono::seconds(seconds);
    }
    // HTTP-date: IMF-fixdate is what servers send; RFC 9110 also asks recipients to accept
    // the obsolete RFC 850 and asctime forms.
    // The weekday is dropped before parsing: it is redundant, and Qt rejects a two-digit-year
    // RFC 850 date whose weekday does not match the 1900s year it assumes.
    static const char *const formats[] = {"dd MMM yyyy HH:mm:ss 'GMT'", "dd-MMM-yy HH:mm:ss 'GMT'", "MMM d HH:mm:ss yyyy"};
    QString text = QString::fromLatin1(value).simplified();
    const qsizetype space = text.indexOf(u' ');
    if (space < 0) {
        return std::nullopt;
    }
    text = text.mid(space + 1);
    for (const char *format : formats) {
        QDateTime when = QLocale::c().toDateTime(text, QLatin1String(format));
        if (!when.isValid()) {
            continue;
        }
        when.setTimeSpec(Qt::UTC);
        if (format == formats[1] && when.date().year() < 1970) {
            when = when.addYears(100);
        }
        const qint64 delta = now.secsTo(when);
        return std::chrono::seconds(std::max<qint64>(0, delta));
    }
    return std::nullopt;
}

bool ApiError::isExpired() const
{
    return m_kind == Kind::Http && (m_code == 410 || m_reason == u"Expired"_s || m_reason == u"Gone"_s);
}

bool ApiError::isTooLargeResourceVersion() const
{
    if (m_kind != Kind::Http) {
        return false;
    }
    if (m_causeTypes.contains(u"ResourceVersionTooLarge"_s)) {
        return true;
    }
    // Servers before 1.17 said so only in the message of a 504 Timeout.
    const bool timeout = m_code == 504 || m_reason == u"Timeout"_s;
    return timeout && m_message.contains(u"Too large resource version"_s);
}

bool ApiError::isRetryable() const
{
    if (m_kind == Kind::Timeout || m_kind == Kind::Network) {
        return true;
    }
    return m_kind == Kind::Http && (m_code == 429 || m_code >= 500);
}

QString ApiError::toString() const
{
    switch (m_kind) {
    case Kind::None:
        return u"no error"_s;
    case Kind::Http: {
        QString text = m_reason.isEmpty() ? QString(u"HTTP "_s + QString::number(m_code)) : QString(m_reason + u" ("_s + QString::number(m_code) + u')');
        if (!m_message.isEmpty()) {
            text += u": "_s + m_message;
        }
        return text;
    }
    default:
        return m_message;
    }
}

QDebug operator<<(QDebug debug, const ApiError &error)
{
    QDebugStateSaver saver(debug);
    debug.nospace() << "ApiError(" << int(error.kind()) << ", " << error.toString() << ')';
    return debug;
}

} // namespace Cachescope
