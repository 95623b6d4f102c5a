#pragma once

#include "core/kube/apierror.h"
#include "core/kube/apirequest.h"
#include "core/kube/watchdecoder.h"
#include "core/kube/watchevent.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <chrono>

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
// It ends exactly once with finished(): error.isError() false when the server closed the
// stream normally (timeoutSeconds elapsed), an Http error for a non-200 answer (410 Expired
// among them), Network/Tls for transport failures, Timeout when the idle watchdog fired: QNAM
// has no HTTP/2 PING and a half-open connection looks like a quiet watch, so a stream silent
// past idleTimeout() is dropped and reported as stalled for the reflector to resume from its
// last resourceVersion (what kube-rs does after losing events over a VPN). stop() ends it
// without a finished() signal.
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

    // The idle watchdog interval; the apiserver sends a bookmark about once a minute when
    // allowWatchBookmarks is set, so a little over that is "silent". Zero disables it.
    void setIdleTimeout(std::chrono::milliseconds timeout);
    std::chrono::milliseconds idleTimeout() const { return m_idleTimeout; }
    void setMaxFrameSize(qsizetype bytes) { m_decoder = WatchDecoder(bytes); }

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
    void onFinished(bool refreshedCredentials);
    void finish(const ApiError &error);
    void releaseManager();

    QPointer<ApiClient> m_client;
    ApiRequest m_request;
    State m_state = State::Connecting;
    WatchDecoder m_decoder;
    QNetworkAccessManager *m_manager = nullptr; // not owned: the client's, held while open
    QNetworkReply *m_reply = nullptr; // owned while open
    QTimer *m_watchdog = nullptr; // owned (child)
    std::chrono::milliseconds m_idleTimeout{std::chrono::seconds(75)};
    bool m_stalled = false;
    QStringList m_sslErrors;
    QString m_httpVersion;
    qint64 m_events = 0;
    qint64 m_bytes = 0;
};

} // namespace Cachescope
