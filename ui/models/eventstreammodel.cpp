#include "ui/models/eventstreammodel.h"

#include "ui/models/objecthistory.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QLocale>
#include <QTimer>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {

// Object fields deeper than this are reported by their parent's path: "spec.template.spec"
// says enough in one line, and the walk stays cheap on large objects.
constexpr int MaxSummaryDepth = 4;
constexpr int MaxScalarLength = 32;

struct Change
{
    QString path;
    QJsonValue before;
    QJsonValue after;
};

struct ChangeCollector
{
    bool secret = false;
    QList<Change> changes;
    int total = 0;

    void add(const QString &path, const QJsonValue &before, const QJsonValue &after)
    {
        ++total;
        if (changes.size() < EventStreamModel::MaxSummaryPaths) {
            changes.append({path, before, after});
        }
    }

    void compare(const QJsonValue &before, const QJsonValue &after, const QString &path, int depth)
    {
        // resourceVersion changes on every update and has its own column.
        if (path == u"metadata.resourceVersion"_s || path == u"metadata.managedFields"_s) {
            return;
        }
        // Objects are walked without comparing them whole first: that deep comparison would
        // be repeated at every level below.
        if (before.isObject() && after.isObject() && depth < MaxSummaryDepth) {
            const QJsonObject a = before.toObject();
            const QJsonObject b = after.toObject();
            // Both key lists are sorted (QJsonObject keeps keys in order): one merge pass.
            auto ia = a.constBegin();
            auto ib = b.constBegin();
            while (ia != a.constEnd() || ib != b.constEnd()) {
                if (ib == b.constEnd() || (ia != a.constEnd() && ia.key() < ib.key())) {
                    compare(ia.value(), QJsonValue::Undefined, join(path, ia.key()), depth + 1);
                    ++ia;
                } else if (ia == a.constEnd() || ib.key() < ia.key()) {
                    compare(QJsonValue::Undefined, ib.value(), join(path, ib.key()), depth + 1);
                    ++ib;
                } else {
                    compare(ia.value(), ib.value(), join(path, ia.key()), depth + 1);
                    ++ia;
                    ++ib;
                }
            }
            return;
        }
        if (before != after) {
            add(path, before, after);
        }
    }

    static QString join(const QString &path, const QString &key) { return path.isEmpty() ? key : path + u'.' + key; }

    [[nodiscard]] bool hidesValue(const QString &path) const
    {
        return secret && (path == u"data"_s || path == u"stringData"_s || path.startsWith(u"data."_s) || path.startsWith(u"stringData."_s));
    }
};

bool isScalar(const QJsonValue &value)
{
    return value.isString() || value.isDouble() || value.isBool() || value.isNull();
}

QString scalarText(const QJsonValue &value)
{
    QString text;
    if (value.isString()) {
        text = value.toString();
    } else if (value.isBool()) {
        text = value.toBool() ? u"true"_s : u"false"_s;
    } else if (value.isNull()) {
        text = u"null"_s;
    } else {
        text = QString::number(value.toDouble(), 'g', 15);
    }
    text.replace(u'\n', u' ');
    if (text.size() > MaxScalarLength) {
        text = text.left(MaxScalarLength - 1) + u'…';
    }
    return text;
}

} // namespace

EventStreamModel::EventStreamModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_nextSlice(new QTimer(this))
    , m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    m_nextSlice->setSingleShot(true);
    m_nextSlice->setInterval(0);
    connect(m_nextSlice, &QTimer::timeout, this, &EventStreamModel::makeRows);
}

EventStreamModel::~EventStreamModel() = default;

void EventStreamModel::setCluster(const QString &cluster)
{
    m_cluster = cluster;
}

void EventStreamModel::setCapacity(int rows)
{
    m_capacity = std::max(rows, 1);
    const auto excess = static_cast<int>(m_rows.size()) - m_capacity;
    if (excess > 0) {
        beginRemoveRows({}, 0, excess - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + excess);
        endRemoveRows();
    }
    while (static_cast<int>(m_pending.size()) > m_capacity) {
        m_pending.pop_front();
        ++m_droppedWhilePaused;
    }
    dropBacklogBeyondCapacity();
}

void EventStreamModel::setPaused(bool paused)
{
    if (m_paused == paused) {
        return;
    }
    m_paused = paused;
    if (!paused && !m_pending.empty()) {
        std::deque<Row> pending;
        pending.swap(m_pending);
        insertRows(std::move(pending));
    }
    Q_EMIT pausedChanged(paused);
}

void EventStreamModel::setClock(std::function<qint64()> clock)
{
    m_clock = std::move(clock);
}

