// ResourceTableView offscreen: Ctrl+L and the filter line, the label-selector line and its
// errors, Ctrl+F search, Enter opening an object, the progress bar while the first list pages
// arrive or a sort waits for its cells, and the flash of a changed row.
#include "fakelisterwatcher.h"

#include "core/cache/sharedindexinformer.h"
#include "ui/models/resourcefilterproxymodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"
#include "ui/models/resourcetreemodel.h"
#include "ui/widgets/resourcetabledelegate.h"
#include "ui/widgets/resourcetableview.h"
#include "ui/widgets/resourcetreeview.h"

#include "testmain.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QThread>
#include <QTreeView>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

KubeObject pod(const QString &ns, const QString &name, const QString &labels, const QString &rv = u"1"_s)
{
    const QString json = uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%4","labels":{%3}},
        "spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running"}})"_s.arg(name, ns, labels, rv);
    return *KubeObject::fromJson(json.toUtf8());
}

QString currentKey(const ResourceTableView &view)
{
    return view.tableView()->currentIndex().data(ResourceTableRoles::KeyRole).toString();
}

} // namespace

class TestResourceTableView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void ctrlLFiltersByText();
    void labelSelectorLine_data();
    void labelSelectorLine();
    void ctrlFFindsNextMatch();
    void enterOpensObject();
    void changedRowsFlash();
    void progressWhileListing();
    void progressWhileASortWaitsForItsCells();
    void aRefusedListShowsInTheTablesPlace();
    void retryNowEndsTheWait();
    void treeViewActivatesResources();
    void wideColumnsStartHidden();
    void columnLayoutIsKeptPerKind();
    void labelColumnsAreKeptPerKind();

private:
    // RefusedList is a pods informer whose lists the server refuses until `allowed`, then
    // answers with one pod; `lists` counts them. Members in this order: the model goes first.
    struct RefusedList
    {
        bool allowed = false;
        int lists = 0;
        std::unique_ptr<SharedIndexInformer> informer;
        ResourceTableModel model;
    };
    // showRefusedList() shows `refused` in the view, its lists refused with `refusal` and retried
    // after `backoff`, and returns once the view shows the problem.
    void showRefusedList(RefusedList &refused, const ApiError &refusal, std::chrono::milliseconds backoff);
    // shownTitles() are the header's visible columns, in visual order.
    static QStringList shownTitles(const ResourceTableView &view);
    static QAction *columnAction(QMenu *menu, const QString &title);
    std::unique_ptr<ResourceTableModel> m_model;
    std::unique_ptr<ResourceTableView> m_view;
};

void TestResourceTableView::init()
{
    // Column layouts are remembered in QSettings: not in the user's, and fresh for each test.
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(u"columns"_s);
    m_model = std::make_unique<ResourceTableModel>();
    m_model->setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    m_model->applyBatch({
        Notification::add(u"shop/web-1"_s, pod(u"shop"_s, u"web-1"_s, uR"("app":"web")"_s), true),
        Notification::add(u"shop/web-2"_s, pod(u"shop"_s, u"web-2"_s, uR"("app":"web")"_s), true),
        Notification::add(u"shop/db-0"_s, pod(u"shop"_s, u"db-0"_s, uR"("app":"db")"_s), true),
        Notification::add(u"billing/api-7"_s, pod(u"billing"_s, u"api-7"_s, uR"("app":"api")"_s), true),
    });
    m_view = std::make_unique<ResourceTableView>();
    m_view->setModel(m_model.get());
    m_view->resize(800, 400);
    m_view->show();
    m_view->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
}

void TestResourceTableView::cleanup()
{
    m_view.reset();
    m_model.reset();
}

