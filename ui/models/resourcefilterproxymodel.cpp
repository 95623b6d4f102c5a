#include "ui/models/resourcefilterproxymodel.h"

#include "core/util/backgroundpool.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"

#include <algorithm>
#include <array>
#include <functional>
#include <iterator>
#include <limits>
#include <numeric>
#include <tuple>

namespace Cachescope {

namespace {

int compareValues(const QVariant &a, const QVariant &b)
{
    // Missing values sort first, as kubectl's `<none>` would sort before any name.
    if (!a.isValid() || !b.isValid()) {
        return int(a.isValid()) - int(b.isValid());
    }
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString) {
        return QString::compare(*static_cast<const QString *>(a.constData()), *static_cast<const QString *>(b.constData()), Qt::CaseInsensitive);
    }
    const QPartialOrdering order = QVariant::compare(a, b);
    return order == QPartialOrdering::Less ? -1 : order == QPartialOrdering::Greater ? 1 : 0;
}

// reserveGrowing() makes room for size elements, half as many again when it must grow: an array
// reserved to the exact size as the table grows batch by batch would move into fresh pages,
// each a page fault, at every batch.
template<typename T>
void reserveGrowing(std::vector<T> &array, size_t size)
{
    if (array.capacity() < size) {
        array.reserve(size + size / 2);
    }
}

} // namespace

ResourceFilterProxyModel::ResourceFilterProxyModel(QObject *parent)
    : QAbstractProxyModel(parent)
{
}

ResourceFilterProxyModel::~ResourceFilterProxyModel() = default;

void ResourceFilterProxyModel::setSourceModel(QAbstractItemModel *sourceModel)
{
    beginResetModel();
    for (const QMetaObject::Connection &connection : std::as_const(m_connections)) {
        disconnect(connection);
    }
    m_connections.clear();
    // A sort that waited for the old source's cells is asked of the new one.
    stopWaitingForCells();
    m_table = qobject_cast<ResourceTableModel *>(sourceModel);
    m_inBatch = false;
    m_structural = false;
    m_layoutAnnounced = false;
    m_dirty.clear();
    QAbstractProxyModel::setSourceModel(sourceModel);
    if (sourceModel) {
        QAbstractItemModel *source = sourceModel;
        // A source that dies first leaves the proxy empty, not pointing at it.
        m_connections << connect(source, &QObject::destroyed, this, [this] {
            stopWaitingForCells();
            beginResetModel();
            m_table = nullptr;
            m_inBatch = false;
            m_structural = false;
            m_layoutAnnounced = false;
            m_dirty.clear();
            m_rows.clear();
            m_proxyRowOf.clear();
            m_sortKeys.clear();
            m_sortKeysValid = false;
            endResetModel();
        });
        m_connections << connect(source, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
            beginResetModel();
            m_inBatch = false;
            m_structural = false;
            m_layoutAnnounced = false;
            m_dirty.clear();
            m_rows.clear();
            m_proxyRowOf.clear();
        });
        m_connections << connect(source, &QAbstractItemModel::modelReset, this, [this] {
            deferSortForCells();
            refreshSortKeys();
            std::vector<int> rows = acceptedSourceRows();
            sortRows(rows);
            m_rows = std::move(rows);
            m_proxyRowOf.assign(size_t(this->sourceModel()->rowCount()), -1);
            for (size_t proxyRow = 0; proxyRow < m_rows.size(); ++proxyRow) {
                m_proxyRowOf[size_t(m_rows[proxyRow])] = int(proxyRow);
            }
            endResetModel();
        });
        m_connections << connect(
            source, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
                if (topLeft.isValid() && bottomRight.isValid() && !topLeft.parent().isValid()) {
                    onRowsChanged(topLeft.row(), bottomRight.row(), roles);
                    if (!roles.isEmpty() && !roles.contains(ResourceTableRoles::SortRole) && !roles.contains(ResourceTableRoles::ObjectRole) && m_table &&
                        !m_rows.empty()) {
                        // A repaint (the ages' tick): nothing moves; the views redraw what they show.
                        Q_EMIT dataChanged(index(0, topLeft.column()), index(rowCount() - 1, bottomRight.column()), roles);
                    }
                }
            });
        m_connections << connect(source, &QAbstractItemModel::rowsAboutToBeInserted, this, [this] {
            if (!m_inBatch) {
                announceLayoutChange();
            }
        });
        m_connections << connect(source, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parent, int first, int last) {
            if (!parent.isValid()) {
                onRowsInserted(first, last);
            }
        });
        m_connections << connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this] {
            if (!m_inBatch) {
                announceLayoutChange();
            }
        });
        m_connections << connect(source, &QAbstractItemModel::rowsRemoved, this, [this](const QModelIndex &parent, int first, int last) {
            if (!parent.isValid()) {
                onRowsRemoved(first, last);
            }
        });
        // Anything else that moves source rows: recompute everything under one layout change.
        const auto layoutStarts = [this] {
            announceLayoutChange();
        };
        const auto layoutEnds = [this] {
            deferSortForCells();
            refreshSortKeys();
            std::vector<int> rows = acceptedSourceRows();
            sortRows(rows);
            relayout(std::move(rows));
        };
        m_connections << connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this, layoutStarts);
        m_connections << connect(source, &QAbstractItemModel::layoutChanged, this, layoutEnds);
        m_connections << connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, layoutStarts);
        m_connections << connect(source, &QAbstractItemModel::rowsMoved, this, layoutEnds);
        // Columns come and go with a reset of the proxy: rows stay, every index changes.
        for (const auto aboutTo : {&QAbstractItemModel::columnsAboutToBeInserted, &QAbstractItemModel::columnsAboutToBeRemoved}) {
            m_connections << connect(source, aboutTo, this, [this] { beginResetModel(); });
        }
        for (const auto done : {&QAbstractItemModel::columnsInserted, &QAbstractItemModel::columnsRemoved}) {
            m_connections << connect(source, done, this, [this] {
                refreshSortKeys();
                endResetModel();
            });
        }
        m_connections << connect(source, &QAbstractItemModel::columnsAboutToBeMoved, this, [this] { beginResetModel(); });
        m_connections << connect(source, &QAbstractItemModel::columnsMoved, this, [this] {
            refreshSortKeys();
            endResetModel();
        });
        if (m_table) {
            m_connections << connect(m_table, &ResourceTableModel::batchAboutToBeApplied, this, &ResourceFilterProxyModel::onBatchStarting);
            m_connections << connect(m_table, &ResourceTableModel::batchApplied, this, &ResourceFilterProxyModel::onBatchEnded);
            m_connections << connect(m_table, &ResourceTableModel::cellsPrepared, this, &ResourceFilterProxyModel::onCellsPrepared);
        }
    }
    m_rows.clear();
    m_proxyRowOf.clear();
    deferSortForCells();
    refreshSortKeys();
    if (sourceModel) {
        m_proxyRowOf.assign(size_t(sourceModel->rowCount()), -1);
        m_rows = acceptedSourceRows();
        sortRows(m_rows);
        for (size_t proxyRow = 0; proxyRow < m_rows.size(); ++proxyRow) {
            m_proxyRowOf[size_t(m_rows[proxyRow])] = int(proxyRow);
        }
    }
    endResetModel();
}

