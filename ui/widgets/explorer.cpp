#include "ui/widgets/explorer.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/keys.h"
#include "core/cache/notificationbatcher.h"
#include "core/controller/controller.h"
#include "core/controller/controllersession.h"
#include "core/printers/resourcecolumns.h"
#include "core/relations/objectevents.h"
#include "core/relations/relationservice.h"
#include "core/workqueue/ratelimitingqueue.h"
#include "ui/models/cachestatistics.h"
#include "ui/models/eventstreammodel.h"
#include "ui/models/objecthistory.h"
#include "ui/models/pipelinemodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetreemodel.h"
#include "ui/widgets/clusterstatusbar.h"
#include "ui/widgets/commandbar.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/controllerpanel.h"
#include "ui/widgets/eventstreamview.h"
#include "ui/widgets/indexview.h"
#include "ui/widgets/logview.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/objecteventsview.h"
#include "ui/widgets/objectrelationsview.h"
#include "ui/widgets/objectview.h"
#include "ui/widgets/pipelineview.h"
#include "ui/widgets/resourcetableview.h"
#include "ui/widgets/resourcetabs.h"
#include "ui/widgets/resourcetreeview.h"
#include "ui/widgets/timelineview.h"
#include "ui/widgets/welcomepage.h"
#include "ui/workspace.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QTableView>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Explorer::Explorer(MainWindow *window, Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_workspace(workspace)
{
    // The last run's tables, read before this run's first table is kept in their place.
    int currentSavedPlace = 0;
    QSettings settings;
    m_savedPlaces = ResourceTabs::savedPlaces(settings, &currentSavedPlace);
    m_currentSavedPlace = currentSavedPlace;
    m_tabs = new ResourceTabs(window);
    m_tabs->setObjectName(u"tables"_s);
    connect(m_tabs, &ResourceTabs::pageCreated, this, &Explorer::wirePage);
    connect(m_tabs, &ResourceTabs::currentPageChanged, this, &Explorer::followPage);
    m_welcome = new WelcomePage(window);
    m_welcome->setObjectName(u"welcome"_s);
    connect(m_welcome, &WelcomePage::openKubeconfigRequested, window, &MainWindow::chooseKubeconfig);
    connect(m_welcome, &WelcomePage::demoRequested, this, [this] {
        m_central->setCurrentWidget(m_tabs);
        Q_EMIT demoRequested();
    });
    m_central = new QStackedWidget(window);
    m_central->addWidget(m_tabs);
    m_central->addWidget(m_welcome);
    window->setCentralView(m_central);

    m_contexts = new ContextsView(workspace, window);
    m_contexts->setObjectName(u"clusters"_s);
    window->addView(m_contexts, tr("Clusters"), Qt::LeftDockWidgetArea);

    m_tree = new ResourceTreeModel(this);
    m_treeView = new ResourceTreeView(window);
    m_treeView->setObjectName(u"resources"_s);
    m_treeView->setModel(m_tree);
    window->addView(m_treeView, tr("Resources"), Qt::LeftDockWidgetArea, MainWindow::Placement::Below);

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

    m_indexView = new IndexView(window);
    m_indexView->setObjectName(u"indexes"_s);
    window->addView(m_indexView, tr("Indexes"), Qt::BottomDockWidgetArea);

    m_pipeline = new PipelineModel(this);
    m_pipelineView = new PipelineView(window);
    m_pipelineView->setObjectName(u"pipeline"_s);
    m_pipelineView->setModel(m_pipeline);
    window->addView(m_pipelineView, tr("Pipeline"), Qt::BottomDockWidgetArea);

    m_timeline = new TimelineView(window);
    m_timeline->setObjectName(u"timeline"_s);
    window->addView(m_timeline, tr("Workqueue timeline"), Qt::BottomDockWidgetArea);

    m_controllerPanel = new ControllerPanel(window);
    m_controllerPanel->setObjectName(u"controller"_s);
    window->addView(m_controllerPanel, tr("Controller"), Qt::BottomDockWidgetArea);
    m_controllers = new ControllerSession(this);
    connect(m_controllers, &ControllerSession::controllerChanged, this, &Explorer::showController);
    connect(m_controllers, &ControllerSession::waitingForOwnersChanged, this, [this](const QStringList &kinds) {
        m_controllerPanel->setWaitingFor(kinds.isEmpty() ? QString() : tr("the caches of the owners to sync (%1)").arg(kinds.join(u", "_s)));
    });

    m_statistics = new CacheStatistics(this);
    m_statusBar = new ClusterStatusBar(window);
    m_statusBar->setStatistics(m_statistics);
    window->setStatusBar(m_statusBar);

    m_navigation = new NavigationHistory(this);
    createGoMenu();
    m_pendingPlaceTimeout.setSingleShot(true);
    m_pendingPlaceTimeout.setInterval(PendingPlaceTimeout);
    connect(&m_pendingPlaceTimeout, &QTimer::timeout, this, [this] {
        if (m_pendingPlace && m_cluster && m_cluster->name() == m_pendingPlace->context) {
            m_statusBar->showMessage(tr("No namespace %1 in this cluster any more").arg(m_pendingPlace->namespaceName), 5000);
            NavigationHistory::Location place = *std::exchange(m_pendingPlace, std::nullopt);
            place.namespaceName.clear();
            goTo(place);
        }
    });
    connect(m_contexts, &ContextsView::namespacesChanged, this, [this] {
        if (m_pendingPlace && m_cluster && m_cluster->name() == m_pendingPlace->context && m_contexts->namespaces().contains(m_pendingPlace->namespaceName)) {
            goTo(*std::exchange(m_pendingPlace, std::nullopt));
        }
    });
    createControllerMenu();
    createCommandBar();

    connect(workspace, &Workspace::clusterDisconnecting, m_controllers, &ControllerSession::stopControllersOf);
    connect(workspace, &Workspace::clusterDisconnecting, this, [this](Cluster *cluster) {
        if (cluster == m_cluster) {
            dropRelations(); // they must not outlive their cluster
        }
    });
    connect(m_objectView->relationsView(), &ObjectRelationsView::objectActivated, this, &Explorer::openRelatedObject);
    connect(workspace, &Workspace::clusterConnected, this, [this](Cluster *cluster) {
        connect(cluster->informers(), &InformerFactory::informerCreated, this, [this, cluster](SharedIndexInformer *informer) {
            tap(cluster, informer);
            if (cluster == m_cluster) {
                m_statistics->setInformers(cluster->informers()->informers());
            }
        });
    });
    connect(m_contexts, &ContextsView::currentClusterChanged, this, &Explorer::setCluster);
    connect(m_contexts, &ContextsView::currentNamespaceChanged, this, &Explorer::openInformer);
    connect(m_treeView, &ResourceTreeView::resourceActivated, this, &Explorer::showResource);
    auto showKey = [this](const QString &key) {
        if (m_informer) {
            if (const KubeObject object = m_informer->indexer().getByKey(key); object.isValid()) {
                showObject(object);
            }
        }
    };
    connect(m_indexView, &IndexView::objectActivated, this, showKey);
    connect(m_timeline, &TimelineView::keyActivated, this, showKey);
    connect(m_controllerPanel, &ControllerPanel::objectActivated, this, showKey);
    connect(m_timeline, &TimelineView::startControllerRequested, this, [this] {
        // The Controller pane is a tab beside the timeline: bring it forward, its form focused.
        if (auto *dock = qobject_cast<QDockWidget *>(m_controllerPanel->parentWidget())) {
            dock->show();
            dock->raise();
        }
        m_controllerPanel->setFocus(Qt::OtherFocusReason);
    });
    connect(m_controllerPanel, &ControllerPanel::startRequested, this, [this] {
        QString error;
        if (!runController(m_controllerPanel->controllerName(), &error)) {
            QMessageBox::warning(m_window, tr("Cannot run the controller"), error);
        }
    });
    connect(m_controllerPanel, &ControllerPanel::pauseRequested, m_controllers, &ControllerSession::pause);
    connect(m_controllerPanel, &ControllerPanel::resumeRequested, m_controllers, &ControllerSession::resume);
    connect(m_controllerPanel, &ControllerPanel::stopRequested, this, &Explorer::stopController);
    connect(window, &MainWindow::kubeconfigRequested, this, &Explorer::openKubeconfig);

    QMenu *tables = m_window->addMenu(tr("&Tables"));
    tables->addActions(m_tabs->actions());
    m_tabs->addPage({}, true);

    // Object counts in the resource tree: the caches' sizes, once a second.
    m_countTimer.setInterval(std::chrono::seconds(1));
    connect(&m_countTimer, &QTimer::timeout, this, &Explorer::updateCounts);
    m_countTimer.start();
}

