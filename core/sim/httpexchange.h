#pragma once

#include "core/sim/httprequest.h"

#include <QObject>

#include <functional>

class QTcpSocket;

namespace Cachescope::Sim {

// HttpExchange is the response side of one request, whatever the protocol under it: over
// HTTP/1.1 it is the connection itself (HttpConnection answers one request at a time), over
// HTTP/2 one stream of a session (Http2Stream). ApiServer and WatchSession answer through it
// and never learn which protocol they speak.
//
// A response is written once: whole (sendResponse), streamed piece by piece (beginChunked,
// writeChunk, endChunked: a watch), or pulled from a producer as the peer drains
// (streamResponse: a large list). Writes never block; pendingBytes() says how much of this
// exchange's response waits for the peer (its socket over HTTP/1.1, its stream's share under
// HTTP/2 flow control), and writable() is emitted when it has fallen below a megabyte again, so
// a stream that holds back resumes as its reader drains and a slow reader can be dropped alone.
//
// closed() is emitted once when the exchange can no longer be written: the connection went away,
// or (HTTP/2) the peer reset the stream. Thread: the server thread. The exchange is deleted by its
// transport (deleteLater) after closed() or after its response; keep a QPointer to it.
class HttpExchange : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpExchange)
public:
    // Faults that act on the whole connection under this exchange (and, over HTTP/2, under every
    // other stream of its session); see FaultPlan.
    enum class ConnectionFault {
        // The TCP connection is reset (RST): at once for a response not yet written, right after
        // the first bytes of a streamed one (a watch is cut mid-stream).
        Reset,
        // Nothing more is read from or written to the connection, which stays open (the peer
        // sees silence, as behind a dead NAT or VPN path): at once for a response not yet
        // written, right after the first bytes of a streamed one. Given up after HalfOpenLimitMs.
        HalfOpen,
        // HTTP/2: GOAWAY now (no new streams), the streams in flight finish, those still
        // streaming after the grace are ended cleanly and the connection closed. HTTP/1.1: this
        // response says `Connection: close`, a stream is ended after the grace.
        GoAway,
    };
    // A half-open connection is given up after this long, so that it cannot hold a socket for
    // ever; a client's own detection must come far sooner (client-go: 45 s).
    static constexpr int HalfOpenLimitMs = 5 * 60 * 1000;

    explicit HttpExchange(QObject *parent = nullptr);
    ~HttpExchange() override;

    // A complete response with a Content-Length. Ends the exchange.
    virtual void sendResponse(int status, const QByteArray &contentType, const QByteArray &body, const HttpHeaders &extraHeaders = {}) = 0;

    // A streamed response: beginChunked(), any number of writeChunk(), endChunked().
    virtual void beginChunked(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders = {}) = 0;
    virtual void writeChunk(const QByteArray &data) = 0;
    virtual void endChunked() = 0;

    // A streamed response whose pieces are pulled from producer while less than a megabyte
    // waits for the peer; producer returns an empty array when the body is complete.
    virtual void streamResponse(int status, const QByteArray &contentType, std::function<QByteArray()> producer, const HttpHeaders &extraHeaders = {}) = 0;

    // A fault: bytes as HTTP/1.1 would carry them from where the response stands (a status line
    // and head if none was sent yet, a chunk header inside a chunked body), then the response is
    // cut. HTTP/1.1 writes them as they are and closes the connection; HTTP/2 sends what they
    // mean (HEADERS, then DATA without the chunk framing) and resets the stream.
    virtual void writeRawAndAbort(const QByteArray &bytes) = 0;

    // Ends the exchange at once without (more of) a response: HTTP/1.1 drops the connection,
    // HTTP/2 resets the stream.
    virtual void abort() = 0;

    // Arms fault on the connection under this exchange (see ConnectionFault); graceMs is the
    // GOAWAY's grace. Call it before the response.
    virtual void injectConnectionFault(ConnectionFault fault, int graceMs) = 0;

    [[nodiscard]] virtual qint64 pendingBytes() const = 0;
    [[nodiscard]] virtual bool isOpen() const = 0;
    // "http/1.1" or "h2".
    [[nodiscard]] virtual QByteArray protocol() const = 0;
    // Whether the TLS peer presented a client certificate issued by the simulator's CA.
    [[nodiscard]] virtual bool hasVerifiedClientCertificate() const = 0;

    // Makes socket's close a TCP RST instead of a FIN (SO_LINGER 0), as from a crashed peer or
    // a middlebox that drops the connection; the caller aborts the socket next.
    static void resetTcp(QTcpSocket *socket);

Q_SIGNALS:
    // Emitted once when the exchange can no longer be written, for whatever reason.
    void closed();
    // Emitted as the peer reads, whenever less than a megabyte waits: the moment for a stream
    // that holds back to write more.
    void writable();
};

} // namespace Cachescope::Sim
