// CacheStatistics summing over real informers (pods and configmaps of an in-process simulated
// cluster) and the ClusterStatusBar showing what it sums: objects cached equal the informers'
// cache sizes, the memory estimate is built on the exact JSON bytes cached, events per second
// follow the churn, and an informer that goes away drops out of the sums.
#include "tst_informersim.h"

#include "ui/models/cachestatistics.h"
#include "ui/widgets/clusterstatusbar.h"

#include "testmain.h"

#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestClusterStatusBar : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statisticsSumOverInformers();
    void statusBarShowsClusterState_data();
    void statusBarShowsClusterState();

private:
    static qint64 jsonBytesOf(const SharedIndexInformer &informer)
    {
        qint64 sum = 0;
        const QList<KubeObject> objects = informer.indexer().list();
        for (const KubeObject &object : objects) {
            sum += object.json().size();
        }
        return sum;
    }

    static qint64 storedBytesOf(const SharedIndexInformer &informer)
    {
        qint64 sum = 0;
        const QList<KubeObject> objects = informer.indexer().list();
        for (const KubeObject &object : objects) {
            sum += object.storedSize();
        }
        return sum;
    }
};

void TestClusterStatusBar::statisticsSumOverInformers()
{
    Sim::SimOptions options;
    options.pods = 40;
    options.churn = 200;
    options.seed = 4;
    CachescopeTest::InformerSim sim(options);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    SharedIndexInformer *pods = sim.informer(u"pods"_s, u"Pod"_s, {});
    SharedIndexInformer *configMaps = sim.informer(u"configmaps"_s, u"ConfigMap"_s, {});

    CacheStatistics statistics;
    statistics.setInterval(std::chrono::milliseconds(0));
    statistics.setInformers({pods, configMaps});
    QCOMPARE(statistics.informerCount(), 2);
    ClusterStatusBar bar;
    bar.setStatistics(&statistics);

    QTRY_VERIFY_WITH_TIMEOUT(pods->hasSynced() && configMaps->hasSynced(), 30000);
    // While the workload churns, the caches absorb changes every second. (Sampled here, not in a
    // QTRY macro, which would evaluate the condition once more right after it held.)
    statistics.sample();
    QVERIFY(QTest::qWaitFor(
        [&] {
            statistics.sample();
            return statistics.eventsPerSecond() > 0;
        },
        20000));
    QVERIFY(bar.eventsText() != u"%1 events/s"_s.arg(QLocale().toString(0.0, 'f', 1)));

    sim.sim().setChurn(0);
    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*pods), sim.sim().truth(u"pods"_s), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*configMaps), sim.sim().truth(u"configmaps"_s), 30000);
    QSignalSpy changed(&statistics, &CacheStatistics::changed);
    statistics.sample();
    QCOMPARE(changed.count(), 1);
    const qint64 objects = pods->indexer().size() + configMaps->indexer().size();
    QVERIFY(pods->indexer().size() > 0 && configMaps->indexer().size() > 0);
    QCOMPARE(statistics.objects(), objects);
    QCOMPARE(statistics.syncedCount(), 2);
    const qint64 json = jsonBytesOf(*pods) + jsonBytesOf(*configMaps);
    QCOMPARE(statistics.jsonBytes(), json);
    const qint64 stored = storedBytesOf(*pods) + storedBytesOf(*configMaps);
    QCOMPARE(statistics.storedBytes(), stored);
    // The JSON is kept with its keys numbered: well below its own size.
    QVERIFY2(stored < json, qPrintable(u"%1 stored for %2 of JSON"_s.arg(stored).arg(json)));
    QCOMPARE(statistics.memoryBytes(), stored + objects * CacheStatistics::PerObjectOverhead);
    QCOMPARE(bar.objectsText(), u"%1 objects cached"_s.arg(QLocale().toString(objects)));
    QCOMPARE(bar.memoryText(), u"%1 in caches"_s.arg(QLocale().formattedDataSize(statistics.memoryBytes(), 1)));

    // An informer that is deleted drops out.
    sim.remove(configMaps);
    statistics.sample();
    QCOMPARE(statistics.informerCount(), 1);
    QCOMPARE(statistics.objects(), pods->indexer().size());
    QCOMPARE(bar.objectsText(), u"%1 objects cached"_s.arg(QLocale().toString(pods->indexer().size())));
}

void TestClusterStatusBar::statusBarShowsClusterState_data()
{
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("text");
    QTest::newRow("no cluster") << QString() << int(ClusterStatusBar::ConnectionState::Disconnected) << u"No cluster"_s;
    QTest::newRow("syncing") << u"kind-dev"_s << int(ClusterStatusBar::ConnectionState::Syncing) << u"kind-dev · syncing"_s;
    QTest::newRow("synced") << u"kind-dev"_s << int(ClusterStatusBar::ConnectionState::Synced) << u"kind-dev · synced"_s;
    QTest::newRow("retrying") << u"prod"_s << int(ClusterStatusBar::ConnectionState::Retrying) << u"prod · retrying"_s;
}

void TestClusterStatusBar::statusBarShowsClusterState()
{
    QFETCH(QString, cluster);
    QFETCH(int, state);
    QFETCH(QString, text);
    ClusterStatusBar bar;
    bar.setClusterName(cluster);
    bar.setConnectionState(ClusterStatusBar::ConnectionState(state), u"connection refused"_s);
    QCOMPARE(bar.clusterText(), text);
    QCOMPARE(bar.connectionState(), ClusterStatusBar::ConnectionState(state));
    // Without statistics, zeros rather than blanks.
    QCOMPARE(bar.objectsText(), u"0 objects cached"_s);
}

CACHESCOPE_TEST_MAIN(TestClusterStatusBar)
#include "tst_clusterstatusbar.moc"
