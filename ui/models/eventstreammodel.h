#pragma once

#include "core/cache/notification.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <chrono>
#include <deque>
#include <functional>

class QTimer;

namespace Cachescope {

// EventStreamModel is the event stream: one row per notification an informer delivered (time,
// cluster, resource, type, key, resourceVersion, and a one-line summary of what changed), newest
// last, in a bounded buffer.
//
// Contract: append() takes a batch (NotificationBatcher's notificationsReady) and inserts it with
// one beginInsertRows; when the buffer is full the oldest rows are first removed with one
// beginRemoveRows. A batch is made into rows a slice at a time: at least MinRowsPerSlice rows,
// then as many as fit in SliceBudget. What a slice leaves (backlogCount()) follows in later
// passes of the event loop, in order, before anything appended after it; so a batch of ten
// thousand updates (the churn that went on while a large list was made) never holds the GUI
// thread for the half second its summaries take. A backlog, like the buffer, keeps the newest
// capacity() notifications. No reset except clear(). While paused, batches are held back (not shown) and
// inserted as one batch on resume; the held-back rows are bounded by capacity() too, the oldest
// of them dropped and counted in droppedWhilePaused(). eventsPerSecond() counts every appended
// notification, paused or not, over a rolling window of RateWindowSeconds.
// Summaries never contain the values of a Secret's data or stringData, only their paths.
// Thread: GUI thread. Cost: a row parses the old and new JSON of its update once, for the summary
// (object-sized, tens of microseconds); rows keep only strings, not objects (the backlog keeps
// its notifications' objects until they are made into rows).
class EventStreamModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventStreamModel)

public:
    enum Column { TimeColumn, ClusterColumn, ResourceColumn, TypeColumn, KeyColumn, ResourceVersionColumn, SummaryColumn, ColumnCount };

    // Roles beyond Qt's, for EventStreamFilter and tests.
    enum Role {
        TypeRole = Qt::UserRole + 1, // int: Notification::Type of the row
        NamespaceRole, // QString: the object's namespace, empty for cluster-scoped objects
        TimestampRole, // qint64: arrival time, ms since the epoch
    };

    static constexpr int DefaultCapacity = 50000;
    static constexpr int RateWindowSeconds = 5;
    // At most this many changed paths are named in an update's summary; the rest are counted.
    static constexpr int MaxSummaryPaths = 4;
    // A slice makes at least this many rows, then stops once it has taken SliceBudget.
    static constexpr int MinRowsPerSlice = 256;
    static constexpr std::chrono::milliseconds SliceBudget{8};

    explicit EventStreamModel(QObject *parent = nullptr);
    ~EventStreamModel() override;

    // setCluster() names the cluster of the rows appended from now on.
    void setCluster(const QString &cluster);
    [[nodiscard]] QString cluster() const { return m_cluster; }

    // setCapacity() bounds the buffer, removing the oldest rows if it is already larger.
    void setCapacity(int rows);
    [[nodiscard]] int capacity() const { return m_capacity; }

    void setPaused(bool paused);
    [[nodiscard]] bool isPaused() const { return m_paused; }
    [[nodiscard]] int pendingCount() const { return static_cast<int>(m_pending.size()); }
    [[nodiscard]] qint64 droppedWhilePaused() const { return m_droppedWhilePaused; }
    // Notifications appended and not yet made into rows (shown or held back).
    [[nodiscard]] int backlogCount() const { return static_cast<int>(m_backlog.size()); }
    // setSlicing() replaces MinRowsPerSlice and SliceBudget (tests).
    void setSlicing(int minRowsPerSlice, std::chrono::nanoseconds budget);

    // setClock() replaces the source of time in ms since the epoch (tests).
    void setClock(std::function<qint64()> clock);
    [[nodiscard]] double eventsPerSecond() const;

    // namespaces() lists every namespace seen so far, sorted; namespacesChanged() when it grows.
    [[nodiscard]] QStringList namespaces() const;

    // summary() is the one-line description of a notification shown in the Summary column;
    // `resource` tells a Secret whose object carries no kind (items of a list response).
    [[nodiscard]] static QString summary(const Notification &notification, const QString &resource = {});
    [[nodiscard]] static QString typeName(Notification::Type type);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

public Q_SLOTS:
    // time stamps the rows (a recording's instant); invalid: the clock's now. The rate counts
    // arrivals by the clock either way.
    void append(const QString &resource, const QList<Cachescope::Notification> &batch, const QDateTime &time = {});
    void clear();

Q_SIGNALS:
    void pausedChanged(bool paused);
    void namespacesChanged();

private:
    struct Row
    {
        qint64 time = 0;
        QString cluster;
        QString resource;
        QString key;
        QString namespaceName;
        QString resourceVersion;
        QString summary;
        Notification::Type type = Notification::Type::Add;
        bool tombstone = false;
    };

    // A notification not yet made into a row: the cluster and resource it was appended under.
    struct Incoming
    {
        qint64 time = 0;
        QString cluster;
        QString resource;
        Notification notification;
    };

    // makeRows() makes one slice of the backlog into rows and shows them (or holds them back),
    // and schedules the next slice when some are left.
    void makeRows();
    // dropBacklogBeyondCapacity() keeps the newest capacity() of the backlog, counting what it
    // drops while paused as droppedWhilePaused().
    void dropBacklogBeyondCapacity();
    void insertRows(std::deque<Row> &&rows);
    void countRate(qint64 now, int events);

    std::deque<Row> m_rows;
    std::deque<Row> m_pending; // held back while paused
    std::deque<Incoming> m_backlog; // appended, not yet rows
    QTimer *m_nextSlice = nullptr; // owned (child); single-shot, 0 ms
    int m_minRowsPerSlice = MinRowsPerSlice;
    std::chrono::nanoseconds m_sliceBudget = SliceBudget;
    std::deque<std::pair<qint64, int>> m_rateBuckets; // (second, notifications), oldest first
    QSet<QString> m_namespaces;
    std::function<qint64()> m_clock;
    QString m_cluster;
    qint64 m_droppedWhilePaused = 0;
    int m_capacity = DefaultCapacity;
    bool m_paused = false;
};

} // namespace Cachescope
