#pragma once

#include "core/relations/objectref.h"

#include <QWidget>

class QTableView;

namespace Cachescope {

class ObjectEvents;
class ObjectEventsModel;

// ObjectEventsView is the object pane's Events tab: the shown object's Kubernetes Events, newest
// first, warnings marked (ObjectEventsModel, owned), live as events arrive. tabTitle() is
// "Events (N)" once the events informer has synced, tabTitleChanged() when it changes. GUI
// thread; the ObjectEvents is not owned.
class ObjectEventsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectEventsView)

public:
    explicit ObjectEventsView(QWidget *parent = nullptr);
    ~ObjectEventsView() override;

    // showObject() shows the events of `object` that `events` holds (null: none).
    void showObject(ObjectEvents *events, const ObjectRef &object);

    [[nodiscard]] ObjectEventsModel *model() const { return m_model; }
    [[nodiscard]] QTableView *tableView() const { return m_table; }
    [[nodiscard]] QString tabTitle() const;

Q_SIGNALS:
    void tabTitleChanged();

private:
    ObjectEventsModel *m_model; // owned (child)
    QTableView *m_table; // owned (child)
};

} // namespace Cachescope
