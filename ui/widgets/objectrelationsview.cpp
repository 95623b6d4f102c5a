#include "ui/widgets/objectrelationsview.h"

#include "ui/models/relationtreemodel.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

namespace Cachescope {

ObjectRelationsView::ObjectRelationsView(QWidget *parent)
    : QWidget(parent)
    , m_model(new RelationTreeModel(this))
    , m_tree(new QTreeView(this))
{
    m_tree->setObjectName(QStringLiteral("relations"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setSectionResizeMode(RelationTreeModel::NameColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(RelationTreeModel::RelationColumn, QHeaderView::Stretch);

    // A tree of relations is small (an owner chain and its dependents): all of it is shown, and
    // a branch that appears live is opened too.
    const auto expand = [this] {
        m_tree->expandAll();
        if (const QModelIndex focus = m_model->focusIndex(); focus.isValid() && !m_tree->currentIndex().isValid()) {
            m_tree->setCurrentIndex(focus);
            m_tree->scrollTo(focus);
        }
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, expand);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, expand);
    connect(m_model, &RelationTreeModel::countChanged, this, &ObjectRelationsView::tabTitleChanged);
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const ObjectRef object = m_model->objectAt(index);
        if (object.isFound() && !index.data(RelationTreeModel::FocusRole).toBool()) {
            Q_EMIT objectActivated(object);
        }
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
}

ObjectRelationsView::~ObjectRelationsView() = default;

void ObjectRelationsView::showObject(RelationService *service, const ObjectRef &object)
{
    m_model->setService(service);
    m_model->setObject(object);
}

QString ObjectRelationsView::tabTitle() const
{
    return m_model->isKnown() ? tr("Relations (%1)").arg(m_model->relatedCount()) : tr("Relations");
}

} // namespace Cachescope
