#pragma once

#include "core/kube/apierror.h"
#include "core/kube/apirequest.h"
#include "core/kube/apiresponse.h"
#include "core/kube/credentials.h"
#include "core/kube/restconfig.h"
#include "core/util/tokenbucket.h"

#include <QHash>
#include <QList>
#include <QNetworkRequest>
#include <QObject>
#include <QSslConfiguration>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace Cachescope {

class CredentialProvider;
class WatchStream;

// ApiClient talks to one cluster (one resolved kubeconfig context) over HTTPS with
// QNetworkAccessManager: TLS from the kubeconfig (CA, client certificate, tls-server-name as the
// peer verify name, verification off only with insecure-skip-tls-verify, reported in
// warnings()), credentials from its CredentialProvider, User-Agent "cachescope/VERSION", gzip
// unless disable-compression, HTTP/2 when the server offers it, a QPS/burst TokenBucket
// (client-go's flowcontrol limiter: none when qps <= 0), and client-go's retry rules: a 429 or
// 5xx answer that carries Retry-After is retried after that delay (up to maxRetries), a 401 is
// retried once with refreshed credentials when the user's credentials can change (exec plugin,
// tokenFile).
//
// Connections: Qt 6.4 keeps at most 6 HTTP/1.1 connections per host per QNAM and cannot raise
// it, and each watch holds one for its lifetime. So the client keeps a pool of QNAMs on its
// thread: one for ordinary requests, and watch QNAMs that carry at most watchesPerManager()
// watches each (or long-running streams: ApiRequest::longRunning, a followed log), created as
// needed and dropped when idle. Lists and gets never queue behind watches; 50 watches take 13 connections-worth of QNAMs over HTTP/1.1. Once the server has
// answered over HTTP/2, a watch QNAM takes up to 200 watches, multiplexed on its one connection
// (the apiserver allows 250 concurrent streams per connection; client-go also puts every watch
// on one connection).
//
// Dead connections. QNAM cannot tell a half-open connection from a quiet one and keeps sending
// new requests on it. A QNAM whose connection is presumed dead is retired: a watch whose idle
// watchdog fired retires its watch QNAM (retireWatchManager(); the QNAM's other watches end
// with it when they share its HTTP/2 connection), and a request that timed out retires the
// request QNAM. Retired QNAMs take no new requests and are deleted once their last reply ended.
//
// Thread: lives on its cluster's worker thread, together with its QNAMs; every method asserts
// it is called there. Callbacks run on that thread from the event loop, never re-entrantly,
// and not at all once their context object is gone. Owns its QNAMs, CredentialProvider and the
// replies in flight; WatchStreams are owned by whoever asked for them.
class ApiClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiClient)

