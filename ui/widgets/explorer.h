#pragma once

#include <QObject>
#include <QPointer>

namespace Cachescope {

class Cluster;
class ContextsView;
class MainWindow;
class ObjectView;
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

private:
    void setCluster(Cluster *cluster);

    QPointer<MainWindow> m_window;
    QPointer<Workspace> m_workspace;
    ContextsView *m_contexts = nullptr; // owned by the window (dock)
    ObjectView *m_objectView = nullptr; // owned by the window (dock)
    QPointer<Cluster> m_cluster;
};

} // namespace Cachescope