Explorer::~Explorer()
{
    // The workers read the informers' caches: they end before the Workspace's clusters do.
    disconnect(m_controllers, nullptr, this, nullptr);
    m_timeline->setQueue(nullptr, 0);
    m_pipeline->setWorkQueue(nullptr);
    m_controllerPanel->setController(nullptr);
    delete m_controllers;
}

bool Explorer::isShowingWelcome() const
{
    return m_central->currentWidget() == m_welcome;
}

void Explorer::openKubeconfig(const QString &path)
{
    if (path.isEmpty()) {
        const QStringList files = Kubeconfig::sourceFiles({}, qgetenv("KUBECONFIG"), QDir::homePath());
        if (std::none_of(files.cbegin(), files.cend(), [](const QString &file) { return QFileInfo::exists(file); })) {
            m_welcome->setSearchedFiles(files);
            m_central->setCurrentWidget(m_welcome);
            return;
        }
    }
    m_central->setCurrentWidget(m_tabs);
    const Kubeconfig kubeconfig = Kubeconfig::load(path);
    m_workspace->setKubeconfig(kubeconfig);
    m_statusBar->clearMessage();
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
    if (!std::exchange(m_tabsRestored, true) && restoreTabs()) {
        return;
    }
    m_contexts->connectCurrentContext();
}

