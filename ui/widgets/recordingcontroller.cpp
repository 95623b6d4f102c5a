#include "ui/widgets/recordingcontroller.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/record/recordingreader.h"
#include "core/sim/recordingplayback.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/recordingbar.h"
#include "ui/workspace.h"

#include <QFileInfo>
#include <QStatusBar>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

RecordingController::RecordingController(MainWindow *window, Workspace *workspace, Explorer *explorer, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_workspace(workspace)
    , m_explorer(explorer)
{
    // Four times a second: the clock's seconds move smoothly enough on the bar, and asking the
    // playback costs nothing.
    m_barTick.setInterval(250);
    connect(&m_barTick, &QTimer::timeout, this, [this] {
        if (m_bar && m_playback) {
            m_bar->setPosition(m_playback->positionMs());
        }
    });
    connect(window, &MainWindow::recordingRequested, this, [this](const QString &path) { (void)open(path); });
}

RecordingController::~RecordingController() = default;

bool RecordingController::open(const QString &path, QString *errorMessage)
{
    auto playback = std::make_unique<Sim::RecordingPlayback>();
    auto reader = std::make_unique<RecordingReader>();
    QString error;
    if (!playback->open(path, &error) || !reader->open(path, &error)) {
        showMessage(tr("Cannot open the recording %1: %2").arg(path, error));
        if (errorMessage != nullptr) {
            *errorMessage = error;
        }
        return false;
    }
    if (m_playback) {
        m_explorer->setRecordedTime(m_playback->contextName(), {});
    }
    m_playback = std::move(playback);
    m_reader = std::move(reader);
    // The event stream and the history show when things happened in the recording.
    m_explorer->setRecordedTime(m_playback->contextName(),
                                [played = QPointer<Sim::RecordingPlayback>(m_playback.get())] { return played ? played->instant() : QDateTime(); });
    m_opened = false;
    m_watched.clear();
    if (!m_bar) {
        m_bar = new RecordingBar(m_window);
        m_window->addToolBar(Qt::BottomToolBarArea, m_bar);
    }
    m_bar->disconnect(this); // the previous recording's requests
    Sim::RecordingPlayback *served = m_playback.get();
    connect(m_bar, &RecordingBar::seekRequested, served, &Sim::RecordingPlayback::seek);
    connect(m_bar, &RecordingBar::playingRequested, served, &Sim::RecordingPlayback::setPlaying);
    connect(m_bar, &RecordingBar::speedRequested, served, &Sim::RecordingPlayback::setSpeed);
    connect(m_bar, &RecordingBar::nextChangeRequested, this, &RecordingController::nextChange);
    connect(m_bar, &RecordingBar::previousChangeRequested, this, &RecordingController::previousChange);
    m_bar->setRecording(QFileInfo(path).fileName(), served->startedAt(), served->durationMs());
    m_bar->show();
    connect(served, &Sim::RecordingPlayback::stateChanged, m_bar, [this, served] {
        m_bar->setPlaying(served->isPlaying());
        m_bar->setSpeed(served->speed());
        m_bar->setPosition(served->positionMs());
    });
    connect(served, &Sim::RecordingPlayback::served, this, &RecordingController::onServed);
    m_barTick.start();
    return true;
}

void RecordingController::onServed(bool ok, const QString &error)
{
    if (!ok) {
        showMessage(tr("Cannot serve the recording %1: %2").arg(m_playback->path(), error));
        return;
    }
    m_servedAt.start();
    if (!std::exchange(m_opened, true)) {
        m_explorer->openKubeconfig(m_playback->kubeconfigPath());
        return;
    }
    retryInformers();
}

QList<SharedIndexInformer *> RecordingController::recordingInformers() const
{
    QList<SharedIndexInformer *> informers;
    if (!m_playback || !m_workspace) {
        return informers;
    }
    const QString kubeconfig = QFileInfo(m_playback->kubeconfigPath()).canonicalFilePath();
    const QList<Cluster *> clusters = m_workspace->clusters();
    for (Cluster *cluster : clusters) {
        const auto context = m_workspace->contextOf(cluster);
        if (context && QFileInfo(context->file).canonicalFilePath() == kubeconfig) {
            informers += cluster->informers()->informers();
        }
    }
    return informers;
}

void RecordingController::retryInformers()
{
    const QList<SharedIndexInformer *> informers = recordingInformers();
    for (SharedIndexInformer *informer : informers) {
        if (!m_watched.contains(informer)) {
            m_watched.insert(informer);
            connect(informer, &QObject::destroyed, this, [this, informer] { m_watched.remove(informer); });
            // A watch's end may be noticed after the new server answered: a backoff that starts
            // then waits on nothing either.
            connect(informer, &SharedIndexInformer::reflectorStateChanged, this, [this, informer](Reflector::State state) {
                if (state == Reflector::State::BackingOff && m_servedAt.isValid() && m_servedAt.elapsed() < RetryWindow.count()) {
                    informer->retryNow();
                }
            });
        }
        informer->retryNow();
    }
}

std::optional<qint64> RecordingController::stepToChange(const QString &uid, bool forward)
{
    if (!m_playback || !m_reader) {
        return std::nullopt;
    }
    const qint64 shown = m_reader->seqAtOffset(m_playback->positionMs());
    std::optional<RecordedInput> change;
    if (forward) {
        change = m_reader->nextChangeOf(uid, shown);
    } else if (const auto last = m_reader->previousChangeOf(uid, shown + 1)) {
        change = m_reader->previousChangeOf(uid, last->seq); // the shown state has the last one
    }
    if (!change) {
        showMessage(forward ? tr("The selected object does not change after this instant.") : tr("The selected object does not change before this instant."));
        return std::nullopt;
    }
    // Rounded up: the instant served is the last input at or before it, so the change is in.
    const qint64 offsetMs = (change->monoNs + 999'999) / 1'000'000;
    m_playback->seek(offsetMs);
    return offsetMs;
}

void RecordingController::nextChange()
{
    step(true);
}

void RecordingController::previousChange()
{
    step(false);
}

void RecordingController::step(bool forward)
{
    const QString uid = m_explorer ? m_explorer->selectedObject().uid() : QString();
    if (uid.isEmpty()) {
        showMessage(tr("Select an object to step through its changes."));
        return;
    }
    (void)stepToChange(uid, forward);
}

void RecordingController::showMessage(const QString &message)
{
    if (m_window) {
        m_window->statusBar()->showMessage(message);
    }
}

} // namespace Cachescope
