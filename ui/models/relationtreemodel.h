#pragma once

#include "core/relations/readycondition.h"
#include "core/relations/relationnode.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

namespace Cachescope {

class RelationService;

// RelationTreeModel is the Relations tab of the object pane: the tree RelationService::treeOf()
// builds for one object, one row per RelationNode (Kind/Name, Relation: where the edge comes
// from, Ready/Status: ReadyCondition as `cachescope-cli tree` prints it, Age), from the root of
// its owner chain down, the object itself marked (FocusRole, bold). Dangling owners are greyed
// (the palette's disabled text) with a tooltip saying why; owners not found yet likewise.
//
// Live: it asks the service again on every changed() and synced() (coalesced there, at most
// every 100 ms) and merges the new tree into its rows level by level with exact removes, moves,
// inserts and dataChanged (RowEdit): expanded branches and the selection stay; setService() and
// another object reset. The followed object itself is looked up again on each change, so a pod
// that gains its node or loses an owner shows it. Ages tick once a second.
// Thread: GUI thread (the service's). Ownership: the service is not owned (a QPointer: one that
// dies empties the tree). Cost per change: one treeOf() and O(nodes) comparisons.
class RelationTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RelationTreeModel)

public:
    enum Column { NameColumn, RelationColumn, ReadyColumn, AgeColumn, ColumnCount };
    enum Role {
        UidRole = Qt::UserRole + 1, // QString: the row's object's uid (empty for a reference without one)
        KindRole, // QString: its kind
        NamespaceRole, // QString: its namespace, empty when cluster-scoped
        ObjectNameRole, // QString: metadata.name
        ResolutionRole, // int: ObjectRef::Resolution
        FocusRole, // bool: the object the tree was asked for
        SourceRole, // int: RelationEdge::Source of the edge to its parent row
        DetailRole, // QString: where the edge is written ("volume config", "selects app=web"), untranslated
    };

    explicit RelationTreeModel(QObject *parent = nullptr);
    ~RelationTreeModel() override;

    // setService() gives the service to ask (not owned); resets.
    void setService(RelationService *service);
    [[nodiscard]] RelationService *service() const;
    // setObject() shows the tree of `object` (its kind and apiVersion from discovery, as
    // RelationService::refOf() gives them); another object resets, the same one merges.
    void setObject(const ObjectRef &object);
    [[nodiscard]] ObjectRef object() const { return m_object; }
    // refresh() asks the service again now (its signals call it; tests may too).
    void refresh();

    // isKnown() is true once the service has synced every informer it reads: the count is final.
    [[nodiscard]] bool isKnown() const;
    // relatedCount() is the number of rows but the object's own.
    [[nodiscard]] int relatedCount() const { return m_nodeCount > 0 ? m_nodeCount - 1 : 0; }
    [[nodiscard]] ObjectRef objectAt(const QModelIndex &index) const;
    [[nodiscard]] QModelIndex focusIndex() const;

    // setClock() replaces the source of the current time for ages (tests).
    void setClock(std::function<QDateTime()> clock);

    // relationText() is what the Relation column says of a node's edge to its parent.
    [[nodiscard]] static QString relationText(const RelationNode &node);
    // readyText() is the Ready/Status column: "True", "False (ContainersNotReady)", "Dangling".
    [[nodiscard]] static QString readyText(const ReadyCondition &ready);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // countChanged() when relatedCount() or isKnown() changed.
    void countChanged();

private:
    struct Item
    {
        RelationNode node; // without its children: those are the items below
        Item *parent = nullptr;
        std::vector<std::unique_ptr<Item>> children;
    };

    [[nodiscard]] Item *itemOf(const QModelIndex &index) const;
    [[nodiscard]] int rowOf(const Item *item) const;
    [[nodiscard]] static QString keyOf(const RelationNode &node);
    [[nodiscard]] static std::unique_ptr<Item> makeItem(const RelationNode &node, Item *parent);
    void merge(Item *parent, const QModelIndex &parentIndex, const QList<RelationNode> &fresh);
    void tickAges(Item *parent, const QModelIndex &parentIndex);
    void reset(const std::function<void()> &change);

    QPointer<RelationService> m_service; // not owned
    ObjectRef m_object;
    Item m_root;
    int m_nodeCount = 0;
    bool m_known = false;
    std::function<QDateTime()> m_clock;
    QTimer m_ageTimer{this};
};

} // namespace Cachescope
