#pragma once

#include "core/cache/cluster.h"
#include "core/cache/kubeobject.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiresource.h"
#include "core/printers/resourcecolumns.h"
#include "ui/models/commandbarmodel.h"
#include "ui/models/navigationhistory.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

class QMenu;
class QStackedWidget;

namespace Cachescope {

class CacheStatistics;
class ClusterStatusBar;
class CommandBar;
class ContextsView;
class Controller;
class ControllerPanel;
class ControllerSession;
class WelcomePage;
class EventStreamModel;
class EventStreamView;
class IndexView;
class MainWindow;
class ObjectEvents;
class ObjectHistory;
class ObjectView;
struct ObjectRef;
class PipelineModel;
class PipelineView;
class RelationService;
class ResourceTableModel;
class ResourceTableView;
class ResourceTabs;
class ResourceTreeModel;
class ResourceTreeView;
class TimelineView;
class Workspace;

// Explorer wires the explorer's views together in a MainWindow: the Clusters pane chooses the
// cluster and namespace, the resource tree the resource; together they name an informer (from
// the cluster's InformerFactory) that the table, index and pipeline views follow. Tables are tabs
// (ResourceTabs), each on its own informer; the current one is what the choices above change and
// what the other views follow; switching tabs goes to that tab's place (its context, namespace
// and resource), and the tabs are opened again at the next start. Activating an
// object shows it in the object view with its history; every informer's notifications feed the
// event stream; the controller panel (and the Controller menu) runs a built-in controller on
// the shown informer (through a ControllerSession, which owns the controllers' lifecycle),
// drawn by the timeline and the pipeline. It owns no data: views own their models, the
// Workspace owns the clusters, the session the controllers. It owns the RelationService and
// ObjectEvents that the object view's Relations, Events and (for a workload) Logs tabs read: one of each for the
// current cluster and namespace, made when an object is first shown there (they start the
// informers they read), dropped with the cluster; activating a related object shows it.
// A stopped controller stays shown, findings and timeline included, until another starts or the
// informer changes. GUI thread.
class Explorer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Explorer)

public:
    Explorer(MainWindow *window, Workspace *workspace, QObject *parent = nullptr);
    ~Explorer() override;

    // openKubeconfig() opens a kubeconfig (empty path: $KUBECONFIG, else ~/.kube/config) and
    // connects its current context; problems in the files are shown, naming file and line.
    // With an empty path and none of those files there, the welcome page shows instead.
    void openKubeconfig(const QString &path);
    // welcomePage() is shown in the table's place while there is nothing to explore.
    WelcomePage *welcomePage() const { return m_welcome; }
    bool isShowingWelcome() const;

    ContextsView *contextsView() const { return m_contexts; }
    ObjectView *objectView() const { return m_objectView; }
    // tableView() and tableModel() are the current table's (see tabs()).
    ResourceTableView *tableView() const { return m_tableView; }
    ResourceTableModel *tableModel() const { return m_table; }
    ResourceTabs *tabs() const { return m_tabs; }
    EventStreamModel *eventStream() const { return m_eventStream; }
    ObjectHistory *history() const { return m_history; }
    SharedIndexInformer *currentInformer() const { return m_informer; }
    Controller *controller() const;

    // showResource() shows a resource of the current cluster (as if chosen in the tree).
    void showResource(const ApiResource &resource);
    // showObject() shows an object of the current informer in the object view (as if activated
    // in the table); selectedObject() is the one shown last (what the time bar's "next change of
    // the selected object" steps through), invalid before any.
    void showObject(const KubeObject &object);
    [[nodiscard]] KubeObject selectedObject() const;
    // runController() runs a built-in controller on the shown informer with the controller
    // panel's settings and parameters; false with a message when it cannot be built.
    // owner-references first gets the owners' informers (OwnerInformers, in the shown namespace)
    // and starts once they have synced; until then the controller is shown waiting (Idle).
    bool runController(const QString &name, QString *errorMessage = nullptr);
    // stopController() asks the controller to drain and stop; controller() stays, stopping.
    void stopController();
    ControllerPanel *controllerPanel() const { return m_controllerPanel; }
    // commandBar() finds actions, kinds, contexts, namespaces and objects (Ctrl+Alt+I, Ctrl+K;
    // ':' at the table opens it for a kind, as in k9s).
    CommandBar *commandBar() const { return m_commandBar; }
    // navigation() is Back and Forward (Go menu; Alt+Left, Alt+Right): every resource, namespace,
    // context and object shown is a place; going back shows it again, connecting its context when
    // another one is current.
    NavigationHistory *navigation() const { return m_navigation; }
    QAction *backAction() const { return m_back; }
    QAction *forwardAction() const { return m_forward; }
    // setRecordedTime() stamps what the informers of the context `cluster` deliver, in the event
    // stream and the object history, with recordedTime() instead of now: a recording served as a
    // cluster gives the instant played, so rows read as the recording's time. An empty function
    // goes back to now.
    void setRecordedTime(const QString &cluster, std::function<QDateTime()> recordedTime);

Q_SIGNALS:
    // demoRequested(): the user chose to explore the demo cluster (the application starts it).
    void demoRequested();

