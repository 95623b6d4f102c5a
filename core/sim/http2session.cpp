#include "core/sim/http2session.h"

#include "core/sim/http2stream.h"

#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <nghttp2/nghttp2.h>

#include <utility>

namespace Cachescope::Sim {

namespace {
// The apiserver's default (Go's http2.Server MaxConcurrentStreams as kube-apiserver sets it).
constexpr std::uint32_t MaxConcurrentStreams = 250;
// As over HTTP/1.1: request bodies beyond this are refused.
constexpr qsizetype MaxBodyBytes = 32 * 1024 * 1024;
// The socket is fed while less than this waits in it; the rest waits in the streams' buffers,
// where flow control and the slow-reader limit see it per stream.
constexpr qint64 SocketHighWater = 256 * 1024;
// After a GOAWAY's grace the streams still open are ended; a peer that does not read even
// those last bytes is dropped this much later.
constexpr int GoAwayCloseMs = 2000;

Http2Stream *streamOf(nghttp2_session *session, std::int32_t id)
{
    return static_cast<Http2Stream *>(nghttp2_session_get_stream_user_data(session, id));
}
} // namespace

// nghttp2's callbacks. They run inside nghttp2_session_mem_recv/mem_send only; they fill the
// streams' requests and queue work, and never call back into nghttp2 beyond submitting.
struct Http2Session::Callbacks
{
    static int beginHeaders(nghttp2_session *session, const nghttp2_frame *frame, void *user)
    {
        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
            return 0;
        auto *self = static_cast<Http2Session *>(user);
        auto *stream = new Http2Stream(self, frame->hd.stream_id);
        nghttp2_session_set_stream_user_data(session, frame->hd.stream_id, stream);
        ++self->m_streamsOpened;
        return 0;
    }

    static int header(nghttp2_session *session,
                      const nghttp2_frame *frame,
                      const std::uint8_t *name,
                      std::size_t nameLength,
                      const std::uint8_t *value,
                      std::size_t valueLength,
                      std::uint8_t,
                      void *)
    {
        Http2Stream *stream = frame->hd.type == NGHTTP2_HEADERS ? streamOf(session, frame->hd.stream_id) : nullptr;
        if (!stream)
            return 0;
        // nghttp2 has validated the fields: names are lower case, pseudo-headers come first.
        const QByteArray key(reinterpret_cast<const char *>(name), qsizetype(nameLength));
        const QByteArray text(reinterpret_cast<const char *>(value), qsizetype(valueLength));
        HttpRequest &request = stream->m_request;
        if (key == ":method")
            request.method = text;
        else if (key == ":path")
            request.setTarget(text);
        else if (key == ":authority")
            request.headers.insert(QByteArrayLiteral("host"), text);
        else if (!key.startsWith(':'))
            request.headers.insert(key, text);
        return 0;
    }

    static int dataChunk(nghttp2_session *session, std::uint8_t, std::int32_t id, const std::uint8_t *data, std::size_t length, void *)
    {
        Http2Stream *stream = streamOf(session, id);
        if (!stream)
            return 0;
        if (stream->m_request.body.size() + qsizetype(length) > MaxBodyBytes) {
            nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, id, NGHTTP2_REFUSED_STREAM);
            return 0;
        }
        stream->m_request.body.append(reinterpret_cast<const char *>(data), qsizetype(length));
        return 0;
    }

    static int frameReceived(nghttp2_session *session, const nghttp2_frame *frame, void *user)
    {
        auto *self = static_cast<Http2Session *>(user);
        switch (frame->hd.type) {
        case NGHTTP2_HEADERS:
        case NGHTTP2_DATA:
            if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
                Http2Stream *stream = streamOf(session, frame->hd.stream_id);
                if (stream && !stream->m_dispatched) {
                    stream->m_dispatched = true;
                    self->m_ready.append(stream);
                }
            }
            break;
        case NGHTTP2_RST_STREAM:
            ++self->m_resetsReceived;
            break;
        default:
            break;
        }
        return 0;
    }

    static int streamClosed(nghttp2_session *session, std::int32_t id, std::uint32_t, void *)
    {
        if (Http2Stream *stream = streamOf(session, id))
            stream->markClosed();
        return 0;
    }
};

Http2Session::Http2Session(QTcpSocket *socket, bool clientCertificateVerified, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_clientCertificateVerified(clientCertificateVerified)
{
    m_socket->setParent(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);

    nghttp2_session_callbacks *callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::beginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::dataChunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::frameReceived);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::streamClosed);
    nghttp2_session_server_new(&m_session, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, MaxConcurrentStreams}};
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));

    m_graceTimer = new QTimer(this);
    m_graceTimer->setSingleShot(true);
    connect(m_socket, &QTcpSocket::readyRead, this, &Http2Session::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &Http2Session::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            onDisconnected();
    });
    // As for HTTP/1.1: the encrypted side draining is what says the peer reads.
    if (auto *ssl = qobject_cast<QSslSocket *>(m_socket))
        connect(ssl, &QSslSocket::encryptedBytesWritten, this, &Http2Session::sendPending);
    else
        connect(m_socket, &QTcpSocket::bytesWritten, this, &Http2Session::sendPending);
    // The connection preface may already be buffered (h2c: it was peeked at to choose us).
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &Http2Session::onReadyRead, Qt::QueuedConnection);
    scheduleSend();
}

Http2Session::~Http2Session()
{
    nghttp2_session_del(m_session);
}

