#pragma once

#include "core/sim/httpexchange.h"
#include "core/sim/httprequestparser.h"

#include <optional>

class QTcpSocket;

namespace Cachescope::Sim {

// HttpConnection is the server side of one HTTP/1.1 connection (plain or TLS) and the
// HttpExchange of the request it is answering: it parses
// requests with an HttpRequestParser (Content-Length or chunked bodies), answers them one at a time in order (keep-alive;
// a pipelined request waits until the response before it is finished) and writes responses,
// either whole, chunked piece by piece (watch streams) or pulled from a producer as the socket
// drains (large lists), so a response never has to sit in memory at once.
//
// Thread: lives on the server thread with its socket, which it owns. Never blocks: writes go to
// the socket's buffer; pendingBytes() tells a caller how far behind the peer is, so one slow
// reader can be dropped instead of stalling anyone else. After closed() the connection deletes
// itself (deleteLater); keep a QPointer to it.
class HttpConnection final : public HttpExchange
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpConnection)
public:
    // Takes ownership of socket, which must be connected (and, for TLS, encrypted).
    explicit HttpConnection(QTcpSocket *socket, QObject *parent = nullptr);
    ~HttpConnection() override;

    // HttpExchange. A response to a request, written chunked when streamed; closed() means the
    // socket is gone.
    void sendResponse(int status, const QByteArray &contentType, const QByteArray &body, const HttpHeaders &extraHeaders = {}) override;
    void beginChunked(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders = {}) override;
    void writeChunk(const QByteArray &data) override;
    void endChunked() override;
    void streamResponse(int status, const QByteArray &contentType, std::function<QByteArray()> producer, const HttpHeaders &extraHeaders = {}) override;
    // Writes bytes as they are, outside any framing, then closes the connection.
    void writeRawAndAbort(const QByteArray &bytes) override;
    // Drops the connection at once, without a response.
    void abort() override;
    void injectConnectionFault(ConnectionFault fault, int graceMs) override;
    [[nodiscard]] qint64 pendingBytes() const override;
    [[nodiscard]] bool isOpen() const override;
    [[nodiscard]] QByteArray protocol() const override { return QByteArrayLiteral("http/1.1"); }
    [[nodiscard]] bool hasVerifiedClientCertificate() const override { return m_clientCertificateVerified; }

    [[nodiscard]] bool isResponding() const { return m_responding; }
    void setClientCertificateVerified(bool verified) { m_clientCertificateVerified = verified; }

Q_SIGNALS:
    void requestReceived(const Cachescope::Sim::HttpRequest &request);

private:
    void onReadyRead();
    void parseBuffered();
    void finishResponse();
    void pump();
    void writeHead(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders, qint64 contentLength);
    void fail(int status, const QByteArray &message);
    void onDisconnected();
    void closeGracefully();
    void applyArmedFault();
    void freeze();

    QTcpSocket *m_socket; // owned (child) until closeGracefully() hands it its own lifetime
    HttpRequestParser m_parser;
    bool m_responding = false;
    bool m_chunked = false;
    bool m_closeAfterResponse = false;
    bool m_closed = false;
    bool m_clientCertificateVerified = false;
    bool m_frozen = false;
    std::optional<ConnectionFault> m_armedFault;
    std::function<QByteArray()> m_producer;
};

} // namespace Cachescope::Sim