void ResourceFilterProxyModel::setFilterText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text) {
        return;
    }
    // A text that contains the one before passes fewer rows, all of them among those shown.
    const bool narrower = trimmed.contains(m_text, Qt::CaseInsensitive);
    m_text = trimmed;
    narrower ? refilter() : rebuild();
}

void ResourceFilterProxyModel::setLabelSelector(const LabelSelector &selector)
{
    if (selector.toString() == m_selector.toString()) {
        return;
    }
    // Requirements only added: fewer rows pass, all of them among those shown.
    QStringList requirements;
    for (const LabelSelector::Requirement &requirement : selector.requirements()) {
        requirements.append(requirement.toString());
    }
    const bool narrower = std::all_of(m_selector.requirements().cbegin(), m_selector.requirements().cend(), [&requirements](const auto &requirement) {
        return requirements.contains(requirement.toString());
    });
    m_selector = selector;
    narrower ? refilter() : rebuild();
}

void ResourceFilterProxyModel::sort(int column, Qt::SortOrder order)
{
    std::optional<std::pair<int, Qt::SortOrder>> pending;
    // The same column the other way: descending is the exact reverse of ascending (the keys,
    // unique, break every tie), so the rows shown are reversed, with no key made or compared.
    if (column == m_sortColumn && order != m_sortOrder && usesSortKeys() && m_sortKeysValid && sourceModel() &&
        m_proxyRowOf.size() == size_t(sourceModel()->rowCount()) && m_sortKeys.size() == m_proxyRowOf.size()) {
        m_sortOrder = order;
        announceLayoutChange();
        std::vector<int> rows(m_rows.crbegin(), m_rows.crend());
        relayout(std::move(rows));
    } else if (awaitsCells(column)) {
        pending.emplace(column, order);
    } else {
        m_sortColumn = column;
        m_sortOrder = order;
        refreshSortKeys();
        rebuild();
    }
    setPendingSort(pending);
}

