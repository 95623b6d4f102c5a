#include "ui/widgets/resourcetreeview.h"

#include "ui/models/resourcetreemodel.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

namespace Cachescope {

ResourceTreeView::ResourceTreeView(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeView(this))
{
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setAllColumnsShowFocus(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    connect(m_tree, &QAbstractItemView::activated, this, &ResourceTreeView::activate);
}

ResourceTreeView::~ResourceTreeView() = default;

void ResourceTreeView::setModel(ResourceTreeModel *model)
{
    m_model = model;
    m_tree->setModel(model);
    if (!model) {
        return;
    }
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(ResourceTreeModel::KindColumn, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(ResourceTreeModel::CountColumn, QHeaderView::ResizeToContents);
    m_tree->expandAll();
    // Groups that appear later (a CRD installed while connected) open like the others.
    connect(model, &QAbstractItemModel::rowsInserted, m_tree, [this](const QModelIndex &parent, int first, int last) {
        if (parent.isValid()) {
            return;
        }
        for (int row = first; row <= last; ++row) {
            m_tree->expand(m_model->index(row, 0));
        }
    });
}

void ResourceTreeView::activate(const QModelIndex &index)
{
    if (!m_model || !index.isValid() || index.data(ResourceTreeModel::IsGroupRole).toBool()) {
        return;
    }
    Q_EMIT resourceActivated(m_model->resource(index.siblingAtColumn(0)));
}

} // namespace Cachescope
