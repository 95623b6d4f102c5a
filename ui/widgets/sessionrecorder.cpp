#include "ui/widgets/sessionrecorder.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/record/recordinglisterwatcher.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QStatusBar>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

SessionRecorder::SessionRecorder(MainWindow *window, Workspace *workspace, Explorer *explorer, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_workspace(workspace)
    , m_explorer(explorer)
{
    m_status = new QLabel(window->statusBar());
    m_status->setObjectName(u"recordingStatus"_s);
    m_status->hide();
    window->statusBar()->addPermanentWidget(m_status);
    connect(window, &MainWindow::recordSessionRequested, this, &SessionRecorder::start);
    connect(window, &MainWindow::stopRecordingRequested, this, &SessionRecorder::stop);
    connect(workspace, &Workspace::clusterConnected, this, &SessionRecorder::onClusterConnected);
    connect(workspace, &Workspace::clusterDisconnecting, this, [this](Cluster *cluster) {
        if (cluster == m_cluster) {
            stop(); // its informers go with it: the recording is complete
        }
    });
}

SessionRecorder::~SessionRecorder()
{
    stop();
    m_writerThread.quit();
    m_writerThread.wait();
}

bool SessionRecorder::start(const QString &path)
{
    const auto refuse = [this](const QString &message) {
        m_error = message;
        showStatus();
        Q_EMIT errorOccurred(message);
        return false;
    };
    if (m_writer) {
        return refuse(tr("Already recording to %1: stop that recording first.").arg(m_path));
    }
    Cluster *cluster = m_explorer ? m_explorer->contextsView()->currentCluster() : nullptr;
    const std::optional<Workspace::ContextId> context = cluster && m_workspace ? m_workspace->contextOf(cluster) : std::nullopt;
    if (!context) {
        return refuse(tr("There is no cluster to record: connect a context first."));
    }
    m_path = path;
    if (!m_writerThread.isRunning()) {
        m_writerThread.setObjectName(u"recording writer"_s);
        m_writerThread.start();
    }
    auto writer = std::make_unique<RecordingWriter>(m_writerOptions);
    // Made on the thread that writes: the database connection is that thread's.
    writer->moveToThread(&m_writerThread);
    const RecordingWriter::SessionInfo session = sessionInfoOf(cluster);
    QString error;
    bool opened = false;
    QMetaObject::invokeMethod(
        writer.get(), [&] { opened = writer->open(path, session, &error); }, Qt::BlockingQueuedConnection);
    if (!opened) {
        bringBack(*writer, [] {});
        // Nothing was reconnected: the live session goes on as it was.
        return refuse(tr("Cannot record the session: %1").arg(error));
    }
    m_error.clear();
    m_writer = std::move(writer);
    m_context = context;
    connect(m_writer.get(), &RecordingWriter::errorOccurred, this, &SessionRecorder::fail);
    connect(m_writer.get(), &RecordingWriter::inputsCommitted, this, &SessionRecorder::showStatus);
    m_window->recordSessionAction()->setEnabled(false);
    m_window->stopRecordingAction()->setEnabled(true);
    // The new cluster gets the recording wrapper in onClusterConnected(), before any informer.
    if (m_workspace->reconnectContext(*context, &error) == nullptr) {
        fail(tr("Cannot connect %1 again to record it: %2").arg(context->name, error));
        return false;
    }
    showStatus();
    Q_EMIT recordingChanged(true);
    return true;
}

void SessionRecorder::onClusterConnected(Cluster *cluster, const Workspace::ContextId &context)
{
    if (!m_writer || !m_context || context != *m_context || m_cluster) {
        return;
    }
    m_cluster = cluster;
    InformerFactory *factory = cluster->informers();
    factory->setListerWatcherWrapper(RecordingListerWatcher::wrapper(m_writer->queue(), [factory] { return factory->defaultOptions(); }));
    // The server's version is known once discovery ran.
    connect(cluster, &Cluster::discovered, this, [this, cluster] {
        if (m_writer && cluster == m_cluster) {
            const RecordingWriter::SessionInfo session = sessionInfoOf(cluster);
            RecordingWriter *writer = m_writer.get();
            QMetaObject::invokeMethod(writer, [writer, session] { writer->setSessionInfo(session); });
        }
    });
}

void SessionRecorder::stop()
{
    if (!m_writer) {
        return;
    }
    finish();
    showStatus();
}

void SessionRecorder::fail(const QString &message)
{
    if (!m_writer) {
        return; // queued from a writer already finished
    }
    m_error = message;
    finish();
    showStatus();
    Q_EMIT errorOccurred(message);
}

RecordingWriter::SessionInfo SessionRecorder::sessionInfoOf(const Cluster *cluster)
{
    return {cluster->server(), cluster->name(), cluster->discovery().gitVersion};
}

void SessionRecorder::bringBack(RecordingWriter &writer, const std::function<void()> &lastWork)
{
    // Run on the writer's thread, then moved back here (only the thread it lives on may move it),
    // so that it is deleted on the GUI thread.
    QMetaObject::invokeMethod(
        &writer,
        [&writer, &lastWork, gui = thread()] {
            lastWork();
            writer.moveToThread(gui);
        },
        Qt::BlockingQueuedConnection);
}

void SessionRecorder::finish()
{
    if (m_cluster) {
        // Informers made from now on are not recorded; the recorded ones pass through.
        m_cluster->informers()->setListerWatcherWrapper({});
        disconnect(m_cluster, nullptr, this, nullptr);
    }
    const std::unique_ptr<RecordingWriter> writer = std::move(m_writer);
    // The last commit, on the writer's thread; then it comes back here to be deleted.
    bringBack(*writer, [&writer] { writer->close(); });
    m_lastInputs = writer->committed();
    m_cluster = nullptr;
    m_context.reset();
    if (m_window) {
        m_window->recordSessionAction()->setEnabled(true);
        m_window->stopRecordingAction()->setEnabled(false);
    }
    Q_EMIT recordingChanged(false);
}

qint64 SessionRecorder::fileBytes() const
{
    // What is committed sits in the write-ahead log until a checkpoint moves it into the file.
    return QFileInfo(m_path).size() + QFileInfo(m_path + u"-wal"_s).size();
}

QString SessionRecorder::statusText() const
{
    return m_status->text();
}

void SessionRecorder::showStatus()
{
    const QString file = QFileInfo(m_path).fileName();
    QString text;
    if (m_writer) {
        const QString bytes = QLocale().formattedDataSize(fileBytes());
        text = m_cluster && m_cluster->isDiscovered()
            ? tr("Recording %1: %n input(s), %2", nullptr, int(m_writer->committed())).arg(file, bytes)
            : tr("Recording %1 from the reconnect of %2 on (informers are recorded from their first list)").arg(file, m_context ? m_context->name : QString());
    } else if (!m_error.isEmpty()) {
        text = tr("Not recording: %1").arg(m_error);
    } else if (!m_path.isEmpty()) {
        text = tr("Recorded %n input(s) to %1 (%2)", nullptr, int(m_lastInputs)).arg(file, QLocale().formattedDataSize(fileBytes()));
    }
    m_status->setText(text);
    m_status->setToolTip(m_path);
    m_status->setVisible(!text.isEmpty());
}

} // namespace Cachescope