void ResourceFilterProxyModel::setPendingSort(std::optional<std::pair<int, Qt::SortOrder>> sort)
{
    const bool changed = sort.has_value() != m_pendingSort.has_value();
    m_pendingSort = sort;
    if (changed) {
        Q_EMIT sortPendingChanged(m_pendingSort.has_value());
    }
}

bool ResourceFilterProxyModel::awaitsCells(int column) const
{
    return m_table != nullptr && column >= 0 && column < m_table->columnCount() && m_table->columns().needsDocument(column) && m_table->prepareCells();
}

bool ResourceFilterProxyModel::deferSortForCells()
{
    if (m_pendingSort || !awaitsCells(m_sortColumn)) {
        return false;
    }
    const std::pair<int, Qt::SortOrder> sort(m_sortColumn, m_sortOrder);
    m_sortColumn = -1;
    refreshSortKeys();
    setPendingSort(sort);
    return true;
}

void ResourceFilterProxyModel::stopWaitingForCells()
{
    if (m_pendingSort) {
        std::tie(m_sortColumn, m_sortOrder) = *m_pendingSort;
        setPendingSort(std::nullopt);
    }
}

std::vector<int> ResourceFilterProxyModel::acceptedSourceRows() const
{
    std::vector<int> rows(size_t(sourceModel() ? sourceModel()->rowCount() : 0));
    std::iota(rows.begin(), rows.end(), 0);
    return passing(std::move(rows));
}

std::vector<int> ResourceFilterProxyModel::passing(std::vector<int> rows) const
{
    if (m_text.isEmpty() && m_selector.isEmpty()) {
        return rows;
    }
    std::vector<char> passes(rows.size());
    const auto check = [this, &rows, &passes](qsizetype begin, qsizetype end) {
        for (qsizetype i = begin; i < end; ++i) {
            passes[size_t(i)] = accepts(rows[size_t(i)]);
        }
    };
    if (m_table) {
        // Each row's object and strings are a cache miss or two at a million rows: the pool's
        // free threads check their share (the table's rows are only read, and change only on
        // this thread, which waits).
        inParallel(qsizetype(rows.size()), FilterPiece, check);
    } else {
        check(0, qsizetype(rows.size())); // any other model: its data() on its own thread
    }
    std::vector<int> kept;
    kept.reserve(size_t(std::count(passes.cbegin(), passes.cend(), char(true))));
    for (size_t i = 0; i < rows.size(); ++i) {
        if (passes[i]) {
            kept.push_back(rows[i]);
        }
    }
    return kept;
}

void ResourceFilterProxyModel::onCellsPrepared()
{
    if (m_pendingSort) {
        const auto [column, order] = *m_pendingSort;
        sort(column, order); // waits again for rows that came or changed meanwhile, if too many
    }
}

QModelIndex ResourceFilterProxyModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || row >= rowCount() || column < 0 || column >= columnCount()) {
        return {};
    }
    return createIndex(row, column);
}

QModelIndex ResourceFilterProxyModel::parent(const QModelIndex &child) const
{
    Q_UNUSED(child)
    return {};
}

QModelIndex ResourceFilterProxyModel::sibling(int row, int column, const QModelIndex &index) const
{
    Q_UNUSED(index)
    return this->index(row, column);
}

bool ResourceFilterProxyModel::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0 && columnCount() > 0;
}

int ResourceFilterProxyModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResourceFilterProxyModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

QVariant ResourceFilterProxyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!sourceModel()) {
        return {};
    }
    if (orientation == Qt::Horizontal) {
        return sourceModel()->headerData(section, orientation, role);
    }
    if (section < 0 || size_t(section) >= m_rows.size()) {
        return {};
    }
    return sourceModel()->headerData(m_rows[size_t(section)], orientation, role);
}

QVariant ResourceFilterProxyModel::data(const QModelIndex &index, int role) const
{
    const QModelIndex source = mapToSource(index);
    return source.isValid() ? source.data(role) : QVariant();
}

Qt::ItemFlags ResourceFilterProxyModel::flags(const QModelIndex &index) const
{
    const QModelIndex source = mapToSource(index);
    return source.isValid() ? sourceModel()->flags(source) : Qt::NoItemFlags;
}

