#pragma once

#include "core/kube/apiresource.h"
#include "core/kube/discoveryresult.h"

#include <QAbstractItemModel>
#include <QHash>

#include <memory>
#include <vector>

namespace Cachescope {

// ResourceTreeModel is the resource tree of one cluster, from its DiscoveryResult: API groups
// (the core group, shown as "v1", first; then by name) and under each its resources in their
// preferred version (by name), built-ins and custom resources alike. Only resources a table
// can show are listed: those that support both list and watch, subresources left out. Column 0
// is the kind, column 1 the live object count the owner sets with setCount() (a group shows the
// sum of its resources' known counts).
//
// Updates are exact: setDiscovery() with a new result inserts and removes the groups and
// resources that appeared or went (a CRD installed while connected), and changes the rest in
// place; setCount() is one dataChanged for the resource and one for its group.
// Thread: GUI. Cost: setCount() and indexOf() walk the listed resources (a few hundred at most).
class ResourceTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTreeModel)

public:
    enum Column { KindColumn, CountColumn, ColumnCount };
    enum Role {
        ResourceIdRole = Qt::UserRole + 1, // "pods", "deployments.apps": group-qualified plural (QString; empty for groups)
        GroupVersionRole, // "v1", "apps/v1" (QString)
        NamespacedRole, // bool, resources only
        VerbsRole, // QStringList, resources only
        CountRole, // qint64, -1 when unknown
        IsGroupRole, // bool
    };

    explicit ResourceTreeModel(QObject *parent = nullptr);
    ~ResourceTreeModel() override;

    void setDiscovery(const DiscoveryResult &discovery);
    // setCount() sets a resource's object count (by its group-qualified plural, ResourceIdRole);
    // n < 0 clears it. Counts are kept for resources that are not (yet) in the tree.
    void setCount(const QString &resourceId, qint64 n);
    void setCount(const ApiResource &resource, qint64 n) { setCount(resourceId(resource), n); }
    qint64 count(const QString &resourceId) const { return m_counts.value(resourceId, -1); }

    // resource() is the ApiResource of a resource row (an invalid one for groups).
    ApiResource resource(const QModelIndex &index) const;
    // indexOf() finds a resource's row (column 0), invalid when it is not listed.
    QModelIndex indexOf(const QString &resourceId) const;
    static QString resourceId(const ApiResource &resource);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Group
    {
        QString name; // "" for the core group
        QList<ApiResource> resources; // sorted by plural
    };

    static bool groupBefore(const QString &a, const QString &b);
    int rowOfGroup(const Group *group) const;
    qint64 groupCount(const Group &group) const;

    std::vector<std::unique_ptr<Group>> m_groups; // heap-allocated: children's indexes point at them
    QHash<QString, qint64> m_counts;
};

} // namespace Cachescope
