#pragma once

#include "ui/workspace.h"

#include <optional>

#include <QPointer>
#include <QWidget>

class QComboBox;
class QTreeView;

namespace Cachescope {

class Cluster;
class ContextListModel;
class NamespaceListModel;

// ContextsView is the "Clusters" pane: the contexts of the open kubeconfig with their
// connection state (Enter or double-click connects; the context menu connects and
// disconnects), and the namespace choice of the current cluster (all, or one). It emits what
// the explorer follows: the current cluster and namespace. Owns its models.
class ContextsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContextsView)

public:
    explicit ContextsView(Workspace *workspace, QWidget *parent = nullptr);
    ~ContextsView() override;

    Cluster *currentCluster() const { return m_current; }
    QString currentNamespace() const;
    ContextListModel *model() const { return m_model; }

    // connectCurrentContext() connects the kubeconfig's current-context (what opening a
    // kubeconfig does) and makes it current.
    void connectCurrentContext();
    // connectContext() connects the context of that name and makes it current; false when the
    // kubeconfig has none.
    bool connectContext(const QString &name);
    // contextNames() are the kubeconfig's contexts; namespaces() the current cluster's.
    [[nodiscard]] QStringList contextNames() const;
    [[nodiscard]] QStringList namespaces() const;
    // setCurrentNamespace() chooses a namespace (empty: all); false when it is not listed.
    bool setCurrentNamespace(const QString &namespaceName);

Q_SIGNALS:
    void currentClusterChanged(Cachescope::Cluster *cluster);
    void currentNamespaceChanged(const QString &namespaceName);
    // namespacesChanged(): namespaces() changed (the current cluster's list arrived or changed).
    void namespacesChanged();

private:
    void connectRow(int row);
    void setCurrent(Cluster *cluster);
    void showMenu(const QPoint &position);

    QPointer<Workspace> m_workspace;
    ContextListModel *m_model; // owned (child)
    NamespaceListModel *m_namespaces; // owned (child)
    QTreeView *m_view; // owned (child)
    QComboBox *m_namespaceBox; // owned (child)
    Cluster *m_current = nullptr; // not owned (the workspace's)
    std::optional<Workspace::ContextId> m_lostContext; // the current one while it is connected again
    bool m_switching = false; // emptying the namespace list for another cluster
    QString m_announcedNamespace; // the last currentNamespaceChanged()
};

} // namespace Cachescope