QModelIndex ResourceFilterProxyModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || !sourceModel() || size_t(proxyIndex.row()) >= m_rows.size() || m_rows[size_t(proxyIndex.row())] >= sourceModel()->rowCount()) {
        return {};
    }
    return sourceModel()->index(m_rows[size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex ResourceFilterProxyModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.parent().isValid() || size_t(sourceIndex.row()) >= m_proxyRowOf.size()) {
        return {};
    }
    const int proxyRow = m_proxyRowOf[size_t(sourceIndex.row())];
    return proxyRow < 0 ? QModelIndex() : index(proxyRow, sourceIndex.column());
}

bool ResourceFilterProxyModel::accepts(int sourceRow) const
{
    if (m_text.isEmpty() && m_selector.isEmpty()) {
        return true;
    }
    // The table's objects are read in place: at a million rows a copy of each object and of
    // its name is two reference counts written, each a cache line made dirty, from two threads.
    return m_table ? accepts(m_table->objectAt(sourceRow))
                   : accepts(sourceModel()->index(sourceRow, 0).data(ResourceTableRoles::ObjectRole).value<KubeObject>());
}

bool ResourceFilterProxyModel::accepts(const KubeObject &object) const
{
    if (!m_text.isEmpty() && !object.name().contains(m_text, Qt::CaseInsensitive) && !object.namespaceName().contains(m_text, Qt::CaseInsensitive)) {
        return false;
    }
    return m_selector.isEmpty() || m_selector.matches(object.labels());
}

bool ResourceFilterProxyModel::lessThan(int leftSourceRow, int rightSourceRow) const
{
    int order = 0;
    // Valid sort keys are of a column the table has: the hot path asks the source nothing.
    if (m_sortKeysValid && size_t(std::max(leftSourceRow, rightSourceRow)) < m_sortKeys.size()) {
        order = ResourceTableModel::compareSortKeys(m_sortKeys[size_t(leftSourceRow)], m_sortKeys[size_t(rightSourceRow)]);
    } else if (m_sortColumn < 0 || m_sortColumn >= columnCount()) {
        return leftSourceRow < rightSourceRow;
    } else if (m_table) {
        order = m_table->compareRows(leftSourceRow, rightSourceRow, m_sortColumn);
    } else {
        const QModelIndex left = sourceModel()->index(leftSourceRow, m_sortColumn);
        const QModelIndex right = sourceModel()->index(rightSourceRow, m_sortColumn);
        order = compareValues(left.data(ResourceTableRoles::SortRole), right.data(ResourceTableRoles::SortRole));
        if (order == 0) {
            order = QString::compare(left.data(ResourceTableRoles::KeyRole).toString(), right.data(ResourceTableRoles::KeyRole).toString());
        }
    }
    return m_sortOrder == Qt::AscendingOrder ? order < 0 : order > 0;
}

// SortEntry is a row beside 8 characters (or a number's bits) of what it sorts by and the first
// characters of the text they come from, packed: each level of the sort reads those while they
// last, and only then the row's text.
struct ResourceFilterProxyModel::SortEntry
{
    quint64 word;
    ResourceTableModel::PackedText packed;
    int row;
};

