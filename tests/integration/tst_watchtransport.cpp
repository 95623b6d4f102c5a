// What the client does when the TCP connection under its watches breaks, through the TCP fault
// proxy in front of the simulated cluster:
// - a half-open connection (the proxy stops forwarding and keeps both sockets open) is noticed
//   by the watch's idle budget (from the bookmarks' pace, or client-go's 45 s health-check
//   bound when no bookmark comes) and the informer recovers on a new connection;
// - a watch request that Qt re-sends on a new connection after its first connection died is
//   reported as a lost stream, never accepted as if nothing had happened.
#include "simthroughproxy.h"
#include "tcpfaultproxy.h"
#include "testmain.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/keys.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/watchstream.h"
#include "core/sim/simcluster.h"

#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestWatchTransport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void halfOpenConnectionIsRecovered_data();
    void halfOpenConnectionIsRecovered();
    void resentWatchIsALostStream();

private:
    static RestConfig throughProxy(const Sim::SimCluster &sim, const Test::TcpFaultProxy &proxy)
    {
        const std::optional<RestConfig> config = Test::restConfigThroughProxy(sim, proxy);
        return config.value(); // the sim writes the kubeconfig; throws (fails the test) if it does not resolve
    }
    static ApiRequest podsWatch(int timeoutSeconds)
    {
        ApiRequest request;
        request.path = u"/api/v1/pods"_s;
        request.query.addQueryItem(u"watch"_s, u"true"_s);
        request.query.addQueryItem(u"allowWatchBookmarks"_s, u"true"_s);
        request.query.addQueryItem(u"timeoutSeconds"_s, QString::number(timeoutSeconds));
        return request;
    }
};

void TestWatchTransport::halfOpenConnectionIsRecovered_data()
{
    QTest::addColumn<int>("bookmarkIntervalMs");
    QTest::addColumn<bool>("http2");
    QTest::newRow("HTTP/1.1, bookmarks every 500 ms: a half-open connection is noticed from their pace and recovered") << 500 << false;
    QTest::newRow("HTTP/2, bookmarks every 500 ms: the shared connection is noticed dead from their pace and recovered") << 500 << true;
    QTest::newRow("HTTP/2, no bookmark in sight: a half-open connection is noticed within the 45 s health-check budget and recovered") << 120000 << true;
}

void TestWatchTransport::halfOpenConnectionIsRecovered()
{
    QFETCH(int, bookmarkIntervalMs);
    QFETCH(bool, http2);
    Sim::SimOptions simOptions;
    simOptions.pods = 60;
    simOptions.churn = 5;
    simOptions.bookmarkIntervalMs = bookmarkIntervalMs;
    simOptions.http1Only = !http2;
    simOptions.seed = 31;
    Sim::SimCluster sim(simOptions);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    Test::TcpFaultProxy proxy(quint16(sim.url().port()));
    QVERIFY2(proxy.start(&error), qPrintable(error));

    Cluster cluster(throughProxy(sim, proxy));
    SharedIndexInformer::Options options;
    options.reflector.backoff.initial = std::chrono::milliseconds(100);
    options.reflector.backoff.cap = std::chrono::milliseconds(1000);
    cluster.informers()->setDefaultOptions(options);
    QSignalSpy discovered(&cluster, &Cluster::discovered);
    cluster.start();
    QVERIFY(discovered.wait(30000));
    InformerKey key;
    key.resource = std::get<ApiResource>(cluster.discovery().resolve(u"pods"_s));
    SharedIndexInformer *informer = cluster.informers()->informer(key);
    QSignalSpy synced(informer, &SharedIndexInformer::synced);
    cluster.informers()->start();
    QVERIFY(synced.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(informer->counters().reflector.state == Reflector::State::Watching, 30000);
    // The watch's connection is up (it delivers the churn), and when the server sends
    // bookmarks this often, two of them have taught the watch its pace.
    QTRY_VERIFY_WITH_TIMEOUT(informer->counters().reflector.events >= 2, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(informer->counters().reflector.bookmarks >= 3 || bookmarkIntervalMs > 60000, 30000);

    const int acceptedBefore = proxy.counters().accepted;
    const quint64 errorsBefore = informer->counters().reflector.errors;
    proxy.halfOpen();
    // The watch goes silent; the workload goes on changing pods it does not see.
    if (!QTest::qWaitFor([&] { return informer->counters().reflector.errors > errorsBefore; }, 60000)) {
        const Reflector::Status stuck = informer->counters().reflector;
        qWarning("no loss noticed: state %d, watches %llu, events %llu, bookmarks %llu, errors %llu; proxy open %d accepted %d dropped %lld",
                 int(stuck.state),
                 stuck.watchesOpened,
                 stuck.events,
                 stuck.bookmarks,
                 stuck.errors,
                 proxy.counters().open,
                 proxy.counters().accepted,
                 proxy.counters().bytesDropped);
        QFAIL("the half-open connection was not noticed within 60 s");
    }
    const Reflector::Status status = informer->counters().reflector;
    QCOMPARE(status.lastError.kind(), ApiError::Kind::Timeout);
    // Recovered on a new connection: the cache catches up with the truth.
    sim.setChurn(0);
    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*informer), sim.truth(u"pods"_s), 60000);
    QVERIFY(proxy.counters().accepted > acceptedBefore);
    QVERIFY(informer->counters().reflector.reconnects >= 1);
    // The protocol the row names is the one that carried the watches.
    const Sim::HttpServer::Stats transport = sim.transportStats();
    QVERIFY2(http2 ? transport.http2Sessions >= 2 && transport.http1Connections == 0 : transport.http2Sessions == 0,
             qPrintable(u"h2 sessions %1, HTTP/1.1 connections %2"_s.arg(transport.http2Sessions).arg(transport.http1Connections)));
    qInfo("recovered after: %s", qPrintable(status.lastError.message()));
}

