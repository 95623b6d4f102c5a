#pragma once

#include "core/cache/kubeobject.h"
#include "core/kube/logfollower.h"

#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <chrono>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace Cachescope {

class Cluster;
class LogBuffer;
class LogSourceHighlighter;
class RelationService;
class WorkloadLogs;

// LogView is the Logs tab of a Pod and of a workload. A Pod's: one container's log (or its previous instance) read by a
// LogFollower on the cluster's worker thread, held in a LogBuffer (a bounded ring) and shown in
// a read-only QPlainTextEdit whose block count is the ring's bound, so the text never outgrows
// what the buffer holds. Lines arrive in batches and each batch is one insertion at the end of
// the document; the view follows the end only while it is scrolled to the bottom.
// Controls: the container (containers and init containers of the pod), Previous, Follow
// (default on), Timestamps (the view always has them; this shows them), Since, a search field
// (matches highlighted, next/previous), Wrap lines. Changing a control that the request depends
// on reads the log again; Timestamps and Wrap only redraw.
// A stream runs only while the view is visible and shows a pod: hiding it (another tab, a
// closed dock) or showing another object stops it, showing it again starts a fresh read.
// The status line says how many lines are held, how many were dropped, and the stream's state
// ("reconnecting…", "pod deleted" with the lines kept, a refusal's message).
// A workload's (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job; WorkloadLogs::isWorkload()):
// every pod's containers merged in time order by a WorkloadLogs (its pods from the
// RelationService given with setRelations(), live; at most maxStreams() streams), each line
// after its "pod/container" in its pod's color (LogSourceHighlighter), in the same ring. The
// container box offers "All containers" and the pod template's containers; Previous is off.
// The status line adds the pods, the streams, and the pods not followed or not started yet.
// Lives on the GUI thread; the cluster is not owned and must outlive the view's streams.
class LogView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogView)

public:
    explicit LogView(QWidget *parent = nullptr);
    ~LogView() override;

    // setCluster() is where the logs are read from (not owned; null: nowhere).
    void setCluster(Cluster *cluster);
    // setRelations() is where a workload's pods are found (not owned; null: nowhere yet, a
    // workload's view waits for one).
    void setRelations(RelationService *relations);
    // setObject() shows the logs of `object` when it is a Pod or a workload and returns true;
    // for anything else it stops and clears the view and returns false.
    bool setObject(const KubeObject &object);
    [[nodiscard]] static bool hasLogs(const KubeObject &object);

    [[nodiscard]] LogBuffer *buffer() const { return m_buffer; }
    [[nodiscard]] QPlainTextEdit *textView() const { return m_text; }
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] bool isStreaming() const { return m_follower != nullptr || m_workloadLogs != nullptr; }
    // isWorkload() says whether a workload's merged log is shown.
    [[nodiscard]] bool isWorkload() const { return m_workload.isValid(); }
    // workloadLogs() reads a workload's merged log while it streams (null otherwise).
    [[nodiscard]] WorkloadLogs *workloadLogs() const { return m_workloadLogs; }
    [[nodiscard]] LogSourceHighlighter *sourceHighlighter() const { return m_highlighter; }
    [[nodiscard]] LogFollower::State state() const { return m_state; }
    [[nodiscard]] QStringList containers() const;
    [[nodiscard]] QString container() const;
    void setContainer(const QString &name);
    void setPrevious(bool previous);
    void setFollow(bool follow);
    void setTimestampsShown(bool shown);
    void setSearchText(const QString &text);
    // findNext()/findPrevious() select the next/previous match, wrapping around; false if none.
    bool findNext();
    bool findPrevious();
    // reconnects() counts the times a follow was lost and read again since the pod was shown.
    [[nodiscard]] int reconnects() const { return m_reconnects; }
    // The backoff of the followers' first reconnect (tests shorten it).
    void setInitialBackoff(std::chrono::milliseconds backoff) { m_initialBackoff = backoff; }
    // How many streams a workload's view runs at most (WorkloadLogs::DefaultMaxStreams).
    void setMaxStreams(int streams) { m_maxStreams = streams; }
    [[nodiscard]] int maxStreams() const { return m_maxStreams; }

Q_SIGNALS:
    void statusChanged(const QString &text);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void start();
    void stop();
    void restart();
    void appendRows(int first, int last);
    void redraw();
    void highlightMatches();
    bool find(bool backward);
    void onState(LogFollower::State state, const QString &message);
    void updateStatus();
    void updateWorkloadStatus(QStringList &parts) const;
    void showControlsFor(const KubeObject &object);

    QComboBox *m_containerBox; // owned (child)
    QCheckBox *m_previousBox; // owned (child)
    QCheckBox *m_followBox; // owned (child)
    QCheckBox *m_timestampsBox; // owned (child)
    QComboBox *m_sinceBox; // owned (child)
    QLineEdit *m_search; // owned (child)
    QToolButton *m_nextButton; // owned (child)
    QToolButton *m_previousMatchButton; // owned (child)
    QCheckBox *m_wrapBox; // owned (child)
    QPlainTextEdit *m_text; // owned (child)
    QLabel *m_status; // owned (child)
    LogBuffer *m_buffer; // owned (child)
    QTimer m_highlightTimer;
    QPointer<Cluster> m_cluster; // not owned
    KubeObject m_pod;
    LogFollower *m_follower = nullptr; // owned, lives on the cluster's worker thread; deleteLater()'d
    QPointer<RelationService> m_relations; // not owned
    KubeObject m_workload;
    WorkloadLogs *m_workloadLogs = nullptr; // owned (child) while a workload's log streams
    LogSourceHighlighter *m_highlighter; // owned (child); on the document only for a workload
    int m_maxStreams;
    qint64 m_mergerDropped = 0; // by the merges of the workload's reads stopped since the last restart
    int m_generation = 0; // which follower's queued signals are still wanted
    LogFollower::State m_state = LogFollower::State::Idle;
    QString m_stateMessage;
    int m_reconnects = 0;
    bool m_atBottom = true; // whether the view follows the end of the text
    std::chrono::milliseconds m_initialBackoff{1000};
};

} // namespace Cachescope
