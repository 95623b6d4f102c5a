#pragma once

#include "core/kube/logfollower.h"
#include "core/kube/logline.h"
#include "core/kube/logmerger.h"
#include "core/kube/logoptions.h"
#include "core/relations/objectref.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <chrono>

namespace Cachescope {

class Cluster;
class RelationService;

// WorkloadLogs is the log of a workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job):
// every container of every pod below it, merged in time order, as stern shows them. The pods are
// the ones RelationService::podsOf() finds through the informers' owner indexes (a Deployment's
// through its ReplicaSets), asked again on each RelationService::changed(), so the set is live:
// a pod that appears is joined once its container has started (a running or terminated state,
// or a restart: what the kubelet can serve), from its first line; a pod that goes away keeps
// its lines, and its stream ends on its own (the server ends a deleted pod's follow) or after a
// grace of a few seconds.
//
// One LogFollower per (pod, container), made here and moved to the cluster's worker thread as
// LogView does for one; at most maxStreams() of them at once (default 50), so a 1000-replica
// Deployment does not open 1000 streams: pods beyond it wait, in the order they appeared, for a
// stream that ends (waitingCount()). Each stream asks the kubelet's timestamps and, unless the
// options say otherwise, the last bound() lines only (no more can be shown). A stream that ended
// (the pod gone, a log read without follow, a refusal) is not read again.
// Lines go through a LogMerger (the order it guarantees is its contract: in time order within
// its window, late lines counted) and leave with linesReceived() at most every 100 ms.
// Memory: the merger's pending lines, at most bound(); the shown lines are the receiver's ring.
//
// Lives on the GUI thread (RelationService's); the followers on the cluster's worker thread,
// deleted there. The cluster and the service are not owned and must outlive it.
class WorkloadLogs final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WorkloadLogs)

public:
    static constexpr int DefaultMaxStreams = 50;

    // `options` apply to every stream: the container (empty: every container of each pod),
    // follow, sinceSeconds, tailLines; previous is ignored, timestamps always asked.
    WorkloadLogs(Cluster *cluster, RelationService *relations, const ObjectRef &workload, const LogOptions &options, QObject *parent = nullptr);
    ~WorkloadLogs() override;

    // isWorkload() says whether an object has pods of its own below it to merge the logs of:
    // a Deployment, ReplicaSet, StatefulSet or DaemonSet (apps) or a Job (batch).
    [[nodiscard]] static bool isWorkload(const KubeObject &object);
    // containersOf() are the names of the containers in a workload's pod template.
    [[nodiscard]] static QStringList containersOf(const KubeObject &workload);

    // Settings, before start().
    void setMaxStreams(int streams) { m_maxStreams = qMax(1, streams); }
    [[nodiscard]] int maxStreams() const { return m_maxStreams; }
    // setBound() is the receiver's ring size: the merger's bound and each stream's tail.
    void setBound(qsizetype lines);
    [[nodiscard]] qsizetype bound() const { return m_merger.bound(); }
    void setMergeWindow(std::chrono::milliseconds window) { m_merger.setWindow(window); }
    void setInitialBackoff(std::chrono::milliseconds backoff) { m_initialBackoff = backoff; }

    // start() reads the pods and starts their streams; the set follows the caches from then on.
    void start();

    [[nodiscard]] const ObjectRef &workload() const { return m_workload; }
    // podCount() is how many pods the workload has now; streamCount() how many streams run;
    // waitingCount() how many pods wait for a stream (beyond maxStreams());
    // notStartedCount() how many pods have no container started yet.
    [[nodiscard]] int podCount() const { return int(m_pods.size()); }
    [[nodiscard]] int streamCount() const { return m_running; }
    [[nodiscard]] int waitingCount() const;
    [[nodiscard]] int notStartedCount() const;
    // sources() are the "pod/container" of every stream started so far, in the order they started;
    // runningSources() those of the streams that run now.
    [[nodiscard]] QStringList sources() const { return m_started; }
    [[nodiscard]] QStringList runningSources() const;
    // receivedCount() is how many lines the streams delivered, before the merge.
    [[nodiscard]] qint64 receivedCount() const { return m_received; }
    [[nodiscard]] int reconnects() const { return m_reconnects; }
    // lastError() is the last refusal of a stream ("pod/container: message"), if any.
    [[nodiscard]] QString lastError() const { return m_lastError; }
    [[nodiscard]] const LogMerger &merger() const { return m_merger; }
    // takePending() is every line still in the merge window, in time order (the view stops).
    [[nodiscard]] LogLines takePending() { return m_merger.takeAll(); }

Q_SIGNALS:
    // linesReceived(): merged lines, in the merger's order; one signal per batch.
    void linesReceived(const Cachescope::LogLines &lines);
    // countsChanged(): the pods, streams or waiting pods changed.
    void countsChanged();

private:
    struct Stream
    {
        QString podUid;
        QString podName;
        QString container;
        QString source; // "pod/container"
        LogFollower *follower = nullptr; // owned, lives on the worker thread; deleteLater()'d
        bool done = false;
        bool leaving = false; // its pod left; stopped after the grace
    };
    // What a pod's JSON says, read once per resourceVersion (a refresh sees every pod).
    struct Pod
    {
        QString resourceVersion;
        QStringList containers; // those the options ask for
        QSet<QString> started; // of those, the ones the kubelet can serve a log of
    };

    void refresh();
    void fillSlots();
    void startStream(Stream &stream);
    void stopStream(const QString &key);
    void onLines(const QString &key, const QStringList &lines);
    void onState(const QString &key, LogFollower::State state, const QString &message);
    void flush();
    void scheduleFlush();
    [[nodiscard]] Pod podOf(const ObjectRef &pod) const;
    [[nodiscard]] bool hasStarted(const Stream &stream) const;

    QPointer<Cluster> m_cluster; // not owned
    QPointer<RelationService> m_relations; // not owned
    ObjectRef m_workload;
    LogOptions m_options;
    int m_maxStreams = DefaultMaxStreams;
    std::chrono::milliseconds m_initialBackoff{1000};
    LogMerger m_merger;
    QElapsedTimer m_clock; // the merger's time
    QTimer m_flushTimer{this};
    QHash<QString, Pod> m_pods; // by uid: the workload's pods now
    QHash<QString, Stream> m_streams; // by "uid/container"
    QStringList m_order; // keys of m_streams in the order their pods appeared
    QStringList m_started; // sources, in the order their streams started
    int m_running = 0;
    qint64 m_received = 0;
    int m_reconnects = 0;
    QString m_lastError;
    bool m_startedReading = false;
};

} // namespace Cachescope