void EventStreamModel::countRate(qint64 now, int events)
{
    const qint64 second = now / 1000;
    if (m_rateBuckets.empty() || m_rateBuckets.back().first != second) {
        m_rateBuckets.emplace_back(second, 0);
    }
    m_rateBuckets.back().second += events;
    while (m_rateBuckets.front().first <= second - RateWindowSeconds) {
        m_rateBuckets.pop_front();
    }
}

double EventStreamModel::eventsPerSecond() const
{
    const qint64 second = m_clock() / 1000;
    int events = 0;
    for (const auto &[bucket, count] : m_rateBuckets) {
        if (bucket > second - RateWindowSeconds && bucket <= second) {
            events += count;
        }
    }
    return static_cast<double>(events) / RateWindowSeconds;
}

QStringList EventStreamModel::namespaces() const
{
    QStringList list(m_namespaces.cbegin(), m_namespaces.cend());
    list.sort();
    return list;
}

QString EventStreamModel::typeName(Notification::Type type)
{
    return ObjectHistory::typeName(type);
}

QString EventStreamModel::summary(const Notification &notification, const QString &resource)
{
    const KubeObject &object = notification.object;
    switch (notification.type) {
    case Notification::Type::Add: {
        QStringList parts;
        if (!object.kind().isEmpty()) {
            parts << object.kind();
        }
        if (notification.isInInitialList) {
            parts << tr("initial list");
        }
        if (!object.phase().isEmpty()) {
            parts << tr("phase %1").arg(object.phase());
        }
        if (!object.nodeName().isEmpty()) {
            parts << tr("node %1").arg(object.nodeName());
        }
        return parts.join(u", "_s);
    }
    case Notification::Type::Delete: {
        if (notification.tombstone) {
            return tr("deleted while the watch was down (final state unknown)");
        }
        QStringList parts;
        if (!object.kind().isEmpty()) {
            parts << object.kind();
        }
        if (!object.phase().isEmpty()) {
            parts << tr("last phase %1").arg(object.phase());
        }
        return parts.join(u", "_s);
    }
    case Notification::Type::Update:
        break;
    }

    if (notification.oldObject.isValid() && notification.oldObject.json() == object.json()) {
        return tr("no change (resync)");
    }
    const QJsonDocument before = QJsonDocument::fromJson(notification.oldObject.json());
    const QJsonDocument after = QJsonDocument::fromJson(object.json());
    ChangeCollector collector;
    // Masking needs the kind or the resource. Objects from a list carry no kind, and a caller may
    // not say the resource: then `data` with a string `type` beside it, the shape of a Secret,
    // is enough. Better to hide a ConfigMap's value than to show a Secret's.
    const QString kind = object.kind().isEmpty() ? notification.oldObject.kind() : object.kind();
    const QJsonObject shape = after.object();
    collector.secret = ObjectHistory::isSecret(kind, resource) ||
        (kind.isEmpty() && (shape.contains(u"data"_s) || shape.contains(u"stringData"_s)) && shape.value(u"type"_s).isString());
    collector.compare(before.object(), after.object(), QString(), 0);
    if (collector.total == 0) {
        return tr("resourceVersion only");
    }
    QStringList parts;
    for (const Change &change : std::as_const(collector.changes)) {
        const bool hide = collector.hidesValue(change.path);
        if (change.before.isUndefined()) {
            parts << u'+' + change.path + (hide || !isScalar(change.after) ? QString() : u": "_s + scalarText(change.after));
        } else if (change.after.isUndefined()) {
            parts << u'-' + change.path;
        } else if (!hide && isScalar(change.before) && isScalar(change.after)) {
            parts << change.path + u": "_s + scalarText(change.before) + u" → "_s + scalarText(change.after);
        } else {
            parts << change.path;
        }
    }
    QString text = parts.join(u", "_s);
    if (collector.total > collector.changes.size()) {
        text += u", "_s + tr("+%1 more").arg(collector.total - static_cast<int>(collector.changes.size()));
    }
    return text;
}

void EventStreamModel::append(const QString &resource, const QList<Notification> &batch, const QDateTime &time)
{
    if (batch.isEmpty()) {
        return;
    }
    const qint64 now = m_clock();
    countRate(now, static_cast<int>(batch.size()));

    // Only the newest `capacity` notifications could ever be shown.
    const qint64 stamp = time.isValid() ? time.toMSecsSinceEpoch() : now;
    const auto skip = std::max<qsizetype>(0, batch.size() - m_capacity);
    if (m_paused) {
        m_droppedWhilePaused += skip;
    }
    for (qsizetype i = skip; i < batch.size(); ++i) {
        m_backlog.push_back({stamp, m_cluster, resource, batch.at(i)});
    }
    dropBacklogBeyondCapacity();
    if (m_nextSlice->isActive()) {
        return; // the slice due goes on with the backlog, this batch after it
    }
    makeRows();
}

