#pragma once

#include "core/record/recordingwriter.h"
#include "ui/workspace.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>
#include <optional>

class QLabel;

namespace Cachescope {

class Cluster;
class Explorer;
class MainWindow;

// SessionRecorder is File → Record Session… / Stop Recording: it records the current cluster's
// informers (every table's and whatever else the explorer runs on that cluster) to a recording
// (RecordingSchema) through the ListerWatcher wrapper and the writer `cachescope-cli record`
// uses (RecordingListerWatcher::wrapper(), RecordingWriter), so Secrets' values are redacted as
// there.
//
// Recording starts with the next start of that cluster's informers, on purpose: an informer's
// ListerWatcher is fixed when the factory makes it (its reflector owns it on the worker thread),
// and a recording must begin with each informer's list, from which a replay rebuilds the cache;
// an informer joined in the middle of its watch would leave its recording without the objects it
// listed before. So start() connects the current context again (Workspace::reconnectContext, as
// Clusters › Connect Again), with the recording wrapper set on the new cluster's factory before
// it makes an informer: the explorer asks for its informers again, they list, and everything
// from those lists on is recorded. The status bar says so.
//
// While recording, a label in the status bar shows the file, the inputs committed and the file's
// bytes (with its write-ahead log). stop() writes what is queued and the session's end and closes
// the file; so does the cluster's disconnect (the informers being recorded are gone) and the
// recorder's destruction. A write that fails (a read-only path, a full disk) ends the recording
// with the writer's message in that label and errorOccurred(); the live session goes on, its
// informers unrecorded (a RecordingListerWatcher passes every answer through and a closed queue
// drops what it is given). A path that cannot be created fails start() before anything is
// reconnected.
//
// Thread: the GUI thread. The writer lives on a thread of its own and commits there every 250 ms:
// on the GUI thread a commit took 15–24 µs per input (4–6 ms every commit at 1,000 changes/s, and
// seconds for the first list of a large cluster). start() waits for the file to be created and
// stop() for the last commit. Ownership: owns the writer and its thread; the label is the status
// bar's child; the window, workspace and explorer are not owned.
class SessionRecorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionRecorder)

public:
    SessionRecorder(MainWindow *window, Workspace *workspace, Explorer *explorer, QObject *parent = nullptr);
    ~SessionRecorder() override;

    // start() creates `path` and records the current cluster from its reconnect on; false with
    // the reason (also shown and in errorString()) when there is no cluster, it records already,
    // or the file cannot be created.
    bool start(const QString &path);
    // stop() closes the recording (nothing when none is open).
    void stop();

    [[nodiscard]] bool isRecording() const { return m_writer != nullptr; }
    // writerThread() is the thread the writer commits on while recording (nullptr otherwise).
    [[nodiscard]] QThread *writerThread() const { return m_writer ? m_writer->thread() : nullptr; }
    // path() is the file being recorded, or the last one.
    [[nodiscard]] QString path() const { return m_path; }
    // recordedCluster() is the cluster whose informers are recorded (the reconnected one).
    [[nodiscard]] Cluster *recordedCluster() const { return m_cluster; }
    // errorString() is why the last start() failed or the last recording ended early.
    [[nodiscard]] QString errorString() const { return m_error; }
    // statusText() is what the status bar's label says.
    [[nodiscard]] QString statusText() const;

    // setWriterOptions() applies to the next start() (tests limit the file's size with it).
    void setWriterOptions(const RecordingWriter::Options &options) { m_writerOptions = options; }

Q_SIGNALS:
    void recordingChanged(bool recording);
    void errorOccurred(const QString &message);

private:
    void onClusterConnected(Cluster *cluster, const Workspace::ContextId &context);
    void fail(const QString &message);
    void finish();
    [[nodiscard]] static RecordingWriter::SessionInfo sessionInfoOf(const Cluster *cluster);
    // bringBack() runs lastWork on the writer's thread and moves the writer back to this one.
    void bringBack(RecordingWriter &writer, const std::function<void()> &lastWork);
    void showStatus();
    qint64 fileBytes() const;

    QPointer<MainWindow> m_window; // not owned
    QPointer<Workspace> m_workspace; // not owned
    QPointer<Explorer> m_explorer; // not owned
    QLabel *m_status = nullptr; // owned by the window's status bar
    RecordingWriter::Options m_writerOptions;
    QThread m_writerThread; // the writer's, started with the first recording
    std::unique_ptr<RecordingWriter> m_writer; // while recording; lives on m_writerThread
    std::optional<Workspace::ContextId> m_context; // the context recorded
    QPointer<Cluster> m_cluster; // its cluster since the reconnect, not owned
    QString m_path;
    QString m_error;
    qint64 m_lastInputs = 0; // what the last recording committed
};

} // namespace Cachescope
