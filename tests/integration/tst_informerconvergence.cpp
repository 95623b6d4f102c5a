// The whole client chain against the simulated cluster: kubeconfig → ApiClient over HTTPS →
// ApiListerWatcher → Reflector → queue → SharedIndexInformer → Indexer. With churn and the
// whole fault plan on, then off, the informer's cache must equal the server's truth exactly:
// same keys, same resourceVersions — nothing lost, nothing stale, nothing extra.
#include "core/cache/apilisterwatcher.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestInformerConvergence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void convergesAfterFaults_data();
    void convergesAfterFaults();

private:
    static QHash<QString, quint64> cacheState(const SharedIndexInformer &informer)
    {
        QHash<QString, quint64> state;
        const QList<KubeObject> objects = informer.indexer().list();
        for (const KubeObject &object : objects) {
            state.insert(metaNamespaceKey(object), object.resourceVersion().toULongLong());
        }
        return state;
    }
};

void TestInformerConvergence::convergesAfterFaults_data()
{
    QTest::addColumn<int>("queueKind");
    QTest::addColumn<bool>("watchList");
    QTest::newRow("RealFifo, paged list") << int(DeltaQueue::Kind::RealFifo) << false;
    QTest::newRow("DeltaFifo, paged list") << int(DeltaQueue::Kind::DeltaFifo) << false;
}

void TestInformerConvergence::convergesAfterFaults()
{
    QFETCH(int, queueKind);
    QFETCH(bool, watchList);

    Sim::SimOptions simOptions;
    simOptions.pods = 200;
    simOptions.churn = 150;
    simOptions.history = 300; // short, so that resuming after a fault often meets 410 Gone
    simOptions.bookmarkIntervalMs = 500;
    simOptions.seed = 7;
    Sim::SimCluster sim(simOptions);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));

    const Kubeconfig kubeconfig = Kubeconfig::loadFiles({sim.kubeconfigPath()}, true);
    const auto rest = kubeconfig.restConfig(u"sim-token"_s);
    QVERIFY(std::holds_alternative<RestConfig>(rest));
    ApiClient client(std::get<RestConfig>(rest));

    ApiListerWatcher::Target target;
    target.resource.gvr = GroupVersionResource(QString(), u"v1"_s, u"pods"_s);
    target.resource.kind = u"Pod"_s;
    target.resource.namespaced = true;
    target.idleTimeout = std::chrono::milliseconds(2000);
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.queueKind = DeltaQueue::Kind(queueKind);
    options.reflector.useWatchList = watchList;
    options.reflector.pageSize = 50;
    // Short backoffs keep the test quick; the behaviour under test is the same.
    options.reflector.backoff.initial = std::chrono::milliseconds(50);
    options.reflector.backoff.cap = std::chrono::milliseconds(1000);
    options.reflector.minWatchTimeout = std::chrono::seconds(2);
    SharedIndexInformer informer(std::make_unique<ApiListerWatcher>(&client, target), QThread::currentThread(), options);
    QSignalSpy synced(&informer, &SharedIndexInformer::synced);
    informer.run();
    QVERIFY(synced.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(cacheState(informer), sim.truth(u"pods"_s), 20000);

    // Every fault of the plan, while the workload churns: some at random, and each kind forced
    // onto the next request it applies to, so that all of them certainly happen.
    QVERIFY(sim.faults().setSpec(u"drop=0.02,truncate=0.02,throttle=0.02:1,error=0.02,latency=0.1:30,stall=0.1"_s, &error));
    for (int f = 0; f < Sim::FaultPlan::FaultCount; ++f) {
        const auto fault = Sim::FaultPlan::Fault(f);
        if (fault == Sim::FaultPlan::Fault::Restart) {
            sim.restart(); // drops every connection and forgets the watch history
            continue;
        }
        const int before = sim.faults().injectedCount(fault);
        if (fault != Sim::FaultPlan::Fault::Stall) {
            // A forced stall is not applied (a known gap of the simulator): stalls come from
            // the random share above.
            sim.faults().injectNext(fault);
        }
        QTRY_VERIFY2_WITH_TIMEOUT(sim.faults().injectedCount(fault) > before, qPrintable(Sim::FaultPlan::name(fault)), 30000);
    }
    sim.faults().clear();
    sim.setChurn(0);

    const auto counters = informer.counters().reflector;
    QVERIFY2(counters.errors > 0, "the fault plan caused no error at all");
    QTRY_COMPARE_WITH_TIMEOUT(cacheState(informer), sim.truth(u"pods"_s), 60000);
    qInfo("lists %llu (relists %llu), watches %llu, reconnects %llu, events %llu, errors %llu, objects %lld",
          counters.lists,
          counters.relists,
          counters.watchesOpened,
          counters.reconnects,
          counters.events,
          counters.errors,
          static_cast<long long>(informer.indexer().size()));
    informer.stop();
}

QTEST_GUILESS_MAIN(TestInformerConvergence)
#include "tst_informerconvergence.moc"