bool Explorer::restoreTabs()
{
    const QStringList contexts = m_contexts->contextNames();
    QList<ResourceTabs::Place> places;
    int current = 0;
    for (qsizetype index = 0; index < m_savedPlaces.size(); ++index) {
        if (contexts.contains(m_savedPlaces.at(index).context)) {
            if (index <= m_currentSavedPlace) {
                current = int(places.size());
            }
            places.append(m_savedPlaces.at(index));
        }
    }
    m_savedPlaces.clear();
    if (places.isEmpty()) {
        return false;
    }
    // The first table (empty until now) takes the first place; each place opens its informer
    // only when its table is shown.
    ResourceTableView *first = m_tabs->pages().constFirst();
    m_tabs->setPlace(first, places.constFirst());
    QList<ResourceTableView *> pages{first};
    for (qsizetype index = 1; index < places.size(); ++index) {
        pages.append(m_tabs->addPage(places.at(index), false));
    }
    if (pages.at(current) == m_tabs->currentPage()) {
        followPage(pages.at(current));
    } else {
        m_tabs->setCurrentPage(pages.at(current));
    }
    return true;
}

void Explorer::wirePage(ResourceTableView *page)
{
    connect(page, &ResourceTableView::objectActivated, this, [this, page](const KubeObject &object) {
        if (page != m_tableView) {
            // A table in a window of its own: the explorer goes where it is, then shows the object.
            ResourceTabs::Place place = m_tabs->place(page);
            place.objectKey = metaNamespaceKey(object);
            m_tabs->setPlace(page, place);
            m_tabs->setCurrentPage(page);
            return;
        }
        showObject(object);
    });
    connect(page, &ResourceTableView::labelColumnsChanged, this, [this, page] {
        if (page == m_tableView && !m_resource.gvr.resource().isEmpty()) {
            m_table->setColumns(tableColumns(m_printerColumns));
        }
    });
    // k9s: ':' at the table asks for a kind.
    auto *jump = new QShortcut(QKeySequence(u":"_s), page->tableView());
    jump->setContext(Qt::WidgetShortcut);
    connect(jump, &QShortcut::activated, this, [this] { m_commandBar->open(u":"_s); });
}

