#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>

namespace Cachescope {

class SharedIndexInformer;

// IndexRowsModel is the base of the index views' models: a table of rows, each a text (an
// index name, an index value or an object key) with a count, kept sorted by text and
// refreshed from an informer's indexer on a timer. A refresh diffs what the indexer answers
// against the rows shown and applies exact removes, inserts and dataChanged; it never resets,
// so selections and scroll positions survive the churn of a live cluster. Only setInformer()
// (a context switch) resets.
//
// Subclasses say what to read (fetchRows()) and how to show it (columns, headers, data()).
// Thread: GUI thread; it reads the indexer, which is safe from any thread. Ownership: the
// informer is not owned and may be deleted at any time (the model then shows nothing).
// Cost per refresh: one call to the indexer plus O(rows) hash lookups; sorting only for rows
// that appeared.
class IndexRowsModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IndexRowsModel)

public:
    enum Role {
        // The raw text of the row (index name, value or key), also when the display differs.
        TextRole = Qt::UserRole + 1,
        // The row's count, as a qlonglong.
        CountRole,
        // What a QSortFilterProxyModel should sort by: case-folded text, or the count.
        SortRole,
    };

    explicit IndexRowsModel(QObject *parent = nullptr);
    ~IndexRowsModel() override;

    SharedIndexInformer *informer() const;
    void setInformer(SharedIndexInformer *informer);

    // The refresh timer's interval (250 ms by default); 0 stops it (refresh() by hand).
    std::chrono::milliseconds refreshInterval() const;
    void setRefreshInterval(std::chrono::milliseconds interval);

    // refresh() reads the indexer now and applies the differences.
    void refresh();

    int rowCount(const QModelIndex &parent = {}) const override;
    // data() answers TextRole, CountRole and SortRole for every column; DisplayRole shows the
    // count in countColumn() and displayText() elsewhere.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QString textAt(int row) const;
    qsizetype countAt(int row) const;
    // rowOf() is the row showing text, or -1.
    int rowOf(const QString &text) const;
    // counts() is what the rows show: text → count.
    const QHash<QString, qsizetype> &counts() const { return m_counts; }

Q_SIGNALS:
    // refreshed() is emitted after every refresh, whether or not anything changed.
    void refreshed();

protected:
    // fetchRows() returns every row to show, text → count, read from informer's indexer.
    virtual QHash<QString, qsizetype> fetchRows(const SharedIndexInformer &informer) const = 0;
    // The column that shows the count, for dataChanged(); -1 when none does.
    virtual int countColumn() const = 0;
    // displayText() is how a row's text is shown (an empty value says so, for instance).
    virtual QString displayText(const QString &text) const { return text; }
    // clearRows() empties the model with a reset; for subclasses whose selection changed
    // (another index, another value), where a diff against the old rows would mean nothing.
    void clearRows();

private:
    void applyRows(const QHash<QString, qsizetype> &next);

    QPointer<SharedIndexInformer> m_informer; // not owned
    QList<QString> m_rows; // sorted
    QHash<QString, qsizetype> m_counts; // the rows' texts and counts
    QTimer m_timer;
};

} // namespace Cachescope
