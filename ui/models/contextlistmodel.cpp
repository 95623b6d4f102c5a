#include "ui/models/contextlistmodel.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"

#include <QFont>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ContextListModel::ContextListModel(Workspace *workspace, QObject *parent)
    : QAbstractTableModel(parent)
    , m_workspace(workspace)
{
    connect(workspace, &Workspace::kubeconfigChanged, this, &ContextListModel::reload);
    connect(workspace, &Workspace::clusterConnected, this, &ContextListModel::watch);
    connect(workspace, &Workspace::clusterDisconnecting, this, [this](Cluster *cluster, const Workspace::ContextId &context) {
        disconnect(cluster, nullptr, this, nullptr);
        // The cluster is deleted right after this signal: report the row once it is gone.
        QMetaObject::invokeMethod(
            this, [this, context] { rowChanged(context); }, Qt::QueuedConnection);
    });
    reload();
}

void ContextListModel::reload()
{
    beginResetModel();
    m_contexts = m_workspace ? m_workspace->kubeconfig().contexts() : QList<ContextConfig>();
    endResetModel();
}

void ContextListModel::watch(Cluster *cluster, const Workspace::ContextId &context)
{
    connect(cluster, &Cluster::stateChanged, this, [this, context] { rowChanged(context); });
    connect(cluster, &Cluster::discoveryFailed, this, [this, context] { rowChanged(context); });
    // A connected cluster whose server refuses a list (403) or whose watches fail is not well:
    // the state says so, not only the pipeline view.
    auto watchInformer = [this, context](SharedIndexInformer *informer) {
        connect(informer, &SharedIndexInformer::reflectorStateChanged, this, [this, context] { rowChanged(context); });
    };
    for (SharedIndexInformer *informer : cluster->informers()->informers()) {
        watchInformer(informer);
    }
    connect(cluster->informers(), &InformerFactory::informerCreated, this, watchInformer);
    rowChanged(context);
}

QStringList ContextListModel::failingInformers(const Cluster *cluster)
{
    QStringList failing;
    for (const SharedIndexInformer *informer : cluster->informers()->informers()) {
        const Reflector::Status status = informer->counters().reflector;
        if (status.state == Reflector::State::BackingOff && status.lastError.isError()) {
            failing.append(informer->name() + u": "_s + status.lastError.toString());
        }
    }
    return failing;
}

void ContextListModel::rowChanged(const Workspace::ContextId &context)
{
    const int row = rowOf(context);
    if (row >= 0) {
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

int ContextListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_contexts.size());
}

int ContextListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

Workspace::ContextId ContextListModel::contextAt(int row) const
{
    const ContextConfig &context = m_contexts.at(row);
    return {context.name, context.file};
}

int ContextListModel::rowOf(const Workspace::ContextId &context) const
{
    for (qsizetype row = 0; row < m_contexts.size(); ++row) {
        if (m_contexts.at(row).name == context.name && m_contexts.at(row).file == context.file) {
            return int(row);
        }
    }
    return -1;
}

QString ContextListModel::stateText(const Cluster *cluster) const
{
    if (cluster == nullptr) {
        return tr("not connected");
    }
    switch (cluster->state()) {
    case Cluster::State::Idle:
        return tr("not connected");
    case Cluster::State::Connecting:
        return tr("connecting…");
    case Cluster::State::Connected: {
        const QStringList failing = failingInformers(cluster);
        return failing.isEmpty() ? tr("connected") : tr("connected; %n informer(s) retrying", nullptr, int(failing.size()));
    }
    case Cluster::State::Retrying:
        return tr("retrying: %1").arg(cluster->lastError().toString());
    case Cluster::State::Failed:
        return tr("failed: %1").arg(cluster->lastError().toString());
    }
    return {};
}

QVariant ContextListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_workspace) {
        return {};
    }
    const ContextConfig &context = m_contexts.at(index.row());
    const Cluster *cluster = m_workspace->cluster({context.name, context.file});
    const QString warning = cluster ? cluster->warnings().join(u'\n') : QString();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ContextColumn:
            return context.shadowed ? tr("%1 (shadowed)").arg(context.name) : context.name;
        case StateColumn:
            return stateText(cluster);
        case ServerColumn:
            return cluster ? cluster->server() : QString();
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = tr("Context %1 in %2\nCluster: %3, user: %4").arg(context.name, context.file, context.cluster, context.user);
        if (cluster && cluster->state() == Cluster::State::Retrying) {
            tip += u"\n\n"_s + cluster->lastError().toString();
        }
        if (cluster && cluster->state() == Cluster::State::Failed) {
            tip += u"\n\n"_s + cluster->lastError().toString() + u"\n"_s +
                tr("Not retried: connect again (context menu) once the kubeconfig or the files it names are fixed; a change to them retries by itself.");
        }
        if (cluster && cluster->state() == Cluster::State::Connected) {
            const QStringList failing = failingInformers(cluster);
            if (!failing.isEmpty()) {
                tip += u"\n\n"_s + failing.join(u'\n');
            }
        }
        if (!warning.isEmpty()) {
            tip += u"\n\n"_s + warning;
        }
        return tip;
    }
    case Qt::FontRole:
        if (index.column() == ContextColumn && context.name == m_workspace->kubeconfig().currentContext() && !context.shadowed) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case ContextNameRole:
        return context.name;
    case ContextFileRole:
        return context.file;
    case CurrentRole:
        return context.name == m_workspace->kubeconfig().currentContext() && !context.shadowed;
    case ConnectedRole:
        return cluster != nullptr;
    case StateRole:
        return cluster ? int(cluster->state()) : -1;
    case WarningRole:
        return warning;
    }
    return {};
}

QVariant ContextListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case ContextColumn:
        return tr("Context");
    case StateColumn:
        return tr("State");
    case ServerColumn:
        return tr("Server");
    }
    return {};
}

} // namespace Cachescope
