#pragma once

#include <QHostAddress>
#include <QObject>
#include <QSslCertificate>
#include <QSslKey>

#include <functional>
#include <memory>

class QTcpServer;
class QTcpSocket;

namespace Cachescope::Sim {

class HttpConnection;

// HttpServer accepts HTTP/1.1 connections, plain (QTcpServer) or TLS (QSslServer, offering
// only http/1.1 by ALPN so Go and Python clients never try HTTP/2), and wraps each in an
// HttpConnection that it announces through connectionOpened(). A TLS peer may present a client
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

    explicit HttpServer(QObject *parent = nullptr);
    ~HttpServer() override;

    // Turns TLS on for listen() calls made afterwards.
    void setTls(const TlsSettings &settings);

    [[nodiscard]] bool listen(const QHostAddress &address, quint16 port);
    void close();
    // Aborts every open connection, as a restarting apiserver does, but keeps listening.
    void dropAllConnections();

    [[nodiscard]] quint16 port() const;
    [[nodiscard]] QHostAddress address() const;
    [[nodiscard]] bool isTls() const { return m_tls.has_value(); }
    [[nodiscard]] QString errorString() const;
    [[nodiscard]] int connectionCount() const;

Q_SIGNALS:
    void connectionOpened(Cachescope::Sim::HttpConnection *connection);

private:
    void acceptPending();

    std::unique_ptr<QTcpServer> m_server;
    std::optional<TlsSettings> m_tls;
    QString m_error;
};

} // namespace Cachescope::Sim
