#include "ui/models/indexrowsmodel.h"

#include "core/cache/sharedindexinformer.h"

#include <algorithm>

namespace Cachescope {

IndexRowsModel::IndexRowsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    // About 4 Hz: often enough that counts look live, rarely enough that diffing a value with
    // 100k keys (a few milliseconds of hashing) stays a small share of the GUI thread.
    m_timer.setInterval(std::chrono::milliseconds(250));
    connect(&m_timer, &QTimer::timeout, this, &IndexRowsModel::refresh);
}

IndexRowsModel::~IndexRowsModel() = default;

void IndexRowsModel::setInformer(SharedIndexInformer *informer)
{
    beginResetModel();
    m_informer = informer;
    m_rows.clear();
    m_counts.clear();
    endResetModel();
    if (informer && m_timer.interval() > 0) {
        m_timer.start();
    } else {
        m_timer.stop();
    }
    refresh();
}

SharedIndexInformer *IndexRowsModel::informer() const
{
    return m_informer.data();
}

std::chrono::milliseconds IndexRowsModel::refreshInterval() const
{
    return m_timer.intervalAsDuration();
}

void IndexRowsModel::setRefreshInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
    if (interval.count() > 0 && m_informer) {
        m_timer.start();
    } else {
        m_timer.stop();
    }
}

void IndexRowsModel::refresh()
{
    const SharedIndexInformer *informer = m_informer.data();
    applyRows(informer ? fetchRows(*informer) : QHash<QString, qsizetype>());
    Q_EMIT refreshed();
}

void IndexRowsModel::clearRows()
{
    beginResetModel();
    m_rows.clear();
    m_counts.clear();
    endResetModel();
}

int IndexRowsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QString IndexRowsModel::textAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row) : QString();
}

qsizetype IndexRowsModel::countAt(int row) const
{
    return m_counts.value(textAt(row));
}

int IndexRowsModel::rowOf(const QString &text) const
{
    if (!m_counts.contains(text)) {
        return -1;
    }
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), text);
    return static_cast<int>(it - m_rows.cbegin());
}

QVariant IndexRowsModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const QString &text = m_rows.at(index.row());
    const bool isCount = index.column() == countColumn();
    switch (role) {
    case Qt::DisplayRole:
        return isCount ? QVariant(qlonglong(m_counts.value(text))) : QVariant(displayText(text));
    case Qt::TextAlignmentRole:
        return isCount ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case TextRole:
        return text;
    case CountRole:
        return qlonglong(m_counts.value(text));
    case SortRole:
        return isCount ? QVariant(qlonglong(m_counts.value(text))) : QVariant(text.toCaseFolded());
    default:
        return {};
    }
}

void IndexRowsModel::applyRows(const QHash<QString, qsizetype> &next)
{
    // Removals first, walking up from the end so that the rows still to visit keep their
    // numbers; each run of adjacent vanished rows is one remove.
    int last = static_cast<int>(m_rows.size()) - 1;
    while (last >= 0) {
        if (next.contains(m_rows.at(last))) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !next.contains(m_rows.at(first - 1))) {
            --first;
        }
        beginRemoveRows({}, first, last);
        for (int row = first; row <= last; ++row) {
            m_counts.remove(m_rows.at(row));
        }
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
        last = first - 1;
    }

    // Insertions: only the texts that appeared are sorted, then merged into the sorted rows,
    // one insert per run of new texts that land between the same two rows.
    QList<QString> added;
    for (auto it = next.cbegin(); it != next.cend(); ++it) {
        if (!m_counts.contains(it.key())) {
            added.append(it.key());
        }
    }
    std::sort(added.begin(), added.end());
    qsizetype at = 0;
    qsizetype from = 0;
    while (from < added.size()) {
        at = std::lower_bound(m_rows.cbegin() + at, m_rows.cend(), added.at(from)) - m_rows.cbegin();
        qsizetype to = from + 1;
        if (at < m_rows.size()) {
            while (to < added.size() && added.at(to) < m_rows.at(at)) {
                ++to;
            }
        } else {
            to = added.size();
        }
        const qsizetype count = to - from;
        beginInsertRows({}, static_cast<int>(at), static_cast<int>(at + count - 1));
        m_rows.insert(at, count, QString());
        for (qsizetype i = 0; i < count; ++i) {
            m_rows[at + i] = added.at(from + i);
            m_counts.insert(added.at(from + i), next.value(added.at(from + i)));
        }
        endInsertRows();
        at += count;
        from = to;
    }

    // Counts that changed, one dataChanged per run of adjacent changed rows.
    const int column = countColumn();
    int first = -1;
    for (int row = 0; row <= m_rows.size(); ++row) {
        bool changed = false;
        if (row < m_rows.size()) {
            qsizetype &count = m_counts[m_rows.at(row)];
            const qsizetype now = next.value(m_rows.at(row));
            changed = count != now;
            count = now;
        }
        if (changed && first < 0) {
            first = row;
        } else if (!changed && first >= 0) {
            if (column >= 0) {
                Q_EMIT dataChanged(index(first, column), index(row - 1, column), {Qt::DisplayRole, CountRole, SortRole});
            }
            first = -1;
        }
    }
}

} // namespace Cachescope
