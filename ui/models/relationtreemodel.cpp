#include "ui/models/relationtreemodel.h"

#include "core/printers/duration.h"
#include "core/relations/relationservice.h"
#include "ui/models/rowedit.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString groupOf(const QString &apiVersion)
{
    const qsizetype slash = apiVersion.indexOf(u'/');
    return slash < 0 ? QString() : apiVersion.left(slash);
}

bool sameShown(const RelationNode &a, const RelationNode &b)
{
    return a.object == b.object && a.object.object.resourceVersion() == b.object.object.resourceVersion() && a.source == b.source && a.detail == b.detail &&
        a.focus == b.focus;
}

} // namespace

RelationTreeModel::RelationTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
    // Ages are shown to the second below a minute; a tick a second keeps them true.
    m_ageTimer.setInterval(std::chrono::seconds(1));
    connect(&m_ageTimer, &QTimer::timeout, this, [this] { tickAges(&m_root, {}); });
}

RelationTreeModel::~RelationTreeModel() = default;

void RelationTreeModel::reset(const std::function<void()> &change)
{
    beginResetModel();
    m_root.children.clear();
    change();
    endResetModel();
}

void RelationTreeModel::setService(RelationService *service)
{
    if (m_service == service) {
        return;
    }
    if (m_service) {
        disconnect(m_service, nullptr, this, nullptr);
    }
    reset([&] { m_service = service; });
    if (service) {
        connect(service, &RelationService::changed, this, &RelationTreeModel::refresh);
        connect(service, &RelationService::synced, this, &RelationTreeModel::refresh);
        connect(service, &QObject::destroyed, this, &RelationTreeModel::refresh, Qt::QueuedConnection);
    }
    refresh();
}

RelationService *RelationTreeModel::service() const
{
    return m_service;
}

void RelationTreeModel::setObject(const ObjectRef &object)
{
    const bool same =
        object.uid == m_object.uid && object.kind == m_object.kind && object.namespaceName == m_object.namespaceName && object.name == m_object.name;
    if (!same) {
        reset([&] { m_object = object; });
    } else {
        m_object = object;
    }
    refresh();
}

void RelationTreeModel::setClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
}

bool RelationTreeModel::isKnown() const
{
    return m_service && m_service->hasSynced() && !m_object.name.isEmpty();
}

void RelationTreeModel::refresh()
{
    QList<RelationNode> top;
    if (m_service && !m_object.name.isEmpty()) {
        // The followed object as the caches hold it now (same uid), else as it was last seen.
        const ObjectRef now = m_service->find(groupOf(m_object.apiVersion), m_object.kind, m_object.namespaceName, m_object.name);
        if (now.isFound() && (m_object.uid.isEmpty() || now.uid == m_object.uid)) {
            m_object = now;
        }
        top.append(m_service->treeOf(m_object));
    }
    merge(&m_root, {}, top);
    const int count = top.isEmpty() ? 0 : int(top.constFirst().count());
    const bool known = isKnown();
    if (count != m_nodeCount || known != m_known) {
        m_nodeCount = count;
        m_known = known;
        Q_EMIT countChanged();
    }
    if (m_root.children.empty()) {
        m_ageTimer.stop();
    } else if (!m_ageTimer.isActive()) {
        m_ageTimer.start();
    }
}

QString RelationTreeModel::keyOf(const RelationNode &node)
{
    const ObjectRef &object = node.object;
    const QString identity = object.uid.isEmpty() ? object.kind + u'/' + object.namespaceName + u'/' + object.name : object.uid;
    return identity + u'\x1f' + QString::number(int(node.source)) + u'\x1f' + node.detail;
}

std::unique_ptr<RelationTreeModel::Item> RelationTreeModel::makeItem(const RelationNode &node, Item *parent)
{
    auto item = std::make_unique<Item>();
    item->node = node;
    item->node.children.clear();
    item->parent = parent;
    for (const RelationNode &child : node.children) {
        item->children.push_back(makeItem(child, item.get()));
    }
    return item;
}

void RelationTreeModel::merge(Item *parent, const QModelIndex &parentIndex, const QList<RelationNode> &fresh)
{
    QStringList before;
    for (const auto &child : parent->children) {
        before.append(keyOf(child->node));
    }
    QStringList after;
    for (const RelationNode &node : fresh) {
        after.append(keyOf(node));
    }
    auto &rows = parent->children;
    const QList<RowEdit> edits = RowEdit::between(before, after);
    for (const RowEdit &edit : edits) {
        switch (edit.kind) {
        case RowEdit::Kind::Remove:
            beginRemoveRows(parentIndex, edit.row, edit.row + edit.count - 1);
            rows.erase(rows.begin() + edit.row, rows.begin() + edit.row + edit.count);
            endRemoveRows();
            break;
        case RowEdit::Kind::Move: {
            beginMoveRows(parentIndex, edit.from, edit.from, parentIndex, edit.row);
            std::unique_ptr<Item> moved = std::move(rows[edit.from]);
            rows.erase(rows.begin() + edit.from);
            rows.insert(rows.begin() + edit.row, std::move(moved));
            endMoveRows();
            break;
        }
        case RowEdit::Kind::Insert:
            beginInsertRows(parentIndex, edit.row, edit.row);
            rows.insert(rows.begin() + edit.row, makeItem(fresh.at(edit.fresh), parent));
            endInsertRows();
            break;
        case RowEdit::Kind::Keep: {
            Item *item = rows[edit.row].get();
            const RelationNode &node = fresh.at(edit.fresh);
            if (!sameShown(item->node, node)) {
                item->node = node;
                item->node.children.clear();
                Q_EMIT dataChanged(index(edit.row, 0, parentIndex), index(edit.row, ColumnCount - 1, parentIndex));
            }
            merge(item, index(edit.row, 0, parentIndex), node.children);
            break;
        }
        }
    }
}