void TestResourceTableView::ctrlLFiltersByText()
{
    m_view->tableView()->setFocus();
    QTest::keyClick(m_view->tableView(), Qt::Key_L, Qt::ControlModifier);
    QTRY_VERIFY(m_view->filterLine()->hasFocus());
    QTest::keyClicks(m_view->filterLine(), u"WEB"_s);
    // Applied after the typing pause, not per keystroke.
    QTRY_COMPARE(m_view->proxyModel()->rowCount(), 2);
    QCOMPARE(m_view->proxyModel()->filterText(), u"WEB"_s);
    m_view->filterLine()->clear();
    QTRY_COMPARE(m_view->proxyModel()->rowCount(), 4);
}

void TestResourceTableView::labelSelectorLine_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("error");

    QTest::newRow("valid selector filters") << u"app=web"_s << 2 << false;
    QTest::newRow("set selector filters") << u"app in (db,api)"_s << 2 << false;
    QTest::newRow("malformed selector shows its position and keeps all rows") << u"app in (db"_s << 4 << true;
}

void TestResourceTableView::labelSelectorLine()
{
    QFETCH(QString, text);
    QFETCH(int, rows);
    QFETCH(bool, error);

    m_view->selectorLine()->setText(text);
    QCOMPARE(m_view->proxyModel()->rowCount(), rows);
    QCOMPARE(m_view->selectorError()->isVisible(), error);
    if (error) {
        QVERIFY2(m_view->selectorError()->text().contains(u"11"_s), qPrintable(m_view->selectorError()->text()));
    }
    m_view->selectorLine()->clear();
    QCOMPARE(m_view->proxyModel()->rowCount(), 4);
    QVERIFY(!m_view->selectorError()->isVisible());
}

