// Tests of the simulated API server over real HTTP on loopback: pagination, selectors, watch
// resume/410/bookmarks/streaming lists, writes, conflicts, content negotiation and auth.
#include "core/sim/simcluster.h"
#include "tst_simclient.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QScopeGuard>
#include <QSslCertificate>
#include <QSslKey>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

class TestSimApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SimCluster> m_protobufCluster; // the server protobufBodies' rows share, in order

    std::unique_ptr<SimCluster> startCluster(SimOptions options)
    {
        options.tls = false;
        auto cluster = std::make_unique<SimCluster>(options);
        QString error;
        if (!cluster->start(&error))
            qWarning() << error;
        return cluster;
    }

    // A length-delimited protobuf field (payloads under 128 bytes), to build bodies by hand.
    static QByteArray protobufField(int number, const QByteArray &payload)
    {
        return QByteArray(1, char(number << 3 | 2)) + QByteArray(1, char(payload.size())) + payload;
    }

    static QByteArray configMap(const QString &name, const QJsonObject &labels)
    {
        return QJsonDocument(QJsonObject{{u"apiVersion"_s, u"v1"_s},
                                         {u"kind"_s, u"ConfigMap"_s},
                                         {u"metadata"_s, QJsonObject{{u"name"_s, name}, {u"labels"_s, labels}}},
                                         {u"data"_s, QJsonObject{{u"k"_s, u"v"_s}}}})
            .toJson(QJsonDocument::Compact);
    }

