#include "core/kube/apiclient.h"

#include "core/kube/credentialprovider.h"
#include "core/kube/watchstream.h"
#include "core/version.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QThread>
#include <QTimer>

#include <memory>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// client-go's defaults (5 QPS, burst 10) are tuned for controllers; an explorer starts dozens
// of lists and watches at once when a cluster opens, so it gets kubectl's discovery budget.
constexpr double defaultQps = 50;
constexpr int defaultBurst = 100;
// What a streamed answer may have waiting unread: a few network reads, a few hundred pods.
constexpr qint64 streamReadBuffer = 1024 * 1024;

} // namespace

ApiClient::ApiClient(const RestConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_limiter(std::make_unique<TokenBucket>(defaultQps, defaultBurst))
{
    m_credentials = new CredentialProvider(config, this);
    const ClusterConfig &cluster = m_config.cluster;

    if (!cluster.server.isValid() || cluster.server.host().isEmpty()) {
        m_configError = ApiError(ApiError::Kind::Config, u"cluster \"%1\" has no server URL"_s.arg(cluster.name));
    }
    m_ssl = QSslConfiguration::defaultConfiguration();
    QByteArray caPem = cluster.certificateAuthorityData;
    if (caPem.isEmpty() && !cluster.certificateAuthority.isEmpty()) {
        QFile file(cluster.certificateAuthority);
        if (file.open(QIODevice::ReadOnly)) {
            caPem = file.readAll();
        } else {
            m_configError = ApiError(
                ApiError::Kind::Config,
                u"cannot read the certificate authority file %1 of cluster \"%2\": %3"_s.arg(cluster.certificateAuthority, cluster.name, file.errorString()));
        }
    }
    if (!caPem.isEmpty()) {
        const QList<QSslCertificate> cas = QSslCertificate::fromData(caPem, QSsl::Pem);
        if (cas.isEmpty()) {
            m_configError = ApiError(ApiError::Kind::Config, u"the certificate authority of cluster \"%1\" is not a PEM certificate"_s.arg(cluster.name));
        }
        // Only the cluster's CA: a kubeconfig CA replaces the system store, as in client-go.
        m_ssl.setCaCertificates(cas);
    }
    if (cluster.insecureSkipTlsVerify) {
        m_ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_warnings.append(u"TLS verification is off for cluster \"%1\" (insecure-skip-tls-verify): anyone on the network path can read and alter "
                          "this connection, credentials included"_s.arg(cluster.name));
    } else {
        m_ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    }
    if (cluster.proxyUrl.scheme() == u"https"_s) {
        m_warnings.append(u"proxy-url %1: TLS to the proxy itself is not supported; the proxy is used as a plain HTTP proxy"_s.arg(
            cluster.proxyUrl.toString(QUrl::RemoveUserInfo)));
    }
    m_requests = newManager();
}

ApiClient::~ApiClient() = default;

QNetworkAccessManager *ApiClient::newManager()
{
    auto *manager = new QNetworkAccessManager(this);
    const QUrl &proxyUrl = m_config.cluster.proxyUrl;
    if (proxyUrl.isValid()) {
        const auto type = proxyUrl.scheme() == u"socks5"_s ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy;
        manager->setProxy(QNetworkProxy(
            type, proxyUrl.host(), quint16(proxyUrl.port(type == QNetworkProxy::Socks5Proxy ? 1080 : 3128)), proxyUrl.userName(), proxyUrl.password()));
    }
    return manager;
}

void ApiClient::setRateLimit(double qps, int burst)
{
    // client-go builds no limiter for a QPS <= 0; a burst below one could never send at all.
    m_limiter = qps > 0 ? std::make_unique<TokenBucket>(qps, std::max(1, burst)) : nullptr;
}

int ApiClient::managerCount() const
{
    return 1 + int(m_watchManagers.size());
}

int ApiClient::activeWatchCount() const
{
    int count = 0;
    for (const WatchManager &entry : m_watchManagers) {
        count += entry.watches;
    }
    return count;
}

QUrl ApiClient::url(const ApiRequest &request) const
{
    QUrl result = m_config.cluster.server;
    QString base = result.path();
    if (base.endsWith(u'/')) {
        base.chop(1);
    }
    result.setPath(base + request.path);
    result.setQuery(request.query);
    return result;
}

QNetworkRequest ApiClient::buildRequest(const ApiRequest &request, const Credentials &credentials) const
{
    QNetworkRequest result(url(request));
    result.setRawHeader("Accept", request.accept);
    result.setHeader(QNetworkRequest::UserAgentHeader, userAgent());
    if (!request.contentType.isEmpty()) {
        result.setHeader(QNetworkRequest::ContentTypeHeader, request.contentType);
    }
    if (m_config.cluster.disableCompression) {
        // Setting the header also stops QNAM from adding its own gzip, deflate.
        result.setRawHeader("Accept-Encoding", "identity");
    }
    if (!credentials.bearerToken.isEmpty()) {
        result.setRawHeader("Authorization", "Bearer " + credentials.bearerToken.reveal());
    } else if (!credentials.username.isEmpty()) {
        result.setRawHeader("Authorization", "Basic " + QByteArray(credentials.username.toUtf8() + ':' + credentials.password.reveal()).toBase64());
    }
    const UserConfig &user = m_config.user;
    if (!user.impersonate.isEmpty()) {
        result.setRawHeader("Impersonate-User", user.impersonate.toUtf8());
        if (!user.impersonateUid.isEmpty()) {
            result.setRawHeader("Impersonate-Uid", user.impersonateUid.toUtf8());
        }
        // Repeated headers are sent as one comma-joined header by QNAM; the apiserver splits
        // Impersonate-Group the same way (it is a list header).
        if (!user.impersonateGroups.isEmpty()) {
            result.setRawHeader("Impersonate-Group", user.impersonateGroups.join(u","_s).toUtf8());
        }
        for (auto it = user.impersonateUserExtra.cbegin(); it != user.impersonateUserExtra.cend(); ++it) {
            result.setRawHeader("Impersonate-Extra-" + QUrl::toPercentEncoding(it.key()), it.value().join(u","_s).toUtf8());
        }
    }
    QSslConfiguration ssl = m_ssl;
    if (credentials.hasClientCertificate()) {
        ssl.setLocalCertificate(credentials.clientCertificate);
        ssl.setLocalCertificateChain(QList<QSslCertificate>{credentials.clientCertificate} + credentials.clientCertificateChain);
        ssl.setPrivateKey(credentials.clientKey);
    }
    result.setSslConfiguration(ssl);
    if (!m_config.cluster.tlsServerName.isEmpty()) {
        // Used both as the SNI name and as the name the certificate must carry.
        result.setPeerVerifyName(m_config.cluster.tlsServerName);
    }
    result.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    return result;
}

void ApiClient::prepare(const ApiRequest &request, QObject *context, PreparedCallback callback)
{
    Q_ASSERT_X(thread() == QThread::currentThread(), "ApiClient", "used from a thread other than its cluster's worker thread");
    if (m_configError.isError()) {
        const ApiError error = m_configError;
        QMetaObject::invokeMethod(
            context, [callback, error] { callback({}, error); }, Qt::QueuedConnection);
        return;
    }
    const auto proceed = [this, request, context, callback] {
        m_credentials->credentials(context, [this, request, callback](const Credentials &credentials, const ApiError &error) {
            if (error.isError()) {
                callback({}, error);
                return;
            }
            callback(buildRequest(request, credentials), {});
        });
    };
    const auto delay = m_limiter ? std::chrono::ceil<std::chrono::milliseconds>(m_limiter->reserve()) : std::chrono::milliseconds(0);
    if (delay.count() > 0) {
        QTimer::singleShot(delay, context, proceed);
    } else {
        proceed();
    }
}

void ApiClient::get(const QString &path, QObject *context, ResponseCallback callback)
{
    ApiRequest request;
    request.path = path;
    send(request, context, std::move(callback));
}

void ApiClient::send(const ApiRequest &request, QObject *context, ResponseCallback callback)
{
    attempt(request, context, {}, std::move(callback), 1, false);
}

void ApiClient::stream(const ApiRequest &request, QObject *context, BodyCallback onBody, ResponseCallback callback)
{
    attempt(request, context, std::move(onBody), std::move(callback), 1, false);
}

void ApiClient::attempt(const ApiRequest &request, QObject *context, BodyCallback onBody, ResponseCallback callback, int attemptNo, bool refreshedCredentials)
{
    prepare(
        request, context, [this, request, context, onBody, callback, attemptNo, refreshedCredentials](const QNetworkRequest &prepared, const ApiError &error) {
            if (error.isError()) {
                ApiResponse response;
                response.error = error;
                response.attempts = attemptNo;
                callback(response);
                return;
            }
            QNetworkRequest networkRequest = prepared;
            networkRequest.setTransferTimeout(request.longRunning ? 0 : int(m_requestTimeout.count()));
            // A long-running stream (a followed log) holds its connection as long as a watch does,
            // so it goes on a watch QNAM: over HTTP/1.1, lists and gets never queue behind it.
            const bool longRunning = request.longRunning;
            QNetworkAccessManager *manager = longRunning ? acquireWatchManager() : m_requests;
            QNetworkReply *reply =
                request.verb == "GET" ? manager->get(networkRequest) : manager->sendCustomRequest(networkRequest, request.verb, request.body);
            if (onBody) {
                // Back-pressure over HTTP/1.1: QNAM's network thread stops reading once this much
                // waits unread. Qt 6.4's HTTP/2 ignores it (see handOver below).
                reply->setReadBufferSize(streamReadBuffer);
            }
            if (!longRunning) {
                ++m_requestsInFlight[manager];
            }
            connect(reply, &QNetworkReply::finished, this, [this, reply, manager, longRunning] {
                if (reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool()) {
                    m_http2Seen = true;
                }
                if (longRunning) {
                    releaseWatchManager(manager);
                    return;
                }
                if (reply->error() == QNetworkReply::OperationCanceledError && manager == m_requests && reply->property("cachescopeAborted").isNull()) {
                    // The transfer timeout fired (a caller's abort is marked): the connection is
                    // presumed dead, and QNAM would send the next request on it again.
                    retireRequestManager();
                }
                requestEnded(manager);
            });
            auto sslErrors = std::make_shared<QStringList>();
            connect(reply, &QNetworkReply::sslErrors, reply, [sslErrors](const QList<QSslError> &errors) {
                for (const QSslError &sslError : errors) {
                    sslErrors->append(sslError.errorString());
                }
            });
            connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
            // A streamed answer: the bytes of a 2xx reply go to onBody as they arrive and are never
            // collected into one body.
            const auto streaming = [reply] {
                const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                return status >= 200 && status < 300;
            };
            // Read in pieces of a fixed size: one read of all that is available would allocate
            // (and page in) hundreds of MB when QNAM has buffered ahead, which over HTTP/2 it does:
            // Qt 6.4 opens the stream's flow-control window as data arrives, not as it is read.
            const auto handOver = [reply, onBody] {
                thread_local QByteArray piece(readPieceSize, Qt::Uninitialized);
                while (reply->isOpen() && reply->bytesAvailable() > 0) {
                    const qint64 read = reply->read(piece.data(), piece.size());
                    if (read <= 0) {
                        return;
                    }
                    if (!onBody(QByteArrayView(piece.constData(), read))) {
                        reply->setProperty("cachescopeAborted", true);
                        reply->abort();
                        return;
                    }
                }
            };
            if (onBody) {
                connect(reply, &QNetworkReply::readyRead, context, [streaming, handOver] {
                    if (streaming()) {
                        handOver();
                    }
                });
            }
            auto answer = std::make_shared<QMetaObject::Connection>();
            // A caller that goes away cancels its request. QObject emits destroyed() before it drops
            // its connections, and abort() finishes the reply at once: the answer to the caller is
            // cut first, or it would reach an object half destroyed.
            connect(context, &QObject::destroyed, reply, [reply, answer] {
                QObject::disconnect(*answer);
                reply->setProperty("cachescopeAborted", true);
                reply->abort();
            });
            *answer = connect(reply, &QNetworkReply::finished, context, [=, this] {
                const bool streamed = onBody && streaming();
                if (streamed && reply->property("cachescopeAborted").isNull()) {
                    handOver();
                }
                // A connection that failed before any answer leaves the reply closed: no body to read.
                const QByteArray body = !streamed && reply->isOpen() ? reply->readAll() : QByteArray();
                ApiError replyError = errorFromReply(reply, body, *sslErrors);
                if (!replyError.isError()) {
                    ApiResponse response;
                    response.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                    response.body = body;
                    response.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
                    response.attempts = attemptNo;
                    callback(response);
                    return;
                }
                if (replyError.kind() == ApiError::Kind::Http && replyError.code() == 401 && !refreshedCredentials && m_credentials->canRefresh()) {
                    // client-go refreshes exec credentials once on 401 and tries again.
                    m_credentials->invalidate();
                    attempt(request, context, onBody, callback, attemptNo + 1, true);
                    return;
                }
                if (replyError.kind() == ApiError::Kind::Http && (replyError.code() == 429 || replyError.code() >= 500) && replyError.retryAfter() &&
                    attemptNo <= m_maxRetries) {
                    const auto delay = std::min<std::chrono::milliseconds>(*replyError.retryAfter(), m_maxRetryDelay);
                    QTimer::singleShot(delay, context, [=, this] { attempt(request, context, onBody, callback, attemptNo + 1, refreshedCredentials); });
                    return;
                }
                ApiResponse response;
                response.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                response.body = body;
                response.error = replyError;
                response.attempts = attemptNo;
                callback(response);
            });
        });
}

WatchStream *ApiClient::watch(const ApiRequest &request, QObject *parent)
{
    Q_ASSERT_X(thread() == QThread::currentThread(), "ApiClient", "used from a thread other than its cluster's worker thread");
    auto *stream = new WatchStream(this, request, parent ? parent : this);
    stream->start(false);
    return stream;
}

QNetworkAccessManager *ApiClient::acquireWatchManager()
{
    for (WatchManager &entry : m_watchManagers) {
        if (entry.watches < watchesPerManager()) {
            ++entry.watches;
            return entry.manager;
        }
    }
    m_watchManagers.append({newManager(), 1});
    return m_watchManagers.constLast().manager;
}

void ApiClient::releaseWatchManager(QNetworkAccessManager *manager)
{
    for (QList<WatchManager> *list : {&m_watchManagers, &m_retiredWatchManagers}) {
        for (qsizetype i = 0; i < list->size(); ++i) {
            if ((*list)[i].manager == manager) {
                if (--(*list)[i].watches == 0) {
                    // Idle managers go: each holds a thread and connections.
                    (*list)[i].manager->deleteLater();
                    list->removeAt(i);
                }
                return;
            }
        }
    }
}

void ApiClient::retireWatchManager(QNetworkAccessManager *manager, bool sharedConnection)
{
    for (qsizetype i = 0; i < m_watchManagers.size(); ++i) {
        if (m_watchManagers[i].manager == manager) {
            m_retiredWatchManagers.append(m_watchManagers.takeAt(i));
            Q_EMIT watchManagerRetired(manager, sharedConnection);
            return;
        }
    }
}

void ApiClient::retireRequestManager()
{
    QNetworkAccessManager *old = m_requests;
    m_requests = newManager();
    if (m_requestsInFlight.value(old) > 0) {
        m_retiredRequestManagers.append(old);
    } else {
        m_requestsInFlight.remove(old);
        old->deleteLater();
    }
}

void ApiClient::requestEnded(QNetworkAccessManager *manager)
{
    if (--m_requestsInFlight[manager] > 0 || manager == m_requests) {
        return;
    }
    m_requestsInFlight.remove(manager);
    if (m_retiredRequestManagers.removeOne(manager)) {
        manager->deleteLater();
    }
}

ApiError errorFromReply(QNetworkReply *reply, const QByteArray &body, const QStringList &sslErrors)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 300) {
        return ApiError::fromResponse(status, body, reply->rawHeader("Retry-After"), QDateTime::currentDateTimeUtc());
    }
    const QString host = reply->url().host() + u':' + QString::number(reply->url().port(443));
    switch (reply->error()) {
    case QNetworkReply::NoError:
        return {};
    case QNetworkReply::SslHandshakeFailedError:
        return ApiError(ApiError::Kind::Tls,
                        u"TLS with %1 failed: %2; check the cluster's certificate-authority and tls-server-name"_s.arg(
                            host, sslErrors.isEmpty() ? reply->errorString() : sslErrors.join(u"; "_s)));
    case QNetworkReply::OperationCanceledError:
        if (!reply->property("cachescopeAborted").isNull()) {
            return ApiError(ApiError::Kind::Canceled, u"the request to %1 was canceled"_s.arg(host));
        }
        [[fallthrough]];
    case QNetworkReply::TimeoutError:
        // A transfer timeout aborts the reply with OperationCanceledError.
        return ApiError(ApiError::Kind::Timeout, u"%1 did not answer in time"_s.arg(host));
    default:
        // OpenSSL refuses a client key that is not the client certificate's before any byte is
        // sent (Qt: "Error loading private key, …key values mismatch"): the kubeconfig's user is
        // wrong, no retry will help. Qt has no error code of its own for it.
        // Any other key OpenSSL cannot load is the user's too, but not a mismatch: say only that.
        if (const QString why = reply->errorString(); why.contains(u"key values mismatch"_s)) {
            return ApiError(ApiError::Kind::Credentials, u"the client key does not match the client certificate (%1)"_s.arg(why));
        } else if (why.contains(u"Error loading private key"_s)) {
            return ApiError(ApiError::Kind::Credentials, u"the client key cannot be used (%1)"_s.arg(why));
        }
        return ApiError(ApiError::Kind::Network, u"cannot reach %1: %2"_s.arg(host, reply->errorString()));
    }
}

} // namespace Cachescope
