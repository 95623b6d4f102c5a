#include "ui/models/namespacelistmodel.h"

#include "core/cache/notificationbatcher.h"
#include "core/cache/sharedindexinformer.h"

#include <algorithm>

namespace Cachescope {

NamespaceListModel::NamespaceListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

NamespaceListModel::~NamespaceListModel() = default;

void NamespaceListModel::setInformer(SharedIndexInformer *informer)
{
    // A new batcher per informer: the old one's handler stays registered with the old informer
    // but delivers to nothing once its batcher is deleted.
    if (m_batcher != nullptr) {
        delete m_batcher;
        m_batcher = nullptr;
    }
    beginResetModel();
    m_names.clear();
    m_informer = informer;
    endResetModel();
    if (informer == nullptr) {
        return;
    }
    m_batcher = new NotificationBatcher(NotificationBatcher::Mode::Coalesce, this);
    connect(m_batcher, &NotificationBatcher::notificationsReady, this, &NamespaceListModel::apply);
    (void)informer->addEventHandler(m_batcher->handler());
}

void NamespaceListModel::apply(const QList<Notification> &batch)
{
    for (const Notification &notification : batch) {
        const QString name = notification.object.isValid() ? notification.object.name() : notification.key;
        const auto at = std::lower_bound(m_names.begin(), m_names.end(), name);
        const int row = int(at - m_names.begin()) + 1;
        const bool present = at != m_names.end() && *at == name;
        if (notification.type == Notification::Type::Delete) {
            if (present) {
                beginRemoveRows({}, row, row);
                m_names.removeAt(row - 1);
                endRemoveRows();
            }
        } else if (!present) {
            beginInsertRows({}, row, row);
            m_names.insert(row - 1, name);
            endInsertRows();
        }
    }
}

int NamespaceListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_names.size()) + 1;
}

QVariant NamespaceListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return {};
    }
    const QString name = index.row() == 0 ? QString() : m_names.at(index.row() - 1);
    switch (role) {
    case Qt::DisplayRole:
        return index.row() == 0 ? tr("All namespaces") : name;
    case NamespaceRole:
        return name;
    }
    return {};
}

int NamespaceListModel::rowOf(const QString &namespaceName) const
{
    if (namespaceName.isEmpty()) {
        return 0;
    }
    const auto at = std::lower_bound(m_names.begin(), m_names.end(), namespaceName);
    return at != m_names.end() && *at == namespaceName ? int(at - m_names.begin()) + 1 : -1;
}

} // namespace Cachescope
