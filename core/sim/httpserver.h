#pragma once

#include "core/sim/httprequest.h"

#include <QHostAddress>
#include <QObject>
#include <QSslCertificate>
#include <QSslKey>

#include <functional>
#include <memory>

class QTcpServer;
class QTcpSocket;

namespace Cachescope::Sim {

class HttpExchange;

// HttpServer accepts connections, plain (QTcpServer) or TLS (QSslServer), and speaks HTTP/2 or
// HTTP/1.1 on each as the client chooses, as the apiserver does: over TLS it offers `h2` and
// `http/1.1` by ALPN (Go clients such as kubectl pick h2, urllib3 and others http/1.1); over
// plain TCP a client that opens with the HTTP/2 connection preface (h2c with prior knowledge)
// gets HTTP/2, any other HTTP/1.1. setHttp1Only() turns HTTP/2 off for comparison. Each
// request reaches its handler through requestReceived() with the HttpExchange to answer it
// by: an HttpConnection (HTTP/1.1, one request at a time) or an Http2Stream of an Http2Session
// (one per stream, up to 250 at once on a connection). A TLS peer may present a client
// certificate; clientCertificateVerifier decides whether it counts as authenticated.
//
// Thread: lives on the server thread; owns its listening socket and every open connection
// (children, deleted when they close). listen() is non-blocking.
class HttpServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpServer)
public:
    struct TlsSettings
    {
        QSslCertificate certificate;
        QSslKey privateKey;
        QList<QSslCertificate> caCertificates;
        // Decides whether a peer's client certificate was issued by our CA.
        std::function<bool(const QSslCertificate &)> clientCertificateVerifier;
    };
    // What the transport saw, for tests: connections by protocol since listen(), and now.
    struct Stats
    {
        int http1Connections = 0; // opened
        int http2Sessions = 0; // opened
        int http2Streams = 0; // opened, over all sessions
        int http2ResetsReceived = 0; // RST_STREAM from clients, over all sessions
        int openConnections = 0; // of either protocol, now
        int openHttp2Streams = 0; // now
    };

    explicit HttpServer(QObject *parent = nullptr);
    ~HttpServer() override;

    // Turns TLS on for listen() calls made afterwards.
    void setTls(const TlsSettings &settings);
    // HTTP/1.1 only (no h2 by ALPN, no h2c), for listen() calls made afterwards.
    void setHttp1Only(bool http1Only) { m_http1Only = http1Only; }

    [[nodiscard]] bool listen(const QHostAddress &address, quint16 port);
    // Stops listening and ends every connection (HTTP/2 sessions with a GOAWAY first).
    void close();
    // Ends every open connection, as a restarting apiserver does (HTTP/2 with a GOAWAY, then the
    // connection closed), but keeps listening.
    void dropAllConnections();

    [[nodiscard]] quint16 port() const;
    [[nodiscard]] QHostAddress address() const;
    [[nodiscard]] bool isTls() const { return m_tls.has_value(); }
    [[nodiscard]] QString errorString() const;
    [[nodiscard]] int connectionCount() const;
    [[nodiscard]] Stats stats() const;

Q_SIGNALS:
    // One request, to be answered through exchange (which lives until it is answered or closed).
    void requestReceived(Cachescope::Sim::HttpExchange *exchange, const Cachescope::Sim::HttpRequest &request);

private:
    void acceptPending();
    void choosePlainProtocol(QTcpSocket *socket);
    void startHttp1(QTcpSocket *socket, bool clientCertificateVerified);
    void startHttp2(QTcpSocket *socket, bool clientCertificateVerified);

    std::unique_ptr<QTcpServer> m_server;
    std::optional<TlsSettings> m_tls;
    QString m_error;
    bool m_http1Only = false;
    Stats m_stats; // the counters; the "now" fields are computed by stats()
};

} // namespace Cachescope::Sim
