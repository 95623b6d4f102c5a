#include "ui/models/resourcetreemodel.h"

#include <QCoreApplication>
#include <QMap>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

bool resourceBefore(const ApiResource &a, const ApiResource &b)
{
    return a.gvr.resource() < b.gvr.resource();
}

bool sameListing(const ApiResource &a, const ApiResource &b)
{
    return a.gvr == b.gvr && a.kind == b.kind && a.namespaced == b.namespaced && a.verbs == b.verbs && a.shortNames == b.shortNames;
}

} // namespace

ResourceTreeModel::ResourceTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

ResourceTreeModel::~ResourceTreeModel() = default;

QString ResourceTreeModel::resourceId(const ApiResource &resource)
{
    const QString group = resource.gvr.group();
    return group.isEmpty() ? resource.gvr.resource() : resource.gvr.resource() + u'.' + group;
}

bool ResourceTreeModel::groupBefore(const QString &a, const QString &b)
{
    // The core group first, the others by name.
    if (a.isEmpty() || b.isEmpty()) {
        return a.isEmpty() && !b.isEmpty();
    }
    return a < b;
}

void ResourceTreeModel::setDiscovery(const DiscoveryResult &discovery)
{
    QMap<QString, QList<ApiResource>> wanted;
    const QList<ApiResource> preferred = discovery.preferredResources();
    for (const ApiResource &resource : preferred) {
        if (resource.gvr.resource().contains(u'/') || !resource.supports(u"list"_s) || !resource.supports(u"watch"_s)) {
            continue;
        }
        wanted[resource.gvr.group()].append(resource);
    }
    for (auto &list : wanted) {
        std::sort(list.begin(), list.end(), resourceBefore);
    }

    // Groups that went.
    for (int row = int(m_groups.size()) - 1; row >= 0; --row) {
        if (!wanted.contains(m_groups[size_t(row)]->name)) {
            beginRemoveRows({}, row, row);
            m_groups.erase(m_groups.begin() + row);
            endRemoveRows();
        }
    }
    // Groups that stay: their resources, removed, changed and inserted in place.
    for (int groupRow = 0; groupRow < int(m_groups.size()); ++groupRow) {
        Group &group = *m_groups[size_t(groupRow)];
        const QList<ApiResource> &next = wanted.value(group.name);
        const QModelIndex parentIndex = index(groupRow, 0);
        for (int row = int(group.resources.size()) - 1; row >= 0; --row) {
            const QString plural = group.resources.at(row).gvr.resource();
            const bool stays = std::any_of(next.cbegin(), next.cend(), [&](const ApiResource &r) { return r.gvr.resource() == plural; });
            if (!stays) {
                beginRemoveRows(parentIndex, row, row);
                group.resources.removeAt(row);
                endRemoveRows();
            }
        }
        for (const ApiResource &resource : next) {
            const auto it = std::lower_bound(group.resources.begin(), group.resources.end(), resource, resourceBefore);
            const int row = int(it - group.resources.begin());
            if (it != group.resources.end() && it->gvr.resource() == resource.gvr.resource()) {
                if (!sameListing(*it, resource)) {
                    *it = resource;
                    Q_EMIT dataChanged(index(row, 0, parentIndex), index(row, ColumnCount - 1, parentIndex));
                }
                continue;
            }
            beginInsertRows(parentIndex, row, row);
            group.resources.insert(row, resource);
            endInsertRows();
        }
    }
    // Groups that appeared, each at its sorted place.
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
        const auto at = std::lower_bound(m_groups.begin(), m_groups.end(), it.key(), [](const std::unique_ptr<Group> &group, const QString &name) {
            return groupBefore(group->name, name);
        });
        if (at != m_groups.end() && (*at)->name == it.key()) {
            continue;
        }
        const int row = int(at - m_groups.begin());
        auto group = std::make_unique<Group>();
        group->name = it.key();
        group->resources = it.value();
        beginInsertRows({}, row, row);
        m_groups.insert(m_groups.begin() + row, std::move(group));
        endInsertRows();
    }
}

int ResourceTreeModel::rowOfGroup(const Group *group) const
{
    for (size_t i = 0; i < m_groups.size(); ++i) {
        if (m_groups[i].get() == group) {
            return int(i);
        }
    }
    return -1;
}

qint64 ResourceTreeModel::groupCount(const Group &group) const
{
    qint64 sum = -1;
    for (const ApiResource &resource : group.resources) {
        const qint64 n = m_counts.value(resourceId(resource), -1);
        if (n >= 0) {
            sum = std::max<qint64>(sum, 0) + n;
        }
    }
    return sum;
}

