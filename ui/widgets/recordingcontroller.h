#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

namespace Cachescope {

namespace Sim {
class RecordingPlayback;
}

class Explorer;
class MainWindow;
class RecordingBar;
class RecordingReader;
class SharedIndexInformer;
class Workspace;

// RecordingController is a recording open in the app (File → Open Recording…, --recording): it
// serves the file in-process as a cluster (Sim::RecordingPlayback), opens the playback's
// kubeconfig in the explorer once the first instant is served, and wires the time bar
// (RecordingBar, made on first use as the window's bottom tool bar) to the playback: the bar
// asks, the playback answers, the bar shows the answer, its position polled every 250 ms (the
// position moves with the clock while playing). Opening another recording replaces this one.
//
// A new instant does not wait on a backoff: each instant is a new server, and the informers'
// watches of the previous one ended, their reconnects refused until the new server listened,
// so their reflectors back off (800 ms, doubling on each seek up to 30 s). When the playback
// reports served() after a seek (or a pause, a play, a new speed: each serves again), the server
// is known to be back, so every informer of the recording's cluster is told to retry now
// (SharedIndexInformer::retryNow()), and so is one that starts backing off within RetryWindow
// after (its watch's end may be noticed after the new server answered).
//
// The bar's previous/next change buttons step through the changes of the object selected in the
// explorer (Explorer::selectedObject()): its watch events in the recording, found by uid
// (RecordingReader::nextChangeOf(), previousChangeOf()), each a seek to just after that input.
// Next is the first change after the instant shown; previous the change before the last one
// already shown (the shown state has that one).
//
// Thread: the GUI thread. Ownership: owns the playback and the reader; the bar is the window's
// child; the window, workspace and explorer are not owned.
class RecordingController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingController)

public:
    RecordingController(MainWindow *window, Workspace *workspace, Explorer *explorer, QObject *parent = nullptr);
    ~RecordingController() override;

    // open() serves the recording from its start and shows the bar; false (with the reason in
    // the status bar and *errorMessage) when the file is not a recording.
    bool open(const QString &path, QString *errorMessage = nullptr);

    [[nodiscard]] Sim::RecordingPlayback *playback() const { return m_playback.get(); }
    [[nodiscard]] RecordingBar *bar() const { return m_bar; }
    // recordingInformers() are the informers of the cluster the recording is served as.
    [[nodiscard]] QList<SharedIndexInformer *> recordingInformers() const;

    // stepToChange() seeks to the next (forward) or previous change of the object `uid` from
    // the instant shown; the offset sought, or nothing (said in the status bar) when there is
    // none that way.
    std::optional<qint64> stepToChange(const QString &uid, bool forward);
    // nextChange() / previousChange(): stepToChange() for the explorer's selected object.
    void nextChange();
    void previousChange();

    // How long after an instant is served a reflector that starts backing off is told to retry.
    static constexpr std::chrono::milliseconds RetryWindow{3000};

private:
    void onServed(bool ok, const QString &error);
    void retryInformers();
    void showMessage(const QString &message);
    void step(bool forward);

    QPointer<MainWindow> m_window; // not owned
    QPointer<Workspace> m_workspace; // not owned
    QPointer<Explorer> m_explorer; // not owned
    RecordingBar *m_bar = nullptr; // owned by the window, made on first open()
    QTimer m_barTick;
    std::unique_ptr<Sim::RecordingPlayback> m_playback;
    std::unique_ptr<RecordingReader> m_reader; // the same file, for the changes of an object
    QString m_server; // the served cluster's URL, once opened in the explorer
    bool m_opened = false; // the explorer opened the playback's kubeconfig
    QElapsedTimer m_servedAt; // since the last instant was served
    QSet<SharedIndexInformer *> m_watched; // informers whose backoffs are cut in RetryWindow
};

} // namespace Cachescope
