#include "core/sim/httpserver.h"

#include "core/sim/http2session.h"
#include "core/sim/http2stream.h"
#include "core/sim/httpconnection.h"

#include <QSslConfiguration>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
// RFC 9113 3.4: what a client speaking HTTP/2 with prior knowledge sends first.
constexpr QByteArrayView ConnectionPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
} // namespace

HttpServer::HttpServer(QObject *parent)
    : QObject(parent)
{
}

HttpServer::~HttpServer() = default;

void HttpServer::setTls(const TlsSettings &settings)
{
    m_tls = settings;
}

bool HttpServer::listen(const QHostAddress &address, quint16 port)
{
    if (m_tls) {
        auto server = std::make_unique<QSslServer>();
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setLocalCertificate(m_tls->certificate);
        config.setPrivateKey(m_tls->privateKey);
        config.setCaCertificates(m_tls->caCertificates);
        // QueryPeer asks for a client certificate without requiring one: token users have none,
        // and the decision (token or certificate, else 401) belongs to the API layer.
        config.setPeerVerifyMode(QSslSocket::QueryPeer);
        // In the apiserver's order of preference; the server's choice wins.
        if (m_http1Only)
            config.setAllowedNextProtocols({QByteArrayLiteral("http/1.1")});
        else
            config.setAllowedNextProtocols({QByteArrayLiteral("h2"), QByteArrayLiteral("http/1.1")});
        server->setSslConfiguration(config);
        // Handshake errors only concern the one socket; QSslServer drops it by itself.
        connect(server.get(), &QSslServer::sslErrors, this, [](QSslSocket *socket, const QList<QSslError> &) { socket->ignoreSslErrors(); });
        m_server = std::move(server);
    } else {
        m_server = std::make_unique<QTcpServer>();
    }
    // Hundreds of watch clients may connect in a burst.
    m_server->setListenBacklogSize(1024);
    m_server->setMaxPendingConnections(1024);
    connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, this, &HttpServer::acceptPending);
    if (!m_server->listen(address, port)) {
        m_error = m_server->errorString();
        return false;
    }
    return true;
}

void HttpServer::acceptPending()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        if (!socket)
            break;
        auto *ssl = qobject_cast<QSslSocket *>(socket);
        if (!ssl) {
            if (m_http1Only)
                startHttp1(socket, false);
            else
                choosePlainProtocol(socket);
            continue;
        }
        bool verified = false;
        if (m_tls && m_tls->clientCertificateVerifier) {
            const QSslCertificate peer = ssl->peerCertificate();
            verified = !peer.isNull() && m_tls->clientCertificateVerifier(peer);
        }
        // QSslServer hands sockets over once encrypted, so ALPN has settled.
        if (!m_http1Only && ssl->sslConfiguration().nextNegotiatedProtocol() == "h2")
            startHttp2(socket, verified);
        else
            startHttp1(socket, verified);
    }
}

void HttpServer::choosePlainProtocol(QTcpSocket *socket)
{
    // Peeked, not read: the chosen protocol's parser reads the same bytes from the start.
    socket->setParent(this);
    auto decide = [this, socket] {
        const QByteArray head = socket->peek(ConnectionPreface.size());
        if (head.size() < ConnectionPreface.size() && ConnectionPreface.startsWith(head))
            return; // could still be the preface
        socket->disconnect(this);
        if (head == ConnectionPreface)
            startHttp2(socket, false);
        else
            startHttp1(socket, false);
    };
    connect(socket, &QTcpSocket::readyRead, this, decide);
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        socket->disconnect(this);
        socket->deleteLater();
    });
    if (socket->bytesAvailable() > 0)
        decide();
}

void HttpServer::startHttp1(QTcpSocket *socket, bool clientCertificateVerified)
{
    auto *connection = new HttpConnection(socket, this);
    connection->setClientCertificateVerified(clientCertificateVerified);
    ++m_stats.http1Connections;
    connect(
        connection, &HttpConnection::requestReceived, this, [this, connection](const HttpRequest &request) { Q_EMIT requestReceived(connection, request); });
}

void HttpServer::startHttp2(QTcpSocket *socket, bool clientCertificateVerified)
{
    auto *session = new Http2Session(socket, clientCertificateVerified, this);
    ++m_stats.http2Sessions;
    connect(session, &Http2Session::requestReceived, this, &HttpServer::requestReceived);
    // The session's own counters die with it; what tests read must not.
    connect(session, &Http2Session::closed, this, [this, session] {
        m_stats.http2Streams += session->streamsOpened();
        m_stats.http2ResetsReceived += session->resetsReceived();
    });
}

void HttpServer::close()
{
    if (m_server)
        m_server->close();
    dropAllConnections();
}

void HttpServer::dropAllConnections()
{
    const auto connections = findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly);
    for (HttpConnection *connection : connections)
        connection->abort();
    const auto sessions = findChildren<Http2Session *>(Qt::FindDirectChildrenOnly);
    for (Http2Session *session : sessions)
        session->goAwayAndClose();
}

int HttpServer::connectionCount() const
{
    return stats().openConnections;
}

HttpServer::Stats HttpServer::stats() const
{
    Stats stats = m_stats;
    for (const HttpConnection *connection : findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly))
        stats.openConnections += connection->isOpen() ? 1 : 0;
    for (const Http2Session *session : findChildren<Http2Session *>(Qt::FindDirectChildrenOnly)) {
        if (!session->isOpen())
            continue;
        ++stats.openConnections;
        stats.openHttp2Streams += session->openStreamCount();
        stats.http2Streams += session->streamsOpened();
        stats.http2ResetsReceived += session->resetsReceived();
    }
    return stats;
}

quint16 HttpServer::port() const
{
    return m_server ? m_server->serverPort() : 0;
}

QHostAddress HttpServer::address() const
{
    return m_server ? m_server->serverAddress() : QHostAddress();
}

QString HttpServer::errorString() const
{
    return m_error;
}

} // namespace Cachescope::Sim