void Explorer::followPage(ResourceTableView *page)
{
    m_tableView = page;
    m_table = m_tabs->modelOf(page);
    const ResourceTabs::Place place = m_tabs->place(page);
    if (place.context.isEmpty() || m_contexts == nullptr) {
        return; // a new table: it shows what is chosen next
    }
    const QScopedValueRollback navigating(m_navigating, true);
    goTo(place);
    if (!m_pendingPlace && m_informer && m_table->informer() != m_informer) {
        openInformer(); // the same informer as the table before: only this table needs it
    }
}

void Explorer::keepPlace(const QString &objectKey)
{
    if (!m_cluster || m_resource.gvr.resource().isEmpty() || m_tableView == nullptr) {
        return;
    }
    m_tabs->setPlace(m_tableView, currentPlace(objectKey));
}

NavigationHistory::Location Explorer::currentPlace(const QString &objectKey) const
{
    NavigationHistory::Location here;
    here.context = m_cluster->name();
    here.namespaceName = m_resource.namespaced ? m_contexts->currentNamespace() : QString();
    here.resource = m_resource;
    here.objectKey = objectKey;
    return here;
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
        const auto recorded = m_recordedTime.constFind(clusterName);
        const QDateTime time = recorded != m_recordedTime.cend() ? (*recorded)() : QDateTime();
        m_eventStream->setCluster(clusterName);
        m_eventStream->append(resource, batch, time);
        m_history->append(historyResource(clusterName, resource), batch, time);
    });
    (void)informer->addEventHandler(batcher->handler());
}

void Explorer::setRecordedTime(const QString &cluster, std::function<QDateTime()> recordedTime)
{
    if (recordedTime) {
        m_recordedTime.insert(cluster, std::move(recordedTime));
    } else {
        m_recordedTime.remove(cluster);
    }
}

void Explorer::setCluster(Cluster *cluster)
{
    if (m_cluster) {
        disconnect(m_cluster, nullptr, this, nullptr);
    }
    m_controllers->retire();
    dropRelations();
    if (cluster == nullptr && m_cluster && m_tableView != nullptr) {
        // The shown context went (disconnected, or connected again: Connect Again, Record
        // Session…): showing it again comes back to the table's place, not to the pods a new
        // connection shows. The table kept it (keepPlace()): the namespace list is gone by now.
        if (NavigationHistory::Location kept = m_tabs->place(m_tableView); kept.context == m_cluster->name()) {
            m_lostPlace = std::move(kept);
        }
    }
    if (m_pendingPlace && (cluster == nullptr || cluster->name() != m_pendingPlace->context)) {
        m_pendingPlace.reset(); // the user went elsewhere meanwhile
    }
    if (cluster != nullptr) {
        const std::optional<NavigationHistory::Location> lost = std::exchange(m_lostPlace, std::nullopt);
        if (lost && !m_pendingPlace && lost->context == cluster->name()) {
            m_pendingPlace = lost;
        }
    }
    m_cluster = cluster;
    m_objectView->logView()->setCluster(cluster);
    m_crds = nullptr;
    m_resource = ApiResource();
    m_informer = nullptr;
    if (!(m_pendingPlace && cluster != nullptr && cluster->name() == m_pendingPlace->context && m_tabs->place(m_tableView).context == cluster->name())) {
        m_table->setInformer(nullptr); // the table goes to the new cluster (else: a table of that cluster was chosen)
    }
    m_indexView->setInformer(nullptr);
    m_pipeline->setInformer(nullptr);
    m_tree->setDiscovery(DiscoveryResult());
    m_statistics->setInformers({});
    m_statusBar->setClusterName(cluster ? cluster->name() : QString());
    updateConnectionState();
    if (cluster == nullptr) {
        return;
    }
    connect(cluster, &Cluster::stateChanged, this, &Explorer::updateConnectionState);
    connect(cluster, &Cluster::discoveryFailed, this, &Explorer::updateConnectionState);
    auto discovered = [this, cluster] {
        m_tree->setDiscovery(cluster->discovery());
        if (!m_crds) {
            m_crds = cluster->informerOf(ResourceColumns::CrdResource);
            if (m_crds) {
                cluster->informers()->start();
                connect(m_crds, &SharedIndexInformer::synced, this, &Explorer::applyColumns);
            }
        }
        if (m_pendingPlace && m_pendingPlace->context == cluster->name()) {
            const NavigationHistory::Location place = *std::exchange(m_pendingPlace, std::nullopt);
            goTo(place);
            return;
        }
        // Pods first, as most users look for them first.
        const auto pods = cluster->discovery().resolve(u"pods"_s);
        if (const auto *resource = std::get_if<ApiResource>(&pods); resource != nullptr && m_resource.gvr.resource().isEmpty()) {
            showResource(*resource);
        }
    };
    if (cluster->isDiscovered()) {
        discovered();
    } else {
        connect(cluster, &Cluster::discovered, this, discovered);
    }
}

