#include "core/sim/recordingplayback.h"

#include "core/record/recordingreader.h"
#include "core/sim/simcluster.h"

#include <QFileInfo>
#include <QUuid>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

RecordingPlayback::RecordingPlayback(QObject *parent)
    : QObject(parent)
{
    // Plain HTTP on loopback: a new server for each instant keeps no CA of the previous one,
    // and the kubeconfig the app opened must stay valid from one server to the next.
    m_options.tls = false;
    m_options.token = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_options.kubeconfigOut = m_dir.filePath(u"kubeconfig"_s);
}

RecordingPlayback::~RecordingPlayback() = default;

bool RecordingPlayback::open(const QString &path, QString *error)
{
    {
        RecordingReader reader;
        if (!reader.open(path, error)) {
            return false;
        }
        m_startedAt = reader.session().started;
        // The app shows the recording as this context: what was recorded, not the simulator.
        const QString recorded = reader.session().context.isEmpty() ? QFileInfo(path).fileName() : reader.session().context;
        m_options.contextName = u"%1 (recording)"_s.arg(recorded);
        // Rounded up, so that the end is after the last input: a change made of a delete and a
        // create in the same millisecond is whole there.
        m_durationMs = (reader.summary().lastMonoNs + 999'999) / 1'000'000;
    }
    if (!m_dir.isValid()) {
        if (error)
            *error = u"cannot create a temporary directory: "_s + m_dir.errorString();
        return false;
    }
    m_path = path;
    m_options.replay = path;
    m_options.port = 0;
    serve(0);
    return true;
}

QString RecordingPlayback::kubeconfigPath() const
{
    return m_options.kubeconfigOut;
}

qint64 RecordingPlayback::positionMs() const
{
    if (!m_playing || !m_clock.isValid()) {
        return m_anchorMs;
    }
    return std::min(m_durationMs, m_anchorMs + qint64(double(m_clock.elapsed()) * m_speed));
}

void RecordingPlayback::seek(qint64 offsetMs)
{
    serve(std::clamp<qint64>(offsetMs, 0, m_durationMs));
}

void RecordingPlayback::setPlaying(bool playing)
{
    if (playing == m_playing) {
        return;
    }
    const qint64 position = positionMs();
    m_playing = playing;
    serve(position);
}

void RecordingPlayback::setSpeed(double speed)
{
    if (speed <= 0 || speed == m_speed) {
        return;
    }
    const qint64 position = positionMs();
    m_speed = speed;
    if (m_playing) {
        serve(position);
    } else {
        Q_EMIT stateChanged();
    }
}

void RecordingPlayback::serve(qint64 offsetMs)
{
    if (m_path.isEmpty()) {
        return;
    }
    m_sim.reset();
    m_anchorMs = offsetMs;
    m_clock.invalidate();
    // "" is the recording's start: the input at which every recorded informer had its first
    // list; an offset of 0 could come before some of them.
    m_options.replayAt = offsetMs > 0 ? u"+%1ms"_s.arg(offsetMs) : QString();
    m_options.replaySpeed = m_speed;
    m_options.replayPaused = !m_playing;
    m_sim = std::make_unique<SimCluster>(m_options);
    SimCluster *sim = m_sim.get();
    connect(sim, &SimCluster::started, this, [this, sim](bool ok, const QString &error) {
        if (ok) {
            // The next server takes the same port, so the kubeconfig stays true.
            m_options.port = quint16(sim->url().port());
            m_clock.start();
        }
        Q_EMIT served(ok, error);
        Q_EMIT stateChanged();
    });
    sim->startAsync();
    Q_EMIT stateChanged();
}

} // namespace Cachescope::Sim
