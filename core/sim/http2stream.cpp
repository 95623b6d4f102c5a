#include "core/sim/http2stream.h"

#include "core/sim/http2session.h"

#include <QTimer>

#include <nghttp2/nghttp2.h>

#include <cctype>
#include <cstring>
#include <utility>
#include <vector>

namespace Cachescope::Sim {

namespace {
// As over HTTP/1.1: a stream holding back (a watch, a streamed list) refills while less than
// this waits for its reader.
constexpr qint64 LowWater = 1024 * 1024;
// Bytes of one stream that are handed to the session at once rather than on the next turn of
// the event loop: a burst of events must not look like a slow reader.
constexpr qint64 FlushThreshold = 64 * 1024;

ssize_t readCallback(nghttp2_session *, std::int32_t, std::uint8_t *buffer, std::size_t length, std::uint32_t *flags, nghttp2_data_source *source, void *)
{
    return static_cast<Http2Stream *>(source->ptr)->readData(buffer, length, flags);
}

bool isChunkSizeLine(QByteArrayView line)
{
    if (line.isEmpty())
        return false;
    for (const char c : line) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return false;
    }
    return true;
}
} // namespace

Http2Stream::Http2Stream(Http2Session *session, std::int32_t id)
    : HttpExchange(session)
    , m_session(session)
    , m_id(id)
{
}

Http2Stream::~Http2Stream() = default;

bool Http2Stream::isOpen() const
{
    return !m_closed && m_session && m_session->isOpen();
}

bool Http2Stream::hasVerifiedClientCertificate() const
{
    return m_session && m_session->hasVerifiedClientCertificate();
}

void Http2Stream::submitHead(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders, qint64 contentLength)
{
    if (m_closed || m_headSubmitted || !m_session)
        return;
    m_headSubmitted = true;
    // nghttp2 copies the names and values while submitting; these only need to live that long.
    QList<QByteArray> fields{QByteArrayLiteral(":status"), QByteArray::number(status)};
    if (!contentType.isEmpty())
        fields << QByteArrayLiteral("content-type") << contentType;
    if (contentLength >= 0)
        fields << QByteArrayLiteral("content-length") << QByteArray::number(contentLength);
    fields << QByteArrayLiteral("cache-control") << QByteArrayLiteral("no-cache, private");
    for (const auto &header : extraHeaders) {
        // HTTP/2 field names are lower case, and connection-specific fields are forbidden.
        const QByteArray name = header.first.toLower();
        if (name == "connection" || name == "transfer-encoding" || name == "keep-alive")
            continue;
        fields << name << header.second;
    }
    std::vector<nghttp2_nv> nv;
    nv.reserve(std::size_t(fields.size() / 2));
    for (qsizetype i = 0; i + 1 < fields.size(); i += 2) {
        nv.push_back({reinterpret_cast<std::uint8_t *>(const_cast<char *>(fields.at(i).constData())),
                      reinterpret_cast<std::uint8_t *>(const_cast<char *>(fields.at(i + 1).constData())),
                      std::size_t(fields.at(i).size()),
                      std::size_t(fields.at(i + 1).size()),
                      NGHTTP2_NV_FLAG_NONE});
    }
    nghttp2_data_provider provider;
    provider.source.ptr = this;
    provider.read_callback = readCallback;
    if (nghttp2_submit_response(m_session->m_session, m_id, nv.data(), nv.size(), &provider) != 0) {
        // The stream is already gone (reset by the peer in the same read); its close follows.
        m_resetQueued = true;
        return;
    }
    m_session->scheduleSend();
}

void Http2Stream::injectConnectionFault(ConnectionFault fault, int graceMs)
{
    if (m_closed || !m_session)
        return;
    if (fault == ConnectionFault::GoAway) {
        // This stream is in flight: the GOAWAY lets it finish.
        m_session->goAway(graceMs);
        return;
    }
    m_armedFault = fault;
}

void Http2Stream::applyArmedFault()
{
    const std::optional<ConnectionFault> fault = std::exchange(m_armedFault, std::nullopt);
    if (!fault || !m_session)
        return;
    if (*fault == ConnectionFault::Reset)
        m_session->reset();
    else
        m_session->freeze();
}

void Http2Stream::sendResponse(int status, const QByteArray &contentType, const QByteArray &body, const HttpHeaders &extraHeaders)
{
    if (m_closed || m_headSubmitted)
        return;
    if (m_armedFault) {
        // A whole answer is cut before it starts.
        applyArmedFault();
        return;
    }
    m_out = body;
    m_outOffset = 0;
    m_endQueued = true;
    submitHead(status, contentType, extraHeaders, body.size());
}

void Http2Stream::beginChunked(int status, const QByteArray &contentType, const HttpHeaders &extraHeaders)
{
    submitHead(status, contentType, extraHeaders, -1);
    // A streamed answer is cut after what its writer puts in right away (a watch's initial
    // events): mid-stream.
    if (m_armedFault)
        QTimer::singleShot(0, this, &Http2Stream::applyArmedFault);
}

void Http2Stream::writeChunk(const QByteArray &data)
{
    if (m_closed || !m_headSubmitted || m_endQueued || m_resetQueued || data.isEmpty())
        return;
    m_out.append(data);
    resume();
}

void Http2Stream::endChunked()
{
    if (m_closed || !m_headSubmitted || m_endQueued || m_resetQueued)
        return;
    m_endQueued = true;
    resume();
}

