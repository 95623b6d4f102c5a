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
    invalidateRowsFilter();
}

void ResourceFilterProxyModel::setLabelSelector(const LabelSelector &selector)
{
    if (selector.toString() == m_selector.toString()) {
        return;
    }
    m_selector = selector;
    invalidateRowsFilter();
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
    int order = 0;
    if (m_table) {
        order = compareValues(m_table->sortValue(left.row(), left.column()), m_table->sortValue(right.row(), right.column()));
    } else {
        order = compareValues(left.data(sortRole()), right.data(sortRole()));
    }
    if (order != 0) {
        return order < 0;
    }
    // Ties keep a stable, meaningful order: by key (namespace/name).
    if (m_table) {
        const KubeObject a = m_table->objectAt(left.row());
        const KubeObject b = m_table->objectAt(right.row());
        const int byNamespace = QString::compare(a.namespaceName(), b.namespaceName());
        return byNamespace != 0 ? byNamespace < 0 : a.name() < b.name();
    }
    return left.data(ResourceTableRoles::KeyRole).toString() < right.data(ResourceTableRoles::KeyRole).toString();
}

} // namespace Cachescope
