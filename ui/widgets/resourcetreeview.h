#pragma once

#include "core/kube/apiresource.h"

#include <QWidget>

class QTreeView;

namespace Cachescope {

class ResourceTreeModel;

// ResourceTreeView shows a ResourceTreeModel (groups and their resources with live counts) and
// emits resourceActivated() when a resource is chosen (Enter or a double click; moving through
// the tree with the arrow keys opens nothing, since opening a resource starts an informer).
// The model is not owned. Thread: GUI.
class ResourceTreeView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTreeView)

public:
    explicit ResourceTreeView(QWidget *parent = nullptr);
    ~ResourceTreeView() override;

    void setModel(ResourceTreeModel *model);
    ResourceTreeModel *model() const { return m_model; }
    QTreeView *treeView() const { return m_tree; }

Q_SIGNALS:
    void resourceActivated(const Cachescope::ApiResource &resource);

private:
    void activate(const QModelIndex &index);

    ResourceTreeModel *m_model = nullptr; // not owned
    QTreeView *m_tree; // owned (child)
};

} // namespace Cachescope
