#include "core/sim/httpserver.h"

#include "core/sim/httpconnection.h"

#include <QSslConfiguration>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

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
        config.setAllowedNextProtocols({QByteArrayLiteral("http/1.1")});
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
        auto *connection = new HttpConnection(socket, this);
        if (auto *ssl = qobject_cast<QSslSocket *>(socket); ssl && m_tls && m_tls->clientCertificateVerifier) {
            const QSslCertificate peer = ssl->peerCertificate();
            connection->setClientCertificateVerified(!peer.isNull() && m_tls->clientCertificateVerifier(peer));
        }
        Q_EMIT connectionOpened(connection);
    }
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
}

int HttpServer::connectionCount() const
{
    return int(findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly).size());
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