private Q_SLOTS:
    void paginationReturnsEveryObjectOnce_data()
    {
        QTest::addColumn<int>("limit");
        QTest::newRow("pages of one") << 1;
        QTest::newRow("pages of seven") << 7;
        QTest::newRow("one page larger than the list") << 1000;
    }
    void paginationReturnsEveryObjectOnce()
    {
        QFETCH(int, limit);
        SimOptions options;
        options.pods = 40;
        auto cluster = startCluster(options);
        QVERIFY(cluster->isRunning());
        SimTest::Client client(cluster->url(), cluster->token());
        const QHash<QString, quint64> truth = cluster->truth(u"pods"_s);
        QCOMPARE(truth.size(), 40);

        QHash<QString, quint64> seen;
        QString continueToken;
        int pages = 0;
        do {
            QString path = u"/api/v1/pods?limit=%1"_s.arg(limit);
            if (!continueToken.isEmpty())
                path += u"&continue="_s + continueToken;
            const SimTest::Response response = client.get(path);
            QCOMPARE(response.status, 200);
            const QJsonObject list = response.json();
            QCOMPARE(list.value(u"kind").toString(), u"PodList"_s);
            const QJsonObject metadata = list.value(u"metadata").toObject();
            continueToken = metadata.value(u"continue").toString();
            const QJsonArray items = list.value(u"items").toArray();
            QVERIFY(items.size() <= limit);
            if (!continueToken.isEmpty())
                QCOMPARE(metadata.value(u"remainingItemCount").toInteger(), qint64(truth.size() - seen.size() - items.size()));
            else
                QVERIFY(!metadata.contains(u"remainingItemCount"));
            for (const QJsonValue &item : items) {
                const QJsonObject itemMetadata = item.toObject().value(u"metadata").toObject();
                const QString key = itemMetadata.value(u"namespace").toString() + u'/' + itemMetadata.value(u"name").toString();
                QVERIFY2(!seen.contains(key), qPrintable(key));
                seen.insert(key, itemMetadata.value(u"resourceVersion").toString().toULongLong());
            }
            ++pages;
        } while (!continueToken.isEmpty());
        QCOMPARE(seen, truth);
        QCOMPARE(pages, (40 + limit - 1) / limit);
    }

    void continueTokenExpires()
    {
        SimOptions options;
        options.pods = 10;
        options.continueTtlMs = 100;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const SimTest::Response first = client.get(u"/api/v1/pods?limit=2"_s);
        QCOMPARE(first.status, 200);
        const QString token = first.json().value(u"metadata").toObject().value(u"continue").toString();
        QVERIFY(!token.isEmpty());
        // Another list prunes expired snapshots; the token must turn into 410 Expired.
        QTRY_COMPARE_WITH_TIMEOUT(client.get(u"/api/v1/pods?limit=2&continue="_s + token).status, 410, 5000);
        const QJsonObject status = client.get(u"/api/v1/pods?limit=2&continue="_s + token).json();
        QCOMPARE(status.value(u"kind").toString(), u"Status"_s);
        QCOMPARE(status.value(u"reason").toString(), u"Expired"_s);
    }

    void selectorsFilterLists_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("equality") << u"labelSelector=color%3Dred"_s << QStringList{u"a"_s, u"c"_s};
        QTest::newRow("double equals") << u"labelSelector=color%3D%3Dblue"_s << QStringList{u"b"_s};
        QTest::newRow("inequality matches missing keys too") << u"labelSelector=color!%3Dred"_s << QStringList{u"b"_s, u"d"_s};
        QTest::newRow("in") << u"labelSelector=color+in+(red,blue)"_s << QStringList{u"a"_s, u"b"_s, u"c"_s};
        QTest::newRow("notin") << u"labelSelector=color%20notin%20(red)"_s << QStringList{u"b"_s, u"d"_s};
        QTest::newRow("exists") << u"labelSelector=size"_s << QStringList{u"a"_s, u"b"_s};
        QTest::newRow("does not exist") << u"labelSelector=!size"_s << QStringList{u"c"_s, u"d"_s};
        QTest::newRow("two requirements") << u"labelSelector=color%3Dred,size"_s << QStringList{u"a"_s};
        QTest::newRow("field metadata.name") << u"fieldSelector=metadata.name%3Dc"_s << QStringList{u"c"_s};
        QTest::newRow("field negated") << u"fieldSelector=metadata.name!%3Dc"_s << QStringList{u"a"_s, u"b"_s, u"d"_s};
        QTest::newRow("label and field") << u"labelSelector=color%3Dred&fieldSelector=metadata.name%3Da"_s << QStringList{u"a"_s};
    }
    void selectorsFilterLists()
    {
        QFETCH(QString, query);
        QFETCH(QStringList, expected);
        SimOptions options;
        options.pods = 0;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"a"_s, {{u"color"_s, u"red"_s}, {u"size"_s, u"s"_s}})).status, 201);
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"b"_s, {{u"color"_s, u"blue"_s}, {u"size"_s, u"m"_s}})).status,
                 201);
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"c"_s, {{u"color"_s, u"red"_s}})).status, 201);
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"d"_s, {})).status, 201);
        const SimTest::Response response = client.get(u"/api/v1/namespaces/shop/configmaps?"_s + query);
        QCOMPARE(response.status, 200);
        QStringList names;
        for (const QJsonValue &item : response.json().value(u"items").toArray()) {
            const QString name = item.toObject().value(u"metadata").toObject().value(u"name").toString();
            if (name != u"kube-root-ca.crt")
                names.append(name);
        }
        QCOMPARE(names, expected);
    }

    // The bodies kubectl's typed commands write (tests/data/protobuf, captured from kubectl),
    // sent in order to one server: create, read back as JSON, and the refusals.
    void protobufBodies_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("body"); // a file of tests/data/protobuf, or inline bytes after "raw:"
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("check"); // "path=value" in the JSON answer, or a message substring
        QTest::newRow("kubectl create namespace (protobuf) creates it")
            << QByteArray("POST") << u"/api/v1/namespaces"_s << u"namespace.pb"_s << 201 << u"metadata.name=capture-ns"_s;
        QTest::newRow("kubectl create configmap (protobuf) stores its data as JSON")
            << QByteArray("POST") << u"/api/v1/namespaces/capture-ns/configmaps"_s << u"configmap.pb"_s << 201 << u"data.greeting=hello"_s;
        QTest::newRow("the protobuf-created object reads back as JSON")
            << QByteArray("GET") << u"/api/v1/namespaces/capture-ns/configmaps/capture-cm"_s << QString() << 200 << u"data.a=b"_s;
        QTest::newRow("kubectl create deployment --replicas=0 (protobuf) keeps replicas 0")
            << QByteArray("POST") << u"/apis/apps/v1/namespaces/capture-ns/deployments"_s << u"deployment-web.pb"_s << 201 << u"spec.replicas=0"_s;
        QTest::newRow("protobuf DeleteOptions are read: a uid precondition that does not match conflicts")
            << QByteArray("DELETE") << u"/api/v1/namespaces/capture-ns/configmaps/capture-cm"_s << u"deleteoptions.pb"_s << 409 << u"Conflict"_s;
        QTest::newRow("an unknown protobuf field is a bad request, not silently dropped")
            << QByteArray("POST") << u"/api/v1/namespaces"_s << u"raw:k8s\\0 Namespace with field 9"_s << 400 << u"field 9 of k8s.io.api.core.v1.Namespace"_s;
    }

    void protobufBodies()
    {
        QFETCH(QByteArray, method);
        QFETCH(QString, path);
        QFETCH(QString, body);
        QFETCH(int, status);
        QFETCH(QString, check);
        if (!m_protobufCluster)
            m_protobufCluster = startCluster({});
        SimTest::Client client(m_protobufCluster->url(), m_protobufCluster->token());
        QByteArray bytes;
        if (body.startsWith(u"raw:")) {
            // A Namespace whose message has a field 9, which Namespace does not have.
            bytes = QByteArrayView("k8s\0", 4).toByteArray() + protobufField(1, protobufField(1, "v1") + protobufField(2, "Namespace")) +
                protobufField(2, protobufField(1, protobufField(1, "ns")) + protobufField(9, "new"));
        } else if (!body.isEmpty()) {
            QFile file(QStringLiteral(CACHESCOPE_TEST_DATA "/protobuf/") + body);
            QVERIFY(file.open(QIODevice::ReadOnly));
            bytes = file.readAll();
        }
        const SimTest::Response response = client.request(method, path, bytes, "application/vnd.kubernetes.protobuf");
        QVERIFY2(response.status == status, response.body.constData());
        const QJsonObject answer = response.json();
        if (check.contains(u'=')) {
            QJsonValue value = answer;
            for (const QString &part : check.section(u'=', 0, 0).split(u'.'))
                value = value.toObject().value(part);
            QCOMPARE(value.toVariant().toString(), check.section(u'=', 1));
        } else {
            QVERIFY2(QString::fromUtf8(response.body).contains(check), response.body.constData());
        }
    }

    void unsupportedFieldIsBadRequest()
    {
        auto cluster = startCluster({});
        SimTest::Client client(cluster->url(), cluster->token());
        const SimTest::Response response = client.get(u"/api/v1/configmaps?fieldSelector=spec.nodeName%3Dx"_s);
        QCOMPARE(response.status, 400);
        QCOMPARE(response.json().value(u"kind").toString(), u"Status"_s);
        QCOMPARE(client.get(u"/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-01"_s).status, 200);
    }

    void watchResumesFromResourceVersion()
    {
        SimOptions options;
        options.pods = 5;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const QString listRv = client.get(u"/api/v1/namespaces/shop/configmaps"_s).json().value(u"metadata").toObject().value(u"resourceVersion").toString();
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"one"_s, {})).status, 201);
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"two"_s, {})).status, 201);
        // Another resource's change in between: the history is shared, the replay must not be.
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/secrets"_s, R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"between"}})").status,
                 201);
        QCOMPARE(client.request("DELETE", u"/api/v1/namespaces/shop/configmaps/one"_s).status, 200);
        SimTest::WatchReader watch(client, u"/api/v1/namespaces/shop/configmaps?watch=1&resourceVersion="_s + listRv);
        QTRY_COMPARE(watch.events.size(), 3);
        QCOMPARE(watch.events.at(0).value(u"type").toString(), u"ADDED"_s);
        QCOMPARE(watch.events.at(1).value(u"type").toString(), u"ADDED"_s);
        QCOMPARE(watch.events.at(2).value(u"type").toString(), u"DELETED"_s);
        quint64 previous = listRv.toULongLong();
        for (const QJsonObject &event : std::as_const(watch.events)) {
            const quint64 rv = event.value(u"object").toObject().value(u"metadata").toObject().value(u"resourceVersion").toString().toULongLong();
            QVERIFY(rv > previous);
            previous = rv;
        }
        // Live events keep coming on the same stream.
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"three"_s, {})).status, 201);
        QTRY_COMPARE(watch.events.size(), 4);
        QCOMPARE(watch.events.at(3).value(u"object").toObject().value(u"metadata").toObject().value(u"name").toString(), u"three"_s);
    }

    void watchFromTooOldVersionGetsExpired()
    {
        SimOptions options;
        options.pods = 0;
        options.history = 3;
        options.historyWindowMs = 0; // the count alone: 410 after a few writes
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const QString oldRv = client.get(u"/api/v1/namespaces/shop/configmaps"_s).json().value(u"metadata").toObject().value(u"resourceVersion").toString();
        for (int i = 0; i < 5; ++i)
            QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"cm%1"_s.arg(i), {})).status, 201);
        SimTest::WatchReader watch(client, u"/api/v1/namespaces/shop/configmaps?watch=true&resourceVersion="_s + oldRv);
        QTRY_VERIFY(watch.finished);
        QCOMPARE(watch.events.size(), 1);
        QCOMPARE(watch.events.at(0).value(u"type").toString(), u"ERROR"_s);
        const QJsonObject status = watch.events.at(0).value(u"object").toObject();
        QCOMPARE(status.value(u"code").toInt(), 410);
        QCOMPARE(status.value(u"reason").toString(), u"Expired"_s);
        // A version still inside the history resumes fine.
        const quint64 recent = cluster->resourceVersion() - 2;
        SimTest::WatchReader ok(client, u"/api/v1/namespaces/shop/configmaps?watch=true&timeoutSeconds=1&resourceVersion=%1"_s.arg(recent));
        QTRY_VERIFY(ok.finished);
        QCOMPARE(ok.count(u"ADDED"_s), 2);
    }

    // A version the store has not reached (the client saw a later state of a store since
    // rebuilt, e.g. a restored etcd) is refused as the watch cache refuses it, to a watch and to
    // a list: 504 with the cause client-go relists from "" on, and Retry-After: 1 in the body and
    // in the header (the header is what client-go's retry reads); the current version is fine.
    // A recording served from an earlier instant asks for no retry: tst_simreplay.
    void aFutureVersionIsTooLarge_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("watch") << u"watch=true&"_s;
        QTest::newRow("list") << QString();
    }
    // A watch or a list at a resourceVersion the server has not reached: 504 with the cause
    // client-go's reflector reads, and Retry-After.
    void aFutureVersionIsTooLarge()
    {
        QFETCH(QString, query);
        SimOptions options;
        options.pods = 0;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const quint64 current = cluster->resourceVersion();
        const auto refused = client.get(u"/api/v1/namespaces/shop/configmaps?%1resourceVersion=%2"_s.arg(query).arg(current + 100));
        QCOMPARE(refused.status, 504);
        const QJsonObject status = refused.json();
        QCOMPARE(status.value(u"reason").toString(), u"Timeout"_s);
        QCOMPARE(status.value(u"message").toString(), u"Too large resource version: %1, current: %2"_s.arg(current + 100).arg(current));
        const QJsonArray causes = status.value(u"details").toObject().value(u"causes").toArray();
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes.at(0).toObject().value(u"reason").toString(), u"ResourceVersionTooLarge"_s);
        QCOMPARE(status.value(u"details").toObject().value(u"retryAfterSeconds").toInt(), 1);
        QCOMPARE(refused.header("Retry-After"), QByteArray("1"));
        if (query.isEmpty())
            return;
        SimTest::WatchReader ok(client, u"/api/v1/namespaces/shop/configmaps?watch=true&timeoutSeconds=1&resourceVersion=%1"_s.arg(current));
        QTRY_VERIFY(ok.finished);
        QCOMPARE(ok.count(u"ERROR"_s), 0);
    }

    void watchSendsPeriodicBookmarks()
    {
        SimOptions options;
        options.pods = 2;
        options.bookmarkIntervalMs = 50;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        SimTest::WatchReader watch(client, u"/api/v1/pods?watch=true&allowWatchBookmarks=true&resourceVersion=%1"_s.arg(cluster->resourceVersion()));
        QTRY_VERIFY(watch.count(u"BOOKMARK"_s) >= 2);
        const QJsonObject bookmark = watch.events.last().value(u"object").toObject();
        QCOMPARE(bookmark.value(u"kind").toString(), u"Pod"_s);
        QCOMPARE(bookmark.value(u"metadata").toObject().value(u"resourceVersion").toString(), QString::number(cluster->resourceVersion()));
        // Without allowWatchBookmarks there are none.
        SimTest::WatchReader plain(client, u"/api/v1/pods?watch=true&timeoutSeconds=1&resourceVersion=%1"_s.arg(cluster->resourceVersion()));
        QTRY_VERIFY_WITH_TIMEOUT(plain.finished, 5000);
        QCOMPARE(plain.count(u"BOOKMARK"_s), 0);
    }

    void streamingListEndsWithAnnotatedBookmark()
    {
        SimOptions options;
        options.pods = 6;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        SimTest::WatchReader watch(
            client, u"/api/v1/pods?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion="_s);
        QTRY_COMPARE(watch.events.size(), 7);
        for (int i = 0; i < 6; ++i)
            QCOMPARE(watch.events.at(i).value(u"type").toString(), u"ADDED"_s);
        const QJsonObject end = watch.events.at(6);
        QCOMPARE(end.value(u"type").toString(), u"BOOKMARK"_s);
        const QJsonObject metadata = end.value(u"object").toObject().value(u"metadata").toObject();
        QCOMPARE(metadata.value(u"annotations").toObject().value(u"k8s.io/initial-events-end").toString(), u"true"_s);
        // sendInitialEvents without NotOlderThan is refused, as by the apiserver.
        QCOMPARE(client.get(u"/api/v1/pods?watch=true&sendInitialEvents=true&allowWatchBookmarks=true"_s).status, 422);
    }

    void staleResourceVersionConflicts()
    {
        auto cluster = startCluster({});
        SimTest::Client client(cluster->url(), cluster->token());
        const SimTest::Response created = client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"x"_s, {}));
        QCOMPARE(created.status, 201);
        QJsonObject object = created.json();
        const QJsonObject metadata = object.value(u"metadata").toObject();
        QVERIFY(!metadata.value(u"uid").toString().isEmpty());
        QVERIFY(!metadata.value(u"creationTimestamp").toString().isEmpty());
        QCOMPARE(metadata.value(u"generation").toInt(), 1);
        object.insert(u"data"_s, QJsonObject{{u"k"_s, u"v2"_s}});
        const QByteArray body = QJsonDocument(object).toJson();
        QCOMPARE(client.request("PUT", u"/api/v1/namespaces/shop/configmaps/x"_s, body).status, 200);
        // The same body again carries the now stale resourceVersion.
        const SimTest::Response conflict = client.request("PUT", u"/api/v1/namespaces/shop/configmaps/x"_s, body);
        QCOMPARE(conflict.status, 409);
        QCOMPARE(conflict.json().value(u"reason").toString(), u"Conflict"_s);
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/configmaps"_s, configMap(u"x"_s, {})).status, 409);
        QCOMPARE(client.get(u"/api/v1/namespaces/shop/configmaps/nope"_s).json().value(u"reason").toString(), u"NotFound"_s);
    }

    void patchesLabelAndScale()
    {
        SimOptions options;
        options.pods = 4;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const QString pod = cluster->truth(u"pods"_s).keys().first().section(u'/', 1);
        const QString ns = cluster->truth(u"pods"_s).keys().first().section(u'/', 0, 0);
        const SimTest::Response merged = client.request(
            "PATCH", u"/api/v1/namespaces/%1/pods/%2"_s.arg(ns, pod), R"({"metadata":{"labels":{"extra":"yes"}}})", "application/merge-patch+json");
        QCOMPARE(merged.status, 200);
        QCOMPARE(merged.json().value(u"metadata").toObject().value(u"labels").toObject().value(u"extra").toString(), u"yes"_s);
        const SimTest::Response strategic = client.request("PATCH",
                                                           u"/api/v1/namespaces/%1/pods/%2"_s.arg(ns, pod),
                                                           R"({"spec":{"containers":[{"name":"app","image":"new:1"}]}})",
                                                           "application/strategic-merge-patch+json");
        QCOMPARE(strategic.status, 200);
        const QJsonObject container = strategic.json().value(u"spec").toObject().value(u"containers").toArray().at(0).toObject();
        QCOMPARE(container.value(u"image").toString(), u"new:1"_s);
        QVERIFY(container.contains(u"ports")); // merged by name, not replaced
        QCOMPARE(strategic.json().value(u"metadata").toObject().value(u"generation").toInt(), 2);

        const QString deployment = cluster->truth(u"deployments.apps"_s).keys().first();
        const QString path = u"/apis/apps/v1/namespaces/%1/deployments/%2/scale"_s.arg(deployment.section(u'/', 0, 0), deployment.section(u'/', 1));
        const SimTest::Response scaled = client.request("PATCH", path, R"({"spec":{"replicas":7}})", "application/merge-patch+json");
        QCOMPARE(scaled.status, 200);
        QCOMPARE(scaled.json().value(u"kind").toString(), u"Scale"_s);
        QCOMPARE(client.get(path).json().value(u"spec").toObject().value(u"replicas").toInt(), 7);
    }

    void negotiatesTablesAndMetadata()
    {
        SimOptions options;
        options.pods = 3;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const SimTest::Response table = client.get(
            u"/api/v1/pods"_s, {{"Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"}});
        QCOMPARE(table.json().value(u"kind").toString(), u"Table"_s);
        QCOMPARE(table.json().value(u"columnDefinitions").toArray().at(0).toObject().value(u"name").toString(), u"Name"_s);
        QCOMPARE(table.json().value(u"rows").toArray().size(), 3);
        const SimTest::Response metadata = client.get(u"/api/v1/pods"_s, {{"Accept", "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"}});
        QCOMPARE(metadata.json().value(u"kind").toString(), u"PartialObjectMetadataList"_s);
        QVERIFY(!metadata.json().value(u"items").toArray().at(0).toObject().contains(u"spec"));
        const SimTest::Response aggregated =
            client.get(u"/apis"_s, {{"Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"}});
        QVERIFY(aggregated.header("Content-Type").contains("as=APIGroupDiscoveryList"));
        QCOMPARE(aggregated.json().value(u"kind").toString(), u"APIGroupDiscoveryList"_s);
        const SimTest::Response legacy = client.get(u"/apis"_s, {{"Accept", "application/json"}});
        QCOMPARE(legacy.json().value(u"kind").toString(), u"APIGroupList"_s);
        QCOMPARE(client.get(u"/apis/demo.cachescope.io/v1"_s).json().value(u"resources").toArray().at(0).toObject().value(u"kind").toString(), u"Widget"_s);
    }

    void rawHttpHandlesChunkedBodiesAndPipelining()
    {
        auto cluster = startCluster({});
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, quint16(cluster->url().port()));
        QVERIFY(socket.waitForConnected(5000));
        const QByteArray auth = "Authorization: Bearer " + cluster->token().toLatin1() + "\r\n";
        const QByteArray body = configMap(u"chunked"_s, {});
        // A chunked request body in two chunks, then a pipelined GET on the same connection.
        QByteArray requests =
            "POST /api/v1/namespaces/shop/configmaps HTTP/1.1\r\nHost: x\r\n" + auth + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        requests += QByteArray::number(10, 16) + "\r\n" + body.left(10) + "\r\n";
        requests += QByteArray::number(body.size() - 10, 16) + "\r\n" + body.mid(10) + "\r\n0\r\n\r\n";
        requests += "GET /api/v1/namespaces/shop/configmaps/chunked HTTP/1.1\r\nHost: x\r\n" + auth + "Connection: close\r\n\r\n";
        socket.write(requests);
        QByteArray response;
        QTRY_VERIFY_WITH_TIMEOUT((response += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), 10000);
        response += socket.readAll();
        QVERIFY2(response.startsWith("HTTP/1.1 201 Created\r\n"), response.constData());
        QCOMPARE(response.count("HTTP/1.1 "), 2);
        QVERIFY(response.contains("HTTP/1.1 200 OK\r\n"));
        QCOMPARE(response.count("\"name\":\"chunked\""), 2);
    }

    void slowWatcherIsDroppedWithoutStallingOthers()
    {
        SimOptions options;
        options.pods = 30;
        // Larger than a churn tick's burst (a fast reader never gets near it), far smaller than
        // what piles up for a reader that stopped.
        options.watchBufferLimit = 1024 * 1024;
        auto cluster = startCluster(options);
        SimTest::Client client(cluster->url(), cluster->token());
        const QString from = QString::number(cluster->resourceVersion());
        // The slow reader: Qt stops reading from the kernel once 1 KiB is buffered, so the
        // kernel buffers fill up and the server's buffer for this watch grows.
        QTcpSocket slow;
        slow.setReadBufferSize(1024);
        slow.setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 4096);
        slow.connectToHost(QHostAddress::LocalHost, quint16(cluster->url().port()));
        QVERIFY(slow.waitForConnected(5000));
        slow.write("GET /api/v1/pods?watch=true&resourceVersion=" + from.toLatin1() + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                   cluster->token().toLatin1() + "\r\n\r\n");
        SimTest::WatchReader healthy(client, u"/api/v1/pods?watch=true&resourceVersion="_s + from);
        QTRY_VERIFY(slow.bytesAvailable() > 0);
        cluster->setChurn(400);
        auto stopChurn = qScopeGuard([&cluster] { cluster->setChurn(0); });
        // Over 6 MiB of pod events: more than the kernel buffers plus the server's limit.
        QTRY_VERIFY2_WITH_TIMEOUT(
            healthy.events.size() > 1500, qPrintable(u"%1 events, finished: %2"_s.arg(healthy.events.size()).arg(healthy.finished)), 60000);
        cluster->setChurn(0);
        // The healthy watcher keeps up with everything, up to a marker created last.
        QCOMPARE(client.request("POST", u"/api/v1/namespaces/shop/pods"_s, R"({"metadata":{"name":"marker"},"spec":{"containers":[{"name":"c","image":"x"}]}})")
                     .status,
                 201);
        QTRY_VERIFY_WITH_TIMEOUT(!healthy.events.isEmpty() &&
                                     healthy.events.last().value(u"object").toObject().value(u"metadata").toObject().value(u"name").toString() == u"marker"_s,
                                 20000);
        // The slow one, once it reads again, finds its stream ended by the server.
        slow.setReadBufferSize(0);
        QByteArray stream;
        QTRY_VERIFY_WITH_TIMEOUT((stream += slow.readAll(), stream.endsWith("\r\n0\r\n\r\n")), 20000);
        QVERIFY(!healthy.finished);
        QVERIFY(stream.count("{\"type\":\"") < healthy.count(u"MODIFIED"_s) + healthy.count(u"ADDED"_s) + healthy.count(u"DELETED"_s));
    }

    void tlsAuthenticatesTokenOrClientCertificate()
    {
        SimOptions options;
        options.pods = 1;
        SimCluster cluster(options);
        QVERIFY(cluster.start());
        QCOMPARE(cluster.url().scheme(), u"https"_s);
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        ssl.setCaCertificates({QSslCertificate(cluster.caCertificatePem())});
        SimTest::Client withToken(cluster.url(), cluster.token());
        withToken.setSslConfiguration(ssl);
        QCOMPARE(withToken.get(u"/api/v1/nodes"_s).status, 200);
        SimTest::Client anonymous(cluster.url(), QString());
        anonymous.setSslConfiguration(ssl);
        const SimTest::Response denied = anonymous.get(u"/api/v1/nodes"_s);
        QCOMPARE(denied.status, 401);
        QCOMPARE(denied.json().value(u"kind").toString(), u"Status"_s);
        QSslConfiguration withCertificate = ssl;
        withCertificate.setLocalCertificate(QSslCertificate(cluster.clientCertificatePem()));
        withCertificate.setPrivateKey(QSslKey(cluster.clientKeyPem(), QSsl::Ec));
        SimTest::Client certificateUser(cluster.url(), QString());
        certificateUser.setSslConfiguration(withCertificate);
        QCOMPARE(certificateUser.get(u"/api/v1/nodes"_s).status, 200);
        QFile kubeconfig(cluster.kubeconfigPath());
        QVERIFY(kubeconfig.open(QIODevice::ReadOnly));
        const QByteArray yaml = kubeconfig.readAll();
        QVERIFY(yaml.contains("current-context: sim-token"));
        QVERIFY(yaml.contains("certificate-authority-data: "));
        QVERIFY(yaml.contains("client-certificate-data: "));
        QVERIFY(yaml.contains(QByteArray("token: " + cluster.token().toLatin1())));
    }

    // Events follow the workload as a cluster's components write them: the scheduler's and the
    // kubelet's as pods start, restart and stop, the controllers' as deployments scale, each
    // naming its object (with its uid) and its source; a repeat bumps count and lastTimestamp of
    // the Event already there. Field selectors on involvedObject pick one object's events.
    void eventsFollowTheWorkload()
    {
        SimOptions options;
        options.pods = 8;
        options.seed = 13;
        auto cluster = startCluster(options);
        QVERIFY(cluster->isRunning());
        // A change at a time, each settled, as the churn timer makes them: scale-downs then
        // find the pods they remove.
        for (int i = 0; i < 400; ++i)
            cluster->churn(1);
        SimTest::Client client(cluster->url(), cluster->token());
        const QJsonArray events = client.get(u"/api/v1/events"_s).json().value(u"items").toArray();
        QVERIFY(events.size() > 20);
        QSet<QString> reasons;
        int repeated = 0;
        QJsonObject someEvent;
        for (const QJsonValue &value : events) {
            const QJsonObject event = value.toObject();
            const QJsonObject involved = event.value(u"involvedObject").toObject();
            QVERIFY2(!involved.value(u"uid").toString().isEmpty(), qPrintable(event.value(u"reason").toString()));
            QVERIFY(!involved.value(u"name").toString().isEmpty());
            QVERIFY(!involved.value(u"apiVersion").toString().isEmpty());
            QVERIFY(!event.value(u"source").toObject().value(u"component").toString().isEmpty());
            QVERIFY(event.value(u"lastTimestamp").toString() >= event.value(u"firstTimestamp").toString());
            reasons.insert(event.value(u"reason").toString());
            if (event.value(u"count").toInt() > 1) {
                ++repeated;
                someEvent = event;
            }
        }
        for (const QString &reason : {u"Scheduled"_s,
                                      u"Pulling"_s,
                                      u"Pulled"_s,
                                      u"Created"_s,
                                      u"Started"_s,
                                      u"Killing"_s,
                                      u"BackOff"_s,
                                      u"ScalingReplicaSet"_s,
                                      u"SuccessfulCreate"_s,
                                      u"SuccessfulDelete"_s}) {
            QVERIFY2(reasons.contains(reason), qPrintable(reason + u" not among "_s + QStringList(reasons.cbegin(), reasons.cend()).join(u',')));
        }
        // Repeats are aggregated, not new Events.
        QVERIFY(repeated > 0);
        QSet<QString> distinct;
        for (const QJsonValue &value : events) {
            const QJsonObject event = value.toObject();
            const QJsonObject involved = event.value(u"involvedObject").toObject();
            const QString key = QStringList{involved.value(u"uid").toString(),
                                            involved.value(u"fieldPath").toString(),
                                            event.value(u"reason").toString(),
                                            event.value(u"message").toString()}
                                    .join(u'|');
            QVERIFY2(!distinct.contains(key), qPrintable(key));
            distinct.insert(key);
        }

        // One object's events, by name and by uid.
        const QJsonObject involved = someEvent.value(u"involvedObject").toObject();
        const QString namespaceName = someEvent.value(u"metadata").toObject().value(u"namespace").toString();
        const QStringList selectors{
            u"involvedObject.name="_s + involved.value(u"name").toString(),
            u"involvedObject.uid="_s + involved.value(u"uid").toString(),
            u"involvedObject.kind=%1,involvedObject.name=%2"_s.arg(involved.value(u"kind").toString(), involved.value(u"name").toString())};
        for (const QString &selector : selectors) {
            const SimTest::Response selected =
                client.get(u"/api/v1/namespaces/%1/events?fieldSelector=%2"_s.arg(namespaceName, QString::fromLatin1(QUrl::toPercentEncoding(selector))));
            QCOMPARE(selected.status, 200);
            const QJsonArray items = selected.json().value(u"items").toArray();
            QVERIFY(!items.isEmpty());
            for (const QJsonValue &item : items)
                QCOMPARE(item.toObject().value(u"involvedObject").toObject().value(u"name").toString(), involved.value(u"name").toString());
        }
        const SimTest::Response warnings = client.get(u"/api/v1/events?fieldSelector=type%3DWarning"_s);
        QCOMPARE(warnings.status, 200);
        for (const QJsonValue &item : warnings.json().value(u"items").toArray())
            QCOMPARE(item.toObject().value(u"type").toString(), u"Warning"_s);
        QCOMPARE(client.get(u"/api/v1/events?fieldSelector=spec.nodeName%3Dx"_s).status, 400);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimApi)
#include "tst_simapi.moc"
