#include "ui/models/resourcefilterproxymodel.h"

#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"

namespace Cachescope {

namespace {

int compareValues(const QVariant &a, const QVariant &b)
{
    // Missing values sort first, as kubectl's `<none>` would sort before any name.
    if (!a.isValid() || !b.isValid()) {
        return int(a.isValid()) - int(b.isValid());
    }
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString) {
        return QString::compare(*static_cast<const QString *>(a.constData()), *static_cast<const QString *>(b.constData()), Qt::CaseInsensitive);
    }
    if (a.typeId() == QMetaType::LongLong && b.typeId() == QMetaType::LongLong) {
        const qint64 x = a.toLongLong();
        const qint64 y = b.toLongLong();
        return x < y ? -1 : x > y ? 1 : 0;
    }
    const QPartialOrdering order = QVariant::compare(a, b);
    return order == QPartialOrdering::Less ? -1 : order == QPartialOrdering::Greater ? 1 : 0;
}

} // namespace

ResourceFilterProxyModel::ResourceFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ResourceTableRoles::SortRole);
    // A change of a row's object is the only thing that can change whether it passes; the
    // once-a-second age repaint (DisplayRole only) then costs the proxy nothing.
    setFilterRole(ResourceTableRoles::ObjectRole);
    setDynamicSortFilter(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

ResourceFilterProxyModel::~ResourceFilterProxyModel() = default;

void ResourceFilterProxyModel::setSourceModel(QAbstractItemModel *sourceModel)
{
    m_table = qobject_cast<ResourceTableModel *>(sourceModel);
    QSortFilterProxyModel::setSourceModel(sourceModel);
}

void ResourceFilterProxyModel::setFilterText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text) {
        return;
    }
    m_text = trimmed;
    refilter();
}

void ResourceFilterProxyModel::setLabelSelector(const LabelSelector &selector)
{
    if (selector.toString() == m_selector.toString()) {
        return;
    }
    m_selector = selector;
    refilter();
}

void ResourceFilterProxyModel::refilter()
{
    // A new filter over 100k rows can add or drop thousands of scattered rows. Announced one
    // interval at a time (invalidateRowsFilter()), each costs the proxy and the view O(rows):
    // quadratic in all. Rebuilding the mapping is one filter pass and one sort, and views
    // keep their current item through the layout change.
    invalidate();
}

bool ResourceFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_text.isEmpty() && m_selector.isEmpty()) {
        return true;
    }
    KubeObject object;
    if (m_table) {
        object = m_table->objectAt(sourceRow);
    } else {
        object = sourceModel()->index(sourceRow, 0, sourceParent).data(ResourceTableRoles::ObjectRole).value<KubeObject>();
    }
    if (!m_text.isEmpty() && !object.name().contains(m_text, Qt::CaseInsensitive) && !object.namespaceName().contains(m_text, Qt::CaseInsensitive)) {
        return false;
    }
    return m_selector.matches(object);
}

bool ResourceFilterProxyModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (m_table) {
        return m_table->compareRows(left.row(), right.row(), left.column()) < 0;
    }
    const int order = compareValues(left.data(sortRole()), right.data(sortRole()));
    if (order != 0) {
        return order < 0;
    }
    return left.data(ResourceTableRoles::KeyRole).toString() < right.data(ResourceTableRoles::KeyRole).toString();
}

} // namespace Cachescope