void RelationTreeModel::tickAges(Item *parent, const QModelIndex &parentIndex)
{
    const int rows = int(parent->children.size());
    if (rows == 0) {
        return;
    }
    Q_EMIT dataChanged(index(0, AgeColumn, parentIndex), index(rows - 1, AgeColumn, parentIndex), {Qt::DisplayRole});
    for (int row = 0; row < rows; ++row) {
        tickAges(parent->children[row].get(), index(row, 0, parentIndex));
    }
}

RelationTreeModel::Item *RelationTreeModel::itemOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Item *>(index.internalPointer()) : const_cast<Item *>(&m_root);
}

int RelationTreeModel::rowOf(const Item *item) const
{
    const Item *parent = item->parent;
    for (size_t row = 0; row < parent->children.size(); ++row) {
        if (parent->children[row].get() == item) {
            return int(row);
        }
    }
    return -1;
}

QModelIndex RelationTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent)) {
        return {};
    }
    return createIndex(row, column, itemOf(parent)->children[size_t(row)].get());
}

QModelIndex RelationTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid()) {
        return {};
    }
    Item *parent = itemOf(child)->parent;
    if (parent == nullptr || parent == &m_root) {
        return {};
    }
    return createIndex(rowOf(parent), 0, parent);
}

int RelationTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0) {
        return 0;
    }
    return int(itemOf(parent)->children.size());
}

int RelationTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

ObjectRef RelationTreeModel::objectAt(const QModelIndex &index) const
{
    return index.isValid() ? itemOf(index)->node.object : ObjectRef();
}

QModelIndex RelationTreeModel::focusIndex() const
{
    std::function<QModelIndex(const Item *, const QModelIndex &)> find = [&](const Item *parent, const QModelIndex &parentIndex) -> QModelIndex {
        for (size_t row = 0; row < parent->children.size(); ++row) {
            const QModelIndex here = index(int(row), 0, parentIndex);
            if (parent->children[row]->node.focus) {
                return here;
            }
            if (const QModelIndex below = find(parent->children[row].get(), here); below.isValid()) {
                return below;
            }
        }
        return {};
    };
    return find(&m_root, {});
}

QString RelationTreeModel::relationText(const RelationNode &node)
{
    using Source = RelationEdge::Source;
    QString source;
    switch (node.source) {
    case Source::OwnerReference:
        if (node.object.isDangling()) {
            return tr("dangling owner");
        }
        return node.detail == u"controller"_s ? tr("owner reference (controller)") : tr("owner reference");
    case Source::Selector:
        source = tr("selector");
        break;
    case Source::Volume:
        source = tr("volume");
        break;
    case Source::EnvFrom:
        source = tr("envFrom");
        break;
    case Source::Env:
        source = tr("env");
        break;
    case Source::ServiceAccount:
        source = tr("service account");
        break;
    case Source::ImagePullSecret:
        source = tr("image pull secret");
        break;
    case Source::NodeName:
        source = tr("node");
        break;
    case Source::ScaleTarget:
        source = tr("scale target");
        break;
    case Source::IngressBackend:
        source = tr("ingress backend");
        break;
    }
    // The detail is the spec's own words ("volume config", "selects app=web"), not translated.
    return node.detail.isEmpty() ? source : tr("%1: %2").arg(source, node.detail);
}

QString RelationTreeModel::readyText(const ReadyCondition &ready)
{
    if (ready.reason.isEmpty()) {
        return ready.status;
    }
    if (ready.status == u"-"_s) {
        return ready.reason;
    }
    return ready.status + u" ("_s + ready.reason + u')';
}

QVariant RelationTreeModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid));
    const RelationNode &node = itemOf(index)->node;
    const ObjectRef &object = node.object;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return object.displayName();
        case RelationColumn:
            // The root is related to nothing above it, unless it is a dangling owner.
            return itemOf(index)->parent == &m_root && !object.isDangling() ? QString() : relationText(node);
        case ReadyColumn:
            return readyText(ReadyCondition::of(object));
        case AgeColumn: {
            const QDateTime created = object.object.creationTimestamp();
            return created.isValid() ? humanDuration(std::chrono::milliseconds(created.msecsTo(m_clock()))) : QString();
        }
        }
        return {};
    case Qt::ToolTipRole:
        if (object.isDangling()) {
            return tr("%1 does not exist: the cache of its kind has synced and holds no object of that name and uid %2. "
                      "Its dependents are orphans until the garbage collector deletes them.")
                .arg(object.displayName(), object.uid);
        }
        if (!object.isFound()) {
            return tr("%1 is not in the caches yet: its kind is not served, or its informer has not synced.").arg(object.displayName());
        }
        return object.namespaceName.isEmpty() ? object.displayName() : QString(object.namespaceName + u'/' + object.displayName());
    case Qt::ForegroundRole:
        if (!object.isFound()) {
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        }
        return {};
    case Qt::FontRole:
        if (node.focus) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case UidRole:
        return object.uid;
    case KindRole:
        return object.kind;
    case NamespaceRole:
        return object.namespaceName;
    case ObjectNameRole:
        return object.name;
    case ResolutionRole:
        return int(object.resolution);
    case FocusRole:
        return node.focus;
    case SourceRole:
        return int(node.source);
    case DetailRole:
        return node.detail;
    }
    return {};
}

QVariant RelationTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case NameColumn:
        return tr("Kind/Name");
    case RelationColumn:
        return tr("Relation");
    case ReadyColumn:
        return tr("Ready/Status");
    case AgeColumn:
        return tr("Age");
    }
    return {};
}

} // namespace Cachescope
