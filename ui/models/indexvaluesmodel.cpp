#include "ui/models/indexvaluesmodel.h"

#include "core/cache/sharedindexinformer.h"

namespace Cachescope {

IndexValuesModel::IndexValuesModel(QObject *parent)
    : IndexRowsModel(parent)
{
}

IndexValuesModel::~IndexValuesModel() = default;

void IndexValuesModel::setIndexName(const QString &indexName)
{
    if (indexName == m_indexName) {
        return;
    }
    m_indexName = indexName;
    clearRows();
    refresh();
}

int IndexValuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IndexValuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case ValueColumn:
        return tr("Value");
    case CountColumn:
        return tr("Objects");
    default:
        return {};
    }
}

QHash<QString, qsizetype> IndexValuesModel::fetchRows(const SharedIndexInformer &informer) const
{
    if (m_indexName.isEmpty()) {
        return {};
    }
    return informer.indexer().indexValueSizes(m_indexName);
}

QString IndexValuesModel::displayText(const QString &text) const
{
    return text.isEmpty() ? tr("(empty)") : text;
}

} // namespace Cachescope
