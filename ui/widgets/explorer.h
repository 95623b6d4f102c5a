#pragma once

#include <QObject>
#include <QPointer>

namespace Cachescope {

class Cluster;
class ContextsView;
class EventStreamModel;
class EventStreamView;
class MainWindow;
class ObjectHistory;
class ObjectView;
class SharedIndexInformer;
class Workspace;

// Explorer wires the explorer's views together in a MainWindow: the Clusters pane chooses the
// cluster and namespace, the resource tree the resource; together they name an informer (from
// the cluster's InformerFactory) that the table, index, pipeline views follow; activating an
// object shows it in the object view. It owns no data: views own their models, the Workspace
// owns the clusters. GUI thread.
class Explorer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Explorer)

public:
    Explorer(MainWindow *window, Workspace *workspace, QObject *parent = nullptr);
    ~Explorer() override;

    // openKubeconfig() opens a kubeconfig (empty path: $KUBECONFIG, else ~/.kube/config) and
    // connects its current context; problems in the files are shown, naming file and line.
    void openKubeconfig(const QString &path);

    ContextsView *contextsView() const { return m_contexts; }
    ObjectView *objectView() const { return m_objectView; }

    EventStreamModel *eventStream() const { return m_eventStream; }
    ObjectHistory *history() const { return m_history; }

private:
    void setCluster(Cluster *cluster);
    // tap() feeds every notification of a new informer to the event stream and the history.
    void tap(Cluster *cluster, SharedIndexInformer *informer);
    static QString historyResource(const QString &cluster, const QString &informer);

    QPointer<MainWindow> m_window;
    QPointer<Workspace> m_workspace;
    ContextsView *m_contexts = nullptr; // owned by the window (dock)
    ObjectView *m_objectView = nullptr; // owned by the window (dock)
    EventStreamModel *m_eventStream = nullptr; // owned (child)
    EventStreamView *m_eventStreamView = nullptr; // owned by the window (dock)
    ObjectHistory *m_history = nullptr; // owned (child)
    QPointer<Cluster> m_cluster;
};

} // namespace Cachescope
