#pragma once

#include "core/controller/finding.h"
#include "core/controller/findingsstore.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace Cachescope {

// FindingsTableModel is a controller's results table: one row per finding of its FindingsStore
// (severity, object key, reason, message, since when), ordered by key, then reason and message.
//
// Contract: the store is polled (refresh()) every RefreshInterval: when its revision() moved, the
// new findings are merged into the rows with exact beginRemoveRows / beginInsertRows /
// dataChanged, so a selection and a sort proxy survive a refresh; a row is the same finding when
// key, reason and message are equal (a changed severity or time is a dataChanged). setStore()
// resets. The poll, not the store's changed() signal, sets the pace: a controller's workers
// change the store thousands of times a second, a table need not follow faster than the eye.
// Thread: GUI thread. Ownership: the store is not owned (observed through a QPointer: a store
// that dies empties the table at the next poll). Cost per refresh with a change: O(findings).
class FindingsTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsTableModel)

public:
    enum Column { SeverityColumn, KeyColumn, ReasonColumn, MessageColumn, SinceColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole + 1, // QString: the object's key, "namespace/name", for any column
        SeverityRole, // int: FindingSeverity of the row
        SortRole, // the cell as a typed value: severity as a rank (errors first), time in ms
    };

    static constexpr std::chrono::milliseconds RefreshInterval{250};

    explicit FindingsTableModel(QObject *parent = nullptr);
    ~FindingsTableModel() override;

    void setStore(FindingsStore *store);
    [[nodiscard]] FindingsStore *store() const { return m_store; }
    // refresh() reads the store now (the timer calls it; tests may too).
    void refresh();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString key;
        Finding finding;
    };
    [[nodiscard]] static bool before(const Row &a, const Row &b);
    [[nodiscard]] static bool sameFinding(const Row &a, const Row &b);
    void merge(QList<Row> fresh);

    QPointer<FindingsStore> m_store; // not owned
    quint64 m_revision = 0;
    int m_idleTicks = 0; // refreshes without a change since the ages last ticked
    QList<Row> m_rows; // sorted by before()
    QTimer m_timer;
};

} // namespace Cachescope