bool Http2Session::isOpen() const
{
    return !m_closed && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

QList<Http2Stream *> Http2Session::streams() const
{
    return findChildren<Http2Stream *>(Qt::FindDirectChildrenOnly);
}

int Http2Session::openStreamCount() const
{
    int count = 0;
    for (const Http2Stream *stream : streams())
        count += stream->m_closed ? 0 : 1;
    return count;
}

qint64 Http2Session::socketPendingBytes() const
{
    if (!m_socket)
        return 0;
    qint64 pending = m_socket->bytesToWrite();
    if (auto *ssl = qobject_cast<QSslSocket *>(m_socket))
        pending += ssl->encryptedBytesToWrite();
    return pending;
}

void Http2Session::onReadyRead()
{
    if (m_closed || m_frozen)
        return;
    receive(m_socket->readAll());
}

void Http2Session::receive(QByteArrayView data)
{
    if (m_closed || m_frozen)
        return;
    m_inNghttp2 = true;
    const auto consumed = nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t *>(data.constData()), std::size_t(data.size()));
    m_inNghttp2 = false;
    if (consumed < 0) {
        // Only fatal errors come back (a bad preface, a flood); nghttp2 answers the others
        // itself with RST_STREAM or GOAWAY.
        abort();
        return;
    }
    // Requests are handled here, outside nghttp2's callbacks, so that handlers may write.
    const QList<QPointer<Http2Stream>> ready = std::exchange(m_ready, {});
    for (const QPointer<Http2Stream> &stream : ready) {
        if (stream && !stream->m_closed && !m_closed) {
            const HttpRequest request = stream->m_request;
            Q_EMIT requestReceived(stream, request);
        }
    }
    sendPending();
}

void Http2Session::scheduleSend()
{
    if (m_closed || m_sendScheduled)
        return;
    m_sendScheduled = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_sendScheduled = false;
            sendPending();
        },
        Qt::QueuedConnection);
}

void Http2Session::sendPending()
{
    if (m_closed || m_frozen)
        return;
    if (m_inNghttp2) {
        // Called from a callback (a stream closing in a read): nghttp2 is not reentrant.
        scheduleSend();
        return;
    }
    m_inNghttp2 = true;
    bool failed = false;
    while (socketPendingBytes() < SocketHighWater) {
        const std::uint8_t *data = nullptr;
        const auto length = nghttp2_session_mem_send(m_session, &data);
        if (length < 0) {
            failed = true;
            break;
        }
        if (length == 0)
            break;
        m_socket->write(reinterpret_cast<const char *>(data), qint64(length));
    }
    m_inNghttp2 = false;
    if (failed) {
        abort();
        return;
    }
    if (!m_drained.isEmpty()) {
        // Refills and writable() on the next turn: a watch writing from inside its own write
        // would otherwise re-enter itself.
        QMetaObject::invokeMethod(
            this,
            [this] {
                const QList<QPointer<Http2Stream>> drained = std::exchange(m_drained, {});
                for (const QPointer<Http2Stream> &stream : drained) {
                    if (stream)
                        stream->drained();
                }
            },
            Qt::QueuedConnection);
    }
    // After a GOAWAY with no stream left, nghttp2 wants neither: the connection is done.
    if (!nghttp2_session_want_read(m_session) && !nghttp2_session_want_write(m_session))
        closeGracefully();
}

void Http2Session::flushSocket()
{
    sendPending();
    if (m_socket && !m_closed)
        m_socket->flush();
}

void Http2Session::goAway(int graceMs)
{
    if (m_closed || m_goingAway)
        return;
    m_goingAway = true;
    // The last stream processed is the one this GOAWAY lets finish (and all before it); the
    // peer retries newer ones on a new connection.
    nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(m_session), NGHTTP2_NO_ERROR, nullptr, 0);
    connect(m_graceTimer, &QTimer::timeout, this, [this] {
        for (Http2Stream *stream : streams())
            stream->endByServer();
        QTimer::singleShot(GoAwayCloseMs, this, &Http2Session::abort);
    });
    m_graceTimer->start(qMax(0, graceMs));
    sendPending();
}

void Http2Session::goAwayAndClose()
{
    if (m_closed)
        return;
    if (!m_frozen) {
        if (!m_goingAway)
            nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(m_session), NGHTTP2_NO_ERROR, nullptr, 0);
        m_goingAway = true;
        flushSocket();
    }
    abort();
}

void Http2Session::reset()
{
    if (m_closed)
        return;
    flushSocket();
    if (m_closed)
        return;
    HttpExchange::resetTcp(m_socket);
    abort();
}

void Http2Session::freeze()
{
    if (m_closed || m_frozen)
        return;
    flushSocket();
    if (m_closed)
        return;
    m_frozen = true;
    // A full read buffer makes Qt stop reading the socket: the kernel's buffer fills and the
    // peer's window closes, as when nobody is at the other end any more.
    m_socket->setReadBufferSize(1);
    QTimer::singleShot(HttpExchange::HalfOpenLimitMs, this, &Http2Session::abort);
}

void Http2Session::abort()
{
    if (m_closed)
        return;
    m_socket->abort();
    onDisconnected();
}

void Http2Session::onDisconnected()
{
    if (m_closed)
        return;
    m_closed = true;
    m_graceTimer->stop();
    for (Http2Stream *stream : streams())
        stream->markClosed();
    Q_EMIT closed();
    deleteLater();
}

void Http2Session::closeGracefully()
{
    if (m_closed)
        return;
    // As HttpConnection does: the socket outlives us until the peer has every byte.
    QTcpSocket *socket = m_socket;
    socket->disconnect(this);
    socket->setParent(nullptr);
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QTcpSocket::errorOccurred, socket, &QObject::deleteLater);
    socket->disconnectFromHost();
    if (socket->state() == QAbstractSocket::UnconnectedState)
        socket->deleteLater();
    m_socket = nullptr;
    onDisconnected();
}

} // namespace Cachescope::Sim
