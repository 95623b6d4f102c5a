#include "core/sim/httpconnection.h"

#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
// A streamed response refills the socket while less than this waits in it: big enough to keep
// loopback busy, small enough that a 100k-object list never sits in memory as one buffer.
constexpr qint64 StreamLowWater = 1024 * 1024;
constexpr qint64 FlushThreshold = 64 * 1024;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Request Entity Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}
} // namespace

HttpConnection::HttpConnection(QTcpSocket *socket, QObject *parent)
    : HttpExchange(parent)
    , m_socket(socket)
{
    m_socket->setParent(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            onDisconnected();
    });
    // Over TLS the plaintext buffer drains into the encrypted one first; what tells us the peer
    // is reading is the encrypted side draining.
    if (auto *ssl = qobject_cast<QSslSocket *>(m_socket))
        connect(ssl, &QSslSocket::encryptedBytesWritten, this, &HttpConnection::pump);
    else
        connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::pump);
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::onReadyRead, Qt::QueuedConnection);
}

HttpConnection::~HttpConnection() = default;

bool HttpConnection::isOpen() const
{
    return !m_closed && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 HttpConnection::pendingBytes() const
{
    if (!m_socket)
        return 0;
    qint64 pending = m_socket->bytesToWrite();
    if (auto *ssl = qobject_cast<QSslSocket *>(m_socket))
        pending += ssl->encryptedBytesToWrite();
    return pending;
}

void HttpConnection::onDisconnected()
{
    if (m_closed)
        return;
    m_closed = true;
    m_producer = nullptr;
    Q_EMIT closed();
    deleteLater();
}

void HttpConnection::abort()
{
    if (m_closed)
        return;
    m_socket->abort();
    onDisconnected();
}

void HttpConnection::injectConnectionFault(ConnectionFault fault, int graceMs)
{
    if (m_closed)
        return;
    if (fault != ConnectionFault::GoAway) {
        m_armedFault = fault;
        return;
    }
    // HTTP/1.1 has no GOAWAY: the response says the connection ends with it, and a stream that
    // outlives the grace is ended as a shutting-down apiserver ends its watches.
    m_closeAfterResponse = true;
    QTimer::singleShot(qMax(0, graceMs), this, [this] {
        if (!m_closed && m_responding && m_chunked) {
            m_producer = nullptr;
            endChunked();
        }
    });
}

void HttpConnection::applyArmedFault()
{
    const std::optional<ConnectionFault> fault = std::exchange(m_armedFault, std::nullopt);
    if (!fault || m_closed)
        return;
    if (m_socket->bytesToWrite() > 0)
        m_socket->flush();
    if (*fault == ConnectionFault::Reset) {
        resetTcp(m_socket);
        abort();
    } else {
        freeze();
    }
}

void HttpConnection::freeze()
{
    m_frozen = true;
    m_producer = nullptr;
    // A full read buffer makes Qt stop reading the socket: the kernel's buffer fills and the
    // peer's window closes, as when nobody is at the other end any more.
    m_socket->setReadBufferSize(1);
    QTimer::singleShot(HalfOpenLimitMs, this, &HttpConnection::abort);
}

void HttpConnection::onReadyRead()
{
    if (m_closed || m_frozen)
        return;
    m_parser.feed(m_socket->readAll());
    parseBuffered();
}

void HttpConnection::fail(int status, const QByteArray &message)
{
    m_closeAfterResponse = true;
    m_responding = true;
    sendResponse(status, "text/plain", message);
}

void HttpConnection::parseBuffered()
{
    // One request at a time: bytes of a pipelined request wait in the parser until the current
    // response is finished, which keeps responses in request order as HTTP/1.1 requires.
    while (!m_responding && !m_closed) {
        HttpRequestParser::Result result = m_parser.next();
        switch (result.kind) {
        case HttpRequestParser::Result::Kind::NeedMore:
            return;
        case HttpRequestParser::Result::Kind::Error:
            fail(result.errorStatus, result.errorMessage);
            return;
        case HttpRequestParser::Result::Kind::Request:
            // A GOAWAY that came while the connection was idle still ends it after this answer.
            m_closeAfterResponse = m_closeAfterResponse || result.closeAfterResponse;
            m_responding = true;
            Q_EMIT requestReceived(result.request);
            break;
        }
    }
}

void HttpConnection::writeHead(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders, qint64 contentLength)
{
    QByteArray head;
    head.reserve(256);
    head += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType + "\r\n";
    if (contentLength >= 0)
        head += "Content-Length: " + QByteArray::number(contentLength) + "\r\n";
    else
        head += "Transfer-Encoding: chunked\r\n";
    head += "Cache-Control: no-cache, private\r\n";
    for (const auto &header : extraHeaders)
        head += header.first + ": " + header.second + "\r\n";
    if (m_closeAfterResponse)
        head += "Connection: close\r\n";
    head += "\r\n";
    m_socket->write(head);
}

void HttpConnection::sendResponse(int status, const QByteArray &contentType, const QByteArray &body, const HttpHeaders &extraHeaders)
{
    if (m_closed || m_frozen)
        return;
    if (m_armedFault) {
        // A whole answer is cut before it starts.
        applyArmedFault();
        return;
    }
    writeHead(status, contentType, extraHeaders, body.size());
    m_socket->write(body);
    finishResponse();
}

void HttpConnection::beginChunked(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders)
{
    if (m_closed || m_frozen)
        return;
    m_chunked = true;
    writeHead(status, contentType, extraHeaders, -1);
    // A streamed answer is cut after what its writer puts in right away (a watch's initial
    // events): mid-stream.
    if (m_armedFault)
        QTimer::singleShot(0, this, &HttpConnection::applyArmedFault);
}

void HttpConnection::writeChunk(const QByteArray &data)
{
    if (m_closed || m_frozen || !m_chunked || data.isEmpty())
        return;
    m_socket->write(QByteArray::number(data.size(), 16) + "\r\n");
    m_socket->write(data);
    m_socket->write("\r\n", 2);
    // QAbstractSocket hands its buffer to the kernel only when the event loop comes round; a
    // burst of events would otherwise pile up here and look like a slow reader. Flushing early
    // leaves in pendingBytes() only what the peer's kernel buffers refused.
    if (m_socket->bytesToWrite() > FlushThreshold)
        m_socket->flush();
}

void HttpConnection::endChunked()
{
    if (m_closed || m_frozen || !m_chunked)
        return;
    m_chunked = false;
    m_socket->write("0\r\n\r\n", 5);
    finishResponse();
}

void HttpConnection::streamResponse(int status, const QByteArray &contentType, std::function<QByteArray()> producer, const HttpHeaders &extraHeaders)
{
    if (m_closed)
        return;
    beginChunked(status, contentType, extraHeaders);
    m_producer = std::move(producer);
    pump();
}

void HttpConnection::pump()
{
    while (m_producer && !m_closed && !m_frozen && pendingBytes() < StreamLowWater) {
        const QByteArray piece = m_producer();
        if (piece.isEmpty()) {
            m_producer = nullptr;
            endChunked();
            return;
        }
        writeChunk(piece);
    }
    if (!m_closed && !m_frozen && !m_producer && pendingBytes() < StreamLowWater)
        Q_EMIT writable();
}

void HttpConnection::writeRawAndAbort(const QByteArray &bytes)
{
    if (m_closed || m_frozen)
        return;
    m_socket->write(bytes);
    m_socket->flush();
    // disconnectFromHost() sends what is buffered first and then closes: the peer sees the
    // partial bytes followed by EOF, exactly what a truncated frame looks like.
    m_producer = nullptr;
    closeGracefully();
}

void HttpConnection::closeGracefully()
{
    // Deleting a socket aborts it and loses what is still buffered; the socket is handed its
    // own lifetime instead, ending when the peer has everything and the close is done.
    m_closed = true;
    QTcpSocket *socket = m_socket;
    socket->disconnect(this);
    socket->setParent(nullptr);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QTcpSocket::errorOccurred, socket, &QObject::deleteLater);
    socket->disconnectFromHost();
    if (socket->state() == QAbstractSocket::UnconnectedState)
        socket->deleteLater();
    m_socket = nullptr;
    Q_EMIT closed();
    deleteLater();
}

void HttpConnection::finishResponse()
{
    m_responding = false;
    if (m_closeAfterResponse) {
        closeGracefully();
        return;
    }
    if (m_parser.hasBufferedBytes())
        QMetaObject::invokeMethod(this, &HttpConnection::parseBuffered, Qt::QueuedConnection);
}

} // namespace Cachescope::Sim