void Explorer::updateConnectionState()
{
    if (!m_cluster) {
        m_statusBar->setConnectionState(ClusterStatusBar::ConnectionState::Disconnected);
        return;
    }
    switch (m_cluster->state()) {
    case Cluster::State::Idle:
        m_statusBar->setConnectionState(ClusterStatusBar::ConnectionState::Disconnected);
        return;
    case Cluster::State::Connecting:
        m_statusBar->setConnectionState(ClusterStatusBar::ConnectionState::Connecting);
        return;
    case Cluster::State::Retrying:
        m_statusBar->setConnectionState(ClusterStatusBar::ConnectionState::Retrying, m_cluster->lastError().toString());
        return;
    case Cluster::State::Failed:
        m_statusBar->setConnectionState(ClusterStatusBar::ConnectionState::Failed, m_cluster->lastError().toString());
        return;
    case Cluster::State::Connected:
        m_statusBar->setConnectionState(m_informer && !m_informer->hasSynced() ? ClusterStatusBar::ConnectionState::Syncing
                                                                               : ClusterStatusBar::ConnectionState::Synced);
        return;
    }
}

void Explorer::showResource(const ApiResource &resource)
{
    if (!m_navigating) {
        // The user chose somewhere else while a place was still to be reached.
        m_pendingPlace.reset();
        m_pendingPlaceTimeout.stop();
    }
    m_resource = resource;
    openInformer();
}

void Explorer::openInformer()
{
    if (!m_cluster || m_resource.gvr.resource().isEmpty()) {
        return;
    }
    m_controllers->retire();
    InformerKey key;
    key.resource = m_resource;
    key.namespaceName = m_resource.namespaced ? m_contexts->currentNamespace() : QString();
    SharedIndexInformer *informer = m_cluster->informers()->informer(key);
    m_cluster->informers()->start();
    m_informer = informer;
    connect(informer, &SharedIndexInformer::synced, this, &Explorer::updateConnectionState, Qt::UniqueConnection);
    if (m_table->informer() != informer) {
        m_printerColumns.clear();
        m_tableView->setColumnsKey(m_resource.gvr.toString());
        m_table->setColumns(tableColumns({}));
        applyColumns();
        m_table->setInformer(informer);
    } else {
        applyColumns(); // a table shown again: its rows are there, its columns may have changed
    }
    m_indexView->setInformer(informer);
    m_pipeline->setInformer(informer);
    m_statistics->setInformers(m_cluster->informers()->informers());
    m_controllerMenu->setEnabled(true);
    m_controllerPanel->setRunnable(true);
    updateConnectionState();
    visit();
}

void Explorer::applyColumns()
{
    if (!m_crds || m_resource.gvr.group().isEmpty()) {
        return;
    }
    const QList<ResourceColumns::PrinterColumn> printerColumns = ResourceColumns::printerColumnsIn(m_crds->indexer(), m_resource);
    if (printerColumns != m_printerColumns) {
        m_printerColumns = printerColumns;
        m_table->setColumns(tableColumns(printerColumns));
    }
}

