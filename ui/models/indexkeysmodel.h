#pragma once

#include "ui/models/indexrowsmodel.h"

namespace Cachescope {

// IndexKeysModel shows the keys (`namespace/name`) of the objects stored under one value of one
// index of an informer's indexer, live, sorted by key: what indexer.indexKeys(index, value)
// answers. One column; the count of every row is 1.
//
// Refresh, threads and ownership as IndexRowsModel; changing the index or value resets it.
class IndexKeysModel final : public IndexRowsModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IndexKeysModel)

public:
    enum Column { KeyColumn, ColumnCount };

    explicit IndexKeysModel(QObject *parent = nullptr);
    ~IndexKeysModel() override;

    QString indexName() const { return m_indexName; }
    QString value() const { return m_value; }
    // setSelection() chooses the index and the value whose objects are shown.
    void setSelection(const QString &indexName, const QString &value);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    QHash<QString, qsizetype> fetchRows(const SharedIndexInformer &informer) const override;
    int countColumn() const override { return -1; }

private:
    QString m_indexName;
    QString m_value;
};

} // namespace Cachescope