void ResourceFilterProxyModel::sortRows(std::vector<int> &rows) const
{
    if (m_sortColumn < 0 || m_sortColumn >= columnCount()) {
        std::sort(rows.begin(), rows.end());
        return;
    }
    const int count = sourceModel()->rowCount();
    const auto byLessThan = [this](int a, int b) {
        return lessThan(a, b);
    };
    if (!m_sortKeysValid || m_sortKeys.size() != size_t(count)) {
        std::sort(rows.begin(), rows.end(), byLessThan);
        return;
    }
    using Kind = ResourceTableModel::SortKey::Kind;
    bool numbers = false;
    bool texts = false;
    size_t missing = 0;
    for (const int row : rows) {
        const Kind kind = m_sortKeys[size_t(row)].kind;
        numbers = numbers || kind == Kind::Number;
        texts = texts || kind == Kind::Text;
        missing += kind == Kind::Missing ? 1 : 0;
    }
    if (numbers && texts) {
        // A number and a text do not compare (the keys decide): no order by value alone.
        std::sort(rows.begin(), rows.end(), byLessThan);
        return;
    }
    // A multikey sort: rows sorted by 8 characters of their values at a time, each run of
    // equal characters by the next 8, then by the keys alike. The first characters come packed
    // with each entry and a row's strings are read only past them, once per 8 characters,
    // instead of at each of its log(rows) comparisons: at a million rows the strings are
    // scattered over the heap, and each reading is a cache miss, far more costly than the
    // comparison itself. The order is exactly compareSortKeys()'s, ascending; the descending
    // order is its reverse.
    std::vector<SortEntry> &entries = m_sortEntries;
    entries.clear();
    entries.reserve(rows.size());
    for (const int row : rows) {
        entries.push_back({0, m_sortKeys[size_t(row)].prefix, row});
    }
    const auto byWord = [](const SortEntry &a, const SortEntry &b) {
        return a.word < b.word;
    };
    const auto keyOfEntry = [this](const SortEntry &entry) -> const ResourceTableModel::SortKey & {
        return m_sortKeys[size_t(entry.row)];
    };
    const auto byKeys = [&keyOfEntry](const SortEntry &a, const SortEntry &b) {
        return ResourceTableModel::compareSortKeys(keyOfEntry(a), keyOfEntry(b)) < 0;
    };
    // sortText() orders [first, last) by a text from offset on, then runs of equal texts by
    // tied(); the texts agree before offset.
    std::function<void(size_t, size_t, qsizetype, bool)> sortText;
    const auto tied = [&](size_t first, size_t last, bool byKey) {
        if (last - first < 2) {
            return;
        }
        if (byKey) {
            // Keys are unique: texts that ended equal cannot be keys.
            std::sort(entries.begin() + qsizetype(first), entries.begin() + qsizetype(last), byKeys);
            return;
        }
        sortText(first, last, 0, true);
    };
    sortText = [&](size_t first, size_t last, qsizetype offset, bool byKey) {
        const qsizetype word = offset / 8;
        for (size_t i = first; i < last; ++i) {
            SortEntry &entry = entries[i];
            if (byKey && offset == 0) {
                entry.packed = keyOfEntry(entry).keyPrefix;
            }
            if (word < ResourceTableModel::PackedWords) {
                entry.word = entry.packed[size_t(word)];
            } else {
                // Past the packed words the text itself is read: a cache miss a row at a million.
                const ResourceTableModel::SortKey &key = keyOfEntry(entry);
                entry.word = ResourceTableModel::textPrefix(byKey ? key.key : key.text, offset);
            }
        }
        std::sort(entries.begin() + qsizetype(first), entries.begin() + qsizetype(last), byWord);
        for (size_t run = first; run < last;) {
            size_t end = run + 1;
            while (end < last && entries[end].word == entries[run].word) {
                ++end;
            }
            if (end - run > 1) {
                switch (ResourceTableModel::prefixWord(entries[run].word)) {
                case ResourceTableModel::PrefixWord::Whole:
                    sortText(run, end, offset + 8, byKey);
                    break;
                case ResourceTableModel::PrefixWord::Ended:
                    tied(run, end, byKey);
                    break;
                case ResourceTableModel::PrefixWord::Inexact:
                    std::sort(entries.begin() + qsizetype(run), entries.begin() + qsizetype(end), byKeys);
                    break;
                }
            }
            run = end;
        }
    };
    // Missing values first, then the values, then the keys of equal values. The keys order
    // every row, so the partition need not keep the entries' order (a stable one takes a
    // buffer as large as the entries: fresh pages at a million rows).
    if (missing > 0) {
        std::partition(entries.begin(), entries.end(), [&keyOfEntry](const SortEntry &entry) { return keyOfEntry(entry).kind == Kind::Missing; });
    }
    tied(0, missing, false);
    const auto sortValues = [&](size_t first, size_t last) {
        if (texts) {
            sortText(first, last, 0, false);
            return;
        }
        for (size_t i = first; i < last; ++i) {
            entries[i].word = entries[i].packed[0];
        }
        std::sort(entries.begin() + qsizetype(first), entries.begin() + qsizetype(last), byWord);
        for (size_t run = first; run < last;) {
            size_t end = run + 1;
            while (end < last && entries[end].word == entries[run].word) {
                ++end;
            }
            tied(run, end, false);
            run = end;
        }
    };
    // Two halves sorted at once, on this thread and a free pool thread: the entries are split
    // around the median of a sample of packed values, every entry below it first. Lower packed
    // values sort first (the words are the texts' characters in order, or a number's ordered
    // bits), and equal ones fall on the same side: each half sorted is the whole sorted.
    const size_t values = entries.size() - missing;
    size_t split = missing;
    if (values >= ParallelSortRows) {
        std::array<ResourceTableModel::PackedText, 63> sample;
        for (size_t i = 0; i < sample.size(); ++i) {
            sample[i] = entries[missing + values * (2 * i + 1) / (2 * sample.size())].packed;
        }
        const auto median = sample.begin() + qsizetype(sample.size() / 2);
        std::nth_element(sample.begin(), median, sample.end());
        const ResourceTableModel::PackedText pivot = *median;
        split = size_t(std::partition(entries.begin() + qsizetype(missing), entries.end(), [&pivot](const SortEntry &entry) { return entry.packed < pivot; }) -
                       entries.begin());
    }
    if (split == missing) {
        // Too few rows, or none below the pivot (the least value). The pivot's own entry stays
        // on the right, so the right side is never empty.
        sortValues(missing, entries.size());
    } else {
        inParallel(2, 1, [&](qsizetype half, qsizetype) { half == 0 ? sortValues(missing, split) : sortValues(split, entries.size()); });
    }
    if (m_sortOrder == Qt::AscendingOrder) {
        for (size_t i = 0; i < entries.size(); ++i) {
            rows[i] = entries[i].row;
        }
    } else {
        for (size_t i = 0; i < entries.size(); ++i) {
            rows[i] = entries[entries.size() - 1 - i].row;
        }
    }
}

