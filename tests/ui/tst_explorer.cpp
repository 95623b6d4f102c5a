// The assembled window against an in-process simulated cluster: opening its kubeconfig connects
// the current context, the pod table fills with exactly the server's pods and follows churn, the
// event stream and the pipeline follow the shown informer, a namespace choice narrows the table,
// and a controller run from the explorer feeds the workqueue timeline.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/controller/controller.h"
#include "core/controller/findingsstore.h"
#include "core/sim/simcluster.h"
#include "ui/models/eventstreammodel.h"
#include "ui/models/objecteventsmodel.h"
#include "ui/models/relationtreemodel.h"
#include "ui/models/resourcefilterproxymodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"
#include "ui/models/timelinemodel.h"
#include "ui/widgets/commandbar.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/controllerpanel.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/objecteventsview.h"
#include "ui/widgets/objectrelationsview.h"
#include "ui/widgets/objectview.h"
#include "ui/widgets/resourcetableview.h"
#include "ui/widgets/resourcetabs.h"
#include "ui/widgets/timelineview.h"
#include "ui/widgets/welcomepage.h"
#include "ui/workspace.h"

#include "exploreronsim.h"
#include "simclusterfixture.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CachescopeTest::ExplorerOnSim;
using CachescopeTest::simOptions;

namespace {

QHash<QString, quint64> tableState(const ResourceTableModel &model)
{
    QHash<QString, quint64> state;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row, 0);
        state.insert(index.data(ResourceTableRoles::KeyRole).toString(), index.data(ResourceTableRoles::ResourceVersionRole).toString().toULongLong());
    }
    return state;
}

} // namespace

