// The whole client chain against the simulated cluster: kubeconfig → ApiClient over HTTPS →
// ApiListerWatcher → Reflector → queue → SharedIndexInformer → Indexer. With churn and the
// whole fault plan on, then off, the informer's cache must equal the server's truth exactly:
// same keys, same resourceVersions — nothing lost, nothing stale, nothing extra.
//
// Two ways of putting the faults on: at random (the plan's probabilities, until the reflector
// has met a number of errors), and each kind forced in turn with FaultPlan::injectNext(),
// waiting until the server says it happened. The forced loop is also a liveness check: a
// reflector that stops making requests after a fault (or a server that spends a forced fault
// without applying it) leaves the next fault uninjected, and the row fails printing the
// reflector's status and the server's last requests.
//
// Through the TCP fault proxy, the whole chain as the app runs it: kubeconfig → Cluster (its
// ApiClient and reflectors on the cluster's worker thread) → InformerFactory → informer, while
// the proxy resets every connection at random (every 1–2.5 s) and the workload churns. After
// the resets stop the cache equals the truth, and the reflector's counters show the losses.
#include "simthroughproxy.h"
#include "tcpfaultproxy.h"

#include "core/cache/apilisterwatcher.h"
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"

#include "testmain.h"

#include <QElapsedTimer>
#include <QMap>
#include <QMetaEnum>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestInformerConvergence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void convergesAfterFaults_data();
    void convergesAfterFaults();
    void convergesThroughResettingProxy_data();
    void convergesThroughResettingProxy();
    void everyResetUnderTheWatchIsCounted_data();
    void everyResetUnderTheWatchIsCounted();
    void hundredWatchesOnOneConnectionSurviveAReset();

private:
    // The pods informer of a Cluster (as the app runs it: its ApiClient and reflectors on the
    // cluster's worker thread) that reaches the simulator through the TCP fault proxy. Members
    // in this order, so the cluster goes before the proxy and the proxy before the server.
    struct PodsThroughProxy
    {
        std::unique_ptr<Sim::SimCluster> sim;
        std::unique_ptr<Test::TcpFaultProxy> proxy;
        std::unique_ptr<Cluster> cluster;
        SharedIndexInformer *informer = nullptr; // owned by the cluster's informer factory
    };
    // startPodsThroughProxy() starts all of it and returns once the informer has synced and
    // watches (check QTest::currentTestFailed() after it). Backoffs are short (100 ms to 1 s),
    // which keeps the rows within their budget; the behaviour under test is the same.
    static void startPodsThroughProxy(PodsThroughProxy &fixture, const Sim::SimOptions &simOptions, SharedIndexInformer::Options options)
    {
        fixture.sim = std::make_unique<Sim::SimCluster>(simOptions);
        QString error;
        QVERIFY2(fixture.sim->start(&error), qPrintable(error));
        fixture.proxy = std::make_unique<Test::TcpFaultProxy>(quint16(fixture.sim->url().port()));
        QVERIFY2(fixture.proxy->start(&error), qPrintable(error));
        const std::optional<RestConfig> config = Test::restConfigThroughProxy(*fixture.sim, *fixture.proxy);
        QVERIFY(config);

        fixture.cluster = std::make_unique<Cluster>(*config);
        options.reflector.backoff.initial = std::chrono::milliseconds(100);
        options.reflector.backoff.cap = std::chrono::milliseconds(1000);
        fixture.cluster->informers()->setDefaultOptions(options);
        QSignalSpy discovered(fixture.cluster.get(), &Cluster::discovered);
        fixture.cluster->start();
        QVERIFY(discovered.wait(30000));
        InformerKey key;
        key.resource = std::get<ApiResource>(fixture.cluster->discovery().resolve(u"pods"_s));
        fixture.informer = fixture.cluster->informers()->informer(key);
        QSignalSpy synced(fixture.informer, &SharedIndexInformer::synced);
        fixture.cluster->informers()->start();
        QVERIFY(synced.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(fixture.informer->counters().reflector.state == Reflector::State::Watching, 30000);
    }

    static QString describe(const Reflector::Status &status)
    {
        return u"reflector %1: lastSyncRV %2, synced %3, lists %4, watches %5, reconnects %6, events %7, bookmarks %8, errors %9, watchList %10, last error: %11"_s
            .arg(QString::fromLatin1(QMetaEnum::fromType<Reflector::State>().valueToKey(int(status.state))),
                 status.lastSyncResourceVersion,
                 status.synced ? u"yes"_s : u"no"_s,
                 QString::number(status.lists),
                 QString::number(status.watchesOpened),
                 QString::number(status.reconnects),
                 QString::number(status.events),
                 QString::number(status.bookmarks),
                 QString::number(status.errors))
            .arg(status.usingWatchList ? u"yes"_s : u"no"_s, status.lastError.toString());
    }
};