ResourceColumns Explorer::tableColumns(const QList<ResourceColumns::PrinterColumn> &printerColumns) const
{
    ResourceColumns columns = ResourceColumns::forResource(m_resource, printerColumns);
    columns.addLabelColumns(m_tableView->labelColumns());
    return columns;
}

void Explorer::showObject(const KubeObject &object)
{
    if (!m_cluster || !m_informer) {
        return;
    }
    m_selected = object;
    m_objectView->showObject(historyResource(m_cluster->name(), m_informer->name()), metaNamespaceKey(object), object);
    showRelationsOf(object);
    visit(metaNamespaceKey(object));
}

KubeObject Explorer::selectedObject() const
{
    return m_selected;
}

void Explorer::showRelationsOf(const KubeObject &object)
{
    const QString namespaceName = m_contexts->currentNamespace();
    if (!m_relations || m_relations->namespaceName() != namespaceName) {
        // The explorer's namespace, so that the informers it already runs serve the relations too.
        dropRelations();
        m_relations = std::make_unique<RelationService>(m_cluster.data(), namespaceName);
        m_objectEvents = std::make_unique<ObjectEvents>(m_cluster.data(), namespaceName);
    }
    const ObjectRef ref = m_relations->refOf(object, m_resource);
    m_objectView->relationsView()->showObject(m_relations.get(), ref);
    m_objectView->eventsView()->showObject(m_objectEvents.get(), ref);
    // A workload's Logs tab finds its pods through the same service.
    m_objectView->logView()->setRelations(m_relations.get());
}

void Explorer::dropRelations()
{
    m_objectView->relationsView()->showObject(nullptr, {});
    m_objectView->eventsView()->showObject(nullptr, {});
    m_objectView->logView()->setRelations(nullptr);
    m_objectEvents.reset();
    m_relations.reset();
}

void Explorer::openRelatedObject(const ObjectRef &object)
{
    if (!m_cluster) {
        return;
    }
    const qsizetype slash = object.apiVersion.indexOf(u'/');
    const QString group = slash < 0 ? QString() : object.apiVersion.left(slash);
    const QList<ApiResource> resources = m_cluster->discovery().preferredResources();
    const auto resource = std::find_if(resources.cbegin(), resources.cend(), [&](const ApiResource &candidate) {
        return candidate.kind == object.kind && candidate.gvr.group() == group && !candidate.gvr.resource().contains(u'/');
    });
    if (resource == resources.cend()) {
        m_statusBar->showMessage(tr("This cluster does not serve %1 any more").arg(object.kind), 5000);
        return;
    }
    if (m_resource.gvr != resource->gvr || !m_informer) {
        showResource(*resource);
    }
    if (m_informer) {
        showObjectWhenSynced(object.namespaceName.isEmpty() || !resource->namespaced ? object.name : object.namespaceName + u'/' + object.name);
    }
}

void Explorer::showObjectWhenSynced(const QString &key)
{
    // Going Back or Forward shows the object without recording a visit; the user's choice records one.
    const bool navigating = m_navigating;
    const auto show = [this, informer = m_informer, key, navigating] {
        if (informer && informer == m_informer) {
            if (const KubeObject object = informer->indexer().getByKey(key); object.isValid()) {
                const QScopedValueRollback again(m_navigating, navigating);
                showObject(object);
            }
        }
    };
    if (m_informer->hasSynced()) {
        show();
    } else {
        connect(m_informer, &SharedIndexInformer::synced, this, show, Qt::SingleShotConnection);
    }
}

