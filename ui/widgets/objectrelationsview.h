#pragma once

#include "core/relations/objectref.h"

#include <QWidget>

class QTreeView;

namespace Cachescope {

class RelationService;
class RelationTreeModel;

// ObjectRelationsView is the object pane's Relations tab: a tree of the shown object's owners,
// dependents and implicit relations (RelationTreeModel, owned), expanded, the object itself
// selected. Activating another row that exists (not a dangling owner) asks to open that object
// (objectActivated(); the Explorer shows it). tabTitle() is "Relations (N)" once the count is
// known, tabTitleChanged() when it changes. GUI thread; the service is not owned.
class ObjectRelationsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectRelationsView)

public:
    explicit ObjectRelationsView(QWidget *parent = nullptr);
    ~ObjectRelationsView() override;

    // showObject() shows the relations of `object` as `service` finds them (null: none).
    void showObject(RelationService *service, const ObjectRef &object);

    [[nodiscard]] RelationTreeModel *model() const { return m_model; }
    [[nodiscard]] QTreeView *treeView() const { return m_tree; }
    [[nodiscard]] QString tabTitle() const;

Q_SIGNALS:
    void objectActivated(const Cachescope::ObjectRef &object);
    void tabTitleChanged();

private:
    RelationTreeModel *m_model; // owned (child)
    QTreeView *m_tree; // owned (child)
};

} // namespace Cachescope
