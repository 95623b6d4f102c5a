// Cluster and InformerFactory against the simulated cluster: a context connects on its own
// worker thread, discovers, hands out shared informers (full and metadata-only, all namespaces
// and one) whose caches equal the server's truth; an unreachable server is retried with backoff.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/keys.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <QThread>
#include <QTimer>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestCluster : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void informersEqualTruth_data();
    void informersEqualTruth();
    void sameKeySharesOneInformer();
    void freedHeapIsReleasedAfterListsAndWhileRunning();
    void freedHeapIsReleasedWhileAListGoesOn();
    void unreachableServerIsRetriedWithBackoff();
    void unusableMaterialFailsWithoutRetrying_data();
    void unusableMaterialFailsWithoutRetrying();

private:
    RestConfig simConfig() const { return CachescopeTest::simRestConfig(*m_sim).value(); }
    static bool startAndDiscover(Cluster &cluster)
    {
        QSignalSpy discovered(&cluster, &Cluster::discovered);
        cluster.start();
        return discovered.wait(20000);
    }

    std::unique_ptr<Sim::SimCluster> m_sim;
};

void TestCluster::initTestCase()
{
    Sim::SimOptions options;
    options.pods = 120;
    options.namespaces = 3;
    options.churn = 0;
    options.seed = 11;
    m_sim = std::make_unique<Sim::SimCluster>(options);
    QString error;
    QVERIFY2(m_sim->start(&error), qPrintable(error));
}

void TestCluster::cleanupTestCase()
{
    m_sim.reset();
}

void TestCluster::informersEqualTruth_data()
{
    QTest::addColumn<bool>("metadataOnly");
    QTest::addColumn<QString>("namespaceName");
    QTest::newRow("full objects, all namespaces") << false << QString();
    QTest::newRow("metadata only, all namespaces") << true << QString();
    QTest::newRow("full objects, one namespace") << false << u"shop"_s;
    QTest::newRow("metadata only, one namespace") << true << u"shop"_s;
}

void TestCluster::informersEqualTruth()
{
    QFETCH(bool, metadataOnly);
    QFETCH(QString, namespaceName);

    Cluster cluster(simConfig());
    QSignalSpy discovered(&cluster, &Cluster::discovered);
    cluster.start();
    QVERIFY(discovered.wait(20000));
    QCOMPARE(cluster.state(), Cluster::State::Connected);
    QVERIFY(cluster.client()->thread() != QThread::currentThread());

    const auto resolved = cluster.discovery().resolve(u"pods"_s);
    QVERIFY(std::holds_alternative<ApiResource>(resolved));
    InformerKey key;
    key.resource = std::get<ApiResource>(resolved);
    key.namespaceName = namespaceName;
    key.metadataOnly = metadataOnly;
    SharedIndexInformer *informer = cluster.informers()->informer(key);
    QSignalSpy synced(informer, &SharedIndexInformer::synced);
    cluster.informers()->start();
    QVERIFY(synced.wait(20000));
    QVERIFY(cluster.informers()->hasSynced());

    QHash<QString, quint64> truth = m_sim->truth(u"pods"_s);
    if (!namespaceName.isEmpty()) {
        for (auto it = truth.begin(); it != truth.end();) {
            it = it.key().startsWith(namespaceName + u'/') ? std::next(it) : truth.erase(it);
        }
    }
    QVERIFY(!truth.isEmpty());
    QCOMPARE(CachescopeTest::cacheState(*informer), truth);

    const KubeObject sample = informer->indexer().list().constFirst();
    if (metadataOnly) {
        QCOMPARE(sample.kind(), u"PartialObjectMetadata"_s);
        QVERIFY(sample.value(u"spec"_s).isUndefined());
    } else {
        QCOMPARE(sample.kind(), u"Pod"_s);
        QVERIFY(sample.value(u"spec.containers"_s).isArray());
    }
    // The default indexes of pods are there and filled.
    QVERIFY(informer->indexer().hasIndex(u"node"_s));
    if (!metadataOnly) {
        QVERIFY(!informer->indexer().listIndexFuncValues(u"node"_s).isEmpty());
    }
}

