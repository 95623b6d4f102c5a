#pragma once

#include "ui/models/indexrowsmodel.h"

namespace Cachescope {

// IndexValuesModel shows the values of one index of an informer's indexer (column 0) with the
// number of objects under each (column 1), live: pods by node, by namespace, by owner uid, by
// label value. An object without a namespace is indexed under the empty value, shown as such.
// Sorting by either column belongs in a QSortFilterProxyModel on SortRole.
//
// Refresh, threads and ownership as IndexRowsModel; changing the index resets the model.
class IndexValuesModel final : public IndexRowsModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IndexValuesModel)

public:
    enum Column { ValueColumn, CountColumn, ColumnCount };

    explicit IndexValuesModel(QObject *parent = nullptr);
    ~IndexValuesModel() override;

    QString indexName() const { return m_indexName; }
    void setIndexName(const QString &indexName);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QHash<QString, qsizetype> fetchRows(const SharedIndexInformer &informer) const override;
    int countColumn() const override { return CountColumn; }
    QString displayText(const QString &text) const override;

private:
    QString m_indexName;
};

} // namespace Cachescope
