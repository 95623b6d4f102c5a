#pragma once

#include "ui/workspace.h"

#include <QAbstractTableModel>
#include <QPointer>

namespace Cachescope {

// ContextListModel lists every context of the workspace's kubeconfig (shadowed ones included,
// with their file) and, for connected ones, the connection state as the user needs it:
// connecting, connected, retrying with the error, and a TLS warning when verification is off.
// Columns: Context, State, Server; the current context is bold-worthy (CurrentRole). Rows are
// reset only when another kubeconfig is opened; state changes are dataChanged of one row.
class ContextListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ContextListModel)

public:
    enum Column { ContextColumn, StateColumn, ServerColumn, ColumnCount };
    enum Role {
        ContextNameRole = Qt::UserRole + 1, // QString
        ContextFileRole, // QString
        CurrentRole, // bool: the kubeconfig's current-context
        ConnectedRole, // bool
        StateRole, // int: Cluster::State, -1 when not connected
        WarningRole, // QString: TLS and other warnings, empty if none
    };

    explicit ContextListModel(Workspace *workspace, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    Workspace::ContextId contextAt(int row) const;
    int rowOf(const Workspace::ContextId &context) const;

private:
    void reload();
    void watch(Cluster *cluster, const Workspace::ContextId &context);
    void rowChanged(const Workspace::ContextId &context);
    QString stateText(const Cluster *cluster) const;
    // failingInformers() names the cluster's informers that back off from an error, with it.
    static QStringList failingInformers(const Cluster *cluster);

    QPointer<Workspace> m_workspace;
    QList<ContextConfig> m_contexts;
};

} // namespace Cachescope
