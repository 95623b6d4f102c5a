#include "ui/widgets/contextsview.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "ui/models/contextlistmodel.h"
#include "ui/models/namespacelistmodel.h"

#include <utility>

#include <QComboBox>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ContextsView::ContextsView(Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_model(new ContextListModel(workspace, this))
    , m_namespaces(new NamespaceListModel(this))
    , m_view(new QTreeView(this))
    , m_namespaceBox(new QComboBox(this))
{
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->header()->setSectionResizeMode(ContextListModel::ContextColumn, QHeaderView::ResizeToContents);
    m_view->setColumnHidden(ContextListModel::ServerColumn, true);
    m_namespaceBox->setModel(m_namespaces);
    m_namespaceBox->setToolTip(tr("Namespace: informers list and watch this namespace only, or all of them"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    layout->addWidget(m_namespaceBox);

    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) { connectRow(index.row()); });
    connect(m_view, &QTreeView::customContextMenuRequested, this, &ContextsView::showMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid() && m_workspace) {
            if (Cluster *cluster = m_workspace->cluster(m_model->contextAt(current.row()))) {
                setCurrent(cluster);
            }
        }
    });
    connect(m_namespaces, &QAbstractItemModel::rowsInserted, this, &ContextsView::namespacesChanged);
    connect(m_namespaces, &QAbstractItemModel::rowsRemoved, this, &ContextsView::namespacesChanged);
    connect(m_namespaces, &QAbstractItemModel::modelReset, this, &ContextsView::namespacesChanged);
    connect(m_namespaceBox, &QComboBox::currentIndexChanged, this, [this] {
        // A cluster switch empties the list: that is the new cluster's start, not a choice made
        // in the old one (which would open an informer there). Namespaces listed above the
        // chosen one move its row, not the choice.
        const QString namespaceName = currentNamespace();
        if (namespaceName == std::exchange(m_announcedNamespace, namespaceName) || m_switching) {
            return;
        }
        Q_EMIT currentNamespaceChanged(namespaceName);
    });
    connect(workspace, &Workspace::clusterDisconnecting, this, [this](Cluster *cluster, const Workspace::ContextId &context) {
        if (cluster == m_current) {
            setCurrent(nullptr);
            m_lostContext = context;
        }
    });
    // The context shown was connected again (after a fix): show its new cluster.
    connect(workspace, &Workspace::clusterConnected, this, [this](Cluster *cluster, const Workspace::ContextId &context) {
        if (m_current == nullptr && m_lostContext == context) {
            setCurrent(cluster);
        }
    });
    connect(workspace, &Workspace::kubeconfigChanged, this, [this] { setCurrent(nullptr); });
}

ContextsView::~ContextsView() = default;

QString ContextsView::currentNamespace() const
{
    return m_namespaceBox->currentData(NamespaceListModel::NamespaceRole).toString();
}

void ContextsView::connectCurrentContext()
{
    if (!m_workspace) {
        return;
    }
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->index(row, 0).data(ContextListModel::CurrentRole).toBool()) {
            connectRow(row);
            m_view->setCurrentIndex(m_model->index(row, 0));
            return;
        }
    }
}

bool ContextsView::connectContext(const QString &name)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->index(row, 0).data(ContextListModel::ContextNameRole).toString() == name) {
            connectRow(row);
            m_view->setCurrentIndex(m_model->index(row, 0));
            return true;
        }
    }
    return false;
}

QStringList ContextsView::contextNames() const
{
    QStringList names;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        names.append(m_model->index(row, 0).data(ContextListModel::ContextNameRole).toString());
    }
    return names;
}

QStringList ContextsView::namespaces() const
{
    return m_namespaces->namespaces();
}

bool ContextsView::setCurrentNamespace(const QString &namespaceName)
{
    const int row = m_namespaces->rowOf(namespaceName);
    if (row < 0) {
        return false;
    }
    m_namespaceBox->setCurrentIndex(row);
    return true;
}

void ContextsView::connectRow(int row)
{
    QString error;
    Cluster *cluster = m_workspace->connectContext(m_model->contextAt(row), &error);
    if (cluster == nullptr) {
        QMessageBox::warning(this, tr("Cannot connect"), error);
        return;
    }
    setCurrent(cluster);
}

void ContextsView::setCurrent(Cluster *cluster)
{
    if (cluster == m_current) {
        return;
    }
    m_current = cluster;
    m_lostContext.reset();
    {
        const QScopedValueRollback switching(m_switching, true);
        m_namespaces->setInformer(nullptr);
    }
    if (cluster != nullptr) {
        // The namespace list needs discovery to know where namespaces live.
        auto follow = [this, cluster] {
            if (cluster != m_current) {
                return;
            }
            if (SharedIndexInformer *namespaces = cluster->informerOf(u"namespaces"_s)) {
                m_namespaces->setInformer(namespaces);
                cluster->informers()->start();
            }
        };
        if (cluster->isDiscovered()) {
            follow();
        } else {
            connect(cluster, &Cluster::discovered, this, follow, Qt::SingleShotConnection);
        }
    }
    Q_EMIT currentClusterChanged(cluster);
}

void ContextsView::showMenu(const QPoint &position)
{
    const QModelIndex index = m_view->indexAt(position);
    if (!index.isValid()) {
        return;
    }
    const Workspace::ContextId context = m_model->contextAt(index.row());
    QMenu menu(this);
    if (m_workspace->cluster(context) == nullptr) {
        menu.addAction(tr("Connect"), this, [this, row = index.row()] { connectRow(row); });
    } else {
        menu.addAction(tr("Connect Again"), this, [this, context] { m_workspace->reconnectContext(context); });
        menu.addAction(tr("Disconnect"), this, [this, context] { m_workspace->disconnectContext(context); });
    }
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace Cachescope
