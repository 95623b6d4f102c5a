#include "ui/widgets/explorer.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/notificationbatcher.h"
#include "ui/models/eventstreammodel.h"
#include "ui/models/objecthistory.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/eventstreamview.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/objectview.h"
#include "ui/workspace.h"

#include <QMessageBox>
#include <QStatusBar>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Explorer::Explorer(MainWindow *window, Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_workspace(workspace)
{
    m_contexts = new ContextsView(workspace, window);
    m_contexts->setObjectName(u"clusters"_s);
    window->addView(m_contexts, tr("Clusters"), Qt::LeftDockWidgetArea);

    m_objectView = new ObjectView(window);
    m_objectView->setObjectName(u"object"_s);
    window->addView(m_objectView, tr("Object"), Qt::RightDockWidgetArea);

    m_history = new ObjectHistory(this);
    m_objectView->setHistory(m_history);

    m_eventStream = new EventStreamModel(this);
    m_eventStreamView = new EventStreamView(window);
    m_eventStreamView->setObjectName(u"events"_s);
    m_eventStreamView->setModel(m_eventStream);
    window->addView(m_eventStreamView, tr("Events"), Qt::BottomDockWidgetArea);

    connect(workspace, &Workspace::clusterConnected, this, [this](Cluster *cluster) {
        connect(cluster->informers(), &InformerFactory::informerCreated, this, [this, cluster](SharedIndexInformer *informer) { tap(cluster, informer); });
    });
    connect(m_contexts, &ContextsView::currentClusterChanged, this, &Explorer::setCluster);
    connect(window, &MainWindow::kubeconfigRequested, this, &Explorer::openKubeconfig);
}

Explorer::~Explorer() = default;

void Explorer::openKubeconfig(const QString &path)
{
    const Kubeconfig kubeconfig = Kubeconfig::load(path);
    m_workspace->setKubeconfig(kubeconfig);
    if (kubeconfig.hasErrors()) {
        QStringList problems;
        for (const KubeconfigError &error : kubeconfig.errors()) {
            problems.append(error.toString());
        }
        // Not modal: what could be read is usable while the message is up.
        auto *box =
            new QMessageBox(QMessageBox::Warning, tr("Kubeconfig problems"), tr("Some of the kubeconfig could not be read:"), QMessageBox::Ok, m_window);
        box->setInformativeText(problems.join(u'\n'));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
    }
    m_contexts->connectCurrentContext();
}

QString Explorer::historyResource(const QString &cluster, const QString &informer)
{
    // Two clusters may both have "pods": the history keeps them apart.
    return cluster + u" · "_s + informer;
}

void Explorer::tap(Cluster *cluster, SharedIndexInformer *informer)
{
    // One batcher per informer, every notification in order; it dies with the informer.
    auto *batcher = new NotificationBatcher(NotificationBatcher::Mode::Every, informer);
    const QString clusterName = cluster->name();
    const QString resource = informer->name();
    connect(batcher, &NotificationBatcher::notificationsReady, this, [this, clusterName, resource](const QList<Notification> &batch) {
        m_eventStream->setCluster(clusterName);
        m_eventStream->append(resource, batch);
        m_history->append(historyResource(clusterName, resource), batch);
    });
    (void)informer->addEventHandler(batcher->handler());
}

void Explorer::setCluster(Cluster *cluster)
{
    m_cluster = cluster;
    if (m_window) {
        m_window->statusBar()->showMessage(cluster ? tr("Cluster %1").arg(cluster->name()) : tr("No cluster"));
    }
}

} // namespace Cachescope