void EventStreamModel::dropBacklogBeyondCapacity()
{
    while (static_cast<int>(m_backlog.size()) > m_capacity) {
        m_backlog.pop_front();
        if (m_paused) {
            ++m_droppedWhilePaused;
        }
    }
}

void EventStreamModel::setSlicing(int minRowsPerSlice, std::chrono::nanoseconds budget)
{
    m_minRowsPerSlice = std::max(1, minRowsPerSlice);
    m_sliceBudget = budget;
}

void EventStreamModel::makeRows()
{
    QElapsedTimer elapsed;
    elapsed.start();
    std::deque<Row> rows;
    bool newNamespace = false;
    while (!m_backlog.empty() && (static_cast<int>(rows.size()) < m_minRowsPerSlice || elapsed.nsecsElapsed() < m_sliceBudget.count())) {
        const Incoming incoming = std::move(m_backlog.front());
        m_backlog.pop_front();
        const Notification &notification = incoming.notification;
        Row row;
        row.time = incoming.time;
        row.cluster = incoming.cluster;
        row.resource = incoming.resource;
        row.key = notification.key;
        row.type = notification.type;
        row.tombstone = notification.tombstone;
        row.resourceVersion = notification.object.resourceVersion();
        row.namespaceName = notification.object.isValid() ? notification.object.namespaceName() : notification.key.section(u'/', 0, -2);
        row.summary = summary(notification, incoming.resource);
        if (!row.namespaceName.isEmpty() && !m_namespaces.contains(row.namespaceName)) {
            m_namespaces.insert(row.namespaceName);
            newNamespace = true;
        }
        rows.push_back(std::move(row));
    }
    if (!m_backlog.empty()) {
        m_nextSlice->start();
    }

    if (m_paused) {
        for (Row &row : rows) {
            m_pending.push_back(std::move(row));
        }
        while (static_cast<int>(m_pending.size()) > m_capacity) {
            m_pending.pop_front();
            ++m_droppedWhilePaused;
        }
    } else {
        insertRows(std::move(rows));
    }
    if (newNamespace) {
        Q_EMIT namespacesChanged();
    }
}

void EventStreamModel::insertRows(std::deque<Row> &&rows)
{
    const auto count = static_cast<int>(rows.size());
    if (count == 0) {
        return;
    }
    const auto excess = static_cast<int>(m_rows.size()) + count - m_capacity;
    if (excess > 0) {
        const int removed = std::min(excess, static_cast<int>(m_rows.size()));
        if (removed > 0) {
            beginRemoveRows({}, 0, removed - 1);
            m_rows.erase(m_rows.begin(), m_rows.begin() + removed);
            endRemoveRows();
        }
    }
    const auto first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + count - 1);
    for (Row &row : rows) {
        m_rows.push_back(std::move(row));
    }
    endInsertRows();
}

void EventStreamModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_pending.clear();
    m_backlog.clear();
    m_nextSlice->stop();
    m_namespaces.clear();
    endResetModel();
    Q_EMIT namespacesChanged();
}

int EventStreamModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int EventStreamModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventStreamModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const Row &row = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QLocale().toString(QDateTime::fromMSecsSinceEpoch(row.time).time(), u"HH:mm:ss.zzz"_s);
        case ClusterColumn:
            return row.cluster;
        case ResourceColumn:
            return row.resource;
        case TypeColumn:
            return typeName(row.type);
        case KeyColumn:
            return row.key;
        case ResourceVersionColumn:
            return row.resourceVersion;
        case SummaryColumn:
            return row.summary;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == SummaryColumn) {
            return row.summary;
        }
        break;
    case TypeRole:
        return static_cast<int>(row.type);
    case NamespaceRole:
        return row.namespaceName;
    case TimestampRole:
        return row.time;
    }
    return {};
}

QVariant EventStreamModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ClusterColumn:
        return tr("Cluster");
    case ResourceColumn:
        return tr("Resource");
    case TypeColumn:
        return tr("Type");
    case KeyColumn:
        return tr("Key");
    case ResourceVersionColumn:
        return tr("Resource version");
    case SummaryColumn:
        return tr("Summary");
    }
    return {};
}

} // namespace Cachescope
