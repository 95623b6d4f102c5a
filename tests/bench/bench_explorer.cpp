// bench_explorer: the explorer's table against a large simulated cluster, headless (offscreen).
// An in-process SimCluster with --pods N and --churn R feeds a real informer; the real
// ResourceTableModel, ResourceFilterProxyModel and ResourceTableView (shown offscreen) follow
// it. Reported: the GUI event loop's latency (the lateness of a 1 ms repeating timer: p50, p99,
// max) while the first list syncs, under churn, while the table is first sorted by a computed
// column (its cells made on the thread pool), under churn sorted by it, sorted by age, and
// while freed heap is released every second on a pool thread (as InformerFactory does); then
// the time to sort by each column (its kind: text, number, age), to apply a text filter and a
// label selector, and to deliver one age tick; the process's resident memory after each stage. No assertion on timing: figures for README and
// for regressions.
//
//   bench_explorer [--pods 100000] [--churn 2000] [--seconds 10]
#include "core/cache/apilisterwatcher.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/labelselector.h"
#include "core/sim/simcluster.h"
#include "core/util/backgroundpool.h"
#include "core/util/processmemory.h"
#include "guimeasures.h"
#include "ui/models/resourcefilterproxymodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/widgets/resourcetableview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTableView>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace Cachescope;
using namespace CachescopeBench;
using namespace Qt::Literals::StringLiterals;