void TestCluster::sameKeySharesOneInformer()
{
    Cluster cluster(simConfig());
    QSignalSpy discovered(&cluster, &Cluster::discovered);
    cluster.start();
    QVERIFY(discovered.wait(20000));
    InformerKey pods;
    pods.resource = std::get<ApiResource>(cluster.discovery().resolve(u"po"_s));
    InformerKey samePods;
    samePods.resource = std::get<ApiResource>(cluster.discovery().resolve(u"pods"_s));
    InformerKey labelled = pods;
    labelled.labelSelector = u"app=web"_s;
    QCOMPARE(cluster.informers()->informer(pods), cluster.informers()->informer(samePods));
    QVERIFY(cluster.informers()->informer(pods) != cluster.informers()->informer(labelled));
    QCOMPARE(cluster.informers()->informers().size(), 2);
    QCOMPARE(labelled.name(), u"pods -l app=web"_s);
    // Selectors are compared in their canonical form: the order of requirements or terms and
    // `==` for `=` make no second informer.
    InformerKey ab = pods;
    ab.labelSelector = u"a=b,c=d"_s;
    ab.fieldSelector = u"spec.nodeName=n1,status.phase!=Failed"_s;
    InformerKey ba = pods;
    ba.labelSelector = u"c=d, a==b"_s;
    ba.fieldSelector = u"status.phase!=Failed,spec.nodeName==n1"_s;
    QCOMPARE(cluster.informers()->informer(ab), cluster.informers()->informer(ba));
    QCOMPARE(cluster.informers()->informers().size(), 3);
    QCOMPARE(cluster.informers()->find(ba)->name(), u"pods -l a=b,c=d --field-selector spec.nodeName=n1,status.phase!=Failed"_s);
    QCOMPARE(cluster.informers()->keys().constLast().labelSelector, u"a=b,c=d"_s);
}

void TestCluster::freedHeapIsReleasedAfterListsAndWhileRunning()
{
    using namespace std::chrono_literals;
    Cluster cluster(simConfig());
    QVERIFY(startAndDiscover(cluster));
    InformerFactory *factory = cluster.informers();
    // No periodic release yet: what comes is the one after the lists.
    factory->setHeapTrimTiming(300ms, 1h, 300ms);
    for (const QString &resource : {u"pods"_s, u"services"_s, u"configmaps"_s}) {
        InformerKey key;
        key.resource = std::get<ApiResource>(cluster.discovery().resolve(resource));
        (void)factory->informer(key);
    }
    QCOMPARE(factory->heapTrims(), quint64(0));
    QElapsedTimer listing;
    listing.start();
    factory->start();
    QTRY_VERIFY_WITH_TIMEOUT(factory->hasSynced(), 20000);
    const qint64 listingMs = listing.elapsed();
    // The three lists ended close together: one release after the first of them ended (two if a
    // loaded machine spread them over more than the delay), besides one every delay while they
    // went on (freedHeapIsReleasedWhileAListGoesOn).
    QTRY_VERIFY_WITH_TIMEOUT(factory->heapTrims() >= 1, 20000);
    QVERIFY2(factory->heapTrims() <= quint64(3 + listingMs / 300), qPrintable(u"%1 releases in %2 ms"_s.arg(factory->heapTrims()).arg(listingMs)));
    quint64 lists = 0;
    for (const SharedIndexInformer *informer : factory->informers()) {
        lists += informer->counters().reflector.lists;
    }
    // While the informers run, releases come every interval, lists or not.
    factory->setHeapTrimTiming(300ms, 200ms, 300ms);
    const quint64 before = factory->heapTrims();
    QTRY_VERIFY_WITH_TIMEOUT(factory->heapTrims() >= before + 3, 20000);
    quint64 listsAfter = 0;
    for (const SharedIndexInformer *informer : factory->informers()) {
        listsAfter += informer->counters().reflector.lists;
    }
    QCOMPARE(listsAfter, lists);
    // Stopped, they stop.
    factory->shutdown();
    const quint64 stopped = factory->heapTrims();
    QTest::qWait(1000);
    QCOMPARE(factory->heapTrims(), stopped);
}

namespace {
// The cluster's own ListerWatcher, whose list answers come `delay` late: a list as long as one of
// a million objects, over the real client.
class SlowListerWatcher : public ListerWatcher
{
public:
    SlowListerWatcher(std::unique_ptr<ListerWatcher> inner, std::chrono::milliseconds delay)
        : m_inner(std::move(inner))
        , m_delay(delay)
    {
    }
    void list(const ListOptions &options, QObject *context, ListCallback done) override
    {
        m_inner->list(options, context, [context, done, delay = m_delay](const ObjectListPage &page) {
            QTimer::singleShot(delay, context, [done, page] { done(page); });
        });
    }
    std::unique_ptr<WatchSession> watch(const WatchOptions &options) override { return m_inner->watch(options); }

private:
    std::unique_ptr<ListerWatcher> m_inner;
    std::chrono::milliseconds m_delay;
};
} // namespace

