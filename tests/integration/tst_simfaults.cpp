// The fault plan on: each fault is forced onto the next eligible request of an in-process
// SimCluster and observed from the client's side, and the server counts it.
#include "core/sim/simcluster.h"
#include "tst_simclient.h"

#include "testmain.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;
using Fault = FaultPlan::Fault;

class TestSimFaults : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SimCluster> m_cluster;
    std::unique_ptr<SimTest::Client> m_client;

    QString currentVersion() const { return QString::number(m_cluster->resourceVersion()); }

private Q_SLOTS:
    void init()
    {
        SimOptions options;
        options.tls = false;
        options.pods = 8;
        options.seed = 11;
        m_cluster = std::make_unique<SimCluster>(options);
        QVERIFY(m_cluster->start());
        m_client = std::make_unique<SimTest::Client>(m_cluster->url(), m_cluster->token());
    }
    void cleanup()
    {
        m_client.reset();
        m_cluster.reset();
    }

    void dropClosesTheConnection()
    {
        m_cluster->faults().injectNext(Fault::Drop);
        // A raw socket: QNetworkAccessManager would quietly resend a GET whose connection
        // closed before any response, hiding the fault.
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, quint16(m_cluster->url().port()));
        QVERIFY(socket.waitForConnected(5000));
        socket.write("GET /api/v1/pods HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_cluster->token().toLatin1() + "\r\n\r\n");
        QTRY_COMPARE(socket.state(), QAbstractSocket::UnconnectedState);
        QCOMPARE(socket.readAll(), QByteArray());
        QCOMPARE(m_cluster->faults().injectedCount(Fault::Drop), 1);
        QCOMPARE(m_client->get(u"/api/v1/pods"_s).status, 200); // one-shot
    }

    void throttleAnswers429WithRetryAfter()
    {
        m_cluster->faults().setRetryAfterSeconds(3);
        m_cluster->faults().injectNext(Fault::Throttle);
        const SimTest::Response throttled = m_client->get(u"/api/v1/pods"_s);
        QCOMPARE(throttled.status, 429);
        QCOMPARE(throttled.header("Retry-After"), QByteArray("3"));
        QCOMPARE(throttled.json().value(u"reason").toString(), u"TooManyRequests"_s);
        QCOMPARE(m_cluster->faults().injectedCount(Fault::Throttle), 1);
    }

    void serverErrorAnswers5xx_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::newRow("500 internal error") << 500 << u"InternalError"_s;
        QTest::newRow("503 unavailable") << 503 << u"ServiceUnavailable"_s;
    }
    void serverErrorAnswers5xx()
    {
        QFETCH(int, code);
        QFETCH(QString, reason);
        m_cluster->faults().setErrorCode(code);
        m_cluster->faults().injectNext(Fault::ServerError);
        const SimTest::Response failed = m_client->get(u"/api/v1/namespaces/shop/pods"_s);
        QCOMPARE(failed.status, code);
        QCOMPARE(failed.json().value(u"kind").toString(), u"Status"_s);
        QCOMPARE(failed.json().value(u"reason").toString(), reason);
        QCOMPARE(m_cluster->faults().injectedCount(Fault::ServerError), 1);
    }

    void latencyDelaysTheResponse()
    {
        m_cluster->faults().setLatencyMs(300);
        m_cluster->faults().injectNext(Fault::Latency);
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(m_client->get(u"/api/v1/nodes"_s).status, 200);
        // A lower bound, which no scheduling delay can make flaky.
        QVERIFY(timer.elapsed() >= 300);
        QCOMPARE(m_cluster->faults().injectedCount(Fault::Latency), 1);
    }

    void truncateCutsAWatchFrame()
    {
        m_cluster->faults().injectNext(Fault::Truncate);
        SimTest::WatchReader watch(*m_client, u"/api/v1/pods?watch=true"_s);
        QTRY_VERIFY(watch.finished);
        QCOMPARE(watch.events.size(), 0);
        QVERIFY(!watch.rest().isEmpty());
        QJsonParseError error;
        QJsonDocument::fromJson(watch.rest(), &error);
        QVERIFY(error.error != QJsonParseError::NoError); // half a JSON object
        QCOMPARE(m_cluster->faults().injectedCount(Fault::Truncate), 1);
    }

    void truncateCutsAListBody()
    {
        m_cluster->faults().injectNext(Fault::Truncate);
        const SimTest::Response cut = m_client->get(u"/api/v1/pods"_s);
        QVERIFY(cut.error != QNetworkReply::NoError || QJsonDocument::fromJson(cut.body).isNull());
        QCOMPARE(m_cluster->faults().injectedCount(Fault::Truncate), 1);
    }

    void goneEndsAWatchWith410()
    {
        m_cluster->faults().injectNext(Fault::Gone);
        SimTest::WatchReader watch(*m_client, u"/api/v1/pods?watch=true&resourceVersion="_s + currentVersion());
        QTRY_VERIFY(watch.finished);
        QCOMPARE(watch.events.size(), 1);
        QCOMPARE(watch.events.at(0).value(u"type").toString(), u"ERROR"_s);
        QCOMPARE(watch.events.at(0).value(u"object").toObject().value(u"code").toInt(), 410);
        QCOMPARE(m_cluster->faults().injectedCount(Fault::Gone), 1);
    }

    void stallSilencesAWatch()
    {
        m_cluster->faults().injectNext(Fault::Stall);
        const QString from = currentVersion();
        SimTest::WatchReader stalled(*m_client, u"/api/v1/pods?watch=true&allowWatchBookmarks=true&resourceVersion="_s + from);
        QTRY_COMPARE(m_cluster->faults().injectedCount(Fault::Stall), 1);
        SimTest::WatchReader healthy(*m_client, u"/api/v1/pods?watch=true&resourceVersion="_s + from);
        m_cluster->churn(40);
        QTRY_VERIFY(healthy.events.size() >= 1);
        // The healthy watch got everything the churn did to pods; the stalled one nothing, and
        // it is still open, which is what makes a stall hard to tell from a quiet watch.
        QCOMPARE(stalled.events.size(), 0);
        QVERIFY(!stalled.finished);
    }

    // A forced fault is promised to happen: when the request it was drawn for is answered
    // without it (an error of its own), the next eligible request gets it. Without that, a
    // test forcing faults one after another waits for one that was silently spent.
    void forcedFaultOutlivesARequestItCouldNotTouch_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("refusedPath");
        QTest::addColumn<QString>("nextPath");
        QTest::newRow("a truncate outlives a watch refused with 410")
            << int(Fault::Truncate) << u"/api/v1/pods?watch=true&resourceVersion=1"_s << u"/api/v1/pods"_s;
        QTest::newRow("a stall outlives a watch refused with 410")
            << int(Fault::Stall) << u"/api/v1/pods?watch=true&resourceVersion=1"_s << u"/api/v1/pods?watch=true"_s;
        QTest::newRow("a truncate outlives a list refused as a bad request")
            << int(Fault::Truncate) << u"/api/v1/pods?labelSelector=app%20in%20("_s << u"/api/v1/pods"_s;
        QTest::newRow("a truncate outlives a watch refused as a bad request")
            << int(Fault::Truncate) << u"/api/v1/pods?watch=true&resourceVersion=x"_s << u"/api/v1/pods?watch=true"_s;
    }
    void forcedFaultOutlivesARequestItCouldNotTouch()
    {
        QFETCH(int, fault);
        QFETCH(QString, refusedPath);
        QFETCH(QString, nextPath);
        m_cluster->faults().injectNext(Fault(fault));
        if (refusedPath.contains(u"watch=true"_s)) {
            SimTest::WatchReader refused(*m_client, refusedPath);
            QTRY_VERIFY(refused.finished);
        } else {
            QCOMPARE(m_client->get(refusedPath).status, 400);
        }
        QCOMPARE(m_cluster->faults().injectedCount(Fault(fault)), 0);
        if (nextPath.contains(u"watch=true"_s)) {
            SimTest::WatchReader next(*m_client, nextPath);
            QTRY_COMPARE(m_cluster->faults().injectedCount(Fault(fault)), 1);
        } else {
            (void)m_client->get(nextPath);
            QCOMPARE(m_cluster->faults().injectedCount(Fault(fault)), 1);
        }
    }

    void restartDropsWatchesAndForgetsHistory()
    {
        const QString before = currentVersion();
        SimTest::WatchReader watch(*m_client, u"/api/v1/pods?watch=true&resourceVersion="_s + before);
        m_cluster->churn(5);
        QTRY_VERIFY(!watch.events.isEmpty());
        m_cluster->restart();
        QTRY_VERIFY(watch.finished);
        QTRY_COMPARE(m_cluster->faults().injectedCount(Fault::Restart), 1);
        SimTest::WatchReader resumed(*m_client, u"/api/v1/pods?watch=true&resourceVersion="_s + before);
        QTRY_VERIFY(resumed.finished);
        QCOMPARE(resumed.events.size(), 1);
        QCOMPARE(resumed.events.at(0).value(u"object").toObject().value(u"code").toInt(), 410);
        // The objects survive a restart; only connections and history are gone.
        QVERIFY(!m_cluster->truth(u"pods"_s).isEmpty());
    }

    void restartIntervalFromTheSpec()
    {
        QVERIFY(m_cluster->faults().setSpec(u"restart=0.2"_s));
        QTRY_VERIFY(m_cluster->faults().injectedCount(Fault::Restart) >= 2);
        QVERIFY(m_cluster->faults().setSpec(QString()));
    }

    void truthFollowsChurn()
    {
        const QHash<QString, quint64> before = m_cluster->truth(u"pods"_s);
        QCOMPARE(before.size(), 8);
        m_cluster->churn(50);
        const QHash<QString, quint64> after = m_cluster->truth(u"pods"_s);
        QVERIFY(after != before);
        const QJsonArray items = m_client->get(u"/api/v1/pods"_s).json().value(u"items").toArray();
        QHash<QString, quint64> listed;
        for (const QJsonValue &item : items) {
            const QJsonObject metadata = item.toObject().value(u"metadata").toObject();
            listed.insert(metadata.value(u"namespace").toString() + u'/' + metadata.value(u"name").toString(),
                          metadata.value(u"resourceVersion").toString().toULongLong());
        }
        QCOMPARE(listed, after);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimFaults)
#include "tst_simfaults.moc"
