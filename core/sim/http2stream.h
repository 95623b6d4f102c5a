#pragma once

#include "core/sim/httpexchange.h"

#include <QPointer>

#include <cstdint>
#include <optional>

namespace Cachescope::Sim {

class Http2Session;

// Http2Stream is the HttpExchange of one HTTP/2 stream of an Http2Session: the request that
// arrived on it and the response written back. The response's bytes wait in the stream's own
// buffer until the session's data provider hands them to nghttp2, as the peer's flow-control
// window allows; pendingBytes() is that buffer, so a reader that stops reading one watch grows
// only that watch's backlog (and is dropped for it) while the other streams of the connection
// flow on. abort() resets only this stream (RST_STREAM); a reset from the peer (a cancelled
// watch) ends in closed().
//
// Thread: the server thread. Owned by its session (child), deleted after the stream closed.
class Http2Stream final : public HttpExchange
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Http2Stream)
public:
    Http2Stream(Http2Session *session, std::int32_t id);
    ~Http2Stream() override;

    void sendResponse(int status, const QByteArray &contentType, const QByteArray &body, const HttpHeaders &extraHeaders = {}) override;
    void beginChunked(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders = {}) override;
    void writeChunk(const QByteArray &data) override;
    void endChunked() override;
    void streamResponse(int status, const QByteArray &contentType, std::function<QByteArray()> producer, const HttpHeaders &extraHeaders = {}) override;
    void writeRawAndAbort(const QByteArray &bytes) override;
    void abort() override;
    void injectConnectionFault(ConnectionFault fault, int graceMs) override;
    [[nodiscard]] qint64 pendingBytes() const override { return m_out.size() - m_outOffset; }
    [[nodiscard]] bool isOpen() const override;
    [[nodiscard]] QByteArray protocol() const override { return QByteArrayLiteral("h2"); }
    [[nodiscard]] bool hasVerifiedClientCertificate() const override;

    [[nodiscard]] std::int32_t id() const { return m_id; }

    // nghttp2's data provider for this stream (called by the session's nghttp2 only): up to
    // length bytes of the body, EOF when it is complete, DEFERRED while a watch has nothing new.
    [[nodiscard]] long readData(std::uint8_t *buffer, std::size_t length, std::uint32_t *flags);

private:
    friend class Http2Session;

    void submitHead(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders, qint64 contentLength);
    // The session's side: the moment after bytes left (refill, writable()), the close.
    void drained();
    void markClosed();
    // Ends a response still in flight cleanly (after a GOAWAY's grace).
    void endByServer();
    void resume();
    // An armed Reset or HalfOpen acts: on the session, once what was written so far is out.
    void applyArmedFault();

    QPointer<Http2Session> m_session; // not owned: the parent
    std::int32_t m_id;
    HttpRequest m_request; // filled by the session while the request arrives
    QByteArray m_out; // the response body not yet handed to nghttp2, from m_outOffset on
    qsizetype m_outOffset = 0;
    std::function<QByteArray()> m_producer;
    std::optional<ConnectionFault> m_armedFault;
    bool m_headSubmitted = false;
    bool m_endQueued = false; // END_STREAM follows the buffered bytes
    bool m_resetQueued = false; // RST_STREAM follows the buffered bytes (a truncated response)
    bool m_closed = false;
    bool m_dispatched = false;
};

} // namespace Cachescope::Sim