QString ResourceFilterProxyModel::keyOf(int sourceRow) const
{
    return sourceModel()->index(sourceRow, 0).data(ResourceTableRoles::KeyRole).toString();
}

int ResourceFilterProxyModel::sourceRowOfKey(const QString &key) const
{
    if (m_table) {
        return m_table->rowOfKey(key);
    }
    const int count = sourceModel()->rowCount();
    for (int row = 0; row < count; ++row) {
        if (keyOf(row) == key) {
            return row;
        }
    }
    return -1;
}

void ResourceFilterProxyModel::onBatchStarting()
{
    // The source has not changed yet: the persistent indexes' rows still hold their objects.
    m_keysOfRows.clear();
    rememberPersistentKeys();
    m_inBatch = true;
}

void ResourceFilterProxyModel::onRowsChanged(int first, int last, const QList<int> &roles)
{
    if (m_table && !roles.isEmpty() && !roles.contains(ResourceTableRoles::SortRole) && !roles.contains(ResourceTableRoles::ObjectRole)) {
        return; // a repaint, forwarded by the caller
    }
    for (int row = first; row <= last; ++row) {
        m_dirty.push_back(row);
    }
    if (!m_inBatch) {
        m_keysOfRows.clear();
        rememberPersistentKeys();
        applyPending();
    }
}

void ResourceFilterProxyModel::onRowsInserted(int first, int last)
{
    // In a ResourceTableModel's batch rows are only appended; otherwise later rows move down.
    if (!m_inBatch) {
        for (int &sourceRow : m_rows) {
            if (sourceRow >= first) {
                sourceRow += last - first + 1;
            }
        }
    }
    for (int row = first; row <= last; ++row) {
        m_dirty.push_back(row);
    }
    m_structural = true;
    if (!m_inBatch) {
        applyPending();
    }
}

void ResourceFilterProxyModel::onRowsRemoved(int first, int last)
{
    const int count = last - first + 1;
    const auto shift = [first, last, count](std::vector<int> &rows) {
        std::erase_if(rows, [first, last](int sourceRow) { return sourceRow >= first && sourceRow <= last; });
        for (int &sourceRow : rows) {
            if (sourceRow > last) {
                sourceRow -= count;
            }
        }
    };
    shift(m_dirty);
    // In a batch the proxy's rows stay untouched until it ends (the views may not have been
    // told yet); a ResourceTableModel only removes its tail, which applyPending() drops.
    if (!m_inBatch) {
        shift(m_rows);
    }
    m_structural = true;
    if (!m_inBatch) {
        applyPending();
    }
}

void ResourceFilterProxyModel::onBatchEnded()
{
    m_inBatch = false;
    applyPending();
}

bool ResourceFilterProxyModel::pendingKeepsLayout(int *firstProxyRow, int *lastProxyRow) const
{
    if (m_structural) {
        return false;
    }
    *firstProxyRow = std::numeric_limits<int>::max();
    *lastProxyRow = -1;
    for (const int sourceRow : m_dirty) {
        const int proxyRow = m_proxyRowOf[size_t(sourceRow)];
        if ((proxyRow >= 0) != accepts(sourceRow)) {
            return false;
        }
        if (proxyRow < 0) {
            continue;
        }
        if ((proxyRow > 0 && lessThan(sourceRow, m_rows[size_t(proxyRow - 1)])) ||
            (size_t(proxyRow + 1) < m_rows.size() && lessThan(m_rows[size_t(proxyRow + 1)], sourceRow))) {
            return false;
        }
        *firstProxyRow = std::min(*firstProxyRow, proxyRow);
        *lastProxyRow = std::max(*lastProxyRow, proxyRow);
    }
    return true;
}