void ResourceTreeModel::setCount(const QString &resourceId, qint64 n)
{
    if (n < 0) {
        if (m_counts.remove(resourceId) == 0) {
            return;
        }
    } else {
        const auto it = m_counts.constFind(resourceId);
        if (it != m_counts.cend() && *it == n) {
            return;
        }
        m_counts.insert(resourceId, n);
    }
    const QModelIndex at = indexOf(resourceId);
    if (!at.isValid()) {
        return;
    }
    const QModelIndex countIndex = at.siblingAtColumn(CountColumn);
    Q_EMIT dataChanged(countIndex, countIndex, {Qt::DisplayRole, CountRole});
    const QModelIndex groupIndex = at.parent().siblingAtColumn(CountColumn);
    Q_EMIT dataChanged(groupIndex, groupIndex, {Qt::DisplayRole, CountRole});
}

ApiResource ResourceTreeModel::resource(const QModelIndex &index) const
{
    if (!index.isValid() || !index.internalPointer()) {
        return {};
    }
    const auto *group = static_cast<const Group *>(index.internalPointer());
    return group->resources.value(index.row());
}

QModelIndex ResourceTreeModel::indexOf(const QString &resourceId) const
{
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const Group &group = *m_groups[g];
        for (qsizetype r = 0; r < group.resources.size(); ++r) {
            if (ResourceTreeModel::resourceId(group.resources.at(r)) == resourceId) {
                return createIndex(int(r), 0, m_groups[g].get());
            }
        }
    }
    return {};
}

QModelIndex ResourceTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent)) {
        return {};
    }
    if (!parent.isValid()) {
        return createIndex(row, column, nullptr);
    }
    return createIndex(row, column, m_groups[size_t(parent.row())].get());
}

QModelIndex ResourceTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || !child.internalPointer()) {
        return {};
    }
    const int row = rowOfGroup(static_cast<const Group *>(child.internalPointer()));
    return row < 0 ? QModelIndex() : createIndex(row, 0, nullptr);
}

int ResourceTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid()) {
        return int(m_groups.size());
    }
    if (parent.internalPointer() || parent.column() != 0) {
        return 0; // resources have no children
    }
    return int(m_groups[size_t(parent.row())]->resources.size());
}

int ResourceTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ResourceTreeModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid));
    if (!index.internalPointer()) {
        const Group &group = *m_groups[size_t(index.row())];
        const qint64 n = groupCount(group);
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == CountColumn) {
                return n < 0 ? QVariant() : QVariant(n);
            }
            return group.name.isEmpty() ? u"v1"_s : group.name;
        case Qt::ToolTipRole:
            return group.name.isEmpty() ? QCoreApplication::translate("ResourceTreeModel", "The core API group") : group.name;
        case GroupVersionRole:
            return group.resources.isEmpty() ? QString() : group.resources.constFirst().gvr.groupVersion();
        case CountRole:
            return n;
        case IsGroupRole:
            return true;
        default:
            return {};
        }
    }
    const auto *group = static_cast<const Group *>(index.internalPointer());
    const ApiResource &resource = group->resources.at(index.row());
    const qint64 n = m_counts.value(resourceId(resource), -1);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == CountColumn) {
            return n < 0 ? QVariant() : QVariant(n);
        }
        return resource.kind;
    case Qt::ToolTipRole:
        return QCoreApplication::translate("ResourceTreeModel", "%1 (%2), %3; verbs: %4")
            .arg(resourceId(resource),
                 resource.gvr.groupVersion(),
                 resource.namespaced ? QCoreApplication::translate("ResourceTreeModel", "namespaced")
                                     : QCoreApplication::translate("ResourceTreeModel", "cluster-scoped"),
                 resource.verbs.join(u", "_s));
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn ? QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case ResourceIdRole:
        return resourceId(resource);
    case GroupVersionRole:
        return resource.gvr.groupVersion();
    case NamespacedRole:
        return resource.namespaced;
    case VerbsRole:
        return resource.verbs;
    case CountRole:
        return n;
    case IsGroupRole:
        return false;
    default:
        return {};
    }
}

QVariant ResourceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    return section == KindColumn ? QCoreApplication::translate("ResourceTreeModel", "Resource") : QCoreApplication::translate("ResourceTreeModel", "Count");
}

} // namespace Cachescope