void TestInformerConvergence::convergesAfterFaults_data()
{
    QTest::addColumn<int>("queueKind");
    QTest::addColumn<bool>("watchList");
    QTest::addColumn<bool>("forced");
    const int real = int(DeltaQueue::Kind::RealFifo);
    const int delta = int(DeltaQueue::Kind::DeltaFifo);
    QTest::newRow("RealFifo, paged list, random faults") << real << false << false;
    QTest::newRow("DeltaFifo, paged list, random faults") << delta << false << false;
    QTest::newRow("RealFifo, streaming list, random faults") << real << true << false;
    QTest::newRow("RealFifo, paged list, each fault forced in turn") << real << false << true;
    QTest::newRow("DeltaFifo, paged list, each fault forced in turn") << delta << false << true;
    QTest::newRow("RealFifo, streaming list, each fault forced in turn") << real << true << true;
    QTest::newRow("DeltaFifo, streaming list, each fault forced in turn") << delta << true << true;
}

void TestInformerConvergence::convergesAfterFaults()
{
    QFETCH(int, queueKind);
    QFETCH(bool, watchList);
    QFETCH(bool, forced);

    Sim::SimOptions simOptions;
    simOptions.pods = 200;
    simOptions.churn = 150;
    simOptions.history = 300; // short, so that resuming after a fault often meets 410 Gone
    simOptions.historyWindowMs = 0;
    simOptions.bookmarkIntervalMs = 500;
    simOptions.seed = 7;
    Sim::SimCluster sim(simOptions);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));

    const std::optional<RestConfig> rest = CachescopeTest::simRestConfig(sim);
    QVERIFY(rest);
    ApiClient client(*rest);

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
    // No equality check here: the workload churns, so the cache trails the truth by a moment;
    // exactness is asserted once the churn stops.
    QVERIFY(informer.indexer().size() > 0);

    if (forced) {
        // Every kind in turn, while the workload churns. Each must happen within the wait: the
        // reflector keeps making requests whatever the previous fault did to it.
        using Fault = Sim::FaultPlan::Fault;
        sim.faults().setRetryAfterSeconds(1);
        sim.faults().setLatencyMs(30);
        for (const Fault fault :
             {Fault::Drop, Fault::Truncate, Fault::Gone, Fault::Throttle, Fault::ServerError, Fault::Latency, Fault::Stall, Fault::Restart}) {
            const int before = sim.faults().injectedCount(fault);
            if (fault == Fault::Restart) {
                sim.restart();
            } else {
                sim.faults().injectNext(fault);
            }
            if (!QTest::qWaitFor([&] { return sim.faults().injectedCount(fault) > before; }, 30000)) {
                qWarning("%s was never injected; %s", qPrintable(Sim::FaultPlan::name(fault)), qPrintable(describe(informer.counters().reflector)));
                const QStringList requests = sim.faults().recentRequests();
                for (const QString &line : requests) {
                    qWarning("  sim: %s", qPrintable(line));
                }
                QFAIL("a forced fault was not injected within 30 s");
            }
        }
    } else {
        // The fault plan, while the workload churns, until the client has met a good number of
        // failures. (Each kind is shown to happen by tst_simfaults; here what matters is that
        // the informer recovers from all of them.)
        QVERIFY(sim.faults().setSpec(u"drop=0.05,truncate=0.05,gone=0.05,throttle=0.05:1,error=0.05,latency=0.1:30,stall=0.05,restart=4"_s, &error));
        QTRY_VERIFY_WITH_TIMEOUT(informer.counters().reflector.errors >= 6, 90000);
    }
    sim.faults().clear();
    sim.setChurn(0);

    const auto counters = informer.counters().reflector;
    QVERIFY2(counters.errors > 0, "the fault plan caused no error at all");
    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(informer), sim.truth(u"pods"_s), 60000);
    qInfo("%s", qPrintable(describe(informer.counters().reflector)));
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