std::vector<int> ResourceFilterProxyModel::rowsWithDirtyMerged(int count) const
{
    // Rows the batch touched leave their places and come back in their sorted places; the
    // others keep their relative order, since their values did not change. The working arrays
    // are kept from batch to batch: at a million rows, fresh ones would be megabytes of fresh
    // pages, each a page fault, at every batch.
    std::vector<char> &isDirty = m_isDirty;
    isDirty.resize(size_t(count), 0);
    for (const int sourceRow : m_dirty) {
        isDirty[size_t(sourceRow)] = 1;
    }
    std::vector<int> &kept = m_kept;
    kept.clear();
    for (const int sourceRow : m_rows) {
        if (sourceRow < count && !isDirty[size_t(sourceRow)]) {
            kept.push_back(sourceRow);
        }
    }
    for (const int sourceRow : m_dirty) {
        isDirty[size_t(sourceRow)] = 0;
    }
    std::vector<int> fresh = passing(m_dirty);
    sortRows(fresh);
    const auto less = [this](int a, int b) {
        return lessThan(a, b);
    };
    // Merged by binary search, not std::merge: k log n comparisons instead of n + k, since a
    // batch touches tens of rows among 100k and a comparison may compare strings.
    std::vector<int> rows = std::move(m_spareRows);
    rows.clear();
    reserveGrowing(rows, kept.size() + fresh.size());
    auto from = kept.cbegin();
    for (const int sourceRow : fresh) {
        const auto to = std::upper_bound(from, kept.cend(), sourceRow, less);
        rows.insert(rows.end(), from, to);
        rows.push_back(sourceRow);
        from = to;
    }
    rows.insert(rows.end(), from, kept.cend());
    return rows;
}

void ResourceFilterProxyModel::applyPending()
{
    const int count = sourceModel() ? sourceModel()->rowCount() : 0;
    std::sort(m_dirty.begin(), m_dirty.end());
    m_dirty.erase(std::unique(m_dirty.begin(), m_dirty.end()), m_dirty.end());
    std::erase_if(m_dirty, [count](int sourceRow) { return sourceRow >= count; });
    std::vector<int> rows;
    if (qsizetype(m_dirty.size()) > batchCellLimit(count) && usesSortKeys() && m_table->columns().needsDocument(m_sortColumn) && deferSortForCells()) {
        // Too many cells to parse here: every row in the source's order until they are made.
        rows = acceptedSourceRows();
    } else {
        updateSortKeys(m_dirty, count);
        int first = 0;
        int last = -1;
        if (!m_layoutAnnounced && m_proxyRowOf.size() == size_t(count) && pendingKeepsLayout(&first, &last)) {
            m_dirty.clear();
            m_keysOfRows.clear();
            if (last >= first) {
                Q_EMIT dataChanged(index(first, 0), index(last, columnCount() - 1));
            }
            return;
        }
        rows = rowsWithDirtyMerged(count);
    }
    m_dirty.clear();
    m_structural = false;
    if (!m_layoutAnnounced) {
        Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
        rememberPersistentKeys(); // indexes made just now: their rows' current objects
    }
    relayout(std::move(rows));
}

void ResourceFilterProxyModel::rebuild()
{
    if (!sourceModel()) {
        return;
    }
    announceLayoutChange();
    if (usesSortKeys() && m_sortKeys.size() != size_t(sourceModel()->rowCount())) {
        refreshSortKeys();
    }
    std::vector<int> rows = acceptedSourceRows();
    sortRows(rows);
    relayout(std::move(rows));
}

void ResourceFilterProxyModel::refilter()
{
    if (!sourceModel()) {
        return;
    }
    const int count = sourceModel()->rowCount();
    if (m_proxyRowOf.size() != size_t(count)) {
        rebuild(); // not in step with the source: nothing to narrow from
        return;
    }
    announceLayoutChange();
    // The rows shown are in order already: keeping those that pass needs no comparison.
    std::vector<int> rows;
    rows.reserve(m_rows.size());
    std::copy_if(m_rows.cbegin(), m_rows.cend(), std::back_inserter(rows), [count](int row) { return row < count; });
    relayout(passing(std::move(rows)));
}

