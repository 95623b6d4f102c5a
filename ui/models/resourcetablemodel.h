#pragma once

#include "core/cache/kubeobject.h"
#include "core/cache/notification.h"
#include "core/cache/sharedindexinformer.h"
#include "core/printers/resourcecolumns.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QTimer>

#include <array>
#include <chrono>
#include <deque>
#include <limits>
#include <memory>
#include <vector>

namespace Cachescope {

class NotificationBatcher;

// ResourceTableModel is the live table of one informer's objects, one row per cached object,
// in the columns of a ResourceColumns (roles: resourcetableroles.h).
//
// Contract: setInformer() registers a NotificationBatcher (Coalesce) handler with the informer;
// a handler added late gets synthetic adds for what the cache holds, so the model catches up by
// itself. Each batch is applied with exact signals: deletions compact the table by moving rows
// from the end into the holes (dataChanged for each filled hole, then one removal of the tail),
// changes are dataChanged over contiguous runs of rows, and the batch's new keys are appended as
// one contiguous insertion. A reset happens only in setInformer() and setColumns() (a context
// switch: the model then shows the new informer's objects only). Rows have no particular order;
// sort and filter with ResourceFilterProxyModel. Ages tick: once a second, one dataChanged over
// the age column of every row (views repaint only what they show).
//
// Thread: GUI thread (lives and is used on the thread it was created on; the batcher hands the
// informer's notifications over to it). Ownership: the informer is not owned (it may be
// destroyed first: the model then keeps its rows and stops updating); the batcher is owned.
// The batcher's batches are applied a slice at a time, each slice sized from the last one's
// pace to take about SliceBudget with the proxy's reaction, the rest on the next turns of the
// event loop: an informer hands the whole of its first list over at once when the list ends (as
// client-go's does), and a million rows applied as one batch held the GUI thread for seconds.
// hasSynced() waits until that backlog is applied.
// Cost: a key's row is found in O(1) (a hash); a batch costs O(changes), never O(rows).
// Cells that need the object's JSON parsed are computed on first request and cached per row
// until the row changes; for many rows at once (a sort), prepareCells() makes them off the GUI
// thread.
class ResourceTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTableModel)

