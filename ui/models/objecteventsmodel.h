#pragma once

#include "core/relations/eventrecord.h"
#include "core/relations/objectref.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QPointer>
#include <QTimer>

#include <functional>

namespace Cachescope {

class ObjectEvents;

// ObjectEventsModel is the Events tab of the object pane: the Kubernetes Events of one object as
// ObjectEvents::eventsFor() gives them, newest first (Last seen as an age, Type, Reason, Object,
// Message, Count, From), for any kind, custom resources included (ObjectEvents finds them by
// involved object uid, or kind, namespace and name). Warning rows are marked (WarningRole, a
// warning icon on the Type, a warning tint blended into the palette's base, which has no role
// for it).
//
// Live: every changed() of the ObjectEvents (coalesced there, at most every 100 ms) is merged
// into the rows by event uid with exact removes, moves, inserts and dataChanged (RowEdit): an
// event seen again moves to the top with its new count; setSource() and another object reset.
// Ages tick once a second. Thread: GUI thread. Ownership: the ObjectEvents is not owned (a
// QPointer). Cost per change: one eventsFor() (the object's events, each parsed once).
class ObjectEventsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectEventsModel)

public:
    enum Column { LastSeenColumn, TypeColumn, ReasonColumn, ObjectColumn, MessageColumn, CountColumn, FromColumn, ColumnCount };
    enum Role {
        WarningRole = Qt::UserRole + 1, // bool: a Warning event
        EventUidRole, // QString: the Event's own uid
        LastSeenRole, // QDateTime: when it was last seen
    };

    explicit ObjectEventsModel(QObject *parent = nullptr);
    ~ObjectEventsModel() override;

    // setSource() gives the events to read (not owned); resets.
    void setSource(ObjectEvents *events);
    [[nodiscard]] ObjectEvents *source() const;
    // setObject() shows the events of `object`; another object resets, the same one merges.
    void setObject(const ObjectRef &object);
    [[nodiscard]] ObjectRef object() const { return m_object; }
    // refresh() reads the events again now (changed() calls it; tests may too).
    void refresh();

    // isKnown() is true once the events informer has synced: the count is final.
    [[nodiscard]] bool isKnown() const;
    [[nodiscard]] EventRecord record(int row) const { return m_rows.at(row); }

    // setClock() replaces the source of the current time for ages (tests).
    void setClock(std::function<QDateTime()> clock);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // countChanged() when rowCount() or isKnown() changed.
    void countChanged();

private:
    [[nodiscard]] static QString keyOf(const EventRecord &record);
    void merge(const QList<EventRecord> &fresh);

    QPointer<ObjectEvents> m_events; // not owned
    ObjectRef m_object;
    QList<EventRecord> m_rows; // newest first
    int m_count = -1;
    bool m_known = false;
    std::function<QDateTime()> m_clock;
    QTimer m_ageTimer{this};
};

} // namespace Cachescope
