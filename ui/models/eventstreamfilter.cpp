#include "ui/models/eventstreamfilter.h"

#include "ui/models/eventstreammodel.h"

namespace Cachescope {

EventStreamFilter::EventStreamFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

EventStreamFilter::~EventStreamFilter() = default;

void EventStreamFilter::setTypeShown(Notification::Type type, bool shown)
{
    const int types = shown ? (m_types | typeBit(type)) : (m_types & ~typeBit(type));
    if (types == m_types) {
        return;
    }
    m_types = types;
    invalidateFilter();
}

bool EventStreamFilter::isTypeShown(Notification::Type type) const
{
    return (m_types & typeBit(type)) != 0;
}

void EventStreamFilter::setNamespace(const QString &namespaceName)
{
    if (m_namespace == namespaceName) {
        return;
    }
    m_namespace = namespaceName;
    invalidateFilter();
}

void EventStreamFilter::setText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (m_text == trimmed) {
        return;
    }
    m_text = trimmed;
    invalidateFilter();
}

bool EventStreamFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *model = sourceModel();
    const QModelIndex first = model->index(sourceRow, 0, sourceParent);
    if ((m_types & (1 << model->data(first, EventStreamModel::TypeRole).toInt())) == 0) {
        return false;
    }
    if (!m_namespace.isEmpty() && model->data(first, EventStreamModel::NamespaceRole).toString() != m_namespace) {
        return false;
    }
    if (m_text.isEmpty()) {
        return true;
    }
    for (const int column : {EventStreamModel::KeyColumn,
                             EventStreamModel::SummaryColumn,
                             EventStreamModel::ResourceColumn,
                             EventStreamModel::ResourceVersionColumn,
                             EventStreamModel::ClusterColumn}) {
        if (model->data(model->index(sourceRow, column, sourceParent)).toString().contains(m_text, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

} // namespace Cachescope
