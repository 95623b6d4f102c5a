// The simulator's transport seen from a QNetworkAccessManager client: HTTP/2 negotiated by
// ALPN over TLS and by prior knowledge over plain HTTP (and never with --http1-only), many
// watches multiplexed on one connection, every verb over h2, a cancelled watch reset, and the
// connection faults (reset, halfopen, goaway) over HTTP/2 and HTTP/1.1.
#include "core/sim/simcluster.h"
#include "tst_simclient.h"

#include "testmain.h"

#include <QRegularExpression>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;
using Fault = FaultPlan::Fault;

namespace {
enum class Transport { Http2Tls, Http2Cleartext, Http1Tls, Http1Plain };

SimOptions optionsFor(Transport transport)
{
    SimOptions options;
    options.pods = 6;
    options.seed = 5;
    options.tls = transport == Transport::Http2Tls || transport == Transport::Http1Tls;
    return options;
}

std::unique_ptr<SimTest::Client> clientFor(const SimCluster &cluster, Transport transport)
{
    auto client = std::make_unique<SimTest::Client>(cluster.url(), cluster.token());
    if (cluster.options().tls) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.setCaCertificates({QSslCertificate(cluster.caCertificatePem())});
        client->setSslConfiguration(ssl);
    }
    client->setHttp2Direct(transport == Transport::Http2Cleartext);
    client->setHttp2Allowed(transport != Transport::Http1Tls);
    return client;
}

bool isHttp2(Transport transport)
{
    return transport == Transport::Http2Tls || transport == Transport::Http2Cleartext;
}

QString eventsText(const SimTest::WatchReader &watch)
{
    return u"%1 events, finished %2, error %3"_s.arg(watch.events.size()).arg(watch.finished).arg(watch.reply()->errorString());
}
} // namespace

