#pragma once

#include "core/kube/labelselector.h"
#include "core/util/chunkedvector.h"
#include "ui/models/resourcetablemodel.h"

#include <QAbstractProxyModel>
#include <QHash>
#include <QList>
#include <QPersistentModelIndex>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace Cachescope {

// ResourceFilterProxyModel sorts and filters a flat table model, made for a live
// ResourceTableModel of 100k rows: a text filter (a substring of the name or the namespace,
// case-insensitive) and a LabelSelector, both of which a row must pass; sorting by the typed
// SortRole values (numbers as numbers, ages as times), ties broken by key, descending being the
// exact reverse.
//
// Contract: a ResourceTableModel's batch (batchAboutToBeApplied() … batchApplied()) reaches the
// views as one change, never as one signal per source signal: when the batch only changed rows
// that keep their place and their filter result, one dataChanged over the range they span;
// otherwise one layoutChanged, with the rows the batch touched taken out and merged back in
// their sorted places, and persistent indexes (the current row, the selection) following their
// object by key, even when the source moved it to another row. Other changes (a reset, a new
// sort or filter) are one layout change or reset too. With any other source model every source
// signal is applied at once, the same way, reading SortRole, KeyRole and ObjectRole.
// Why not QSortFilterProxyModel: it answers each source dataChanged that touches the sort column
// with a layout change of its own; a churning 100k-row table then spends seconds per batch.
//
// Thread: GUI. The source model is not owned.
// Cost: a batch that moves rows is O(rows + k log k) for k touched rows, plus the views' own
// layout work; sort() and a filter that widens sort every row shown, the same column the other
// way reverses them, a filter that narrows the one before (a longer text, an added requirement)
// is O(rows shown) with no comparison. With a ResourceTableModel the rows are sorted on sort
// keys made once per row (a parsed cell, a folded string, packed prefixes of the value and the
// key), 8 characters at a time (a multikey sort: a row's strings are read once per 8
// characters, not at each comparison): O(rows) more memory while sorted by a column.
class ResourceFilterProxyModel final : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceFilterProxyModel)

