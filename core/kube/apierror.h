#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

class QDebug;

namespace Cachescope {

// ApiError is why a request to a cluster did not give data: the kind of failure, and for
// answers from the server the decoded Kubernetes `Status` (HTTP code, reason such as NotFound
// or Expired, message) and the delay the server asked for (Retry-After, or the Status's
// details.retryAfterSeconds). A default-constructed ApiError means "no error" (isError()
// false). Messages never carry credentials: credential text is redacted before it gets here.
// Value type, any thread.
class ApiError
{
public:
    enum class Kind {
        None,
        Config, // the kubeconfig or TLS material cannot be used
        Credentials, // a token file, client key or exec plugin failed
        Network, // connection refused, reset, DNS, proxy
        Tls, // certificate verification or handshake failed
        Timeout,
        Http, // the server answered with an error status (see code(), reason())
        Decode, // the server's answer is not what the protocol says
        Canceled,
    };

    ApiError() = default;
    ApiError(Kind kind, QString message, int code = 0, QString reason = {});

    // fromResponse() decodes an error answer: a Status object in the body when there is one
    // (the apiserver's usual answer), else a short excerpt of whatever the body is (proxies
    // and load balancers answer with HTML). retryAfterHeader is the raw Retry-After header.
    [[nodiscard]] static ApiError fromResponse(int httpStatus, const QByteArray &body, const QByteArray &retryAfterHeader, const QDateTime &now);
    // fromStatus() decodes a Status object (as found in a watch ERROR event).
    [[nodiscard]] static ApiError fromStatus(const QByteArray &statusJson);

    // parseRetryAfter() reads a Retry-After value: delta-seconds or an HTTP-date (RFC 9110);
    // a date in the past means "now" (zero); anything else is no value.
    [[nodiscard]] static std::optional<std::chrono::seconds> parseRetryAfter(QByteArrayView header, const QDateTime &now);

    bool isError() const { return m_kind != Kind::None; }
    Kind kind() const { return m_kind; }
    int code() const { return m_code; }
    QString reason() const { return m_reason; }
    QString message() const { return m_message; }
    std::optional<std::chrono::seconds> retryAfter() const { return m_retryAfter; }
    void setRetryAfter(std::optional<std::chrono::seconds> delay) { m_retryAfter = delay; }
    // causeTypes() are the Status's details.causes[].type ("ResourceVersionTooLarge", "FieldValueInvalid"…).
    QStringList causeTypes() const { return m_causeTypes; }
    void setCauseTypes(const QStringList &types) { m_causeTypes = types; }

    // isExpired() is client-go's IsResourceExpired/IsGone: the resourceVersion or continue
    // token is too old and the caller has to list again.
    bool isExpired() const;
    // isTooLargeResourceVersion() is client-go's isTooLargeResourceVersionError: the server has
    // not reached the resourceVersion asked for (504 with the cause ResourceVersionTooLarge, or
    // the message older servers sent), e.g. after etcd was restored from a backup.
    bool isTooLargeResourceVersion() const;
    // isRetryable() says a later identical request may succeed: 429, 5xx, timeouts.
    bool isRetryable() const;
    // isConfiguration() says the kubeconfig's own material is unusable (a missing CA file, a
    // client key that is not PEM, an exec plugin that is not installed): not transient, since
    // retrying reads the same files, so callers fail at once (kubectl does) or wait for the
    // file to change.
    bool isConfiguration() const { return m_kind == Kind::Config || m_kind == Kind::Credentials; }
    // isRefusal() says the server refused these credentials (401 Unauthorized, 403 Forbidden):
    // the same request with the same credentials meets the same answer.
    bool isRefusal() const { return m_kind == Kind::Http && (m_code == 401 || m_code == 403); }

    // toString() is a one-line text for a person: "Forbidden (403): pods is forbidden: …".
    QString toString() const;

private:
    Kind m_kind = Kind::None;
    int m_code = 0;
    QString m_reason;
    QString m_message;
    std::optional<std::chrono::seconds> m_retryAfter;
    QStringList m_causeTypes;
};

QDebug operator<<(QDebug debug, const ApiError &error);

} // namespace Cachescope

Q_DECLARE_METATYPE(Cachescope::ApiError)