void TestResourceTableView::ctrlFFindsNextMatch()
{
    m_view->tableView()->setFocus();
    QTest::keyClick(m_view->tableView(), Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(m_view->searchLine()->hasFocus());
    QTest::keyClicks(m_view->searchLine(), u"web"_s);
    QTest::keyClick(m_view->searchLine(), Qt::Key_Return);
    // Sorted by name: api-7, db-0, web-1, web-2.
    QCOMPARE(currentKey(*m_view), u"shop/web-1"_s);
    QTest::keyClick(m_view->searchLine(), Qt::Key_F, Qt::ControlModifier);
    QCOMPARE(currentKey(*m_view), u"shop/web-2"_s);
    QTest::keyClick(m_view->searchLine(), Qt::Key_Return);
    QCOMPARE(currentKey(*m_view), u"shop/web-1"_s); // wrapped
    QVERIFY(m_view->tableView()->selectionModel()->isRowSelected(m_view->tableView()->currentIndex().row(), {}));
    QVERIFY(!m_view->findNext(u"nothing-like-this"_s));
    // Cells other than the name count too: the namespace.
    QVERIFY(m_view->findNext(u"billing"_s));
    QCOMPARE(currentKey(*m_view), u"billing/api-7"_s);
}

void TestResourceTableView::enterOpensObject()
{
    QList<KubeObject> opened;
    connect(m_view.get(), &ResourceTableView::objectActivated, this, [&opened](const KubeObject &object) { opened.append(object); });
    m_view->tableView()->setFocus();
    m_view->tableView()->setCurrentIndex(m_view->proxyModel()->index(1, 0));
    QTest::keyClick(m_view->tableView(), Qt::Key_Return);
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.at(0).name(), u"db-0"_s);
    // A double click opens too.
    const QRect rect = m_view->tableView()->visualRect(m_view->proxyModel()->index(3, 1));
    // QTest's double click alone leaves no pressed index behind; a real one starts with a click.
    QTest::mouseClick(m_view->tableView()->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(m_view->tableView()->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(opened.size(), 2);
    QCOMPARE(opened.at(1).name(), u"web-2"_s);
}

void TestResourceTableView::changedRowsFlash()
{
    auto *delegate = qobject_cast<ResourceTableDelegate *>(m_view->tableView()->itemDelegate());
    QVERIFY(delegate);
    QCOMPARE(delegate->flashStrength(0, 1000), 0.0); // the initial list does not flash
    QCOMPARE(delegate->flashStrength(1000, 1000), 1.0);
    QCOMPARE(delegate->flashStrength(1000, 1500), 0.5);
    QCOMPARE(delegate->flashStrength(1000, 2000), 0.0);

    const KubeObject old = m_model->objectAt(m_model->rowOfKey(u"shop/db-0"_s));
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    m_model->applyBatch({Notification::update(u"shop/db-0"_s, old, pod(u"shop"_s, u"db-0"_s, uR"("app":"db")"_s, u"2"_s))});
    const QModelIndex db = m_model->index(m_model->rowOfKey(u"shop/db-0"_s), 0);
    QVERIFY(db.data(ResourceTableRoles::ChangedAtRole).toLongLong() >= before);
    QVERIFY(delegate->flashStrength(db.data(ResourceTableRoles::ChangedAtRole).toLongLong(), QDateTime::currentMSecsSinceEpoch()) > 0);
    const QModelIndex web = m_model->index(m_model->rowOfKey(u"shop/web-1"_s), 0);
    QCOMPARE(web.data(ResourceTableRoles::ChangedAtRole).toLongLong(), 0);
}

void TestResourceTableView::progressWhileListing()
{
    auto listerWatcher = std::make_unique<CachescopeTest::FakeListerWatcher>();
    auto *lw = listerWatcher.get();
    QList<KubeObject> all;
    for (int i = 0; i < 30; ++i) {
        all.append(CachescopeTest::pod(u"p"_s + QString::number(i), u"1"_s));
    }
    bool finish = false;
    lw->onList = [&](const ListOptions &options) {
        if (finish) {
            return CachescopeTest::page(all, u"5"_s);
        }
        if (options.continueToken.isEmpty()) {
            ObjectListPage first = CachescopeTest::page(all.mid(0, 10), u"5"_s, u"c1"_s);
            first.remainingItemCount = 20;
            return first;
        }
        // The rest does not come yet: the first page's progress stays on show.
        return CachescopeTest::errorPage(500, u"InternalError"_s);
    };
    SharedIndexInformer::Options options;
    options.reflector.useWatchList = false; // the fake serves paged lists
    options.reflector.pageSize = 10;
    options.reflector.backoff.initial = std::chrono::milliseconds(50);
    options.reflector.backoff.cap = std::chrono::milliseconds(100);
    SharedIndexInformer informer(std::move(listerWatcher), QThread::currentThread(), options);
    ResourceTableModel model;
    m_view->setModel(&model);
    model.setInformer(&informer);
    informer.run();
    QTRY_VERIFY(m_view->progressBar()->isVisible());
    QTRY_COMPARE(m_view->progressBar()->format(), u"10 items so far of 30"_s);
    QCOMPARE(m_view->progressBar()->value(), 333);
    finish = true;
    QTRY_VERIFY_WITH_TIMEOUT(model.hasSynced(), 10000);
    QCOMPARE(model.rowCount(), 30);
    QVERIFY(!m_view->progressBar()->isVisible());
    m_view->setModel(m_model.get());
    informer.stop();
}

// A list the server refuses (403): the server's message and the countdown to the next attempt
// stand where the rows would be, and go once the list succeeds.
void TestResourceTableView::showRefusedList(RefusedList &refused, const ApiError &refusal, std::chrono::milliseconds backoff)
{
    auto listerWatcher = std::make_unique<CachescopeTest::FakeListerWatcher>();
    listerWatcher->onList = [&refused, refusal](const ListOptions &) {
        ++refused.lists;
        if (refused.allowed) {
            return CachescopeTest::page({CachescopeTest::pod(u"web"_s, u"1"_s)}, u"5"_s);
        }
        ObjectListPage page;
        page.error = refusal;
        return page;
    };
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.reflector.useWatchList = false;
    options.reflector.backoff.initial = backoff;
    options.reflector.backoff.jitter = 0;
    refused.informer = std::make_unique<SharedIndexInformer>(std::move(listerWatcher), QThread::currentThread(), options);
    m_view->setModel(&refused.model);
    refused.model.setInformer(refused.informer.get());
    refused.informer->run();
    QTRY_VERIFY(m_view->problemLabel()->isVisible());
}

// Sorting by a column whose cells are parsed, on more rows than the GUI thread parses at once:
// the rows keep their order while the cells are made elsewhere, and a busy bar says why.
void TestResourceTableView::progressWhileASortWaitsForItsCells()
{
    QList<Notification> batch;
    for (int i = 0; i < 1000; ++i) {
        const QString name = u"pod-%1"_s.arg(i);
        batch.append(Notification::add(u"load/"_s + name, pod(u"load"_s, name, QString()), true));
    }
    m_model->applyBatch(batch);
    QVERIFY(!m_view->progressBar()->isVisible());
    const int status = int(m_model->columns().indexOf(ResourceColumns::Field::PodStatus));
    m_view->tableView()->sortByColumn(status, Qt::DescendingOrder);
    QVERIFY(m_view->proxyModel()->isSortPending());
    QVERIFY(m_view->progressBar()->isVisible());
    QCOMPARE(m_view->progressBar()->format(),
             u"Sorting %1 rows by %2…"_s.arg(QLocale().toString(1004), m_model->headerData(status, Qt::Horizontal).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_view->progressBar()->isVisible(), 30000);
    QVERIFY(!m_view->proxyModel()->isSortPending());
    // All Running: the keys decide, descending.
    QCOMPARE(m_view->proxyModel()->index(0, 0).data(ResourceTableRoles::KeyRole).toString(), u"shop/web-2"_s);
}

void TestResourceTableView::aRefusedListShowsInTheTablesPlace()
{
    RefusedList refused;
    showRefusedList(refused,
                    ApiError(ApiError::Kind::Http, u"pods is forbidden: User \"dev\" cannot list resource \"pods\""_s, 403, u"Forbidden"_s),
                    std::chrono::milliseconds(1500));
    const QString text = m_view->problemLabel()->text();
    QVERIFY2(text.contains(u"Cannot list pods"_s), qPrintable(text));
    QVERIFY2(text.contains(u"pods is forbidden: User \"dev\" cannot list resource \"pods\""_s), qPrintable(text));
    QVERIFY2(text.contains(u"retrying in"_s), qPrintable(text));
    QVERIFY(!m_view->tableView()->isVisible());
    QVERIFY(!m_view->progressBar()->isVisible());
    QCOMPARE(refused.model.problem().code(), 403);
    refused.allowed = true;
    QTRY_VERIFY_WITH_TIMEOUT(refused.model.hasSynced(), 10000);
    QTRY_VERIFY(!m_view->problemLabel()->isVisible());
    QVERIFY(m_view->tableView()->isVisible());
    QCOMPARE(refused.model.rowCount(), 1);
    m_view->setModel(m_model.get());
    refused.informer->stop();
}

// While the informer backs off, Retry Now tries again at once: with a minute's backoff the list
// the server now allows arrives within the test's seconds only through the button.
void TestResourceTableView::retryNowEndsTheWait()
{
    RefusedList refused;
    showRefusedList(refused, ApiError(ApiError::Kind::Http, u"etcdserver: request timed out"_s, 500, u"InternalError"_s), std::chrono::minutes(1));
    QTRY_VERIFY(m_view->retryButton()->isVisible());
    QVERIFY2(m_view->problemLabel()->text().contains(u"retrying in"_s), qPrintable(m_view->problemLabel()->text()));
    QCOMPARE(refused.lists, 1);
    refused.allowed = true;
    m_view->retryButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(refused.model.hasSynced(), 10000);
    QCOMPARE(refused.lists, 2);
    QTRY_VERIFY(!m_view->problemLabel()->isVisible());
    QVERIFY(!m_view->retryButton()->isVisible());
    QCOMPARE(refused.model.rowCount(), 1);
    m_view->setModel(m_model.get());
    refused.informer->stop();
}

void TestResourceTableView::treeViewActivatesResources()
{
    DiscoveryResult discovery;
    ApiResource pods;
    pods.gvr = GroupVersionResource(QString(), u"v1"_s, u"pods"_s);
    pods.kind = u"Pod"_s;
    pods.namespaced = true;
    pods.verbs = {u"list"_s, u"watch"_s};
    pods.preferredVersion = true;
    ApiResource deployments = pods;
    deployments.gvr = GroupVersionResource(u"apps"_s, u"v1"_s, u"deployments"_s);
    deployments.kind = u"Deployment"_s;
    discovery.resources = {pods, deployments};
    ResourceTreeModel model;
    model.setDiscovery(discovery);
    ResourceTreeView view;
    view.setModel(&model);
    view.show();
    view.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    QList<ApiResource> activated;
    connect(&view, &ResourceTreeView::resourceActivated, this, [&activated](const ApiResource &resource) { activated.append(resource); });
    view.treeView()->setFocus();
    // Moving onto a group and activating it opens nothing; a resource opens.
    view.treeView()->setCurrentIndex(model.index(1, 0));
    QTest::keyClick(view.treeView(), Qt::Key_Return);
    QVERIFY(activated.isEmpty());
    view.treeView()->setCurrentIndex(model.indexOf(u"deployments.apps"_s));
    QVERIFY(activated.isEmpty());
    QTest::keyClick(view.treeView(), Qt::Key_Return);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.at(0).gvr, deployments.gvr);
}

QStringList TestResourceTableView::shownTitles(const ResourceTableView &view)
{
    const QHeaderView *header = view.tableView()->horizontalHeader();
    QStringList titles;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical)) {
            titles.append(view.proxyModel()->headerData(logical, Qt::Horizontal).toString());
        }
    }
    return titles;
}

