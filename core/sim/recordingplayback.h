#pragma once

#include "core/sim/simoptions.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace Cachescope::Sim {

class SimCluster;

// RecordingPlayback serves a recording (core/record) in-process so that the app opens it as a
// cluster and travels through it: a SimCluster in replay mode (RecordingFeed) on plain HTTP over
// loopback, whose kubeconfig keeps its file, server address and token from one instant to the
// next, so the app's Cluster stays open and only reconnects. Seeking, pausing and changing the
// speed serve the recording again from the chosen instant: a new server on the same port
// rebuilds its store from the recording's nearest checkpoint (RecordingReader::stateAt) and the
// informers see their watches end and relist, a reconnect and a relist counted as after any
// restart of an apiserver. Paused, the server holds the state at the instant and sends nothing.
//
// positionMs() is the offset from the recording's start now served: the instant asked for, plus
// the time played since it was served times the speed, up to the recording's end.
//
// Thread: the GUI thread; the server runs on its SimCluster's thread. Serving again stops the
// previous server, which waits for its thread (milliseconds for a recording's store).
class RecordingPlayback final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingPlayback)
public:
    explicit RecordingPlayback(QObject *parent = nullptr);
    ~RecordingPlayback() override;

    // open() reads the recording's span and serves it from its start, playing at the recorded
    // pace; false and *error when the file is not a recording. served() follows.
    [[nodiscard]] bool open(const QString &path, QString *error);
    [[nodiscard]] QString path() const { return m_path; }
    // The kubeconfig to open, the same file for every instant served. Its one context is named
    // after the context recorded ("prod (recording)"; the file's name if none was).
    [[nodiscard]] QString kubeconfigPath() const;
    [[nodiscard]] QString contextName() const { return m_options.contextName; }
    // The wall-clock time of the recording's start, and its length.
    [[nodiscard]] QDateTime startedAt() const { return m_startedAt; }
    [[nodiscard]] qint64 durationMs() const { return m_durationMs; }
    [[nodiscard]] qint64 positionMs() const;
    // instant() is the wall-clock time recorded at positionMs().
    [[nodiscard]] QDateTime instant() const { return m_startedAt.addMSecs(positionMs()); }
    [[nodiscard]] bool isPlaying() const { return m_playing; }
    [[nodiscard]] double speed() const { return m_speed; }

public Q_SLOTS:
    void seek(qint64 offsetMs);
    void setPlaying(bool playing);
    // speed is × the recorded pace, greater than 0.
    void setSpeed(double speed);

Q_SIGNALS:
    // served(): the server answers from the instant asked for (ok), or could not start (error).
    void served(bool ok, const QString &error);
    // stateChanged(): the position jumped, or playing or the speed changed.
    void stateChanged();

private:
    void serve(qint64 offsetMs);

    QString m_path;
    QDateTime m_startedAt;
    qint64 m_durationMs = 0;
    qint64 m_anchorMs = 0; // the instant served; the position while paused
    QElapsedTimer m_clock; // since the instant was served, while playing
    bool m_playing = true;
    double m_speed = 1;
    QTemporaryDir m_dir; // holds the kubeconfig
    SimOptions m_options; // port, token and kubeconfig kept from one server to the next
    std::unique_ptr<SimCluster> m_sim;
};

} // namespace Cachescope::Sim