void TestCluster::freedHeapIsReleasedWhileAListGoesOn()
{
    using namespace std::chrono_literals;
    Cluster cluster(simConfig());
    QVERIFY(startAndDiscover(cluster));
    InformerFactory *factory = cluster.informers();
    SharedIndexInformer::Options options = factory->defaultOptions();
    options.reflector.useWatchList = false; // a LIST, whose answer the wrapper holds back
    factory->setDefaultOptions(options);
    factory->setListerWatcherWrapper([](const InformerKey &, std::unique_ptr<ListerWatcher> inner) -> std::unique_ptr<ListerWatcher> {
        return std::make_unique<SlowListerWatcher>(std::move(inner), 3s);
    });
    factory->setHeapTrimTiming(300ms, 1h, 300ms);
    InformerKey key;
    key.resource = std::get<ApiResource>(cluster.discovery().resolve(u"pods"_s));
    SharedIndexInformer *informer = factory->informer(key);
    QSignalSpy synced(informer, &SharedIndexInformer::synced);
    factory->start();
    // While the list goes on (3 s), a release every 300 ms, not one an hour: at least 3 however
    // loaded the machine.
    QVERIFY(synced.wait(20000));
    const quint64 duringList = factory->heapTrims();
    QVERIFY2(duringList >= 3, qPrintable(QString::number(duringList)));
    // Listed: the release a delay after the list's end (it may have come already: the informer
    // reports synced from its own thread, the reflector its state from the network thread, in
    // either order), then none for the hour. Every 300 ms would be 3 more in this second.
    QTest::qWait(1000);
    const quint64 afterList = factory->heapTrims();
    QVERIFY2(afterList <= duringList + 2, qPrintable(u"%1 then %2"_s.arg(duringList).arg(afterList)));
    QTest::qWait(1500);
    QCOMPARE(factory->heapTrims(), afterList);
    factory->shutdown();
}

void TestCluster::unreachableServerIsRetriedWithBackoff()
{
    // A port that was just free: nothing listens there.
    RestConfig config = simConfig();
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    QUrl server = config.cluster.server;
    server.setPort(port);
    config.cluster.server = server;

    Cluster cluster(config);
    Backoff::Parameters backoff;
    backoff.initial = std::chrono::milliseconds(50);
    backoff.jitter = 0;
    cluster.setRetryBackoff(backoff);
    QSignalSpy failed(&cluster, &Cluster::discoveryFailed);
    cluster.start();
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() >= 3, 20000);
    QCOMPARE(cluster.state(), Cluster::State::Retrying);
    QVERIFY(cluster.lastError().isError());
    // 50, 100, 200 ms: each retry waits twice as long.
    QCOMPARE(failed.at(0).at(1).value<std::chrono::milliseconds>(), std::chrono::milliseconds(50));
    QCOMPARE(failed.at(1).at(1).value<std::chrono::milliseconds>(), std::chrono::milliseconds(100));
    QCOMPARE(failed.at(2).at(1).value<std::chrono::milliseconds>(), std::chrono::milliseconds(200));
}

// What the kubeconfig names cannot be used: retrying the same material cannot cure that, so the
// cluster Failed after one attempt, with the error, and tries no more (kubectl gives up too).
void TestCluster::unusableMaterialFailsWithoutRetrying_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("certificate authority file missing") << u"ca"_s << int(ApiError::Kind::Config) << u"cannot read the certificate authority file"_s;
    QTest::newRow("exec plugin not installed") << u"exec"_s << int(ApiError::Kind::Credentials) << u"no-such-credential-plugin"_s;
}

void TestCluster::unusableMaterialFailsWithoutRetrying()
{
    QFETCH(QString, fault);
    QFETCH(int, kind);
    QFETCH(QString, message);
    RestConfig config = simConfig();
    if (fault == u"ca"_s) {
        config.cluster.certificateAuthorityData.clear();
        config.cluster.certificateAuthority = u"/nonexistent/cachescope/ca.pem"_s;
    } else {
        config.user.token = Secret();
        ExecConfig exec;
        exec.apiVersion = u"client.authentication.k8s.io/v1"_s;
        exec.command = u"no-such-credential-plugin"_s;
        exec.interactiveMode = ExecConfig::InteractiveMode::Never;
        config.user.exec = exec;
    }
    Cluster cluster(config);
    Backoff::Parameters backoff;
    backoff.initial = std::chrono::milliseconds(50);
    backoff.jitter = 0;
    cluster.setRetryBackoff(backoff);
    QSignalSpy failed(&cluster, &Cluster::discoveryFailed);
    cluster.start();
    QTRY_COMPARE_WITH_TIMEOUT(cluster.state(), Cluster::State::Failed, 20000);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(1).value<std::chrono::milliseconds>(), std::chrono::milliseconds::zero());
    QCOMPARE(int(cluster.lastError().kind()), kind);
    QVERIFY2(cluster.lastError().message().contains(message), qPrintable(cluster.lastError().message()));
    // A retrying cluster would have tried again four times by now (50, 100, 200, 400 ms).
    QTest::qWait(1000);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(cluster.state(), Cluster::State::Failed);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