void Http2Stream::streamResponse(int status, const QByteArray &contentType, std::function<QByteArray()> producer, const HttpHeaders &extraHeaders)
{
    if (m_closed || m_headSubmitted)
        return;
    m_producer = std::move(producer);
    submitHead(status, contentType, extraHeaders, -1);
    drained();
    if (m_armedFault)
        QTimer::singleShot(0, this, &Http2Stream::applyArmedFault);
}

void Http2Stream::writeRawAndAbort(const QByteArray &bytes)
{
    if (m_closed || m_resetQueued)
        return;
    m_producer = nullptr;
    QByteArray rest = bytes;
    if (!m_headSubmitted) {
        // An HTTP/1.1 head (the truncated list's): its status and fields become HEADERS.
        int status = 200;
        QByteArray contentType;
        qint64 contentLength = -1;
        HttpHeaders extra;
        const qsizetype end = rest.indexOf("\r\n\r\n");
        if (rest.startsWith("HTTP/1.") && end > 0) {
            const QList<QByteArray> lines = rest.left(end).split('\n');
            status = lines.value(0).trimmed().split(' ').value(1).toInt();
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines.at(i).indexOf(':');
                if (colon <= 0)
                    continue;
                const QByteArray name = lines.at(i).left(colon).trimmed().toLower();
                const QByteArray value = lines.at(i).mid(colon + 1).trimmed();
                if (name == "content-type")
                    contentType = value;
                else if (name == "content-length")
                    contentLength = value.toLongLong();
                else
                    extra.append({name, value});
            }
            rest = rest.mid(end + 4);
        }
        submitHead(status, contentType, extra, contentLength);
    } else if (const qsizetype eol = rest.indexOf("\r\n"); eol > 0 && isChunkSizeLine(QByteArrayView(rest).first(eol))) {
        // Inside a chunked body: HTTP/2 frames the data itself.
        rest = rest.mid(eol + 2);
    }
    m_out.append(rest);
    m_resetQueued = true;
    resume();
}

void Http2Stream::abort()
{
    if (m_closed || !m_session)
        return;
    m_producer = nullptr;
    m_out.clear();
    m_outOffset = 0;
    m_resetQueued = true;
    // The stream alone ends, as a server's handler that gives up does (Go answers a panic with
    // RST_STREAM INTERNAL_ERROR); its close is reported when nghttp2 has sent the frame.
    nghttp2_submit_rst_stream(m_session->m_session, NGHTTP2_FLAG_NONE, m_id, NGHTTP2_INTERNAL_ERROR);
    m_session->scheduleSend();
}

void Http2Stream::resume()
{
    if (m_closed || !m_session || !m_headSubmitted)
        return;
    // Harmless when the stream was not deferred.
    nghttp2_session_resume_data(m_session->m_session, m_id);
    if (pendingBytes() > FlushThreshold)
        m_session->sendPending();
    else
        m_session->scheduleSend();
}

long Http2Stream::readData(std::uint8_t *buffer, std::size_t length, std::uint32_t *flags)
{
    const std::size_t n = std::min<std::size_t>(length, std::size_t(pendingBytes()));
    if (n > 0) {
        std::memcpy(buffer, m_out.constData() + m_outOffset, n);
        m_outOffset += qsizetype(n);
        if (m_outOffset == m_out.size()) {
            m_out.clear();
            m_outOffset = 0;
        } else if (m_outOffset > LowWater) {
            m_out.remove(0, m_outOffset);
            m_outOffset = 0;
        }
        if (m_session && !m_session->m_drained.contains(this))
            m_session->m_drained.append(this);
    }
    if (pendingBytes() > 0)
        return long(n);
    if (m_endQueued) {
        *flags |= NGHTTP2_DATA_FLAG_EOF;
        return long(n);
    }
    if (n > 0)
        return long(n);
    // A truncated response: its bytes are out, nghttp2 resets the stream (INTERNAL_ERROR).
    if (m_resetQueued)
        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    // Nothing to send yet: a watch waiting for its next event. resume() wakes it.
    return NGHTTP2_ERR_DEFERRED;
}

void Http2Stream::drained()
{
    if (m_closed)
        return;
    while (m_producer && pendingBytes() < LowWater) {
        const QByteArray piece = m_producer();
        if (piece.isEmpty()) {
            m_producer = nullptr;
            m_endQueued = true;
            resume();
            return;
        }
        m_out.append(piece);
        resume();
    }
    if (!m_producer && !m_endQueued && !m_resetQueued && pendingBytes() < LowWater)
        Q_EMIT writable();
}

void Http2Stream::endByServer()
{
    if (m_closed || !m_session)
        return;
    if (!m_headSubmitted) {
        nghttp2_submit_rst_stream(m_session->m_session, NGHTTP2_FLAG_NONE, m_id, NGHTTP2_REFUSED_STREAM);
        m_session->scheduleSend();
        return;
    }
    m_producer = nullptr;
    if (!m_resetQueued)
        m_endQueued = true;
    resume();
}

void Http2Stream::markClosed()
{
    if (m_closed)
        return;
    m_closed = true;
    m_producer = nullptr;
    m_out.clear();
    m_outOffset = 0;
    // Synchronously: the watch on this stream must stop before anything else writes to it. The
    // handlers only end their own state, they never call back into nghttp2.
    Q_EMIT closed();
    deleteLater();
}

} // namespace Cachescope::Sim
