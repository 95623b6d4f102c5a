#include "ui/models/findingstablemodel.h"

#include "core/controller/findingsstore.h"
#include "core/printers/duration.h"

#include <QDateTime>

#include <algorithm>
#include <tuple>

namespace Cachescope {

FindingsTableModel::FindingsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_timer.setInterval(RefreshInterval);
    connect(&m_timer, &QTimer::timeout, this, &FindingsTableModel::refresh);
}

FindingsTableModel::~FindingsTableModel() = default;

void FindingsTableModel::setStore(FindingsStore *store)
{
    beginResetModel();
    m_store = store;
    m_rows.clear();
    m_revision = 0;
    endResetModel();
    if (store) {
        refresh();
        m_timer.start();
    } else {
        m_timer.stop();
    }
}

bool FindingsTableModel::before(const Row &a, const Row &b)
{
    return std::tie(a.key, a.finding.reason, a.finding.message) < std::tie(b.key, b.finding.reason, b.finding.message);
}

bool FindingsTableModel::sameFinding(const Row &a, const Row &b)
{
    return a.key == b.key && a.finding.reason == b.finding.reason && a.finding.message == b.finding.message;
}

void FindingsTableModel::refresh()
{
    if (!m_store) {
        if (!m_rows.isEmpty()) {
            merge({});
        }
        return;
    }
    const quint64 revision = m_store->revision();
    if (revision == m_revision && revision != 0) {
        // Nothing new: only the ages tick, once a second.
        if (++m_idleTicks * RefreshInterval >= std::chrono::seconds(1) && !m_rows.isEmpty()) {
            m_idleTicks = 0;
            Q_EMIT dataChanged(index(0, SinceColumn), index(int(m_rows.size()) - 1, SinceColumn), {Qt::DisplayRole});
        }
        return;
    }
    m_revision = revision;
    QList<Row> fresh;
    const QHash<QString, QList<Finding>> all = m_store->all();
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        for (const Finding &finding : it.value()) {
            fresh.append({it.key(), finding});
        }
    }
    std::sort(fresh.begin(), fresh.end(), before);
    merge(std::move(fresh));
}

// merge() walks the sorted old and new rows together: rows only in the old list are removed,
// rows only in the new one inserted, rows in both updated in place. Runs of removals and
// insertions become one begin/end pair each.
void FindingsTableModel::merge(QList<Row> fresh)
{
    qsizetype row = 0;
    qsizetype next = 0;
    while (row < m_rows.size() || next < fresh.size()) {
        if (next < fresh.size() && row < m_rows.size() && sameFinding(m_rows.at(row), fresh.at(next))) {
            const Finding &now = fresh.at(next).finding;
            Finding &shown = m_rows[row].finding;
            if (shown.severity != now.severity || shown.time != now.time) {
                shown = now;
                Q_EMIT dataChanged(index(int(row), 0), index(int(row), ColumnCount - 1));
            }
            ++row;
            ++next;
        } else if (next >= fresh.size() || (row < m_rows.size() && before(m_rows.at(row), fresh.at(next)))) {
            qsizetype last = row;
            while (last + 1 < m_rows.size() && (next >= fresh.size() || before(m_rows.at(last + 1), fresh.at(next)))) {
                ++last;
            }
            beginRemoveRows({}, int(row), int(last));
            m_rows.remove(row, last - row + 1);
            endRemoveRows();
        } else {
            qsizetype last = next;
            while (last + 1 < fresh.size() && (row >= m_rows.size() || before(fresh.at(last + 1), m_rows.at(row)))) {
                ++last;
            }
            beginInsertRows({}, int(row), int(row + last - next));
            for (qsizetype i = next; i <= last; ++i) {
                m_rows.insert(row + (i - next), fresh.at(i));
            }
            endInsertRows();
            row += last - next + 1;
            next = last + 1;
        }
    }
}

int FindingsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FindingsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsTableModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            switch (row.finding.severity) {
            case FindingSeverity::Info:
                return tr("Info");
            case FindingSeverity::Warning:
                return tr("Warning");
            case FindingSeverity::Error:
                return tr("Error");
            }
            return {};
        case KeyColumn:
            return row.key;
        case ReasonColumn:
            return row.finding.reason;
        case MessageColumn:
            return row.finding.message;
        case SinceColumn:
            return row.finding.time.isValid() ? humanDuration(std::chrono::milliseconds(row.finding.time.msecsTo(QDateTime::currentDateTimeUtc()))) : QString();
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == MessageColumn) {
            return row.finding.message;
        }
        if (index.column() == SinceColumn && row.finding.time.isValid()) {
            return row.finding.time.toLocalTime().toString(Qt::ISODate);
        }
        return {};
    case KeyRole:
        return row.key;
    case SeverityRole:
        return int(row.finding.severity);
    case SortRole:
        switch (index.column()) {
        case SeverityColumn:
            return -int(row.finding.severity);
        case SinceColumn:
            return row.finding.time.toMSecsSinceEpoch();
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    return {};
}

QVariant FindingsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case KeyColumn:
        return tr("Object");
    case ReasonColumn:
        return tr("Reason");
    case MessageColumn:
        return tr("Message");
    case SinceColumn:
        return tr("Since");
    }
    return {};
}

} // namespace Cachescope
