#pragma once

#include <QAbstractListModel>
#include <QPointer>
#include <QStringList>

#include <memory>

namespace Cachescope {

class NotificationBatcher;
class SharedIndexInformer;
struct Notification;

// NamespaceListModel is the namespace choice of a cluster: "All namespaces" first, then the
// names of a namespaces informer, sorted, kept live through batched notifications (exact row
// inserts and removes). Row 0's NamespaceRole is empty (all namespaces). GUI thread.
class NamespaceListModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NamespaceListModel)

public:
    enum Role { NamespaceRole = Qt::UserRole + 1 };

    explicit NamespaceListModel(QObject *parent = nullptr);
    ~NamespaceListModel() override;

    // setInformer() follows a namespaces informer (null: only "All namespaces").
    void setInformer(SharedIndexInformer *informer);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    int rowOf(const QString &namespaceName) const;
    QStringList namespaces() const { return m_names; }

    // apply() takes one batch of the informer's notifications (public for tests).
    void apply(const QList<Notification> &batch);

private:
    QPointer<SharedIndexInformer> m_informer;
    NotificationBatcher *m_batcher = nullptr; // owned (child)
    QStringList m_names; // sorted; row = index + 1
};

} // namespace Cachescope
