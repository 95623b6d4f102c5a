#pragma once

#include "core/kube/apierror.h"
#include "core/kube/apirequest.h"
#include "core/kube/watchdecoder.h"
#include "core/kube/watchevent.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <chrono>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;

namespace Cachescope {

class ApiClient;

// WatchStream is one watch request (`?watch=true`) and the events it delivers: it goes through
// the client's rate limiter and credentials, opens the stream on one of the client's watch
// QNAMs, decodes it incrementally with WatchDecoder, and emits eventReceived() for each event
// in order (Malformed ones included: the stream continues after them).
//
// It ends exactly once with finished(): error.isError() false only when the server ended the
// stream itself (timeoutSeconds elapsed: the last chunk over HTTP/1.1, END_STREAM over HTTP/2),
// an Http error for a non-200 answer (410 Expired among them), Network/Tls for transport
// failures, Timeout when the idle watchdog fired. stop() ends it without a finished() signal.
// Before the stream opens, a 429 or 5xx answer with Retry-After is retried after that delay (up
// to the client's maxRetries), and a 401 once with refreshed credentials, as for any request.
//
// Every loss of the stream is an error, never a normal end, because the caller must resume
// from the last resourceVersion it applied and count the loss:
// - A connection closed under an open stream is a Network error. Qt reports a peer's reset and
//   a peer's close alike (RemoteHostClosedError), and over HTTP/2 it fails every stream of the
//   connection with it; a server that meant to end the watch would have ended the stream.
// - A replaced stream is a Network error: if Qt sends the request a second time (it re-sends
//   an HTTP/1.1 request whose connection died before the answer, and may re-queue requests of
//   a lost HTTP/2 connection on a new one), or a second set of response headers arrives, the
//   answer is a new watch from the old resourceVersion, not the continuation of this one. The
//   reply is aborted and finished() reports it; nothing from the second answer is delivered.
//
// The idle watchdog. QNAM has no HTTP/2 PING, so a half-open connection (a dead NAT or VPN
// path: no FIN, no RST) looks like a quiet watch. client-go's HTTP/2 health check closes such a
// connection within ReadIdleTimeout 30 s + PingTimeout 15 s of the last frame read; with no
// PING, silence is the only signal, so a stream silent for longer than its budget is presumed
// dead, aborted, and reported as a Timeout. The budget is idleTimeout() (45 s by default:
// client-go's bound), shortened once the server has shown how often it sends bookmarks: after
// two bookmarks (which a watch gets only when it asked with allowWatchBookmarks), the budget
// is three times the longest gap seen between bookmarks plus a second, never less than
// minimumIdleBudget() (10 s, so that a loaded machine's scheduling delays are not taken for a
// dead path) and never more than idleTimeout(). A real apiserver sends a bookmark about once a
// minute, so against it the 45 s bound rules; a simulator that sends one every 500 ms gets 10 s.
// Any bytes reset the watchdog, events and bookmarks alike.
//
// A dead connection also holds whatever else QNAM sends on it: over HTTP/2 every watch of the
// manager shares that one connection, and QNAM keeps queueing new requests there. So when the
// watchdog fires, the stream asks the client to retire its QNAM (ApiClient::retireWatchManager):
// new watches get a fresh QNAM and connection, and the other streams of the retired QNAM that
// share the dead connection (HTTP/2, or not yet answered) end at once with the same Timeout.
//
// Lives on the client's thread; owned by whoever called ApiClient::watch(). Deleting it from a
// slot connected to its own signals is allowed (use deleteLater()).
class WatchStream final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatchStream)

public:
    enum class State { Connecting, Open, Finished };

    ~WatchStream() override;

    State state() const { return m_state; }
    ApiRequest request() const { return m_request; }
    qint64 eventCount() const { return m_events; }
    qint64 bytesReceived() const { return m_bytes; }
    // httpVersion() is "1.1" or "2" once open.
    QString httpVersion() const { return m_httpVersion; }

    // The idle watchdog's budget before bookmarks shorten it (see above). Zero disables it.
    void setIdleTimeout(std::chrono::milliseconds timeout);
    std::chrono::milliseconds idleTimeout() const { return m_idleTimeout; }
    // currentIdleBudget() is the silence after which the stream is presumed dead now.
    std::chrono::milliseconds currentIdleBudget() const;
    static constexpr std::chrono::milliseconds defaultIdleTimeout() { return std::chrono::seconds(45); }
    static constexpr std::chrono::milliseconds minimumIdleBudget() { return std::chrono::seconds(10); }
    void setMaxFrameSize(qsizetype bytes) { m_decoder = WatchDecoder(bytes); }

    // pauseReading() stops eventReceived() (from the next event on, even within the piece read
    // last) and leaves what arrives in QNAM's buffer until resumeReading(): a receiver that
    // hands the events to slower work keeps its backlog bounded this way. The idle watchdog
    // stops meanwhile (bytes waiting to be read are not silence) and starts again on resume. The
    // stream's end is reported after every event before it, so an end that comes while paused
    // waits for the resume; a loss (abortAsLost()) does not.
    void pauseReading();
    void resumeReading();
    bool isReadingPaused() const { return m_paused; }

    void stop();

Q_SIGNALS:
    void opened();
    void eventReceived(const Cachescope::WatchEvent &event);
    void finished(const Cachescope::ApiError &error);

private:
    friend class ApiClient;
    WatchStream(ApiClient *client, ApiRequest request, QObject *parent);

    void start(bool refreshedCredentials);
    void open(const QNetworkRequest &request, bool refreshedCredentials);
    void onReadyRead();
    // emitHeld() emits the events decoded and not yet emitted, in order, until none is left or
    // reading pauses; false when a receiver stopped or deleted the stream.
    bool emitHeld();
    void onFinished(bool refreshedCredentials);
    void finish(const ApiError &error);
    void releaseManager();
    void restartWatchdog();
    void noteBookmark();
    // abortAsLost() aborts the reply; onFinished() then reports `error` instead of the abort.
    void abortAsLost(const ApiError &error);
    void onManagerRetired(QNetworkAccessManager *manager);

    QPointer<ApiClient> m_client;
    ApiRequest m_request;
    State m_state = State::Connecting;
    WatchDecoder m_decoder;
    QNetworkAccessManager *m_manager = nullptr; // not owned: the client's, held while open
    // Owned while open; a QPointer because the client (the QNAM's owner) may be destroyed first.
    QPointer<QNetworkReply> m_reply;
    QTimer *m_watchdog = nullptr; // owned (child)
    std::chrono::milliseconds m_idleTimeout = defaultIdleTimeout();
    // Bookmarks seen, the time since the last one, and the longest gap between two.
    int m_bookmarks = 0;
    QElapsedTimer m_sinceBookmark;
    qint64 m_longestBookmarkGapMs = 0;
    std::optional<ApiError> m_lostError; // why the reply was aborted by us, if it was
    int m_requestsSent = 0; // times QNAM sent this request (more than one: it was re-sent)
    int m_headerSets = 0; // response headers received
    QStringList m_sslErrors;
    QString m_httpVersion;
    qint64 m_events = 0;
    bool m_paused = false;
    QList<WatchEvent> m_held; // decoded from the last piece read; emitted from m_heldNext on
    qsizetype m_heldNext = 0;
    // The reply finished while reading was paused: onFinished() runs again on resume.
    std::optional<bool> m_deferredFinish; // its refreshedCredentials
    int m_retries = 0;
    qint64 m_bytes = 0;
};

} // namespace Cachescope