public:
    explicit ResourceFilterProxyModel(QObject *parent = nullptr);
    ~ResourceFilterProxyModel() override;

    void setSourceModel(QAbstractItemModel *sourceModel) override;

    QString filterText() const { return m_text; }
    void setFilterText(const QString &text);
    const LabelSelector &labelSelector() const { return m_selector; }
    void setLabelSelector(const LabelSelector &selector);

    // sort() orders by a source column (-1: the source's own order). By a column whose cells a
    // ResourceTableModel must first parse on more rows than it affords at once, the sort waits
    // for the table to make them off the GUI thread: the rows keep their order meanwhile, and
    // isSortPending() is true. The same wait happens, with the rows in the source's order, when
    // a reset or a batch leaves too many rows of the sort column without their cells (new
    // columns, a context's first list, a relist).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    // The sort asked for, pending or done.
    int sortColumn() const { return m_pendingSort ? m_pendingSort->first : m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_pendingSort ? m_pendingSort->second : m_sortOrder; }
    bool isSortPending() const { return m_pendingSort.has_value(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &index) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // data() and flags() answer nothing for a row whose source row a batch in progress removed.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;

    // Rows from which a sort is split in two halves sorted at once, on this thread and a free
    // thread of backgroundPool().
    static constexpr size_t ParallelSortRows = 16384;
    // batchCellLimit() is how many rows one batch may change, while the rows are sorted by a
    // column whose cells are parsed from the object, before the batch defers the sort to its
    // cells: four times what the table affords at once (~85 ms of parsing), or a 64th of the
    // rows. Deferring costs a sort of every row once the cells are made: at a million rows
    // that is longer than parsing the batch's cells here (on the pool's free threads too), and
    // under churn the changes that come during it make the next batch as large, the table
    // shown in the source's order and sorted again, over and over.
    [[nodiscard]] static qsizetype batchCellLimit(int rows) { return std::max<qsizetype>(ResourceTableModel::AffordableCells * 4, rows / 64); }

Q_SIGNALS:
    void sortPendingChanged(bool pending);

private:
    [[nodiscard]] bool accepts(int sourceRow) const;
    [[nodiscard]] bool accepts(const KubeObject &object) const;
    // lessThan() is the full order: the sort column's values, then the key, reversed when descending.
    [[nodiscard]] bool lessThan(int leftSourceRow, int rightSourceRow) const;
    // sortRows() orders source rows by lessThan().
    void sortRows(std::vector<int> &rows) const;
    [[nodiscard]] QString keyOf(int sourceRow) const;
    [[nodiscard]] int sourceRowOfKey(const QString &key) const;

    // The live path.
    void onBatchStarting();
    void onRowsChanged(int first, int last, const QList<int> &roles);
    void onRowsInserted(int first, int last);
    void onRowsRemoved(int first, int last);
    void onBatchEnded();
    void applyPending();
    // rowsWithDirtyMerged() is the rows shown with the dirty ones taken out and merged back in
    // their sorted places (those that pass the filter).
    [[nodiscard]] std::vector<int> rowsWithDirtyMerged(int count) const;
    [[nodiscard]] bool pendingKeepsLayout(int *firstProxyRow, int *lastProxyRow) const;

    // rebuild() recomputes every row (filter and sort) under one layout change.
    void rebuild();
    // refilter() keeps the shown rows that pass the filter, in their order: for a filter that
    // narrows the one before, O(rows shown) and no sort.
    void refilter();
    // relayout() installs new proxy rows, moving persistent indexes by key, and ends the
    // layout change that announceLayoutChange() (or applyPending()) began.
    void relayout(std::vector<int> rows);
    void announceLayoutChange();
    // rememberPersistentKeys() notes the object (key) of each persistent index's row not yet noted.
    void rememberPersistentKeys();
    // The sort keys of a ResourceTableModel source: made once per row for the sort column
    // (refreshSortKeys()), and again for each row a batch touches.
    [[nodiscard]] bool usesSortKeys() const;
    void refreshSortKeys();
    void updateSortKeys(const std::vector<int> &sourceRows, int sourceCount);
    // awaitsCells() asks the table to prepare a column's cells; true when the sort must wait.
    [[nodiscard]] bool awaitsCells(int column) const;
    // deferSortForCells(): when the current sort column awaits its cells, the sort becomes
    // pending and the rows fall back to the source's order. Returns whether it did.
    bool deferSortForCells();
    // setPendingSort() changes the pending sort, saying when it starts or ends.
    void setPendingSort(std::optional<std::pair<int, Qt::SortOrder>> sort);
    // stopWaitingForCells() makes a pending sort the current one, without sorting (the source
    // goes or changes: its cells will not come).
    void stopWaitingForCells();
    void onCellsPrepared();
    // acceptedSourceRows() are the source rows that pass the filter, in the source's order.
    [[nodiscard]] std::vector<int> acceptedSourceRows() const;
    // passing() keeps those of rows (source rows) that pass the filter, in their order.
    [[nodiscard]] std::vector<int> passing(std::vector<int> rows) const;
    // Rows whose sort keys one thread makes at a time (refreshSortKeys()).
    static constexpr qsizetype SortKeysPiece = 8192;
    // Rows one thread checks against the filter at a time (passing()).
    static constexpr qsizetype FilterPiece = 8192;
    // Rows of a batch whose sort keys one thread makes at a time (updateSortKeys()): each may
    // parse its object.
    static constexpr qsizetype BatchKeysPiece = 128;

    QList<QMetaObject::Connection> m_connections;
    ResourceTableModel *m_table = nullptr; // not owned; the source when it is one
    QString m_text;
    LabelSelector m_selector;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::optional<std::pair<int, Qt::SortOrder>> m_pendingSort; // waiting for the table's cells

    std::vector<int> m_rows; // proxy row → source row, accepted rows in sorted order
    // Source row → its key, when usesSortKeys(). Chunked: a vector doubling as a context's first
    // list arrives would move every key into fresh pages at once (128 MB at a million rows).
    ChunkedVector<ResourceTableModel::SortKey> m_sortKeys;
    // sortRows()'s working rows, kept between sorts while sorted by a column: megabytes that
    // would be fresh pages, each a page fault, at every sort.
    struct SortEntry;
    mutable std::vector<SortEntry> m_sortEntries;
    bool m_sortKeysValid = false; // usesSortKeys() at the last refreshSortKeys(): lessThan() is hot
    std::vector<int> m_proxyRowOf; // source row → proxy row, -1 when filtered out
    // rowsWithDirtyMerged()'s working arrays, and the proxy rows before the last relayout(),
    // kept for the next batch: at a million rows, fresh ones are pages faulted in at each batch.
    mutable std::vector<char> m_isDirty;
    mutable std::vector<int> m_kept;
    mutable std::vector<int> m_spareRows;

    // A batch in progress: source rows changed or inserted (dirty), and whether the source grew
    // or shrank. The proxy's rows stay as they were, unannounced, until the batch ends.
    bool m_inBatch = false;
    std::vector<int> m_dirty;
    bool m_structural = false;
    bool m_layoutAnnounced = false; // layoutAboutToBeChanged() was emitted, layoutChanged() is due
    // Proxy row → key of the persistent indexes' rows, noted before the source changed.
    QHash<int, QString> m_keysOfRows;
};

} // namespace Cachescope