QAction *TestResourceTableView::columnAction(QMenu *menu, const QString &title)
{
    for (QAction *action : menu->actions()) {
        if (action->text() == title) {
            return action;
        }
    }
    return nullptr;
}

void TestResourceTableView::wideColumnsStartHidden()
{
    // Without a kind named, every column shows (nothing to remember it by).
    QCOMPARE(shownTitles(*m_view), (QStringList{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Status"_s, u"Restarts"_s, u"IP"_s, u"Node"_s, u"Age"_s}));
    // As kubectl without -o wide: IP and Node wait to be asked for.
    m_view->setColumnsKey(u"v1/pods"_s);
    m_model->setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    QCOMPARE(shownTitles(*m_view), (QStringList{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Status"_s, u"Restarts"_s, u"Age"_s}));
    std::unique_ptr<QMenu> menu(m_view->createColumnsMenu(nullptr));
    QVERIFY(columnAction(menu.get(), u"IP"_s) != nullptr);
    QVERIFY(!columnAction(menu.get(), u"IP"_s)->isChecked());
    QVERIFY(columnAction(menu.get(), u"Ready"_s)->isChecked());
    QVERIFY2(!columnAction(menu.get(), u"Name"_s)->isEnabled(), "the name column cannot be hidden");
}

void TestResourceTableView::columnLayoutIsKeptPerKind()
{
    m_view->setColumnsKey(u"v1/pods"_s);
    m_model->setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    {
        std::unique_ptr<QMenu> menu(m_view->createColumnsMenu(nullptr));
        columnAction(menu.get(), u"Restarts"_s)->toggle();
        columnAction(menu.get(), u"Node"_s)->toggle();
    }
    QHeaderView *header = m_view->tableView()->horizontalHeader();
    header->moveSection(header->visualIndex(3), 1); // Status right after Name
    header->resizeSection(2, 211); // Ready
    const QStringList arranged{u"Name"_s, u"Status"_s, u"Namespace"_s, u"Ready"_s, u"Node"_s, u"Age"_s};
    QCOMPARE(shownTitles(*m_view), arranged);

    // Another kind has its own layout.
    ResourceTableModel deployments;
    deployments.setColumns(ResourceColumns::forKind(u"Deployment"_s, true));
    ResourceTableView other;
    other.setColumnsKey(u"apps/v1/deployments"_s);
    other.setModel(&deployments);
    deployments.setColumns(ResourceColumns::forKind(u"Deployment"_s, true));
    QCOMPARE(shownTitles(other), (QStringList{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Up-to-date"_s, u"Available"_s, u"Age"_s}));

    // A restart: a new view and model of the same kind are arranged as the user left them.
    ResourceTableModel pods;
    ResourceTableView restarted;
    restarted.setColumnsKey(u"v1/pods"_s);
    restarted.setModel(&pods);
    pods.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    QCOMPARE(shownTitles(restarted), arranged);
    QCOMPARE(restarted.tableView()->horizontalHeader()->sectionSize(2), 211);

    // Reset: kubectl's defaults again, for the next start too.
    {
        std::unique_ptr<QMenu> menu(restarted.createColumnsMenu(nullptr));
        menu->actions().constLast()->trigger();
    }
    const QStringList defaults{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Status"_s, u"Restarts"_s, u"Age"_s};
    QCOMPARE(shownTitles(restarted), defaults);
    pods.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    QCOMPARE(shownTitles(restarted), defaults);
}

// Label columns (kubectl's -L) are the user's per kind: set, said, kept for the next start, and
// dropped by Reset Columns; the one who sets the model's columns adds them (here, the test).
void TestResourceTableView::labelColumnsAreKeptPerKind()
{
    QVERIFY(m_view->labelColumns().isEmpty());
    m_view->setColumnsKey(u"v1/pods"_s);
    QSignalSpy changed(m_view.get(), &ResourceTableView::labelColumnsChanged);
    m_view->setLabelColumns({u"app"_s, u"tier"_s});
    QCOMPARE(changed.count(), 1);
    m_view->setLabelColumns({u"app"_s, u"tier"_s});
    QCOMPARE(changed.count(), 1); // no change, no signal
    ResourceColumns columns = ResourceColumns::forKind(u"Pod"_s, true);
    columns.addLabelColumns(m_view->labelColumns());
    m_model->setColumns(columns);
    QCOMPARE(shownTitles(*m_view).mid(shownTitles(*m_view).size() - 2), (QStringList{u"app"_s, u"tier"_s}));
    const QModelIndex web = m_view->proxyModel()->index(m_view->proxyModel()->rowCount() - 1, m_model->columns().count() - 2);
    QVERIFY(!web.data().toString().isEmpty());

    ResourceTableView restarted;
    restarted.setColumnsKey(u"v1/pods"_s);
    QCOMPARE(restarted.labelColumns(), (QStringList{u"app"_s, u"tier"_s}));
    ResourceTableView deployments;
    deployments.setColumnsKey(u"apps/v1/deployments"_s);
    QVERIFY(deployments.labelColumns().isEmpty());

    {
        std::unique_ptr<QMenu> menu(m_view->createColumnsMenu(nullptr));
        QVERIFY(menu->actions().at(menu->actions().size() - 2)->text().startsWith(u"Label Columns"_s));
        menu->actions().constLast()->trigger();
    }
    QCOMPARE(changed.count(), 2);
    QVERIFY(changed.constLast().constFirst().toStringList().isEmpty());
    QVERIFY(restarted.labelColumns().isEmpty());
}

CACHESCOPE_TEST_MAIN(TestResourceTableView)
#include "tst_resourcetableview.moc"
