#pragma once

#include "core/sim/httprequest.h"

#include <QObject>

#include <functional>

class QTcpSocket;

namespace Cachescope::Sim {

// HttpConnection is the server side of one HTTP/1.1 connection (plain or TLS): it parses
// requests (Content-Length or chunked bodies), answers them one at a time in order (keep-alive;
// a pipelined request waits until the response before it is finished) and writes responses,
// either whole, chunked piece by piece (watch streams) or pulled from a producer as the socket
// drains (large lists), so a response never has to sit in memory at once.
//
// Thread: lives on the server thread with its socket, which it owns. Never blocks: writes go to
// the socket's buffer; pendingBytes() tells a caller how far behind the peer is, so one slow
// reader can be dropped instead of stalling anyone else. After closed() the connection deletes
// itself (deleteLater); keep a QPointer to it.
class HttpConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpConnection)
public:
    // Takes ownership of socket, which must be connected (and, for TLS, encrypted).
    explicit HttpConnection(QTcpSocket *socket, QObject *parent = nullptr);
    ~HttpConnection() override;

    // A complete response with a Content-Length. Ends the current request.
    void sendResponse(int status, const QByteArray &contentType, const QByteArray &body, const HttpHeaders &extraHeaders = {});

    // A chunked response: beginChunked(), any number of writeChunk(), endChunked().
    void beginChunked(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders = {});
    void writeChunk(const QByteArray &data);
    void endChunked();

    // A chunked response whose pieces are pulled from producer while less than a megabyte is
    // waiting in the socket; producer returns an empty array when the body is complete.
    void streamResponse(int status, const QByteArray &contentType, std::function<QByteArray()> producer, const HttpHeaders &extraHeaders = {});

    // Writes bytes as they are, outside any framing (a fault: a truncated frame), then aborts.
    void writeRawAndAbort(const QByteArray &bytes);

    // Drops the connection at once, without a response.
    void abort();

    [[nodiscard]] qint64 pendingBytes() const;
    [[nodiscard]] bool isResponding() const { return m_responding; }
    [[nodiscard]] bool isOpen() const;

    // Whether the TLS peer presented a client certificate issued by the simulator's CA.
    [[nodiscard]] bool hasVerifiedClientCertificate() const { return m_clientCertificateVerified; }
    void setClientCertificateVerified(bool verified) { m_clientCertificateVerified = verified; }

Q_SIGNALS:
    void requestReceived(const Cachescope::Sim::HttpRequest &request);
    // Emitted once when the socket is gone, for whatever reason.
    void closed();
    // Emitted as the peer reads, whenever less than a megabyte waits to be sent: the moment for
    // a stream that holds back to write more.
    void writable();

private:
    void onReadyRead();
    void parseBuffered();
    void finishResponse();
    void pump();
    void writeHead(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders, qint64 contentLength);
    void fail(int status, const QByteArray &message);
    void onDisconnected();
    void closeGracefully();

    enum class State { Head, FixedBody, ChunkSize, ChunkData, ChunkTrailer, Done };

    QTcpSocket *m_socket; // owned (child) until closeGracefully() hands it its own lifetime
    QByteArray m_buffer;
    State m_state = State::Head;
    HttpRequest m_request;
    qint64 m_remaining = 0;
    bool m_responding = false;
    bool m_chunked = false;
    bool m_closeAfterResponse = false;
    bool m_closed = false;
    bool m_clientCertificateVerified = false;
    std::function<QByteArray()> m_producer;
};

} // namespace Cachescope::Sim
