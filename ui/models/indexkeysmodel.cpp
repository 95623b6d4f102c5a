#include "ui/models/indexkeysmodel.h"

#include "core/cache/sharedindexinformer.h"

namespace Cachescope {

IndexKeysModel::IndexKeysModel(QObject *parent)
    : IndexRowsModel(parent)
{
}

IndexKeysModel::~IndexKeysModel() = default;

void IndexKeysModel::setSelection(const QString &indexName, const QString &value)
{
    if (indexName == m_indexName && value == m_value) {
        return;
    }
    m_indexName = indexName;
    m_value = value;
    clearRows();
    refresh();
}

int IndexKeysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IndexKeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section != KeyColumn) {
        return {};
    }
    return tr("Object");
}

QHash<QString, qsizetype> IndexKeysModel::fetchRows(const SharedIndexInformer &informer) const
{
    if (m_indexName.isEmpty()) {
        return {};
    }
    const QStringList keys = informer.indexer().indexKeys(m_indexName, m_value);
    QHash<QString, qsizetype> rows;
    rows.reserve(keys.size());
    for (const QString &key : keys) {
        rows.insert(key, 1);
    }
    return rows;
}

} // namespace Cachescope