bool ResourceFilterProxyModel::usesSortKeys() const
{
    return m_table != nullptr && m_sortColumn >= 0 && m_sortColumn < m_table->columnCount();
}

void ResourceFilterProxyModel::refreshSortKeys()
{
    m_sortKeysValid = usesSortKeys();
    if (!m_sortKeysValid) {
        m_sortKeys.clear();
        m_sortEntries.clear();
        m_sortEntries.shrink_to_fit();
        return;
    }
    // Reading each row's object and strings is a cache miss or three a row at a million rows:
    // the pool's free threads make their share of the keys meanwhile (rows are disjoint, and
    // the table changes only on this thread, which waits). Each key is overwritten: the
    // previous sort's keys are not cleared first, a pass over them all for nothing.
    m_sortKeys.resize(size_t(m_table->rowCount()));
    inParallel(qsizetype(m_sortKeys.size()), SortKeysPiece, [this](qsizetype begin, qsizetype end) {
        for (qsizetype row = begin; row < end; ++row) {
            m_table->refreshSortKey(m_sortKeys[size_t(row)], int(row), m_sortColumn);
        }
    });
}

void ResourceFilterProxyModel::updateSortKeys(const std::vector<int> &sourceRows, int sourceCount)
{
    if (!usesSortKeys()) {
        return;
    }
    m_sortKeys.resize(size_t(sourceCount));
    // A key made from a parsed cell may parse the row's object first (~85 µs): the pool's free
    // threads take their share (rows are distinct, and the table changes only on this thread).
    inParallel(qsizetype(sourceRows.size()), BatchKeysPiece, [this, &sourceRows](qsizetype begin, qsizetype end) {
        for (qsizetype i = begin; i < end; ++i) {
            const int row = sourceRows[size_t(i)];
            m_table->refreshSortKey(m_sortKeys[size_t(row)], row, m_sortColumn);
        }
    });
}

void ResourceFilterProxyModel::rememberPersistentKeys()
{
    const int count = sourceModel() ? sourceModel()->rowCount() : 0;
    for (const QModelIndex &index : persistentIndexList()) {
        if (index.isValid() && size_t(index.row()) < m_rows.size() && m_rows[size_t(index.row())] < count && !m_keysOfRows.contains(index.row())) {
            m_keysOfRows.insert(index.row(), keyOf(m_rows[size_t(index.row())]));
        }
    }
}

void ResourceFilterProxyModel::announceLayoutChange()
{
    // Views make persistent indexes of their own when told (layoutAboutToBeChanged): noted after.
    m_layoutAnnounced = true;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    rememberPersistentKeys();
}

void ResourceFilterProxyModel::relayout(std::vector<int> rows)
{
    const int count = sourceModel() ? sourceModel()->rowCount() : 0;
    // The object of each persistent index: remembered before the source changed, or, for an
    // index made since (a view reacting to layoutAboutToBeChanged), the one its row shows now.
    const QModelIndexList from = persistentIndexList();
    QStringList keys;
    keys.reserve(from.size());
    for (const QModelIndex &index : from) {
        QString key = m_keysOfRows.value(index.row());
        if (key.isEmpty() && index.isValid() && size_t(index.row()) < m_rows.size() && m_rows[size_t(index.row())] < count) {
            key = keyOf(m_rows[size_t(index.row())]);
        }
        keys.append(key);
    }
    std::swap(m_rows, rows);
    m_spareRows = std::move(rows); // for the next batch's merge
    reserveGrowing(m_proxyRowOf, size_t(count));
    m_proxyRowOf.assign(size_t(count), -1);
    for (size_t proxyRow = 0; proxyRow < m_rows.size(); ++proxyRow) {
        m_proxyRowOf[size_t(m_rows[proxyRow])] = int(proxyRow);
    }
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype i = 0; i < from.size(); ++i) {
        const int sourceRow = keys.at(i).isEmpty() ? -1 : sourceRowOfKey(keys.at(i));
        const int proxyRow = sourceRow >= 0 && sourceRow < count ? m_proxyRowOf[size_t(sourceRow)] : -1;
        to.append(proxyRow >= 0 ? index(proxyRow, from.at(i).column()) : QModelIndex());
    }
    changePersistentIndexList(from, to);
    m_keysOfRows.clear();
    m_layoutAnnounced = false;
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace Cachescope