void TestInformerConvergence::convergesThroughResettingProxy_data()
{
    QTest::addColumn<int>("queueKind");
    QTest::addColumn<bool>("watchList");
    QTest::addColumn<bool>("http2");
    const int real = int(DeltaQueue::Kind::RealFifo);
    const int delta = int(DeltaQueue::Kind::DeltaFifo);
    QTest::newRow("HTTP/1.1, RealFifo, paged list, connections reset at random") << real << false << false;
    QTest::newRow("HTTP/1.1, DeltaFifo, paged list, connections reset at random") << delta << false << false;
    QTest::newRow("HTTP/1.1, RealFifo, streaming list, connections reset at random") << real << true << false;
    QTest::newRow("HTTP/1.1, DeltaFifo, streaming list, connections reset at random") << delta << true << false;
    QTest::newRow("HTTP/2, RealFifo, paged list, the shared connection reset at random") << real << false << true;
    QTest::newRow("HTTP/2, DeltaFifo, paged list, the shared connection reset at random") << delta << false << true;
    QTest::newRow("HTTP/2, RealFifo, streaming list, the shared connection reset at random") << real << true << true;
    QTest::newRow("HTTP/2, DeltaFifo, streaming list, the shared connection reset at random") << delta << true << true;
}

void TestInformerConvergence::convergesThroughResettingProxy()
{
    QFETCH(int, queueKind);
    QFETCH(bool, watchList);
    QFETCH(bool, http2);

    Sim::SimOptions simOptions;
    simOptions.http1Only = !http2;
    simOptions.pods = 150;
    simOptions.churn = 40;
    simOptions.history = 2000; // resumes mostly succeed; some meet 410 and relist
    simOptions.bookmarkIntervalMs = 500;
    simOptions.seed = 17;
    SharedIndexInformer::Options options;
    options.queueKind = DeltaQueue::Kind(queueKind);
    options.reflector.useWatchList = watchList;
    options.reflector.pageSize = 40;
    options.reflector.minWatchTimeout = std::chrono::seconds(30);
    PodsThroughProxy fixture;
    startPodsThroughProxy(fixture, simOptions, options);
    if (QTest::currentTestFailed()) {
        return;
    }
    Sim::SimCluster &sim = *fixture.sim;
    Test::TcpFaultProxy &proxy = *fixture.proxy;
    SharedIndexInformer *informer = fixture.informer;

    // Resets while the watch runs and the workload churns: each resets every open connection
    // (the watch's and the requests'), ten connections in all, then quiet.
    const int resetsBefore = proxy.counters().reset;
    proxy.startRandomResets(23, std::chrono::milliseconds(1000), std::chrono::milliseconds(2500));
    QTRY_VERIFY_WITH_TIMEOUT(proxy.counters().reset >= resetsBefore + 10, 60000);
    proxy.stopRandomResets();
    const int resets = proxy.counters().reset - resetsBefore;
    sim.setChurn(0);

    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*informer), sim.truth(u"pods"_s), 60000);
    const Reflector::Status status = informer->counters().reflector;
    qInfo("proxy: %d connections, %d reset under the watch; %s", proxy.counters().accepted, resets, qPrintable(describe(status)));
    // Every reset broke the watch's connection: the reflector saw each loss and came back.
    QVERIFY2(status.errors >= 1, qPrintable(describe(status)));
    QVERIFY2(status.reconnects + status.relists >= 1, qPrintable(describe(status)));
    QVERIFY2(status.watchesOpened >= 2, qPrintable(describe(status)));
    // The protocol the row names is the one the client spoke.
    const Sim::HttpServer::Stats transport = sim.transportStats();
    QVERIFY2(http2 ? transport.http2Sessions >= 2 && transport.http1Connections == 0 : transport.http2Sessions == 0,
             qPrintable(u"h2 sessions %1, HTTP/1.1 connections %2"_s.arg(transport.http2Sessions).arg(transport.http1Connections)));
}

