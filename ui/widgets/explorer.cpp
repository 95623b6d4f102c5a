#include "ui/widgets/explorer.h"

#include "core/cache/cluster.h"
#include "ui/widgets/contextsview.h"
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

void Explorer::setCluster(Cluster *cluster)
{
    m_cluster = cluster;
    if (m_window) {
        m_window->statusBar()->showMessage(cluster ? tr("Cluster %1").arg(cluster->name()) : tr("No cluster"));
    }
}

} // namespace Cachescope