namespace {

void printLatency(const char *phase, const LatencyProbe::Figures &f, const QString &extra = {})
{
    std::printf("| %-34s | %8.2f | %8.2f | %8.2f | %8zu | %7.0f%% | %s\n", phase, f.p50, f.p99, f.max, f.samples, f.cpuPercent, qPrintable(extra));
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({u"pods"_s, u"Pods in the simulated cluster."_s, u"n"_s, u"100000"_s});
    parser.addOption({u"churn"_s, u"Changes per second during the churn phases."_s, u"r"_s, u"2000"_s});
    parser.addOption({u"seconds"_s, u"Length of each churn phase."_s, u"s"_s, u"10"_s});
    parser.process(app);
    const int pods = parser.value(u"pods"_s).toInt();
    const double churn = parser.value(u"churn"_s).toDouble();
    const int seconds = parser.value(u"seconds"_s).toInt();

    Sim::SimOptions simOptions;
    simOptions.pods = pods;
    simOptions.nodes = std::max(3, pods / 100);
    simOptions.namespaces = 10;
    simOptions.history = 200000;
    Sim::SimCluster sim(simOptions);
    QElapsedTimer timer;
    timer.start();
    QString error;
    if (!sim.start(&error)) {
        std::fprintf(stderr, "sim: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("sim: %d pods built in %.1f s\n", pods, double(timer.elapsed()) / 1000.0);
    printResident("with the simulator");

    const Kubeconfig kubeconfig = Kubeconfig::loadFiles({sim.kubeconfigPath()}, true);
    const auto rest = kubeconfig.restConfig(u"sim-token"_s);
    if (!std::holds_alternative<RestConfig>(rest)) {
        std::fprintf(stderr, "no rest config\n");
        return 1;
    }
    // The client and the reflector on a worker thread of their own, as a Cluster runs them.
    QThread network;
    network.start();
    auto *client = new ApiClient(std::get<RestConfig>(rest));
    // The sim is local: the default 5 QPS would make the 200 pages of the first list the bottleneck.
    client->setRateLimit(1000, 1000);
    client->moveToThread(&network);
    ApiListerWatcher::Target target;
    target.resource.gvr = GroupVersionResource(QString(), u"v1"_s, u"pods"_s);
    target.resource.kind = u"Pod"_s;
    target.resource.namespaced = true;
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.reflector.pageSize = 500;
    SharedIndexInformer informer(std::make_unique<ApiListerWatcher>(client, target), &network, options);

    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    ResourceTableView view;
    view.setModel(&model);
    view.resize(1400, 900);
    view.show();

    std::printf("\n| %-34s | %8s | %8s | %8s | %8s | %8s |\n", "GUI event-loop latency (ms)", "p50", "p99", "max", "samples", "GUI CPU");
    std::printf("|%s|----------|----------|----------|----------|----------|\n", QByteArray(36, '-').constData());

    // The GUI thread's CPU time per batch, from the model's first signal to the last slot of its
    // batchApplied() (the proxy's merge and the view's reaction come first): load on the shared
    // machine does not inflate it as it does the event loop's lateness.
    std::vector<double> batchCpu;
    double batchStart = 0;
    QObject::connect(&model, &ResourceTableModel::batchAboutToBeApplied, &model, [&] { batchStart = threadCpuMs(); });
    QObject::connect(&model, &ResourceTableModel::batchApplied, &model, [&] { batchCpu.push_back(threadCpuMs() - batchStart); });
    const auto batchFigures = [&batchCpu] {
        if (batchCpu.empty()) {
            return QString();
        }
        std::sort(batchCpu.begin(), batchCpu.end());
        const auto at = [&batchCpu](double q) {
            return batchCpu[std::min(batchCpu.size() - 1, size_t(q * double(batchCpu.size())))];
        };
        const QString figures = u"; batch CPU ms p50 %1, p99 %2, max %3"_s.arg(at(0.5), 0, 'f', 2).arg(at(0.99), 0, 'f', 2).arg(batchCpu.back(), 0, 'f', 2);
        batchCpu.clear();
        return figures;
    };

    LatencyProbe probe;
    probe.start();
    timer.restart();
    model.setInformer(&informer);
    informer.run();
    while (!model.hasSynced()) {
        spin(10);
    }
    const double syncSeconds = double(timer.elapsed()) / 1000.0;
    const LatencyProbe::Figures syncing = probe.stop();
    printLatency("initial list (sync)",
                 syncing,
                 u"%1 rows in %2 s, RSS %3 MB"_s.arg(model.rowCount()).arg(syncSeconds, 0, 'f', 1).arg(residentMb().first, 0, 'f', 0) + batchFigures());

    sim.setChurn(churn);
    spin(1000); // let the churn reach its rate
    batchFigures();
    probe.start();
    int batches = 0;
    int changes = 0;
    QObject::connect(&model, &ResourceTableModel::batchApplied, &model, [&](int added, int updated, int removed) {
        ++batches;
        changes += added + updated + removed;
    });
    spin(seconds * 1000);
    printLatency("churn, sorted by name", probe.stop(), u"%1 batches, %2 row changes"_s.arg(batches).arg(changes) + batchFigures());

    const int statusColumn = int(model.columns().indexOf(ResourceColumns::Field::PodStatus));
    const int restartsColumn = int(model.columns().indexOf(ResourceColumns::Field::PodRestarts));
    // The first sort by a computed column: its cells are made on the thread pool while churn
    // goes on, then the GUI thread sorts.
    batchFigures();
    probe.start();
    batches = changes = 0;
    QElapsedTimer sorting;
    sorting.start();
    view.tableView()->sortByColumn(restartsColumn, Qt::DescendingOrder);
    while (view.proxyModel()->isSortPending()) {
        spin(5);
    }
    printLatency("churn, first sort by restarts", probe.stop(), u"sorted after %1 ms"_s.arg(sorting.elapsed()) + batchFigures());
    spin(500);
    batchFigures();
    probe.start();
    batches = changes = 0;
    spin(seconds * 1000);
    printLatency("churn, sorted by restarts", probe.stop(), u"%1 batches, %2 row changes"_s.arg(batches).arg(changes) + batchFigures());

    view.proxyModel()->setFilterText(u"-1"_s);
    spin(500);
    batchFigures();
    probe.start();
    batches = changes = 0;
    spin(seconds * 1000);
    printLatency("churn, sorted + text filter", probe.stop(), u"%1 visible rows"_s.arg(view.proxyModel()->rowCount()) + batchFigures());
    view.proxyModel()->setFilterText(QString());

    // Ages change order only with creation times, which never change: the age tick must not
    // re-sort, and churn merges rows as for any other column.
    view.tableView()->sortByColumn(int(model.columns().indexOf(ResourceColumns::Field::Age)), Qt::AscendingOrder);
    spin(500);
    batchFigures();
    probe.start();
    batches = changes = 0;
    spin(seconds * 1000);
    printLatency("churn, sorted by age", probe.stop(), u"%1 batches, %2 row changes"_s.arg(batches).arg(changes) + batchFigures());

    // InformerFactory gives freed heap back on a pool thread (every 10 s while a list goes on,
    // every 60 s otherwise); glibc locks each arena while it trims it. Released every second
    // here: whether the GUI thread waits on those locks shows as lateness beside the row above.
    std::atomic<qint64> longestReleaseUs{0};
    int releases = 0;
    QTimer release;
    QObject::connect(&release, &QTimer::timeout, &release, [&] {
        ++releases;
        backgroundPool()->start([&longestReleaseUs] {
            QElapsedTimer took;
            took.start();
            (void)releaseFreedHeap();
            const qint64 us = took.nsecsElapsed() / 1000;
            qint64 longest = longestReleaseUs.load();
            while (us > longest && !longestReleaseUs.compare_exchange_weak(longest, us)) { }
        });
    });
    batchFigures();
    probe.start();
    batches = changes = 0;
    release.start(1000);
    spin(seconds * 1000);
    release.stop();
    backgroundPool()->waitForDone();
    printLatency("churn, freed heap released each 1 s",
                 probe.stop(),
                 u"%1 releases, the longest %2 ms"_s.arg(releases).arg(double(longestReleaseUs.load()) / 1000.0, 0, 'f', 1) + batchFigures());

    sim.setChurn(0);
    spin(1000);
    std::printf("\n");
    printResident("after churn");

    std::printf("\n| %-40s | %10s | %10s |\n", "operation on the table", "wall ms", "CPU ms");
    std::printf("|%s|------------|------------|\n", QByteArray(42, '-').constData());
    const auto measure = [&](const QString &what, const std::function<void()> &operation) {
        QElapsedTimer t;
        const double cpu = threadCpuMs();
        t.start();
        operation();
        std::printf("| %-40s | %10.1f | %10.1f |\n", qPrintable(what), double(t.nsecsElapsed()) / 1e6, threadCpuMs() - cpu);
    };
    // The kind of value a column sorts by, as ResourceTableModel::sortKey() makes it.
    const auto kindOf = [](const ResourceTableModel &table, int column) {
        if (table.columns().column(column).field == ResourceColumns::Field::Age) {
            return u"age"_s;
        }
        return table.sortKey(0, column).kind == ResourceTableModel::SortKey::Kind::Number ? u"number"_s : u"text"_s;
    };
    // A fresh model for the sorts, so that computed cells start uncached.
    ResourceTableModel fresh;
    fresh.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    fresh.setInformer(&informer);
    while (!fresh.hasSynced()) {
        spin(10);
    }
    view.setModel(&fresh);
    for (int column = 0; column < fresh.columnCount(); ++column) {
        const QString title = fresh.headerData(column, Qt::Horizontal).toString();
        const bool computed = fresh.columns().needsDocument(column);
        const QString kind = fresh.rowCount() > 0 ? kindOf(fresh, column) : QString();
        // Cold cells are parsed on the thread pool: wall time until sorted, the GUI thread's CPU.
        measure(u"sort by %1, %2%3"_s.arg(title, kind, computed ? u" (cold cells)"_s : QString()), [&] {
            view.tableView()->sortByColumn(column, Qt::AscendingOrder);
            while (view.proxyModel()->isSortPending()) {
                spin(5);
            }
        });
        if (computed) {
            measure(u"sort by %1, %2 (cached cells)"_s.arg(title, kind), [&] { view.tableView()->sortByColumn(column, Qt::DescendingOrder); });
        }
    }
    Q_UNUSED(statusColumn)
    // One age tick, as ResourceTableModel emits it once a second, through the proxy to the view.
    const int ageColumn = int(fresh.columns().indexOf(ResourceColumns::Field::Age));
    const auto tick = [&] {
        Q_EMIT fresh.dataChanged(fresh.index(0, ageColumn), fresh.index(fresh.rowCount() - 1, ageColumn), {Qt::DisplayRole});
        QCoreApplication::processEvents();
    };
    view.tableView()->sortByColumn(ageColumn, Qt::AscendingOrder);
    measure(u"age tick, sorted by age"_s, tick);
    view.tableView()->sortByColumn(0, Qt::AscendingOrder);
    measure(u"age tick, sorted by name"_s, tick);
    measure(u"text filter \"-1\""_s, [&] { view.proxyModel()->setFilterText(u"-1"_s); });
    std::printf("| %-40s | %10d | %10s |\n", "  rows passing", view.proxyModel()->rowCount(), "");
    measure(u"clear text filter"_s, [&] { view.proxyModel()->setFilterText(QString()); });
    measure(u"label selector \"tier in (web)\""_s,
            [&] { view.proxyModel()->setLabelSelector(std::get<LabelSelector>(LabelSelector::parse(u"tier in (web)"_s))); });
    std::printf("| %-40s | %10d | %10s |\n", "  rows passing", view.proxyModel()->rowCount(), "");
    measure(u"clear label selector"_s, [&] { view.proxyModel()->setLabelSelector(LabelSelector()); });
    std::printf("\n");
    printResident("after the sorts (cells cached)");

    view.setModel(nullptr);
    fresh.setInformer(nullptr);
    model.setInformer(nullptr);
    informer.stop();
    QMetaObject::invokeMethod(client, &QObject::deleteLater);
    network.quit();
    network.wait();
    return 0;
}
