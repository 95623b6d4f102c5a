#include "core/kube/watchstream.h"

#include "core/kube/apiclient.h"
#include "core/kube/credentialprovider.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

WatchStream::WatchStream(ApiClient *client, ApiRequest request, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_request(std::move(request))
    , m_watchdog(new QTimer(this))
{
    m_watchdog->setSingleShot(true);
    connect(m_watchdog, &QTimer::timeout, this, [this] {
        if (!m_reply) {
            return;
        }
        const double seconds = double(currentIdleBudget().count()) / 1000.0;
        const QPointer<ApiClient> owner = m_client;
        QNetworkAccessManager *manager = m_manager;
        const bool shared = m_httpVersion == u"2"_s || (m_httpVersion.isEmpty() && owner && owner->http2Seen());
        // This stream first (a receiver of finished() may delete it), then the QNAM: over
        // HTTP/2 its other watches share the dead connection and end with it.
        abortAsLost(
            ApiError(ApiError::Kind::Timeout, u"the watch was silent for %1 s; the connection is presumed dead and the watch is dropped"_s.arg(seconds)));
        if (owner && manager) {
            owner->retireWatchManager(manager, shared);
        }
    });
    if (client) {
        connect(client, &ApiClient::watchManagerRetired, this, [this](QNetworkAccessManager *manager, bool shared) {
            if (manager == m_manager && m_reply && (shared || m_state == State::Connecting)) {
                abortAsLost(
                    ApiError(ApiError::Kind::Timeout,
                             u"another watch on the same connection was silent past its budget; the connection is presumed dead and the watch is dropped"_s));
            }
        });
    }
}

WatchStream::~WatchStream()
{
    stop();
}

void WatchStream::setIdleTimeout(std::chrono::milliseconds timeout)
{
    m_idleTimeout = timeout;
    if (timeout.count() <= 0) {
        m_watchdog->stop();
    } else if (m_watchdog->isActive()) {
        restartWatchdog();
    }
}

std::chrono::milliseconds WatchStream::currentIdleBudget() const
{
    if (m_idleTimeout.count() <= 0 || m_bookmarks < 2) {
        return m_idleTimeout;
    }
    // Three bookmark intervals of silence: one late bookmark is a busy server, three is a dead
    // path. The floor keeps a loaded machine's scheduling delays from looking like one.
    const std::chrono::milliseconds learned(3 * m_longestBookmarkGapMs + 1000);
    return std::clamp(learned, std::min(minimumIdleBudget(), m_idleTimeout), m_idleTimeout);
}

void WatchStream::restartWatchdog()
{
    if (m_idleTimeout.count() > 0) {
        m_watchdog->start(currentIdleBudget());
    }
}

void WatchStream::noteBookmark()
{
    if (m_bookmarks > 0) {
        m_longestBookmarkGapMs = std::max(m_longestBookmarkGapMs, m_sinceBookmark.restart());
    } else {
        m_sinceBookmark.start();
    }
    ++m_bookmarks;
}

void WatchStream::abortAsLost(const ApiError &error)
{
    if (!m_reply || m_lostError) {
        return;
    }
    m_lostError = error;
    // abort() finishes the reply at once: onFinished() reports m_lostError.
    m_reply->abort();
}

void WatchStream::start(bool refreshedCredentials)
{
    if (!m_client) {
        finish(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    m_client->prepare(m_request, this, [this, refreshedCredentials](const QNetworkRequest &request, const ApiError &error) {
        if (m_state == State::Finished) {
            return;
        }
        if (error.isError()) {
            finish(error);
            return;
        }
        open(request, refreshedCredentials);
    });
}

void WatchStream::open(const QNetworkRequest &request, bool refreshedCredentials)
{
    if (!m_client) {
        finish(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    m_manager = m_client->acquireWatchManager();
    m_reply = m_manager->get(request);
    m_sslErrors.clear();
    m_lostError.reset();
    m_requestsSent = 0;
    m_headerSets = 0;
    connect(m_reply, &QNetworkReply::requestSent, this, [this] {
        if (++m_requestsSent > 1) {
            abortAsLost(ApiError(ApiError::Kind::Network,
                                 u"the connection was lost and the watch request was sent again; the new answer is not the continuation of this watch"_s));
        }
    });
    connect(m_reply, &QNetworkReply::socketStartedConnecting, this, [this] {
        if (m_requestsSent > 0) {
            // Qt re-sends a request whose connection died before the answer (HTTP/1.1) on a
            // new connection: the first sending was lost, and the watch with it.
            abortAsLost(ApiError(ApiError::Kind::Network,
                                 u"the connection was lost after the watch request was sent, and the request was being sent again on a new connection"_s));
        }
    });
    connect(m_reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError> &errors) {
        for (const QSslError &error : errors) {
            m_sslErrors.append(error.errorString());
        }
    });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this] {
        if (!m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid()) {
            return;
        }
        if (++m_headerSets > 1) {
            abortAsLost(ApiError(ApiError::Kind::Network,
                                 u"the watch's answer started over (a second set of response headers); it is not the continuation of this watch"_s));
            return;
        }
        if (m_reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool() && m_client) {
            m_client->m_http2Seen = true;
        }
        if (m_state == State::Connecting && m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200) {
            m_state = State::Open;
            m_httpVersion = m_reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool() ? u"2"_s : u"1.1"_s;
            Q_EMIT opened();
        }
    });
    connect(m_reply, &QNetworkReply::readyRead, this, &WatchStream::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, [this, refreshedCredentials] { onFinished(refreshedCredentials); });
    restartWatchdog();
}

void WatchStream::onReadyRead()
{
    if (m_lostError) {
        return; // nothing of a lost or replaced answer is delivered
    }
    if (m_paused) {
        return; // read on resume
    }
    restartWatchdog();
    if (m_state != State::Open || !m_reply) {
        return; // an error answer: its body is read when the reply finishes
    }
    if (!emitHeld()) {
        return;
    }
    // In pieces, like ApiClient::stream(): a streaming list arrives faster than it is decoded, and
    // over HTTP/2 QNAM buffers ahead, so one readAll() could return the whole list (and its
    // decoded events would all be alive at once).
    thread_local QByteArray piece(ApiClient::readPieceSize, Qt::Uninitialized);
    while (!m_paused && m_reply->bytesAvailable() > 0) {
        const qint64 read = m_reply->read(piece.data(), piece.size());
        if (read <= 0) {
            break;
        }
        m_bytes += read;
        m_held = m_decoder.feed(QByteArrayView(piece.constData(), read));
        m_heldNext = 0;
        if (!emitHeld()) {
            return;
        }
    }
    if (m_bookmarks >= 2) {
        restartWatchdog(); // with the budget the bookmarks taught
    }
}

bool WatchStream::emitHeld()
{
    const QPointer<WatchStream> self(this);
    while (m_heldNext < m_held.size() && !m_paused) {
        const WatchEvent event = m_held.at(m_heldNext++);
        ++m_events;
        if (event.type == WatchEvent::Type::Bookmark) {
            noteBookmark();
        }
        Q_EMIT eventReceived(event);
        if (!self || m_state == State::Finished || m_lostError) {
            return false; // stopped or deleted by a receiver
        }
    }
    if (m_heldNext == m_held.size()) {
        m_held.clear();
        m_heldNext = 0;
    }
    return true;
}

void WatchStream::onFinished(bool refreshedCredentials)
{
    m_watchdog->stop();
    QNetworkReply *reply = m_reply.data();
    const QPointer<WatchStream> self(this);
    if (m_state == State::Open && reply->isOpen() && !m_lostError) {
        onReadyRead();
        if (!self || m_state == State::Finished) {
            return;
        }
        if (m_paused) {
            m_deferredFinish = refreshedCredentials; // the rest is read, and the end told, on resume
            return;
        }
        m_held = m_decoder.finish(); // at most a Malformed event for an unfinished frame
        m_heldNext = 0;
        emitHeld();
        if (!self || m_state == State::Finished) {
            return;
        }
        if (m_paused) {
            m_deferredFinish = refreshedCredentials;
            return;
        }
    }
    const QByteArray body = reply->isOpen() ? reply->readAll() : QByteArray();
    ApiError error = m_lostError ? *m_lostError : errorFromReply(reply, body, m_sslErrors);
    if (m_state == State::Open && error.kind() == ApiError::Kind::Network && reply->error() == QNetworkReply::RemoteHostClosedError) {
        // The server ends a watch by ending its stream (the last chunk, END_STREAM), which
        // finishes the reply without an error. A closed connection under an open stream is a
        // loss: a reset (Qt reports it as a close), a proxy's timeout, or over HTTP/2 the end
        // of the one connection that every watch shares.
        error = ApiError(ApiError::Kind::Network, u"the connection closed under the open watch: "_s + reply->errorString());
    }
    if (m_state == State::Connecting && error.kind() == ApiError::Kind::Http && (error.code() == 429 || error.code() >= 500) && error.retryAfter() &&
        m_client && m_retries < m_client->m_maxRetries) {
        // As client-go's request.Watch: a throttled watch request is retried after the delay
        // the server asked for, before the stream has started.
        ++m_retries;
        releaseManager();
        m_reply->disconnect(this);
        m_reply->deleteLater();
        m_reply = nullptr;
        const auto delay = std::min<std::chrono::milliseconds>(*error.retryAfter(), m_client->m_maxRetryDelay);
        QTimer::singleShot(delay, this, [this, refreshedCredentials] {
            if (m_state == State::Connecting) {
                start(refreshedCredentials);
            }
        });
        return;
    }
    if (error.kind() == ApiError::Kind::Http && error.code() == 401 && !refreshedCredentials && m_client && m_client->credentialProvider()->canRefresh()) {
        m_client->credentialProvider()->invalidate();
        releaseManager();
        m_reply->disconnect(this);
        m_reply->deleteLater();
        m_reply = nullptr;
        start(true);
        return;
    }
    finish(error);
}

void WatchStream::pauseReading()
{
    if (m_state == State::Finished || m_paused) {
        return;
    }
    m_paused = true;
    m_watchdog->stop();
}

void WatchStream::resumeReading()
{
    if (!m_paused) {
        return;
    }
    m_paused = false;
    if (m_state == State::Finished || !m_reply) {
        return;
    }
    // Queued: the caller is usually reacting to this stream's events.
    if (const std::optional<bool> refreshedCredentials = std::exchange(m_deferredFinish, std::nullopt)) {
        QMetaObject::invokeMethod(
            this,
            [this, refreshed = *refreshedCredentials] {
                if (m_state != State::Finished && m_reply) {
                    onFinished(refreshed);
                }
            },
            Qt::QueuedConnection);
        return;
    }
    restartWatchdog();
    QMetaObject::invokeMethod(this, &WatchStream::onReadyRead, Qt::QueuedConnection);
}

void WatchStream::releaseManager()
{
    if (m_manager && m_client) {
        m_client->releaseWatchManager(m_manager);
    }
    m_manager = nullptr;
}

void WatchStream::finish(const ApiError &error)
{
    if (m_state == State::Finished) {
        return;
    }
    m_state = State::Finished;
    m_held.clear();
    m_watchdog->stop();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    releaseManager();
    Q_EMIT finished(error);
}

void WatchStream::stop()
{
    m_state = State::Finished;
    m_watchdog->stop();
    m_held.clear();
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    releaseManager();
}

} // namespace Cachescope