public:
    using ResponseCallback = std::function<void(const ApiResponse &response)>;
    // BodyCallback receives the next bytes of a successful answer; false stops the transfer.
    using BodyCallback = std::function<bool(QByteArrayView bytes)>;

    explicit ApiClient(const RestConfig &config, QObject *parent = nullptr);
    ~ApiClient() override;

    const RestConfig &config() const { return m_config; }
    // configError() is set when the kubeconfig's TLS material cannot be used (every request
    // then fails with it).
    ApiError configError() const { return m_configError; }
    // warnings() are things the user should know that do not stop requests (verification off).
    QStringList warnings() const { return m_warnings; }

    // setRateLimit() replaces the token bucket; qps <= 0 turns client-side limiting off.
    void setRateLimit(double qps, int burst);
    void setMaxRetries(int retries) { m_maxRetries = retries; }
    // setMaxRetryDelay() caps how long a Retry-After may delay one retry.
    void setMaxRetryDelay(std::chrono::milliseconds delay) { m_maxRetryDelay = delay; }
    void setRequestTimeout(std::chrono::milliseconds timeout) { m_requestTimeout = timeout; }
    CredentialProvider *credentialProvider() const { return m_credentials; }

    // watchesPerManager() is 4 until a reply came over HTTP/2, then 200 (see above).
    int watchesPerManager() const { return m_http2Seen ? 200 : 4; }
    static constexpr int http1WatchesPerManager() { return 4; }
    // http2Seen() is true once the server answered a request over HTTP/2.
    bool http2Seen() const { return m_http2Seen; }
    int managerCount() const;
    int activeWatchCount() const;
    // retiredManagerCount() counts QNAMs retired as dead and not yet deleted.
    int retiredManagerCount() const { return int(m_retiredWatchManagers.size() + m_retiredRequestManagers.size()); }

    // send() performs one request (with rate limiting and retries) and calls back once.
    void send(const ApiRequest &request, QObject *context, ResponseCallback callback);
    void get(const QString &path, QObject *context, ResponseCallback callback);
    // readPieceSize is the piece in which streamed answers and watch streams are read from QNAM.
    static constexpr qsizetype readPieceSize = 256 * 1024;
    // stream() is send() for answers too large to hold: the body of a successful (2xx) answer is
    // handed to onBody in pieces as the network delivers them, and the final callback's
    // ApiResponse has an empty body. Retries happen only before any byte of a successful answer
    // was handed over, so a transfer that breaks midway ends with its error and the consumer
    // drops what it got. onBody returning false aborts the transfer (the final callback then
    // reports it canceled). Error answers are collected whole, as send() does.
    void stream(const ApiRequest &request, QObject *context, BodyCallback onBody, ResponseCallback callback);

    // watch() starts a watch; the returned stream is owned by parent (or by the client when
    // parent is null) and reports through its signals.
    WatchStream *watch(const ApiRequest &request, QObject *parent = nullptr);

    // url() is the absolute URL of a request (the server's path prefix kept).
    QUrl url(const ApiRequest &request) const;

Q_SIGNALS:
    // watchManagerRetired() tells the WatchStreams of `manager` that it was retired as dead;
    // `sharedConnection`: its watches share one (HTTP/2) connection, so all of them are lost.
    void watchManagerRetired(QNetworkAccessManager *manager, bool sharedConnection);

private:
    friend class WatchStream;
    using PreparedCallback = std::function<void(const QNetworkRequest &request, const ApiError &error)>;

    // prepare() waits for the rate limiter and the credentials, then builds the QNetworkRequest.
    void prepare(const ApiRequest &request, QObject *context, PreparedCallback callback);
    QNetworkRequest buildRequest(const ApiRequest &request, const Credentials &credentials) const;
    void attempt(const ApiRequest &request, QObject *context, BodyCallback onBody, ResponseCallback callback, int attemptNo, bool refreshedCredentials);
    QNetworkAccessManager *acquireWatchManager();
    void releaseWatchManager(QNetworkAccessManager *manager);
    void retireWatchManager(QNetworkAccessManager *manager, bool sharedConnection);
    void retireRequestManager();
    void requestEnded(QNetworkAccessManager *manager);
    QNetworkAccessManager *newManager();

    RestConfig m_config;
    ApiError m_configError;
    QStringList m_warnings;
    QSslConfiguration m_ssl;
    std::unique_ptr<TokenBucket> m_limiter; // none when qps <= 0
    CredentialProvider *m_credentials = nullptr; // owned (child)
    QNetworkAccessManager *m_requests = nullptr; // owned (child)
    struct WatchManager
    {
        QNetworkAccessManager *manager; // owned (child)
        int watches;
    };
    QList<WatchManager> m_watchManagers;
    QList<WatchManager> m_retiredWatchManagers; // no new watches; deleted when empty
    QHash<QNetworkAccessManager *, int> m_requestsInFlight; // per request QNAM, current or retired
    QList<QNetworkAccessManager *> m_retiredRequestManagers; // owned (children); deleted when idle
    bool m_http2Seen = false;
    int m_maxRetries = 10;
    std::chrono::milliseconds m_maxRetryDelay{std::chrono::seconds(60)};
    std::chrono::milliseconds m_requestTimeout{std::chrono::seconds(60)};
};

// errorFromReply() maps a finished QNetworkReply to an ApiError (none for a 2xx answer).
// `sslErrors` are the texts QNAM reported through sslErrors(), which name the real reason of a
// failed handshake.
ApiError errorFromReply(QNetworkReply *reply, const QByteArray &body, const QStringList &sslErrors);

} // namespace Cachescope