void TestInformerConvergence::everyResetUnderTheWatchIsCounted_data()
{
    QTest::addColumn<bool>("http2");
    QTest::newRow("HTTP/1.1: the watch's own connection reset") << false;
    QTest::newRow("HTTP/2: the one shared connection reset") << true;
}

// The accounting the random resets above cannot pin down: a reset of a connection that carries a
// live watch is one loss, and it shows as exactly one error and exactly one reconnect (the history
// is long, so every resume succeeds) — never zero (a loss nobody sees) and never more (a loss
// counted twice or a retry storm). Each round waits until the reopened watch has delivered
// something, so the reset hits a stream that is live on a connection, and resets at a seeded
// random moment of it while the workload churns.
void TestInformerConvergence::everyResetUnderTheWatchIsCounted()
{
    QFETCH(bool, http2);

    Sim::SimOptions simOptions;
    simOptions.http1Only = !http2;
    simOptions.pods = 100;
    simOptions.churn = 30;
    simOptions.history = 100000;
    simOptions.bookmarkIntervalMs = 300;
    simOptions.seed = 31;
    SharedIndexInformer::Options options;
    options.reflector.minWatchTimeout = std::chrono::seconds(300); // no watch ends on its own here
    PodsThroughProxy fixture;
    startPodsThroughProxy(fixture, simOptions, options);
    if (QTest::currentTestFailed()) {
        return;
    }
    SharedIndexInformer *informer = fixture.informer;

    QRandomGenerator random(41);
    for (int round = 0; round < 8; ++round) {
        const Reflector::Status opened = informer->counters().reflector;
        QTRY_VERIFY2_WITH_TIMEOUT(
            [&] {
                const Reflector::Status now = informer->counters().reflector;
                return now.state == Reflector::State::Watching && now.events + now.bookmarks > opened.events + opened.bookmarks;
            }(),
            qPrintable(describe(informer->counters().reflector)),
            30000);
        QTest::qWait(int(random.bounded(50, 600)));

        const Reflector::Status before = informer->counters().reflector;
        const int resetsBefore = fixture.proxy->counters().reset;
        fixture.proxy->resetAll();
        QVERIFY2(fixture.proxy->counters().reset > resetsBefore, "the proxy had no connection to reset");
        QTRY_VERIFY2_WITH_TIMEOUT(
            [&] {
                const Reflector::Status now = informer->counters().reflector;
                return now.state == Reflector::State::Watching && now.watchesOpened > before.watchesOpened;
            }(),
            qPrintable(describe(informer->counters().reflector)),
            30000);
        const Reflector::Status after = informer->counters().reflector;
        const QByteArray why = u"round %1: before: %2\nafter: %3"_s.arg(round).arg(describe(before), describe(after)).toUtf8();
        QVERIFY2(after.errors == before.errors + 1, why.constData());
        QVERIFY2(after.reconnects == before.reconnects + 1, why.constData());
        QVERIFY2(after.relists == before.relists, why.constData());
        QVERIFY2(after.watchesOpened == before.watchesOpened + 1, why.constData());
    }

    fixture.sim->setChurn(0);
    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*informer), fixture.sim->truth(u"pods"_s), 60000);
    const Sim::HttpServer::Stats transport = fixture.sim->transportStats();
    QVERIFY2(http2 ? transport.http2Sessions >= 2 && transport.http1Connections == 0 : transport.http2Sessions == 0,
             qPrintable(u"h2 sessions %1, HTTP/1.1 connections %2"_s.arg(transport.http2Sessions).arg(transport.http1Connections)));
    qInfo("8 resets under the watch: %s", qPrintable(describe(informer->counters().reflector)));
}

