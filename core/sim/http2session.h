#pragma once

#include "core/sim/httpexchange.h"
#include "core/sim/httprequest.h"

#include <QByteArrayView>
#include <QList>
#include <QObject>
#include <QPointer>

#include <cstdint>

class QTcpSocket;
class QTimer;
struct nghttp2_session;

namespace Cachescope::Sim {

class Http2Stream;

// Http2Session is the server side of one HTTP/2 connection (h2 negotiated by ALPN over TLS,
// or h2c with prior knowledge over plain TCP), on libnghttp2: it announces
// SETTINGS_MAX_CONCURRENT_STREAMS 250 (the apiserver's default), hands each complete request
// (headers and body) to its handler as an Http2Stream, and writes the streams' responses as
// nghttp2's data provider pulls them within the peer's flow-control windows. A stream with
// nothing to send is deferred (NGHTTP2_ERR_DEFERRED) and resumed when its watch writes more.
//
// The socket is written only while less than SocketHighWater waits in it, so one peer that
// reads slowly holds bytes in its streams' buffers (pendingBytes() per stream), never in an
// unbounded socket buffer. A peer that resets a stream (RST_STREAM, a cancelled watch) closes
// that stream's exchange; the others go on.
//
// Ending: goAway() sends GOAWAY (NO_ERROR) and lets the streams in flight finish; after the
// grace those still streaming are ended cleanly and the connection closes. reset() drops the TCP
// connection with an RST under every stream; freeze() stops reading and writing while the
// socket stays open (a half-open connection, released after HttpExchange::HalfOpenLimitMs). closed() is emitted
// once, when the connection is gone; the session then deletes itself (deleteLater).
//
// Thread: the server thread, with its socket, which it owns. Never blocks.
class Http2Session final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Http2Session)
public:
    // Takes ownership of socket, which must be connected (and, for TLS, encrypted with h2).
    Http2Session(QTcpSocket *socket, bool clientCertificateVerified, QObject *parent = nullptr);
    ~Http2Session() override;

    // GOAWAY now; the streams already opened finish, new ones are refused; what still streams
    // after graceMs is ended and the connection closed.
    void goAway(int graceMs);
    // GOAWAY, written out as far as the socket takes it, then the connection dropped: a server
    // that stops.
    void goAwayAndClose();
    // The TCP connection reset (RST) under every stream.
    void reset();
    // Nothing read or written any more; the socket stays open.
    void freeze();
    // Drops the connection at once.
    void abort();

    // Bytes from the peer, as the socket's readyRead hands them over: nghttp2 reads them, then
    // the requests they complete are emitted and what nghttp2 answers is written. Public so that
    // a test or fuzzer can feed a session whose socket has no peer.
    void receive(QByteArrayView data);

    [[nodiscard]] bool isOpen() const;
    [[nodiscard]] bool hasVerifiedClientCertificate() const { return m_clientCertificateVerified; }
    [[nodiscard]] int openStreamCount() const;
    [[nodiscard]] int streamsOpened() const { return m_streamsOpened; }
    [[nodiscard]] int resetsReceived() const { return m_resetsReceived; }

Q_SIGNALS:
    void requestReceived(Cachescope::Sim::HttpExchange *exchange, const Cachescope::Sim::HttpRequest &request);
    void closed();

private:
    friend class Http2Stream;
    struct Callbacks;

    void onReadyRead();
    void onDisconnected();
    void closeGracefully();
    // Sends soon (coalesced on the event loop), or now when called outside nghttp2's callbacks
    // and bytes pile up.
    void scheduleSend();
    void sendPending();
    void flushSocket();
    [[nodiscard]] qint64 socketPendingBytes() const;
    [[nodiscard]] QList<Http2Stream *> streams() const;

    QTcpSocket *m_socket; // owned (child) until closeGracefully() hands it its own lifetime
    nghttp2_session *m_session = nullptr; // owned
    QTimer *m_graceTimer = nullptr; // owned (child)
    QList<QPointer<Http2Stream>> m_ready; // complete requests, dispatched after nghttp2 returns
    QList<QPointer<Http2Stream>> m_drained; // streams whose buffers shrank in the last send
    int m_streamsOpened = 0;
    int m_resetsReceived = 0;
    bool m_clientCertificateVerified = false;
    bool m_inNghttp2 = false;
    bool m_sendScheduled = false;
    bool m_frozen = false;
    bool m_closed = false;
    bool m_goingAway = false;
};

} // namespace Cachescope::Sim
