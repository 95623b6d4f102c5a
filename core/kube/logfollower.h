#pragma once

#include "core/kube/apierror.h"
#include "core/kube/logoptions.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <chrono>

namespace Cachescope {

class ApiClient;
class LogStream;

// LogFollower keeps reading one container's log through LogStream for as long as a view shows
// it. It always asks for the kubelet's timestamps: they are where a follow resumes. A follow that
// ends (a network or TLS failure, a server that dropped the connection, a body the server ended
// because the container restarted) is started again after a backoff (1 s, doubling up to 30 s,
// back to 1 s once lines arrive) with sinceTime set to the last line's time; lines the new
// request repeats (older than that time, or at that time and already delivered) are dropped, so
// linesReceived() gives each line once. A follow's request refused with 404 means the pod is gone:
// the state becomes PodDeleted and nothing is requested again. Any other refusal (a container the
// pod does not have, no previous instance) is Failed with the server's message. Without follow
// it reads the log once and is Ended.
//
// Lines are as the server sent them: "TIMESTAMP TEXT" (splitTimestamp() parts them).
// Lives on the client's thread (move it there before start(); its timer is its child); owned by
// whoever made it, deleted with deleteLater() from any thread. Costs one request at a time.
class LogFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogFollower)

public:
    enum class State { Idle, Streaming, Reconnecting, Ended, PodDeleted, Failed };
    Q_ENUM(State)

    LogFollower(ApiClient *client, const QString &namespaceName, const QString &pod, const LogOptions &options, QObject *parent = nullptr);
    ~LogFollower() override;

    // start() sends the first request; call it on the client's thread.
    void start();

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] int reconnects() const { return m_reconnects; }
    // The backoff before the first reconnect (tests shorten it).
    void setInitialBackoff(std::chrono::milliseconds backoff) { m_initialBackoff = backoff; }

    // splitTimestamp() parts a timestamped line into its RFC 3339 time and its text (the time
    // empty when the line has none).
    [[nodiscard]] static std::pair<QStringView, QStringView> splitTimestamp(QStringView line);

Q_SIGNALS:
    void linesReceived(const QStringList &lines);
    // stateChanged(): `message` says why for Reconnecting and Failed (the error), else is empty.
    void stateChanged(Cachescope::LogFollower::State state, const QString &message);

private:
    void request();
    void onLines(const QStringList &lines);
    void onEnded(const ApiError &error);
    void setState(State state, const QString &message = {});

    QPointer<ApiClient> m_client;
    QString m_namespace;
    QString m_pod;
    LogOptions m_options;
    LogStream *m_stream = nullptr; // owned (child), the request in flight
    QTimer m_retry{this};
    std::chrono::milliseconds m_initialBackoff{1000};
    std::chrono::milliseconds m_backoff{0};
    State m_state = State::Idle;
    int m_reconnects = 0;
    // Where a resumed follow starts, and how many lines at that very time were delivered.
    QString m_lastTimestamp;
    int m_atLastTimestamp = 0;
    // While resuming: lines at m_lastTimestamp still to skip.
    int m_skipAtLastTimestamp = 0;
};

} // namespace Cachescope
