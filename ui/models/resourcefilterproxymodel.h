#pragma once

#include "ui/models/labelselector.h"

#include <QSortFilterProxyModel>

namespace Cachescope {

class ResourceTableModel;

// ResourceFilterProxyModel sorts and filters a ResourceTableModel: a text filter (a substring
// of the name or the namespace, case-insensitive) and a LabelSelector, both of which a row must
// pass. Sorting compares the typed SortRole values (numbers as numbers, ages as times), ties
// broken by key. Sorting and filtering stay dynamic: changed rows move and are re-checked as
// batches arrive, without re-sorting the rest; a new filter rebuilds the mapping once.
//
// With a ResourceTableModel as source, comparisons (ResourceTableModel::compareRows()) and
// filters read the rows directly instead of through QVariant-returning data() calls: sorting
// 100k rows is dominated by the comparisons. Any other source model works through the roles.
// Thread: GUI. The source model is not owned.
class ResourceFilterProxyModel final : public QSortFilterProxyModel
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

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    void refilter();

    ResourceTableModel *m_table = nullptr; // not owned; the source when it is one
    QString m_text;
    LabelSelector m_selector;
};

} // namespace Cachescope