public:
    explicit ResourceTableModel(QObject *parent = nullptr);
    ~ResourceTableModel() override;

    // setInformer() switches to another informer (nullptr: none); rows reset to its cache.
    void setInformer(SharedIndexInformer *informer);
    SharedIndexInformer *informer() const { return m_informer; }
    // setColumns() chooses the columns (header reset).
    void setColumns(const ResourceColumns &columns);
    const ResourceColumns &columns() const { return m_columns; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // rowOfKey() is the row of key, -1 when absent. O(1).
    int rowOfKey(const QString &key) const;
    // objectAt() is the row's object, or an invalid one; the reference holds until the table
    // next changes (take a copy to keep it).
    const KubeObject &objectAt(int row) const;
    // sortValue() is SortRole without going through data().
    QVariant sortValue(int row, int column) const;
    // compareRows() orders two rows by a column's typed value (missing values first), then by
    // key: what a sorting proxy needs, without a QVariant per side for the extracted fields.
    [[nodiscard]] int compareRows(int left, int right, int column) const;
    // SortKey is one row's value in one column, made once to sort many rows with:
    // compareSortKeys() orders two keys exactly as compareRows() orders their rows.
    // The prefixes decide most comparisons without reading a string: at a million rows the
    // strings' characters are scattered over the heap, and each reading is a cache miss.
    static constexpr int PackedWords = 4;
    using PackedText = std::array<quint64, PackedWords>;
    struct SortKey
    {
        enum class Kind : quint8 { Missing, Number, Text };
        Kind kind = Kind::Missing;
        double number = 0;
        QString text; // case-folded where compareRows() ignores case
        QString key; // the tie-breaker: the row's key
        // Text: packText() of text; Number: prefix[0] is the number's bits, ordered as the
        // numbers (NaN excepted, which orders as nothing: see compareSortKeys()).
        PackedText prefix = {};
        PackedText keyPrefix = {}; // packText() of the key
    };
    [[nodiscard]] SortKey sortKey(int row, int column) const;
    // refreshSortKey() makes key the row's sort key in place, equal to sortKey(row, column); the
    // strings it already holds, if they are the row's, are kept with their packed words: at a
    // million rows each string copied and released is a reference count written twice, a cache
    // line made dirty, and each packing a string read.
    void refreshSortKey(SortKey &key, int row, int column) const;
    [[nodiscard]] static int compareSortKeys(const SortKey &a, const SortKey &b);
    // textPrefix() packs up to 8 characters of text from offset into an integer whose order
    // is the characters' order: a < b as integers means a < b as texts (QString::compare, case
    // sensitive); equal integers decide nothing. A character ≥ U+00FE ends the packing.
    [[nodiscard]] static quint64 textPrefix(QStringView text, qsizetype offset = 0);
    // What a word of textPrefix() says of the texts it came from when two are equal: Whole,
    // 8 characters that agree, the next 8 tell; Ended, a text ended in it, so the texts are
    // equal; Inexact, it holds a character from U+00FE up, so the texts must be compared.
    enum class PrefixWord : quint8 { Whole, Ended, Inexact };
    [[nodiscard]] static PrefixWord prefixWord(quint64 word);
    // packText() is textPrefix() of a text's first PackedWords × 8 characters, word by word,
    // up to the word where the text ends or a character ≥ U+00FE stops the packing (the words
    // after it are 0): a sort reads these instead of the strings, scattered over the heap.
    [[nodiscard]] static PackedText packText(QStringView text);
    // orderedBits() maps a double to an integer of the same order (-0 as +0; NaN apart).
    [[nodiscard]] static quint64 orderedBits(double number);

    // Progress of the first list (and of relists): items received so far and the server's
    // remainingItemCount estimate (-1 when the server gave none).
    qint64 itemsSoFar() const { return m_itemsSoFar; }
    qint64 remaining() const { return m_remaining; }
    // hasSynced() is true once the informer synced and every object of its first list is a row.
    bool hasSynced() const { return m_synced; }
    // problem() is why the informer is not watching now: the list or watch error its reflector
    // backs off from (a 403 with the server's message, a refused connection), until it watches
    // again; retryAtMs() is when it tries next (ms since the epoch; 0 while it is trying).
    const ApiError &problem() const { return m_problem; }
    qint64 retryAtMs() const { return m_retryAtMs; }

    // applyBatch() applies one batch of coalesced notifications (what the batcher delivers;
    // public so that tests and replays can feed the model directly). Keys must be unique.
    void applyBatch(const QList<Notification> &batch);
    // flushPending() applies what the batcher holds right now instead of at its next tick, and
    // the backlog with it, at once.
    void flushPending();
    // backlog() is how many notifications the batcher delivered that wait for their slice.
    [[nodiscard]] qsizetype backlog() const;
    // What one slice of the backlog should take, its reaction included.
    static constexpr std::chrono::nanoseconds SliceBudget = std::chrono::milliseconds(8);

    // The age tick interval; 0 stops it (tests).
    void setAgeTickInterval(std::chrono::milliseconds interval);

    // Cells that need the object's JSON parsed cost ~85 µs a pod: too many for the GUI thread
    // to make at once (8.5 s for the first sort of 100k pods by Ready). cellsMissing() counts
    // the rows without their cells (0 when no column needs the document). prepareCells() has
    // them made on backgroundPool(), split among its threads, and put in place on this
    // thread; cellsPrepared() follows, exactly once per call that returned true (rows that
    // changed meanwhile are left without). It returns false, starting nothing, when at most
    // affordable rows lack their cells; a call while a preparation runs joins it.
    [[nodiscard]] qsizetype cellsMissing() const;
    bool prepareCells(qsizetype affordable = AffordableCells);
    [[nodiscard]] bool isPreparingCells() const { return m_preparingCells; }
    // What the GUI thread makes by itself in one go: ~20 ms of parsing.
    static constexpr qsizetype AffordableCells = 256;

Q_SIGNALS:
    void progressChanged(qint64 itemsSoFar, qint64 remaining);
    void syncedChanged(bool synced);
    void problemChanged();
    // batchAboutToBeApplied() comes before a batch changes any row, batchApplied() after its
    // last signal: a proxy can present the batch as one change (counts after coalescing).
    void batchAboutToBeApplied();
    void batchApplied(int added, int updated, int removed);
    void cellsPrepared();

private:
    static constexpr qint64 Unset = std::numeric_limits<qint64>::min();
    struct Row
    {
        QString key;
        KubeObject object;
        qint64 changedAt = 0;
        // metadata.creationTimestamp in ms, read on first comparison by age (Unset until then).
        mutable qint64 createdMs = Unset;
        // The cells of the object, parsed on first request; reset when the row changes.
        mutable std::shared_ptr<const QList<QVariant>> cells;
    };

    struct CellWork;
    struct CellReturn;
    void takeCells(const CellWork &work);

    const QVariant &cachedCell(const Row &row, int column) const;
    static qint64 createdMs(const Row &row);
    QVariant cell(const Row &row, int column) const;
    void checkSynced();
    void receiveBatch(const QList<Notification> &batch);
    // applySlice() applies the backlog's next slice and plans the one after.
    void applySlice();
    // takeFromBacklog() takes up to `most` notifications from the backlog's first batch.
    [[nodiscard]] QList<Notification> takeFromBacklog(qsizetype most);
    void onReflectorStateChanged(Reflector::State state);
    void tickAges();
    void emitChangedRuns(QList<int> &rows);
    void detach();

    ResourceColumns m_columns;
    qsizetype m_ageColumn = -1;
    std::vector<Row> m_rows;
    QHash<QString, int> m_rowOfKey;

    QPointer<SharedIndexInformer> m_informer; // not owned
    SharedIndexInformer::Registration m_registration;
    NotificationBatcher *m_batcher = nullptr; // owned (child), one per informer
    QList<QMetaObject::Connection> m_informerConnections;
    qint64 m_itemsSoFar = 0;
    qint64 m_remaining = -1;
    bool m_synced = false;
    ApiError m_problem;
    qint64 m_retryAtMs = 0;
    QTimer m_syncCheck; // retries checkSynced() until the registration caught up
    // Batches delivered and not yet applied, the first from m_backlogOffset on.
    std::deque<QList<Notification>> m_backlog;
    qsizetype m_backlogOffset = 0;
    static constexpr qsizetype MinSlice = 256;
    static constexpr qsizetype MaxSlice = 65536;
    qsizetype m_sliceSize = 4096;
    QTimer m_nextSlice;
    QTimer m_ageTick;
    // prepareCells(): the pool's threads reach this model only through m_cellReturn, which
    // also holds the cells' generation, and which the destructor cuts.
    bool m_preparingCells = false;
    std::shared_ptr<CellReturn> m_cellReturn;
};

} // namespace Cachescope