// A hundred watches over the one HTTP/2 connection of one client (a hundred informers of pods,
// told apart by selectors that all match), the connection reset under them mid-way: every
// informer sees the loss, resumes, and converges on the server's truth.
void TestInformerConvergence::hundredWatchesOnOneConnectionSurviveAReset()
{
    Sim::SimOptions simOptions;
    // A hundred informers of 20 pods each, and 5 changes/s: 500 events/s reach the client. The
    // row proves that the watches survive a reset, not throughput; at 30 changes/s the sanitizer
    // build beside two CPU hogs fell minutes behind the server.
    simOptions.pods = 20;
    simOptions.churn = 5;
    simOptions.bookmarkIntervalMs = 1000;
    simOptions.seed = 29;
    Sim::SimCluster sim(simOptions);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    Test::TcpFaultProxy proxy(quint16(sim.url().port()));
    QVERIFY2(proxy.start(&error), qPrintable(error));
    const std::optional<RestConfig> config = Test::restConfigThroughProxy(sim, proxy);
    QVERIFY(config);

    Cluster cluster(*config);
    SharedIndexInformer::Options options;
    options.reflector.backoff.initial = std::chrono::milliseconds(100);
    options.reflector.backoff.cap = std::chrono::milliseconds(1000);
    options.reflector.minWatchTimeout = std::chrono::seconds(60);
    cluster.informers()->setDefaultOptions(options);
    QSignalSpy discovered(&cluster, &Cluster::discovered);
    cluster.start();
    QVERIFY(discovered.wait(30000));
    const ApiResource pods = std::get<ApiResource>(cluster.discovery().resolve(u"pods"_s));
    QList<SharedIndexInformer *> informers;
    for (int i = 0; i < 100; ++i) {
        InformerKey key;
        key.resource = pods;
        key.labelSelector = u"absent-%1!=x"_s.arg(i); // true of every pod, a distinct informer each
        informers.append(cluster.informers()->informer(key));
    }
    QElapsedTimer phase;
    phase.start();
    cluster.informers()->start();
    auto watching = [&] {
        return std::all_of(informers.cbegin(), informers.cend(), [](const SharedIndexInformer *informer) {
            return informer->hasSynced() && informer->counters().reflector.state == Reflector::State::Watching;
        });
    };
    // Bounds, not speeds: a hundred informers sync in seconds here, in over two minutes under ASan.
    QTRY_VERIFY_WITH_TIMEOUT(watching(), 300000);
    const qint64 syncMs = phase.restart();
    QTRY_VERIFY_WITH_TIMEOUT(sim.transportStats().openHttp2Streams >= 100, 30000);
    QVERIFY2(sim.transportStats().http1Connections == 0, "the watches must go over HTTP/2");
    QList<quint64> watchesBefore;
    for (const SharedIndexInformer *informer : std::as_const(informers)) {
        watchesBefore.append(informer->counters().reflector.watchesOpened);
    }

    proxy.resetAll();
    QTRY_VERIFY_WITH_TIMEOUT(
        watching() &&
            [&] {
                for (qsizetype i = 0; i < informers.size(); ++i) {
                    if (informers.at(i)->counters().reflector.watchesOpened <= watchesBefore.at(i)) {
                        return false;
                    }
                }
                return true;
            }(),
        300000);
    const qint64 resumeMs = phase.restart();
    sim.setChurn(0);
    const QHash<QString, quint64> truth = sim.truth(u"pods"_s);
    for (const SharedIndexInformer *informer : std::as_const(informers)) {
        QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*informer), truth, 60000);
        const Reflector::Status status = informer->counters().reflector;
        QVERIFY2(status.errors >= 1 && status.reconnects + status.relists >= 1, qPrintable(informer->name() + u": "_s + describe(status)));
    }
    qInfo("100 informers converged after the reset; h2 sessions %d, streams %d; synced and watching in %lld ms, all resumed %lld ms "
          "after the reset, converged %lld ms after the churn stopped",
          sim.transportStats().http2Sessions,
          sim.transportStats().http2Streams,
          syncMs,
          resumeMs,
          phase.elapsed());
    QMap<QString, int> lastErrors;
    for (const SharedIndexInformer *informer : std::as_const(informers)) {
        const Reflector::Status status = informer->counters().reflector;
        ++lastErrors[u"errors %1, relists %2: %3"_s.arg(status.errors).arg(status.relists).arg(status.lastError.toString())];
    }
    for (auto it = lastErrors.cbegin(); it != lastErrors.cend(); ++it) {
        qInfo("  %d informers: %s", it.value(), qPrintable(it.key()));
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestInformerConvergence)
#include "tst_informerconvergence.moc"
