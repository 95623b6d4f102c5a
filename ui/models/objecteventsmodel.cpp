#include "ui/models/objecteventsmodel.h"

#include "core/printers/duration.h"
#include "core/relations/objectevents.h"
#include "ui/models/rowedit.h"

#include <QColor>
#include <QGuiApplication>
#include <QIcon>
#include <QLocale>
#include <QPalette>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// QPalette has no warning role: an amber blended into the palette's base reads as a warning on
// light and dark palettes alike and keeps the palette's text legible on it.
QColor warningTint()
{
    const QColor base = QGuiApplication::palette().color(QPalette::Base);
    const QColor amber(0xf6, 0x74, 0x00);
    constexpr double weight = 0.22;
    return QColor::fromRgbF(float(base.redF() * (1 - weight) + amber.redF() * weight),
                            float(base.greenF() * (1 - weight) + amber.greenF() * weight),
                            float(base.blueF() * (1 - weight) + amber.blueF() * weight));
}

bool sameShown(const EventRecord &a, const EventRecord &b)
{
    return a.event.resourceVersion() == b.event.resourceVersion() && a.count == b.count && a.lastSeen == b.lastSeen;
}

} // namespace

ObjectEventsModel::ObjectEventsModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
    // Ages are shown to the second below a minute; a tick a second keeps them true.
    m_ageTimer.setInterval(std::chrono::seconds(1));
    connect(&m_ageTimer, &QTimer::timeout, this, [this] {
        if (!m_rows.isEmpty()) {
            Q_EMIT dataChanged(index(0, LastSeenColumn), index(int(m_rows.size()) - 1, LastSeenColumn), {Qt::DisplayRole});
        }
    });
}

ObjectEventsModel::~ObjectEventsModel() = default;

void ObjectEventsModel::setSource(ObjectEvents *events)
{
    if (m_events == events) {
        return;
    }
    if (m_events) {
        disconnect(m_events, nullptr, this, nullptr);
    }
    beginResetModel();
    m_events = events;
    m_rows.clear();
    endResetModel();
    if (events) {
        connect(events, &ObjectEvents::changed, this, &ObjectEventsModel::refresh);
        connect(events, &ObjectEvents::synced, this, &ObjectEventsModel::refresh);
        connect(events, &QObject::destroyed, this, &ObjectEventsModel::refresh, Qt::QueuedConnection);
    }
    refresh();
}

ObjectEvents *ObjectEventsModel::source() const
{
    return m_events;
}

void ObjectEventsModel::setObject(const ObjectRef &object)
{
    const bool same =
        object.uid == m_object.uid && object.kind == m_object.kind && object.namespaceName == m_object.namespaceName && object.name == m_object.name;
    if (!same) {
        beginResetModel();
        m_rows.clear();
        m_object = object;
        endResetModel();
    } else {
        m_object = object;
    }
    refresh();
}

void ObjectEventsModel::setClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
}

bool ObjectEventsModel::isKnown() const
{
    return m_events && m_events->hasSynced() && !m_object.name.isEmpty();
}

void ObjectEventsModel::refresh()
{
    merge(m_events && !m_object.name.isEmpty() ? m_events->eventsFor(m_object) : QList<EventRecord>());
    const int count = int(m_rows.size());
    const bool known = isKnown();
    if (count != m_count || known != m_known) {
        m_count = count;
        m_known = known;
        Q_EMIT countChanged();
    }
    if (m_rows.isEmpty()) {
        m_ageTimer.stop();
    } else if (!m_ageTimer.isActive()) {
        m_ageTimer.start();
    }
}

QString ObjectEventsModel::keyOf(const EventRecord &record)
{
    return record.event.uid().isEmpty() ? record.event.namespaceName() + u'/' + record.event.name() : record.event.uid();
}

void ObjectEventsModel::merge(const QList<EventRecord> &fresh)
{
    QStringList before;
    for (const EventRecord &record : std::as_const(m_rows)) {
        before.append(keyOf(record));
    }
    QStringList after;
    for (const EventRecord &record : fresh) {
        after.append(keyOf(record));
    }
    const QList<RowEdit> edits = RowEdit::between(before, after);
    for (const RowEdit &edit : edits) {
        switch (edit.kind) {
        case RowEdit::Kind::Remove:
            beginRemoveRows({}, edit.row, edit.row + edit.count - 1);
            m_rows.remove(edit.row, edit.count);
            endRemoveRows();
            break;
        case RowEdit::Kind::Move:
            beginMoveRows({}, edit.from, edit.from, {}, edit.row);
            m_rows.move(edit.from, edit.row);
            endMoveRows();
            break;
        case RowEdit::Kind::Insert:
            beginInsertRows({}, edit.row, edit.row);
            m_rows.insert(edit.row, fresh.at(edit.fresh));
            endInsertRows();
            break;
        case RowEdit::Kind::Keep:
            if (!sameShown(m_rows.at(edit.row), fresh.at(edit.fresh))) {
                m_rows[edit.row] = fresh.at(edit.fresh);
                Q_EMIT dataChanged(index(edit.row, 0), index(edit.row, ColumnCount - 1));
            }
            break;
        }
    }
}

int ObjectEventsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ObjectEventsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ObjectEventsModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const EventRecord &record = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LastSeenColumn:
            // kubectl prints <unknown> for an event without any time.
            return record.lastSeen.isValid() ? humanDuration(std::chrono::milliseconds(record.lastSeen.msecsTo(m_clock()))) : u"<unknown>"_s;
        case TypeColumn:
            return record.type;
        case ReasonColumn:
            return record.reason;
        case ObjectColumn:
            // As kubectl events writes it: "pod/web-1".
            return QString(record.objectKind.toLower() + u'/' + record.objectName);
        case MessageColumn:
            return record.message.trimmed();
        case CountColumn:
            return record.count;
        case FromColumn:
            return record.source;
        }
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case LastSeenColumn:
            return tr("Last seen %1, first seen %2")
                .arg(QLocale().toString(record.lastSeen.toLocalTime(), QLocale::LongFormat),
                     QLocale().toString(record.firstSeen.toLocalTime(), QLocale::LongFormat));
        case MessageColumn:
            return record.message;
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() == TypeColumn && record.isWarning()) {
            return QIcon::fromTheme(u"dialog-warning"_s);
        }
        return {};
    case Qt::BackgroundRole:
        if (record.isWarning()) {
            return warningTint();
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CountColumn) {
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case WarningRole:
        return record.isWarning();
    case EventUidRole:
        return record.event.uid();
    case LastSeenRole:
        return record.lastSeen;
    }
    return {};
}

QVariant ObjectEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case LastSeenColumn:
        return tr("Last seen");
    case TypeColumn:
        return tr("Type");
    case ReasonColumn:
        return tr("Reason");
    case ObjectColumn:
        return tr("Object");
    case MessageColumn:
        return tr("Message");
    case CountColumn:
        return tr("Count");
    case FromColumn:
        return tr("From");
    }
    return {};
}

} // namespace Cachescope