void Explorer::createGoMenu()
{
    QMenu *go = m_window->addMenu(tr("&Go"));
    m_back = go->addAction(QIcon::fromTheme(u"go-previous"_s), tr("&Back"));
    m_back->setShortcut(QKeySequence::Back);
    m_forward = go->addAction(QIcon::fromTheme(u"go-next"_s), tr("&Forward"));
    m_forward->setShortcut(QKeySequence::Forward);
    const auto update = [this] {
        m_back->setEnabled(m_navigation->canGoBack());
        m_forward->setEnabled(m_navigation->canGoForward());
    };
    update();
    connect(m_navigation, &NavigationHistory::changed, this, update);
    connect(m_back, &QAction::triggered, this, [this] {
        if (const auto place = m_navigation->back()) {
            goTo(*place);
        }
    });
    connect(m_forward, &QAction::triggered, this, [this] {
        if (const auto place = m_navigation->forward()) {
            goTo(*place);
        }
    });
}

void Explorer::visit(const QString &objectKey)
{
    keepPlace(objectKey);
    if (m_navigating || m_pendingPlace || !m_cluster || m_resource.gvr.resource().isEmpty()) {
        return;
    }
    m_navigation->visit(currentPlace(objectKey));
}

void Explorer::goTo(const NavigationHistory::Location &where)
{
    NavigationHistory::Location place = where;
    if (m_cluster && m_cluster->name() == place.context && m_cluster->isDiscovered() && place.resource.verbs.isEmpty()) {
        // A place kept by the last run names its resource only: discovery says the rest.
        if (const auto resolved = m_cluster->discovery().resolve(place.resource.gvr.toString()); std::holds_alternative<ApiResource>(resolved)) {
            place.resource = std::get<ApiResource>(resolved);
        }
    }
    const QScopedValueRollback navigating(m_navigating, true);
    if (!m_cluster || m_cluster->name() != place.context) {
        // The context's cluster shows the place once it is discovered (see setCluster()).
        m_pendingPlace = place;
        if (!m_contexts->connectContext(place.context)) {
            m_pendingPlace.reset();
            m_statusBar->showMessage(tr("No context %1 in this kubeconfig any more").arg(place.context), 5000);
        }
        return;
    }
    if (place.resource.namespaced && !place.namespaceName.isEmpty() && !m_contexts->namespaces().contains(place.namespaceName)) {
        // The cluster's namespace list has not arrived (yet): go there once it has.
        m_pendingPlace = place;
        m_pendingPlaceTimeout.start();
        return;
    }
    m_pendingPlaceTimeout.stop();
    if (place.resource.namespaced && place.namespaceName != m_contexts->currentNamespace()) {
        // The namespace's change opens the place's resource there, not the one shown before.
        m_resource = place.resource;
        m_contexts->setCurrentNamespace(place.namespaceName);
    }
    if (m_resource.gvr != place.resource.gvr || m_informer == nullptr) {
        showResource(place.resource);
    }
    if (place.objectKey.isEmpty() || !m_informer) {
        return;
    }
    showObjectWhenSynced(place.objectKey);
}

void Explorer::createCommandBar()
{
    m_commandBar = new CommandBar(m_window);
    auto *open = new QAction(tr("Command Bar…"), m_window);
    open->setShortcuts({QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I), QKeySequence(Qt::CTRL | Qt::Key_K)});
    open->setShortcutContext(Qt::WindowShortcut);
    connect(open, &QAction::triggered, m_commandBar, [this] { m_commandBar->open(); });
    m_window->addAction(open);
    connect(m_commandBar, &CommandBar::aboutToOpen, this, [this] {
        CommandBarModel *model = m_commandBar->model();
        QList<QAction *> actions;
        std::function<void(const QList<QAction *> &)> collect = [&](const QList<QAction *> &list) {
            for (QAction *action : list) {
                if (action->menu() != nullptr) {
                    collect(action->menu()->actions());
                } else if (!action->text().isEmpty()) {
                    actions.append(action);
                }
            }
        };
        collect(m_window->menuBar()->actions());
        model->setActions(actions);
        model->setDiscovery(m_cluster ? m_cluster->discovery() : DiscoveryResult());
        model->setContexts(m_contexts->contextNames());
        model->setNamespaces(m_contexts->namespaces());
        model->setObjectKeys(m_informer ? m_informer->indexer().listKeys() : QStringList());
    });
    connect(m_commandBar, &CommandBar::entryActivated, this, &Explorer::onCommand);
}