private:
    void setCluster(Cluster *cluster);
    void openInformer();
    // wirePage() connects a new table; followPage() makes the explorer show a page's place.
    void wirePage(ResourceTableView *page);
    void followPage(ResourceTableView *page);
    // restoreTabs() opens the tables of the last run whose contexts the kubeconfig still has
    // and goes to the current one; false when there were none.
    bool restoreTabs();
    // keepPlace() tells the current table where it is (the object shown in it, if any).
    void keepPlace(const QString &objectKey);
    // currentPlace() is where the explorer is: its cluster, namespace and resource, with the
    // object shown (if any). Needs a cluster.
    [[nodiscard]] NavigationHistory::Location currentPlace(const QString &objectKey) const;
    // applyColumns() gives the table the shown resource's columns: a custom resource's are its
    // CustomResourceDefinition's additionalPrinterColumns, read from the cluster's CRD informer.
    void applyColumns();
    // tableColumns() are the shown resource's columns with the user's label columns after them.
    [[nodiscard]] ResourceColumns tableColumns(const QList<ResourceColumns::PrinterColumn> &printerColumns) const;
    // showObjectWhenSynced() shows the object of that key once the shown informer has synced.
    void showObjectWhenSynced(const QString &key);
    // showRelationsOf() points the object view's Relations and Events tabs at an object of the
    // shown resource; openRelatedObject() shows a related object of any kind (its resource, then it).
    void showRelationsOf(const KubeObject &object);
    void openRelatedObject(const ObjectRef &object);
    void dropRelations();
    void createGoMenu();
    // visit() records where the explorer is (with the object shown, if any) unless it is going
    // somewhere through Back or Forward; goTo() goes there.
    void visit(const QString &objectKey = {});
    void goTo(const NavigationHistory::Location &location);
    void createCommandBar();
    void onCommand(const CommandBarModel::Entry &entry);
    void updateCounts();
    void updateConnectionState();
    void createControllerMenu();
    // showController() points the timeline, the pipeline and the controller panel at the
    // session's current controller (or none).
    void showController(Controller *controller);
    // tap() feeds every notification of a new informer to the event stream and the history.
    void tap(Cluster *cluster, SharedIndexInformer *informer);
    static QString historyResource(const QString &cluster, const QString &informer);

    QPointer<MainWindow> m_window;
    QPointer<Workspace> m_workspace;
    // Views are owned by the window (central widget or docks); models are children of this.
    QStackedWidget *m_central = nullptr; // the table, or the welcome page in its place
    WelcomePage *m_welcome = nullptr;
    ContextsView *m_contexts = nullptr;
    ObjectView *m_objectView = nullptr;
    ResourceTreeModel *m_tree = nullptr;
    ResourceTreeView *m_treeView = nullptr;
    ResourceTabs *m_tabs = nullptr; // owned by the central stack
    ResourceTableModel *m_table = nullptr; // the current table's
    ResourceTableView *m_tableView = nullptr; // the current table
    bool m_tabsRestored = false; // the last run's tables are opened once, with the first kubeconfig
    QList<NavigationHistory::Location> m_savedPlaces; // the last run's tables, until restoreTabs()
    qsizetype m_currentSavedPlace = 0;
    IndexView *m_indexView = nullptr;
    PipelineModel *m_pipeline = nullptr;
    PipelineView *m_pipelineView = nullptr;
    TimelineView *m_timeline = nullptr;
    ControllerPanel *m_controllerPanel = nullptr;
    EventStreamModel *m_eventStream = nullptr;
    EventStreamView *m_eventStreamView = nullptr;
    ObjectHistory *m_history = nullptr;
    CacheStatistics *m_statistics = nullptr;
    ClusterStatusBar *m_statusBar = nullptr;
    CommandBar *m_commandBar = nullptr; // owned by the window
    QMenu *m_controllerMenu = nullptr; // owned by the menu bar
    NavigationHistory *m_navigation = nullptr; // child
    QAction *m_back = nullptr; // owned by the window
    QAction *m_forward = nullptr; // owned by the window
    QHash<QString, std::function<QDateTime()>> m_recordedTime; // context → the instant its informers deliver
    bool m_navigating = false; // going to a place: what it changes is not a new visit
    // A place to go once its context is discovered and its namespace listed; given up (with a
    // message) when the namespace is not listed within PendingPlaceTimeout.
    std::optional<NavigationHistory::Location> m_pendingPlace;
    std::optional<NavigationHistory::Location> m_lostPlace; // shown when the current cluster went
    QTimer m_pendingPlaceTimeout;
    static constexpr std::chrono::seconds PendingPlaceTimeout{10};
    QTimer m_countTimer;

    QPointer<Cluster> m_cluster;
    ApiResource m_resource;
    QPointer<SharedIndexInformer> m_informer;
    KubeObject m_selected; // the object shown last
    QPointer<SharedIndexInformer> m_crds; // the current cluster's CustomResourceDefinitions, when it serves them
    QList<ResourceColumns::PrinterColumn> m_printerColumns; // what the table's columns were built with
    ControllerSession *m_controllers = nullptr; // owned (child); deleted first at the end
    // The relations and Events of the current cluster in the namespace they were made for.
    std::unique_ptr<RelationService> m_relations; // owned
    std::unique_ptr<ObjectEvents> m_objectEvents; // owned
    QString m_controllerLabel; // "pods of kind-dev": the informer the current controller runs on
};

} // namespace Cachescope