class TestExplorer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // The controller panel remembers its form in QSettings: not in the user's.
        QStandardPaths::setTestModeEnabled(true);
    }

    void init()
    {
        // Each test starts with no tables kept from another test (or an earlier run).
        QSettings().remove(u"tables"_s);
    }

    void explorerFollowsTheCluster()
    {
        const Sim::SimOptions options = simOptions(150, 3, 40);
        ExplorerOnSim fixture(options);
        Sim::SimCluster &sim = fixture.sim;
        MainWindow &window = fixture.window;
        Explorer &explorer = fixture.explorer;
        QAbstractItemModelTester tester(explorer.tableModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));

        // Pods are shown first; with churn on, the table trails the truth only by a moment.
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QCOMPARE(explorer.currentInformer()->name(), u"pods"_s);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.tableModel()->rowCount() > 100, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.eventStream()->rowCount() > options.pods, 10000);
        sim.setChurn(0);
        QTRY_COMPARE_WITH_TIMEOUT(tableState(*explorer.tableModel()), sim.truth(u"pods"_s), 20000);

        // A label column (kubectl's -L) asked for at the table: the table gains it, filled.
        explorer.tableView()->setLabelColumns({u"app"_s});
        const ResourceTableModel *table = explorer.tableModel();
        QCOMPARE(table->columns().column(table->columns().count() - 1).title, u"app"_s);
        const QModelIndex first = table->index(0, int(table->columns().count() - 1));
        const KubeObject shown = explorer.currentInformer()->indexer().getByKey(first.siblingAtColumn(0).data(ResourceTableRoles::KeyRole).toString());
        QCOMPARE(first.data().toString(), shown.label(u"app"_s).value_or(QString()));
        QVERIFY(!first.data().toString().isEmpty());
        explorer.tableView()->setLabelColumns({});
        QCOMPARE(table->columns().column(table->columns().count() - 1).title, u"Age"_s);

        // A controller on the shown informer: its queue's work reaches the timeline.
        // Churn deletes as well as creates, so the cache now holds the truth's count, not options.pods.
        const auto podsNow = quint64(sim.truth(u"pods"_s).size());
        QVERIFY(podsNow > 0);
        QVERIFY2(explorer.runController(u"pod-health"_s, &error), qPrintable(error));
        QVERIFY(explorer.controller() != nullptr);
        QVERIFY(!window.findChild<TimelineView *>(u"timeline"_s)->startButton()->isVisibleTo(&window));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.controller()->counters().processed >= podsNow, 20000);
        // Stopping drains off the GUI thread; the stopped controller stays shown with its findings.
        explorer.stopController();
        QVERIFY(explorer.controller() != nullptr);
        QTRY_COMPARE_WITH_TIMEOUT(explorer.controller()->state(), Controller::State::Stopped, 10000);
        QVERIFY(!explorer.controllerPanel()->findChild<QPushButton *>(u"stop"_s)->isEnabled());

        // The panel's form: simulated work that always fails, two retries, one worker.
        ControllerPanel *panel = explorer.controllerPanel();
        panel->setControllerName(u"simulated-work"_s);
        panel->findChild<QLineEdit *>(u"parameters"_s)->setText(u"durationMs=0, failureRate=1"_s);
        ControllerSettings settings = panel->settings();
        settings.workers = 1;
        settings.maxRetries = 2;
        settings.baseDelay = std::chrono::milliseconds(1);
        // The default bucket (10 qps after a burst of 100) would space 300 retries over 20 s.
        settings.qps = 10000;
        settings.burst = 10000;
        panel->setSettings(settings);
        QTest::mouseClick(panel->findChild<QPushButton *>(u"start"_s), Qt::LeftButton);
        QVERIFY(explorer.controller() != nullptr);
        QCOMPARE(explorer.controller()->name(), u"simulated-work"_s);
        QCOMPARE(explorer.controller()->settings().maxRetries, 2);
        QCOMPARE(explorer.controller()->settings().workers, 1);
        // Each key: the first attempt and two retries, then it is given up on.
        QTRY_COMPARE_WITH_TIMEOUT(explorer.controller()->counters().gaveUp, podsNow, 30000);
        QCOMPARE(explorer.controller()->counters().retried, 2 * podsNow);
        QCOMPARE(explorer.controller()->counters().succeeded, quint64(0));
        QTRY_VERIFY(panel->statusText().contains(u"gave up %1"_s.arg(podsNow)));

        // One namespace: a namespaced informer, and only that namespace's pods in the table.
        auto *namespaces = explorer.contextsView()->findChild<QComboBox *>();
        QVERIFY(namespaces);
        QTRY_VERIFY_WITH_TIMEOUT(namespaces->findText(u"shop"_s) >= 0, 10000);
        namespaces->setCurrentIndex(namespaces->findText(u"shop"_s));
        QTRY_COMPARE_WITH_TIMEOUT(explorer.currentInformer()->name(), u"pods -n shop"_s, 5000);
        // Another informer: the controller of the last one is let go.
        QVERIFY(explorer.controller() == nullptr);
        QHash<QString, quint64> shop = sim.truth(u"pods"_s);
        for (auto it = shop.begin(); it != shop.end();) {
            it = it.key().startsWith(u"shop/"_s) ? std::next(it) : shop.erase(it);
        }
        QVERIFY(!shop.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(tableState(*explorer.tableModel()), shop, 20000);

        // A custom resource: after Name and Namespace, the columns its CustomResourceDefinition
        // declares (additionalPrinterColumns), read from the cluster's CRD informer.
        QCOMPARE(fixture.workspace.clusters().size(), 1);
        const auto widgets = fixture.workspace.clusters().constFirst()->discovery().resolve(u"widgets"_s);
        QVERIFY(std::holds_alternative<ApiResource>(widgets));
        explorer.showResource(std::get<ApiResource>(widgets));
        const auto headers = [&explorer] {
            QStringList titles;
            for (int column = 0; column < explorer.tableModel()->columnCount(); ++column) {
                titles.append(explorer.tableModel()->headerData(column, Qt::Horizontal).toString());
            }
            return titles;
        };
        QTRY_COMPARE_WITH_TIMEOUT(headers(), (QStringList{u"Name"_s, u"Namespace"_s, u"Color"_s, u"Size"_s, u"Age"_s}), 10000);
    }

    void firstStartFitsTheScreen()
    {
        QSettings().remove(u"mainWindow"_s);
        MainWindow window;
        Workspace workspace;
        Explorer explorer(&window, &workspace);
        window.restoreWindowState();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QRect available = window.screen()->availableGeometry();
        QCOMPARE(window.size(), available.size() * MainWindow::FirstStartScreenShare);
        QVERIFY(available.contains(window.geometry()));
        // The table gets most of the width; the object pane, empty at first, about a quarter.
        const auto *objectDock = qobject_cast<QDockWidget *>(explorer.objectView()->parentWidget());
        QVERIFY(objectDock != nullptr);
        // (On a small screen, no narrower than its five tabs, elided, need.)
        QVERIFY2(objectDock->width() < std::max(window.width() * 0.3, objectDock->minimumSizeHint().width() + 1.0),
                 qPrintable(u"%1 of %2"_s.arg(objectDock->width()).arg(window.width())));
        QVERIFY(explorer.tableView()->width() > objectDock->width());

        // A layout the user left is restored instead.
        const QSize left = window.size() + QSize(40, 30);
        window.resize(left);
        QCOMPARE(window.size(), left);
        window.close();
        MainWindow second;
        Explorer secondExplorer(&second, &workspace);
        second.restoreWindowState();
        QCOMPARE(second.size(), left);
    }

    void withoutKubeconfigTheWelcomePageOffersTheDemo()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString missing = home.filePath(u"missing-config"_s);
        const QByteArray previous = qgetenv("KUBECONFIG");
        qputenv("KUBECONFIG", missing.toUtf8());
        MainWindow window;
        Workspace workspace;
        Explorer explorer(&window, &workspace);
        window.show();
        explorer.openKubeconfig({});
        qputenv("KUBECONFIG", previous);
        QVERIFY(explorer.isShowingWelcome());
        QVERIFY2(explorer.welcomePage()->text().contains(missing), qPrintable(explorer.welcomePage()->text()));
        QVERIFY(explorer.welcomePage()->isVisible());

        // The timeline, with no controller, offers to start one: the Controller pane comes forward.
        auto *timeline = window.findChild<TimelineView *>(u"timeline"_s);
        QVERIFY(timeline != nullptr);
        QVERIFY(timeline->startButton()->isVisibleTo(timeline));
        auto *timelineDock = qobject_cast<QDockWidget *>(timeline->parentWidget());
        QVERIFY(timelineDock != nullptr);
        timelineDock->raise();
        // (A dock behind another tab stays "visible"; what shows of it is nothing.)
        QTRY_VERIFY(explorer.controllerPanel()->visibleRegion().isEmpty());
        QTest::mouseClick(timeline->startButton(), Qt::LeftButton);
        QTRY_VERIFY(!explorer.controllerPanel()->visibleRegion().isEmpty());

        // Explore the demo: the application is asked to start it, and the table comes back.
        QSignalSpy demo(&explorer, &Explorer::demoRequested);
        QTest::mouseClick(explorer.welcomePage()->demoButton(), Qt::LeftButton);
        QCOMPARE(demo.count(), 1);
        QVERIFY(!explorer.isShowingWelcome());
        QVERIFY(explorer.tableView()->isVisible());
    }

    void commandBarFindsKindsContextsAndObjects()
    {
        ExplorerOnSim fixture(simOptions(30, 2, 0));
        MainWindow &window = fixture.window;
        Explorer &explorer = fixture.explorer;
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        CommandBar *bar = explorer.commandBar();
        const auto run = [&](const QString &typed) {
            QTest::keyClick(&window, Qt::Key_K, Qt::ControlModifier);
            if (!bar->isVisible()) {
                return false;
            }
            QTest::keyClicks(bar->line(), typed);
            QTest::keyClick(bar->line(), Qt::Key_Return);
            return !bar->isVisible();
        };

        QVERIFY(run(u"deploy"_s));
        QCOMPARE(explorer.currentInformer()->name(), u"deployments.apps"_s);
        QVERIFY(run(u"cm"_s));
        QCOMPARE(explorer.currentInformer()->name(), u"configmaps"_s);
        QVERIFY(run(u"po"_s));
        QCOMPARE(explorer.currentInformer()->name(), u"pods"_s);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);

        // An object by name: the object view shows it.
        const QString key = explorer.currentInformer()->indexer().listKeys().constFirst();
        QVERIFY(run(key.mid(key.indexOf(u'/') + 1)));
        QVERIFY2(explorer.objectView()->text().contains(u"name: "_s + key.mid(key.indexOf(u'/') + 1)), qPrintable(explorer.objectView()->text()));

        // ':' at the table asks for a kind, with a namespace as k9s takes it.
        const QString namespaceName = key.left(key.indexOf(u'/'));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.contextsView()->namespaces().contains(namespaceName), 10000);
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        explorer.tableView()->tableView()->setFocus();
        QTRY_VERIFY(explorer.tableView()->tableView()->hasFocus());
        QTest::keyClick(explorer.tableView()->tableView(), ':');
        QTRY_VERIFY(bar->isVisible());
        QCOMPARE(bar->line()->text(), u":"_s);
        QTest::keyClicks(bar->line(), u"deploy -n "_s + namespaceName);
        QTest::keyClick(bar->line(), Qt::Key_Return);
        QCOMPARE(explorer.currentInformer()->name(), u"deployments.apps -n "_s + namespaceName);

        // A context: the Clusters pane connects it.
        QVERIFY(run(u"sim-cert"_s));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.contextsView()->currentCluster() != nullptr && explorer.contextsView()->currentCluster()->name() == u"sim-cert"_s,
                                 10000);

        // Escape closes without doing anything.
        QTest::keyClick(&window, Qt::Key_K, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        QTest::keyClick(bar->line(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
    }

    // Back and Forward: every resource, namespace, object and context shown is a place; Back
    // shows the place before (the namespace and object with it), Forward the one after, and a
    // place in another context connects that context again.
    void backAndForwardRetraceThePlaces()
    {
        ExplorerOnSim fixture(simOptions(30, 2, 0));
        Explorer &explorer = fixture.explorer;
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QVERIFY(!explorer.backAction()->isEnabled());
        const auto place = [&explorer]() -> QString {
            if (explorer.contextsView()->currentCluster() == nullptr || explorer.currentInformer() == nullptr) {
                return u"(nowhere)"_s;
            }
            return explorer.contextsView()->currentCluster()->name() + u' ' + explorer.currentInformer()->name();
        };
        QCOMPARE(place(), u"sim-token pods"_s);

        Cluster *cluster = explorer.contextsView()->currentCluster();
        explorer.showResource(std::get<ApiResource>(cluster->discovery().resolve(u"deployments"_s)));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);
        const QString key = explorer.currentInformer()->indexer().listKeys().constFirst();
        const QString namespaceName = key.left(key.indexOf(u'/'));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.contextsView()->namespaces().contains(namespaceName), 10000);
        QVERIFY(explorer.contextsView()->setCurrentNamespace(namespaceName));
        QCOMPARE(place(), u"sim-token deployments.apps -n "_s + namespaceName);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.tableView()->proxyModel()->rowCount() > 0, 10000);
        const int row = explorer.tableView()->proxyModel()->rowCount() - 1;
        const QString shownKey = explorer.tableView()->proxyModel()->index(row, 0).data(ResourceTableRoles::KeyRole).toString();
        Q_EMIT explorer.tableView()->objectActivated(explorer.currentInformer()->indexer().getByKey(shownKey));
        QVERIFY(explorer.objectView()->text().contains(u"name: "_s + shownKey.section(u'/', 1)));
        QCOMPARE(explorer.navigation()->size(), 3); // pods; deployments; deployments in a namespace with an object

        explorer.backAction()->trigger();
        QCOMPARE(place(), u"sim-token deployments.apps"_s);
        QCOMPARE(explorer.contextsView()->currentNamespace(), QString());
        explorer.backAction()->trigger();
        QCOMPARE(place(), u"sim-token pods"_s);
        QVERIFY(!explorer.backAction()->isEnabled());
        QVERIFY(explorer.forwardAction()->isEnabled());

        // Alt+Right (the platform's Forward) goes forward: the namespace and the object come back.
        fixture.window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&fixture.window));
        QTest::keySequence(&fixture.window, QKeySequence::Forward);
        QCOMPARE(place(), u"sim-token deployments.apps"_s);
        explorer.objectView()->setObject(QByteArrayLiteral("{}"));
        explorer.forwardAction()->trigger();
        QCOMPARE(place(), u"sim-token deployments.apps -n "_s + namespaceName);
        QCOMPARE(explorer.contextsView()->currentNamespace(), namespaceName);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.objectView()->text().contains(u"name: "_s + shownKey.section(u'/', 1)), 10000);
        QVERIFY(!explorer.forwardAction()->isEnabled());
        QCOMPARE(explorer.navigation()->size(), 3);

        // Another context is a place; Back connects the first one again and shows where it was.
        QVERIFY(explorer.contextsView()->connectContext(u"sim-cert"_s));
        QTRY_COMPARE_WITH_TIMEOUT(place(), u"sim-cert pods"_s, 30000);
        QCOMPARE(explorer.navigation()->size(), 4);
        explorer.backAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(place(), u"sim-token deployments.apps -n "_s + namespaceName, 30000);
        // The rest of the namespace list arrives after the place was reached: namespaces listed
        // above the chosen one are no new choice, so Forward is still there.
        QTRY_COMPARE_WITH_TIMEOUT(explorer.contextsView()->namespaces().size(), fixture.sim.truth(u"namespaces"_s).size(), 10000);
        QCOMPARE(explorer.contextsView()->currentNamespace(), namespaceName);
        QCOMPARE(explorer.navigation()->size(), 4);
        QVERIFY(explorer.forwardAction()->isEnabled());
    }

    // Connecting the shown context again (Connect Again, Record Session…: a new Cluster for the
    // same context) keeps the place: the table comes back on the same resource and namespace with
    // the same object shown, not on the pods every new connection starts with.
    void connectingAgainKeepsThePlace()
    {
        ExplorerOnSim fixture(simOptions(30, 2, 0));
        Explorer &explorer = fixture.explorer;
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        Cluster *first = explorer.contextsView()->currentCluster();
        explorer.showResource(std::get<ApiResource>(first->discovery().resolve(u"deployments"_s)));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);
        const QString key = explorer.currentInformer()->indexer().listKeys().constFirst();
        const QString namespaceName = key.left(key.indexOf(u'/'));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.contextsView()->namespaces().contains(namespaceName), 10000);
        QVERIFY(explorer.contextsView()->setCurrentNamespace(namespaceName));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced() && explorer.tableView()->proxyModel()->rowCount() > 0, 30000);
        Q_EMIT explorer.tableView()->objectActivated(explorer.currentInformer()->indexer().getByKey(key));
        const QString nameLine = u"name: "_s + key.section(u'/', 1);
        QVERIFY(explorer.objectView()->text().contains(nameLine));

        const std::optional<Workspace::ContextId> context = fixture.workspace.contextOf(first);
        QVERIFY(context);
        const QPointer<Cluster> firstCluster = first;
        Cluster *second = fixture.workspace.reconnectContext(*context, &error);
        QVERIFY2(second != nullptr, qPrintable(error));
        QVERIFY(firstCluster.isNull()); // a new Cluster (perhaps at the same address)
        explorer.objectView()->setObject(QByteArrayLiteral("{}")); // so that only going back there shows it again
        // The namespace is chosen once the new cluster's namespace list has it.
        QTRY_COMPARE_WITH_TIMEOUT(
            explorer.currentInformer() != nullptr ? explorer.currentInformer()->name() : QString(), u"deployments.apps -n "_s + namespaceName, 30000);
        QCOMPARE(explorer.contextsView()->currentCluster(), second);
        QCOMPARE(explorer.contextsView()->currentNamespace(), namespaceName);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.tableView()->proxyModel()->rowCount() > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.objectView()->text().contains(nameLine), 10000);
    }

    // Tables are tabs, each on its own informer: a second table shows another resource while the
    // first keeps its rows, and showing a tab again goes back to its place without reading its
    // informer again; a tab may be on another context.
    void tabsKeepTheirOwnTables()
    {
        ExplorerOnSim fixture(simOptions(30, 2, 0));
        Explorer &explorer = fixture.explorer;
        ResourceTabs *tabs = explorer.tabs();
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(tabs->tabText(0), u"pods · all"_s);
        ResourceTableView *podsPage = explorer.tableView();
        ResourceTableModel *podsTable = explorer.tableModel();
        SharedIndexInformer *pods = explorer.currentInformer();
        QTRY_COMPARE_WITH_TIMEOUT(podsTable->rowCount(), int(fixture.sim.truth(u"pods"_s).size()), 10000);

        // New Tab opens the same place, with its own model on the same informer.
        tabs->newTabAction()->trigger();
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->currentIndex(), 1);
        QVERIFY(explorer.tableView() != podsPage);
        QVERIFY(explorer.tableModel() != podsTable);
        QCOMPARE(explorer.currentInformer(), pods);
        QCOMPARE(explorer.tableModel()->informer(), pods);
        QTRY_COMPARE_WITH_TIMEOUT(explorer.tableModel()->rowCount(), podsTable->rowCount(), 10000);

        // In it, deployments of one namespace; the pods tab keeps its rows.
        Cluster *cluster = explorer.contextsView()->currentCluster();
        explorer.showResource(std::get<ApiResource>(cluster->discovery().resolve(u"deployments"_s)));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);
        const QString key = explorer.currentInformer()->indexer().listKeys().constFirst();
        const QString namespaceName = key.left(key.indexOf(u'/'));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.contextsView()->namespaces().contains(namespaceName), 10000);
        QVERIFY(explorer.contextsView()->setCurrentNamespace(namespaceName));
        QCOMPARE(explorer.currentInformer()->name(), u"deployments.apps -n "_s + namespaceName);
        QCOMPARE(tabs->tabText(1), u"deployments · "_s + namespaceName);
        QCOMPARE(podsTable->informer(), pods);
        QCOMPARE(podsTable->rowCount(), int(fixture.sim.truth(u"pods"_s).size()));

        // Back to the pods tab: all namespaces again, its rows as they were (no reset).
        QSignalSpy resets(podsTable, &QAbstractItemModel::modelReset);
        tabs->setCurrentIndex(0);
        QCOMPARE(explorer.tableView(), podsPage);
        QCOMPARE(explorer.currentInformer(), pods);
        QCOMPARE(explorer.contextsView()->currentNamespace(), QString());
        QCOMPARE(resets.count(), 0);
        // And to the deployments tab: its namespace comes back.
        tabs->setCurrentIndex(1);
        QCOMPARE(explorer.contextsView()->currentNamespace(), namespaceName);
        QCOMPARE(explorer.currentInformer()->name(), u"deployments.apps -n "_s + namespaceName);

        // A third tab on another context; the first tab takes the explorer back to the first one.
        tabs->newTabAction()->trigger();
        QVERIFY(explorer.contextsView()->connectContext(u"sim-cert"_s));
        QTRY_VERIFY_WITH_TIMEOUT(
            explorer.contextsView()->currentCluster() != cluster && explorer.currentInformer() != nullptr && explorer.currentInformer()->hasSynced(), 30000);
        QCOMPARE(tabs->place(explorer.tableView()).context, u"sim-cert"_s);
        QCOMPARE(tabs->place(podsPage).context, u"sim-token"_s);
        tabs->setCurrentIndex(0);
        QTRY_COMPARE_WITH_TIMEOUT(explorer.contextsView()->currentCluster(), cluster, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(explorer.currentInformer(), pods, 30000);
        QCOMPARE(explorer.tableView(), podsPage);
        QCOMPARE(resets.count(), 0);

        // Close Tab closes the current one; the last one stays.
        tabs->setCurrentIndex(2);
        tabs->closeTabAction()->trigger();
        QCOMPARE(tabs->count(), 2);
        tabs->closeTabAction()->trigger();
        QCOMPARE(tabs->count(), 1);
        QVERIFY(!tabs->closeTabAction()->isEnabled());
        QVERIFY(!tabs->closePage(explorer.tableView()));
        QCOMPARE(tabs->count(), 1);
    }

    // The tables are kept: the next start opens them again, the current one shown and read,
    // each other one only when it is chosen.
    void tabsComeBackAtTheNextStart()
    {
        const Sim::SimOptions options = simOptions(30, 2, 0);
        QString namespaceName;
        {
            ExplorerOnSim fixture(options);
            Explorer &explorer = fixture.explorer;
            QString error;
            QVERIFY2(fixture.open(&error), qPrintable(error));
            QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
            explorer.tabs()->newTabAction()->trigger();
            Cluster *cluster = explorer.contextsView()->currentCluster();
            explorer.showResource(std::get<ApiResource>(cluster->discovery().resolve(u"deployments"_s)));
            QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);
            const QString key = explorer.currentInformer()->indexer().listKeys().constFirst();
            namespaceName = key.left(key.indexOf(u'/'));
            QTRY_VERIFY_WITH_TIMEOUT(explorer.contextsView()->namespaces().contains(namespaceName), 10000);
            QVERIFY(explorer.contextsView()->setCurrentNamespace(namespaceName));
            explorer.tabs()->newTabAction()->trigger();
            explorer.showResource(std::get<ApiResource>(cluster->discovery().resolve(u"nodes"_s)));
            explorer.tabs()->setCurrentIndex(1);
            QCOMPARE(explorer.currentInformer()->name(), u"deployments.apps -n "_s + namespaceName);
        }
        // Another simulator, another port: the same context names.
        ExplorerOnSim fixture(options);
        Explorer &explorer = fixture.explorer;
        ResourceTabs *tabs = explorer.tabs();
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QCOMPARE(tabs->count(), 3);
        QCOMPARE(tabs->tabText(0), u"pods · all"_s);
        QCOMPARE(tabs->tabText(1), u"deployments · "_s + namespaceName);
        QCOMPARE(tabs->tabText(2), u"nodes"_s);
        QCOMPARE(tabs->currentIndex(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QCOMPARE(explorer.currentInformer()->name(), u"deployments.apps -n "_s + namespaceName);
        QCOMPARE(explorer.contextsView()->currentNamespace(), namespaceName);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.tableModel()->rowCount() > 0, 10000);
        // Discovery completed the kept resource (its verbs, short names).
        QVERIFY(!tabs->place(explorer.tableView()).resource.verbs.isEmpty());
        // The others read nothing until shown.
        QCOMPARE(tabs->modelOf(tabs->pages().at(0))->informer(), nullptr);
        QCOMPARE(tabs->modelOf(tabs->pages().at(2))->informer(), nullptr);
        tabs->setCurrentIndex(2);
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QCOMPARE(explorer.currentInformer()->name(), u"nodes"_s);
        QTRY_COMPARE_WITH_TIMEOUT(explorer.tableModel()->rowCount(), int(fixture.sim.truth(u"nodes"_s).size()), 10000);
    }

    // A table moved out into its own window stays live; opening an object from it makes it the
    // table the explorer follows; closing its window brings it back among the tabs.
    void aTableMovesToItsOwnWindow()
    {
        ExplorerOnSim fixture(simOptions(30, 2, 0));
        Explorer &explorer = fixture.explorer;
        ResourceTabs *tabs = explorer.tabs();
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        SharedIndexInformer *pods = explorer.currentInformer();
        QVERIFY(!tabs->detachAction()->isEnabled()); // the last tab stays
        tabs->newTabAction()->trigger();
        Cluster *cluster = explorer.contextsView()->currentCluster();
        explorer.showResource(std::get<ApiResource>(cluster->discovery().resolve(u"deployments"_s)));
        QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->hasSynced(), 30000);
        ResourceTableView *deployments = explorer.tableView();
        SharedIndexInformer *deploymentsInformer = explorer.currentInformer();

        tabs->detachAction()->trigger();
        QCOMPARE(tabs->count(), 1);
        QVERIFY(tabs->isDetached(deployments));
        QWidget *window = tabs->windowOf(deployments);
        QVERIFY(window != nullptr && window->isVisible() && window->isWindow());
        QVERIFY(window->isAncestorOf(deployments));
        QVERIFY(window->windowTitle().contains(u"deployments"_s));
        QCOMPARE(tabs->pages(), (QList<ResourceTableView *>{tabs->pages().constFirst(), deployments}));

        // The tab left is pods; opening a deployment from the window shows it in the object pane.
        tabs->setCurrentIndex(0);
        QCOMPARE(explorer.currentInformer(), pods);
        QTRY_VERIFY_WITH_TIMEOUT(deployments->model()->rowCount() > 0, 10000);
        const QString key = deployments->model()->index(0, 0).data(ResourceTableRoles::KeyRole).toString();
        Q_EMIT deployments->objectActivated(deploymentsInformer->indexer().getByKey(key));
        QCOMPARE(explorer.tableView(), deployments);
        QCOMPARE(explorer.currentInformer(), deploymentsInformer);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.objectView()->text().contains(u"name: "_s + key.section(u'/', 1)), 10000);
        QCOMPARE(explorer.objectView()->text().count(u"kind: Deployment"_s), 1);

        // Closing the window: a tab again, still on its informer.
        QSignalSpy resets(deployments->model(), &QAbstractItemModel::modelReset);
        QVERIFY(window->close());
        QCOMPARE(tabs->count(), 2);
        QVERIFY(!tabs->isDetached(deployments));
        QCOMPARE(tabs->currentPage(), deployments);
        QCOMPARE(deployments->model()->informer(), deploymentsInformer);
        QCOMPARE(resets.count(), 0);
    }

    // The object pane's Relations and Events tabs: a pod shows its ReplicaSet and Deployment
    // above it and its Events, the tab titles count them, and activating the owner's row shows
    // the owner (a visit: Back shows the pod again).
    void objectPaneShowsRelationsAndEvents()
    {
        ExplorerOnSim fixture(simOptions(30, 2, 0));
        Explorer &explorer = fixture.explorer;
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QCOMPARE(explorer.currentInformer()->name(), u"pods"_s);
        const QList<KubeObject> pods = explorer.currentInformer()->indexer().list();
        const auto owned = std::find_if(pods.cbegin(), pods.cend(), [](const KubeObject &pod) {
            const auto owner = pod.controllerReference();
            return owner && owner->kind == u"ReplicaSet"_s;
        });
        QVERIFY(owned != pods.cend());
        const KubeObject pod = *owned;
        const QString replicaSetName = pod.controllerReference()->name;
        Q_EMIT explorer.tableView()->objectActivated(pod);

        ObjectRelationsView *relations = explorer.objectView()->relationsView();
        RelationTreeModel *tree = relations->model();
        QAbstractItemModelTester tester(tree, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QTRY_VERIFY_WITH_TIMEOUT(tree->isKnown() && tree->rowCount() == 1 && tree->index(0, 0).data(RelationTreeModel::KindRole) == u"Deployment"_s, 30000);
        const QModelIndex deployment = tree->index(0, 0);
        QVERIFY(tree->rowCount(deployment) >= 1);
        const QModelIndex replicaSet = tree->index(0, 0, deployment);
        QCOMPARE(replicaSet.data(RelationTreeModel::KindRole).toString(), u"ReplicaSet"_s);
        QCOMPARE(replicaSet.data(RelationTreeModel::ObjectNameRole).toString(), replicaSetName);
        const QModelIndex focus = tree->focusIndex();
        QCOMPARE(focus.parent(), replicaSet);
        QCOMPARE(focus.data(RelationTreeModel::UidRole).toString(), pod.uid());
        QCOMPARE(relations->treeView()->currentIndex(), focus);
        auto *tabs = explorer.objectView()->findChild<QTabWidget *>();
        QVERIFY(tabs);
        QTRY_COMPARE_WITH_TIMEOUT(tabs->tabText(tabs->indexOf(relations)), u"Relations (%1)"_s.arg(tree->relatedCount()), 5000);
        QVERIFY(tree->relatedCount() >= 2);

        // The pod's Events, a warning among them: the simulator keeps only the newest events of
        // the cluster, so the test writes one of its own.
        ObjectEventsView *events = explorer.objectView()->eventsView();
        const QJsonObject warning{
            {u"metadata"_s, QJsonObject{{u"name"_s, QString(pod.name() + u".tab"_s)}}},
            {u"involvedObject"_s,
             QJsonObject{
                 {u"kind"_s, u"Pod"_s}, {u"namespace"_s, pod.namespaceName()}, {u"name"_s, pod.name()}, {u"uid"_s, pod.uid()}, {u"apiVersion"_s, u"v1"_s}}},
            {u"reason"_s, u"BackOff"_s},
            {u"message"_s, u"Back-off restarting failed container"_s},
            {u"type"_s, u"Warning"_s},
            {u"lastTimestamp"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
        QCOMPARE(CachescopeTest::send(explorer.contextsView()->currentCluster(), "POST", u"/api/v1/namespaces/%1/events"_s.arg(pod.namespaceName()), warning),
                 201);
        QTRY_VERIFY_WITH_TIMEOUT(events->model()->isKnown() && events->model()->rowCount() > 0, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(events->model()->index(0, ObjectEventsModel::ReasonColumn).data().toString(), u"BackOff"_s, 10000);
        QVERIFY(events->model()->index(0, 0).data(ObjectEventsModel::WarningRole).toBool());
        for (int row = 0; row < events->model()->rowCount(); ++row) {
            QCOMPARE(events->model()->index(row, ObjectEventsModel::ObjectColumn).data().toString(), u"pod/"_s + pod.name());
        }
        QTRY_COMPARE_WITH_TIMEOUT(tabs->tabText(tabs->indexOf(events)), u"Events (%1)"_s.arg(events->model()->rowCount()), 5000);

        // The owner's row opens the owner: its resource, then it, and its own relations.
        const int visits = explorer.navigation()->size();
        Q_EMIT relations->treeView()->activated(replicaSet);
        QTRY_COMPARE_WITH_TIMEOUT(explorer.currentInformer()->name(), u"replicasets.apps"_s, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(explorer.objectView()->text().contains(u"name: "_s + replicaSetName), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(tree->focusIndex().data(RelationTreeModel::KindRole).toString(), u"ReplicaSet"_s, 10000);
        QVERIFY(explorer.navigation()->size() > visits);
        explorer.backAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(explorer.objectView()->text().contains(u"name: "_s + pod.name()), 30000);
    }

    void ownerReferencesWaitForTheOwnersCaches()
    {
        ExplorerOnSim fixture(simOptions(60, 2, 0));
        Sim::SimCluster &sim = fixture.sim;
        Explorer &explorer = fixture.explorer;
        QString error;
        QVERIFY2(fixture.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.showsSyncedInformer(), 30000);
        QCOMPARE(explorer.currentInformer()->name(), u"pods"_s);

        // The owners' lists answer late, so that the controller is seen waiting for them.
        sim.faults().setLatencyMs(1000);
        sim.faults().injectNext(Sim::FaultPlan::Fault::Latency, 100);
        ControllerPanel *panel = explorer.controllerPanel();
        panel->setControllerName(u"owner-references"_s);
        panel->findChild<QLineEdit *>(u"parameters"_s)->clear();
        QTest::mouseClick(panel->findChild<QPushButton *>(u"start"_s), Qt::LeftButton);
        QVERIFY(explorer.controller() != nullptr);
        QCOMPARE(explorer.controller()->name(), u"owner-references"_s);
        // The owners' informers were only just asked for: the controller waits for them, saying so.
        QCOMPARE(explorer.controller()->state(), Controller::State::Idle);
        auto *state = panel->findChild<QLabel *>(u"state"_s);
        QVERIFY2(state->text().contains(u"waiting for the caches of the owners to sync (ReplicaSet, Deployment"_s), qPrintable(state->text()));
        QVERIFY(panel->findChild<QPushButton *>(u"stop"_s)->isEnabled());

        // They are the cluster's shared informers: the ReplicaSets are cached once, for everyone.
        Cluster *cluster = fixture.workspace.clusters().constFirst();
        const auto replicaSets = cluster->discovery().resolve(u"replicasets.apps"_s);
        QVERIFY(std::holds_alternative<ApiResource>(replicaSets));
        InformerKey key;
        key.resource = std::get<ApiResource>(replicaSets);
        QVERIFY(cluster->informers()->find(key) != nullptr);

        // Once they synced it runs; the simulated cluster's pods all have their ReplicaSets.
        QTRY_COMPARE_WITH_TIMEOUT(explorer.controller()->state(), Controller::State::Running, 30000);
        QVERIFY(cluster->informers()->find(key)->hasSynced());
        const auto pods = quint64(sim.truth(u"pods"_s).size());
        QTRY_VERIFY_WITH_TIMEOUT(explorer.controller()->counters().processed >= pods, 20000);
        QCOMPARE(explorer.controller()->counters().processed, pods);
        QCOMPARE(explorer.controller()->findings()->keyCount(), 0);
        explorer.stopController();
        QTRY_COMPARE_WITH_TIMEOUT(explorer.controller()->state(), Controller::State::Stopped, 10000);
    }
};

CACHESCOPE_TEST_MAIN(TestExplorer)
#include "tst_explorer.moc"