void Explorer::onCommand(const CommandBarModel::Entry &entry)
{
    switch (entry.kind) {
    case CommandBarModel::Kind::Action:
        if (entry.action) {
            entry.action->trigger();
        }
        return;
    case CommandBarModel::Kind::Resource:
        if (!entry.namespaceName.isEmpty() && !m_contexts->setCurrentNamespace(entry.namespaceName)) {
            m_statusBar->showMessage(tr("No namespace %1 in this cluster").arg(entry.namespaceName), 5000);
        }
        showResource(entry.resource);
        return;
    case CommandBarModel::Kind::Context:
        m_contexts->connectContext(entry.name);
        return;
    case CommandBarModel::Kind::Namespace:
        m_contexts->setCurrentNamespace(entry.name);
        return;
    case CommandBarModel::Kind::Object:
        if (m_informer) {
            if (const KubeObject object = m_informer->indexer().getByKey(entry.name); object.isValid()) {
                showObject(object);
            }
        }
        return;
    }
}

void Explorer::updateCounts()
{
    if (!m_cluster) {
        return;
    }
    const QList<InformerKey> keys = m_cluster->informers()->keys();
    for (const InformerKey &key : keys) {
        // Only whole-cluster caches count every object of their resource.
        if (key.namespaceName.isEmpty() && key.labelSelector.isEmpty() && key.fieldSelector.isEmpty()) {
            if (const SharedIndexInformer *informer = m_cluster->informers()->find(key); informer && informer->hasSynced()) {
                m_tree->setCount(key.resource, informer->indexer().size());
            }
        }
    }
}

void Explorer::createControllerMenu()
{
    m_controllerMenu = m_window->addMenu(tr("&Controller"));
    m_controllerMenu->setEnabled(false);
    // The read-only checks and simulated work.
    for (const QString &name : {u"pod-health"_s, u"owner-references"_s, u"label-policy"_s, u"simulated-work"_s}) {
        m_controllerMenu->addAction(tr("Run %1 on this resource").arg(name), this, [this, name] {
            QString error;
            if (!runController(name, &error)) {
                QMessageBox::warning(m_window, tr("Cannot run the controller"), error);
            }
        });
    }
    m_controllerMenu->addSeparator();
    m_controllerMenu->addAction(tr("Pause"), m_controllers, &ControllerSession::pause);
    m_controllerMenu->addAction(tr("Resume"), m_controllers, &ControllerSession::resume);
    m_controllerMenu->addAction(tr("Stop the controller (drain)"), this, &Explorer::stopController);
}

bool Explorer::runController(const QString &name, QString *errorMessage)
{
    if (!m_informer || !m_cluster) {
        if (errorMessage != nullptr) {
            *errorMessage = tr("No resource is shown.");
        }
        return false;
    }
    m_controllerPanel->setControllerName(name);
    const QString namespaceName = m_resource.namespaced ? m_contexts->currentNamespace() : QString();
    m_controllerLabel = tr("%1 of %2").arg(m_informer->name(), m_cluster->name());
    if (!m_controllers->run(
            m_cluster.data(), m_informer.data(), namespaceName, name, m_controllerPanel->parameterAssignments(), m_controllerPanel->settings(), errorMessage)) {
        return false;
    }
    m_window->statusBar()->showMessage(tr("Controller %1 runs on %2").arg(name, m_informer->name()), 5000);
    return true;
}

void Explorer::stopController()
{
    m_controllers->stop();
}

void Explorer::showController(Controller *controller)
{
    m_timeline->setQueue(controller ? &controller->queue() : nullptr, controller ? controller->settings().workers : 0);
    m_pipeline->setWorkQueue(controller ? controller->sharedQueue() : nullptr);
    m_controllerPanel->setController(controller, controller ? m_controllerLabel : QString());
}

Controller *Explorer::controller() const
{
    return m_controllers->controller();
}

} // namespace Cachescope