class TestSimHttp2 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void negotiation_data()
    {
        QTest::addColumn<bool>("tls");
        QTest::addColumn<bool>("http1Only");
        QTest::addColumn<bool>("direct");
        QTest::addColumn<bool>("http2");
        QTest::newRow("TLS offers h2 by ALPN and Qt's client takes it") << true << false << false << true;
        QTest::newRow("plain HTTP answers the HTTP/2 preface with h2c") << false << false << true << true;
        QTest::newRow("plain HTTP without the preface stays HTTP/1.1") << false << false << false << false;
        QTest::newRow("--http1-only offers only http/1.1 over TLS") << true << true << false << false;
    }
    void negotiation()
    {
        QFETCH(bool, tls);
        QFETCH(bool, http1Only);
        QFETCH(bool, direct);
        QFETCH(bool, http2);
        SimOptions options;
        options.pods = 2;
        options.tls = tls;
        options.http1Only = http1Only;
        SimCluster cluster(options);
        QVERIFY(cluster.start());
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster,
                                                                  direct    ? Transport::Http2Cleartext
                                                                      : tls ? Transport::Http2Tls
                                                                            : Transport::Http1Plain);
        const SimTest::Response response = client->get(u"/api/v1/namespaces"_s);
        QCOMPARE(response.status, 200);
        QCOMPARE(response.http2, http2);
        const HttpServer::Stats stats = cluster.transportStats();
        QCOMPARE(stats.http2Sessions, http2 ? 1 : 0);
        QCOMPARE(stats.http1Connections, http2 ? 0 : 1);
    }

    void manyWatchesShareOneConnection_data()
    {
        QTest::addColumn<Transport>("transport");
        QTest::newRow("h2 over TLS") << Transport::Http2Tls;
        QTest::newRow("h2c") << Transport::Http2Cleartext;
    }
    void manyWatchesShareOneConnection()
    {
        QFETCH(Transport, transport);
        SimCluster cluster(optionsFor(transport));
        QVERIFY(cluster.start());
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster, transport);
        // One request first: Qt opens its HTTP/2 connection for it, the watches then join it.
        QVERIFY(client->get(u"/api/v1/namespaces"_s).http2);
        constexpr int Watches = 120;
        const QString from = QString::number(cluster.resourceVersion());
        std::vector<std::unique_ptr<SimTest::WatchReader>> watches;
        for (int i = 0; i < Watches; ++i)
            watches.push_back(std::make_unique<SimTest::WatchReader>(*client, u"/api/v1/pods?watch=true&resourceVersion="_s + from));
        QTRY_COMPARE_WITH_TIMEOUT(cluster.watchCount(), Watches, 20000);
        const HttpServer::Stats stats = cluster.transportStats();
        QCOMPARE(stats.openConnections, 1);
        QCOMPARE(stats.http2Sessions, 1);
        QCOMPARE(stats.openHttp2Streams, Watches);
        cluster.churn(30);
        for (const auto &watch : watches)
            QTRY_VERIFY2_WITH_TIMEOUT(!watch->events.isEmpty(), qPrintable(eventsText(*watch)), 20000);
        for (const auto &watch : watches)
            QVERIFY(watch->reply()->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool());
    }

    void verbsOverHttp2_data()
    {
        QTest::addColumn<Transport>("transport");
        QTest::newRow("h2 over TLS") << Transport::Http2Tls;
        QTest::newRow("h2c") << Transport::Http2Cleartext;
    }
    void verbsOverHttp2()
    {
        QFETCH(Transport, transport);
        SimCluster cluster(optionsFor(transport));
        QVERIFY(cluster.start());
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster, transport);
        const QString base = u"/api/v1/namespaces/default/configmaps"_s;
        SimTest::WatchReader watch(*client, base + u"?watch=true&resourceVersion="_s + QString::number(cluster.resourceVersion()));
        QTRY_COMPARE(cluster.watchCount(), 1);
        const qsizetype before = client->get(base).json().value(u"items").toArray().size();

        const SimTest::Response created = client->request("POST", base, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h2"},"data":{"a":"1"}})");
        QCOMPARE(created.status, 201);
        QVERIFY(created.http2);
        const SimTest::Response patched = client->request("PATCH", base + u"/h2"_s, R"({"data":{"b":"2"}})", "application/merge-patch+json");
        QCOMPARE(patched.status, 200);
        QVERIFY(patched.http2);
        QCOMPARE(patched.json().value(u"data").toObject().value(u"b").toString(), u"2"_s);
        QJsonObject object = patched.json();
        object.insert(u"data"_s, QJsonObject{{u"c"_s, u"3"_s}});
        const SimTest::Response replaced = client->request("PUT", base + u"/h2"_s, QJsonDocument(object).toJson(QJsonDocument::Compact));
        QCOMPARE(replaced.status, 200);
        QVERIFY(replaced.http2);
        // A body bigger than the peer's initial flow-control window (64 KiB) arrives whole.
        const QByteArray big = QByteArray(200 * 1024, 'x');
        const SimTest::Response large =
            client->request("POST", base, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"blob":")" + big + R"("}})");
        QCOMPARE(large.status, 201);
        QCOMPARE(large.json().value(u"data").toObject().value(u"blob").toString().size(), big.size());
        const SimTest::Response listed = client->get(base);
        QCOMPARE(listed.status, 200);
        QVERIFY(listed.http2);
        QCOMPARE(listed.json().value(u"items").toArray().size(), before + 2);
        const SimTest::Response got = client->get(base + u"/big"_s);
        QCOMPARE(got.json().value(u"data").toObject().value(u"blob").toString().size(), big.size());
        QCOMPARE(client->request("DELETE", base + u"/h2"_s).status, 200);
        QCOMPARE(client->request("DELETE", base + u"/big"_s).status, 200);
        QCOMPARE(client->get(base + u"/h2"_s).status, 404);

        // The watch saw every write in order, on its own stream of the same connection.
        QTRY_COMPARE(watch.events.size(), 6);
        QStringList types;
        for (const QJsonObject &event : watch.events)
            types.append(event.value(u"type").toString());
        QCOMPARE(types, (QStringList{u"ADDED"_s, u"MODIFIED"_s, u"MODIFIED"_s, u"ADDED"_s, u"DELETED"_s, u"DELETED"_s}));
        QCOMPARE(cluster.transportStats().http2Sessions, 1);
    }

    // A pod's log over HTTP/2: the whole log as one response's DATA frames, text/plain, and a
    // follow as a stream that stays open, brings new lines, and ends with END_STREAM (no reset)
    // when the pod is deleted; the connection and its other streams carry on.
    void logsOverHttp2_data()
    {
        QTest::addColumn<Transport>("transport");
        QTest::newRow("h2 over TLS") << Transport::Http2Tls;
        QTest::newRow("h2c") << Transport::Http2Cleartext;
    }
    void logsOverHttp2()
    {
        QFETCH(Transport, transport);
        SimCluster cluster(optionsFor(transport));
        QVERIFY(cluster.start());
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster, transport);
        const QJsonArray pods = client->get(u"/api/v1/pods"_s).json().value(u"items").toArray();
        QJsonObject pod;
        for (const QJsonValue &item : pods) {
            if (item.toObject().value(u"status").toObject().value(u"phase").toString() == u"Running")
                pod = item.toObject();
        }
        QVERIFY(!pod.isEmpty());
        const QJsonObject metadata = pod.value(u"metadata").toObject();
        const QString path = u"/api/v1/namespaces/%1/pods/%2"_s.arg(metadata.value(u"namespace").toString(), metadata.value(u"name").toString());

        const SimTest::Response whole = client->get(path + u"/log"_s);
        QCOMPARE(whole.status, 200);
        QVERIFY(whole.http2);
        QVERIFY(whole.header("content-type").startsWith("text/plain"));
        QVERIFY(whole.body.endsWith('\n'));
        QVERIFY(whole.body.count('\n') >= 4);
        const SimTest::Response tail = client->get(path + u"/log?tailLines=2&limitBytes=100000"_s);
        QCOMPARE(tail.body.count('\n'), 2);

        QNetworkReply *follow = client->manager().get(client->makeRequest(path + u"/log?follow=true&tailLines=1"_s));
        QByteArray followed;
        QObject::connect(follow, &QNetworkReply::readyRead, follow, [&followed, follow] { followed += follow->readAll(); });
        QSignalSpy finished(follow, &QNetworkReply::finished);
        QTRY_VERIFY_WITH_TIMEOUT(followed.count('\n') >= 3, 20000); // the tail, then lines as they are written
        QVERIFY(finished.isEmpty());
        QVERIFY(follow->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool());
        QCOMPARE(client->request("DELETE", path).status, 200);
        // The delete's answer and the stream's end may arrive in the same turn of the event loop.
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(follow->error(), QNetworkReply::NoError);
        QCOMPARE(follow->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        follow->deleteLater();
        // The same session carries on.
        QCOMPARE(client->get(u"/api/v1/namespaces"_s).status, 200);
        QCOMPARE(cluster.transportStats().http2Sessions, 1);
    }

    void largeListIsStreamedWithinFlowControl()
    {
        SimOptions options = optionsFor(Transport::Http2Cleartext);
        options.pods = 3000; // above the streaming threshold (2000 items per response)
        SimCluster cluster(options);
        QVERIFY(cluster.start());
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster, Transport::Http2Cleartext);
        const SimTest::Response listed = client->get(u"/api/v1/pods"_s);
        QCOMPARE(listed.status, 200);
        QVERIFY(listed.http2);
        QCOMPARE(listed.json().value(u"items").toArray().size(), cluster.truth(u"pods"_s).size());
    }

    void cancelledWatchIsResetAndEnds()
    {
        SimCluster cluster(optionsFor(Transport::Http2Tls));
        QVERIFY(cluster.start());
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster, Transport::Http2Tls);
        const QString from = QString::number(cluster.resourceVersion());
        SimTest::WatchReader kept(*client, u"/api/v1/pods?watch=true&resourceVersion="_s + from);
        auto cancelled = std::make_unique<SimTest::WatchReader>(*client, u"/api/v1/pods?watch=true&resourceVersion="_s + from);
        QTRY_COMPARE(cluster.watchCount(), 2);
        cancelled.reset(); // aborts the reply: Qt sends RST_STREAM (CANCEL)
        QTRY_COMPARE(cluster.transportStats().http2ResetsReceived, 1);
        QTRY_COMPARE(cluster.watchCount(), 1);
        // The connection and the other stream go on.
        cluster.churn(10);
        QTRY_VERIFY(!kept.events.isEmpty());
        QVERIFY(!kept.finished);
        const HttpServer::Stats stats = cluster.transportStats();
        QCOMPARE(stats.openConnections, 1);
        QCOMPARE(stats.openHttp2Streams, 1);
    }

    void connectionFaults_data()
    {
        QTest::addColumn<Transport>("transport");
        QTest::addColumn<Fault>("fault");
        for (const auto &[transport, name] : {std::pair{Transport::Http2Tls, "h2"}, std::pair{Transport::Http1Plain, "HTTP/1.1"}}) {
            QTest::addRow("reset over %s: the watches on the connection end in an error", name) << transport << Fault::Reset;
            QTest::addRow("halfopen over %s: the watches on the connection go silent and stay open", name) << transport << Fault::HalfOpen;
            QTest::addRow("goaway over %s: the watches on the connection end cleanly after the grace", name) << transport << Fault::GoAway;
        }
    }
    void connectionFaults()
    {
        QFETCH(Transport, transport);
        QFETCH(Fault, fault);
        SimCluster cluster(optionsFor(transport));
        QVERIFY(cluster.start());
        cluster.faults().setGoAwayGraceMs(300);
        const std::unique_ptr<SimTest::Client> client = clientFor(cluster, transport);
        const QString from = QString::number(cluster.resourceVersion());
        const QString path = u"/api/v1/pods?watch=true&resourceVersion="_s + from;
        // A second client has a connection of its own, which no fault touches.
        const std::unique_ptr<SimTest::Client> otherClient = clientFor(cluster, transport);
        SimTest::WatchReader bystander(*otherClient, path);
        // Over h2, `sibling` shares the faulted connection; over HTTP/1.1 it has its own.
        SimTest::WatchReader sibling(*client, path);
        QTRY_COMPARE(cluster.watchCount(), 2);
        const bool shared = isHttp2(transport);
        if (fault == Fault::Reset && shared) {
            // Qt's HTTP/2 stack fails every stream of the lost connection, and says so.
            for (int i = 0; i < 2; ++i)
                QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"stream \\d+ finished with error: \"Connection closed\""_s));
        }
        cluster.faults().injectNext(fault);
        SimTest::WatchReader faulted(*client, path);
        QTRY_COMPARE(cluster.faults().injectedCount(fault), 1);
        QTRY_COMPARE(cluster.watchCount(), fault == Fault::Reset ? 2 - (shared ? 1 : 0) : 3);

        if (fault == Fault::Reset) {
            QTRY_VERIFY2(faulted.finished, qPrintable(eventsText(faulted)));
            // Over HTTP/1.1, Qt 6.4 may report a chunked reply cut by a reset as finished
            // without an error (seen under load): telling that from a normal end is the
            // client's job (WatchStream, tst_watchtransport). Over h2 it always fails the stream.
            if (shared) {
                QVERIFY2(faulted.reply()->error() != QNetworkReply::NoError, qPrintable(eventsText(faulted)));
            }
            if (shared) {
                QTRY_VERIFY2(sibling.finished, qPrintable(eventsText(sibling)));
                QVERIFY2(sibling.reply()->error() != QNetworkReply::NoError, qPrintable(eventsText(sibling)));
            }
        } else if (fault == Fault::HalfOpen) {
            cluster.churn(10);
            QTRY_VERIFY(!bystander.events.isEmpty());
            if (!shared)
                QTRY_VERIFY(!sibling.events.isEmpty());
            // The server still holds the connection open; the client hears nothing.
            QVERIFY(!faulted.finished);
            QCOMPARE(faulted.events.size(), 0);
            if (shared) {
                QVERIFY(!sibling.finished);
                QCOMPARE(sibling.events.size(), 0);
            }
            QCOMPARE(cluster.transportStats().openConnections, shared ? 2 : 3);
        } else {
            QTRY_VERIFY2(faulted.finished, qPrintable(eventsText(faulted)));
            QCOMPARE(faulted.reply()->error(), QNetworkReply::NoError);
            if (shared) {
                QTRY_VERIFY2(sibling.finished, qPrintable(eventsText(sibling)));
                QCOMPARE(sibling.reply()->error(), QNetworkReply::NoError);
            } else {
                QCOMPARE(faulted.reply()->rawHeader("Connection"), QByteArray("close"));
            }
            QTRY_COMPARE(cluster.transportStats().openConnections, shared ? 1 : 2);
            // The client opens a new connection for its next request.
            const SimTest::Response after = client->get(u"/api/v1/namespaces"_s);
            QCOMPARE(after.status, 200);
            if (shared)
                QCOMPARE(cluster.transportStats().http2Sessions, 3);
        }
        // Whatever happened to the faulted connection, the bystander's went on.
        QVERIFY(!bystander.finished);
        cluster.churn(5);
        QTRY_VERIFY(!bystander.events.isEmpty());
        if (!shared && fault != Fault::GoAway)
            QVERIFY(!sibling.finished);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimHttp2)
#include "tst_simhttp2.moc"