void TestWatchTransport::resentWatchIsALostStream()
{
    // HTTP/1.1: Qt re-sends a request whose kept-alive connection died after the request was
    // written and before any answer. Arranged here: watch B ends and leaves its connection idle
    // in the QNAM that watch A keeps; the path goes dead; watch C is written on B's idle
    // connection and vanishes; the connection is reset; Qt sends C again on a new connection.
    Sim::SimOptions simOptions;
    simOptions.pods = 20;
    simOptions.bookmarkIntervalMs = 120000;
    simOptions.seed = 41;
    simOptions.http1Only = true; // one request per connection is what makes Qt re-send
    Sim::SimCluster sim(simOptions);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    Test::TcpFaultProxy proxy(quint16(sim.url().port()));
    QVERIFY2(proxy.start(&error), qPrintable(error));
    ApiClient client(throughProxy(sim, proxy));

    std::unique_ptr<WatchStream> a(client.watch(podsWatch(300), nullptr));
    a->setParent(nullptr);
    a->setIdleTimeout(std::chrono::milliseconds(0)); // A only keeps the QNAM; its path dies too
    QSignalSpy aOpened(a.get(), &WatchStream::opened);
    QVERIFY(aOpened.wait(20000));
    std::unique_ptr<WatchStream> b(client.watch(podsWatch(1), nullptr));
    b->setParent(nullptr);
    QSignalSpy bFinished(b.get(), &WatchStream::finished);
    QVERIFY(bFinished.wait(20000));
    QVERIFY2(!bFinished.at(0).at(0).value<ApiError>().isError(), qPrintable(bFinished.at(0).at(0).value<ApiError>().toString()));
    QCOMPARE(client.managerCount(), 2); // requests + the one watch QNAM, which kept B's connection
    QCOMPARE(proxy.counters().open, 2);

    proxy.halfOpen();
    const qint64 droppedBefore = proxy.counters().bytesDropped;
    std::unique_ptr<WatchStream> c(client.watch(podsWatch(300), nullptr));
    c->setParent(nullptr);
    QSignalSpy cOpened(c.get(), &WatchStream::opened);
    QSignalSpy cFinished(c.get(), &WatchStream::finished);
    QTRY_VERIFY_WITH_TIMEOUT(proxy.counters().bytesDropped > droppedBefore, 20000);
    QCOMPARE(proxy.counters().open, 2); // C went on B's idle connection
    const int acceptedBefore = proxy.counters().accepted;
    proxy.resetOne(); // the newest: B's, carrying C's lost request

    QVERIFY(cFinished.wait(20000));
    const ApiError lost = cFinished.at(0).at(0).value<ApiError>();
    QCOMPARE(lost.kind(), ApiError::Kind::Network);
    qInfo("C: %s; opened %d", qPrintable(lost.toString()), int(cOpened.size()));
    // Qt did re-send it (a new connection came), and the stream reported the loss.
    QTRY_VERIFY_WITH_TIMEOUT(proxy.counters().accepted > acceptedBefore, 20000);
    QVERIFY2(lost.message().contains(u"sent again"_s) || lost.message().contains(u"being sent again"_s), qPrintable(lost.message()));
    QCOMPARE(c->eventCount(), 0);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestWatchTransport)
#include "tst_watchtransport.moc"
