#include "core/cache/indexer.h"
#include "core/cache/indexfunctions.h"
#include "core/cache/keys.h"
#include "core/cache/threadsafestore.h"

#include "cachetesthelpers.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

// pod() builds a pod from a compact description: `ns/name node=n1 app=web owners=u1+u2 rv=3`.
KubeObject pod(const QString &description)
{
    const QStringList words = description.split(u' ', Qt::SkipEmptyParts);
    QJsonObject metadata;
    QJsonObject labels;
    QJsonArray owners;
    QJsonObject spec;
    QString rv = u"1"_s;
    for (const QString &word : words.mid(1)) {
        const QString name = word.section(u'=', 0, 0);
        const QString value = word.section(u'=', 1);
        if (name == u"node") {
            spec.insert(u"nodeName"_s, value);
        } else if (name == u"owners") {
            for (const QString &uid : value.split(u'+')) {
                owners.append(QJsonObject{{u"kind"_s, u"ReplicaSet"_s}, {u"name"_s, QString(u"rs-"_s + uid)}, {u"uid"_s, uid}});
            }
        } else if (name == u"rv") {
            rv = value;
        } else {
            labels.insert(name, value);
        }
    }
    if (!labels.isEmpty()) {
        metadata.insert(u"labels"_s, labels);
    }
    if (!owners.isEmpty()) {
        metadata.insert(u"ownerReferences"_s, owners);
    }
    return CacheTest::object(words.first(), rv, metadata, spec);
}

// dump() renders an index as `value:key key;value:key`, values and keys sorted.
QString dump(const Indexer &indexer, const QString &indexName)
{
    QStringList values = indexer.listIndexFuncValues(indexName);
    values.sort();
    QStringList parts;
    for (const QString &value : values) {
        QStringList keys = indexer.indexKeys(indexName, value);
        keys.sort();
        parts.append(value + u':' + keys.join(u' '));
    }
    return parts.join(u';');
}

Indexers builtInIndexers()
{
    return Indexers{
        {namespaceIndexName(), namespaceIndexFunction()},
        {nodeNameIndexName(), nodeNameIndexFunction()},
        {labelIndexName(u"app"_s), labelIndexFunction(u"app"_s)},
        {ownerUidIndexName(), ownerUidIndexFunction()},
    };
}

QStringList sortedKeys(const QList<KubeObject> &objects)
{
    QStringList keys;
    for (const KubeObject &object : objects) {
        keys.append(metaNamespaceKey(object));
    }
    keys.sort();
    return keys;
}

} // namespace

class TestIndexer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void metaNamespaceKeys_data();
    void metaNamespaceKeys();
    void splitKeys_data();
    void splitKeys();
    void deletionHandlingKeyOfTombstone();
    void indexesStayExact_data();
    void indexesStayExact();
    void storeOperations();
    void byIndexAndIndexKeys();
    void unknownIndexAnswersEmpty();
    void addIndexersAfterData();
    void addIndexersConflict();
    void replaceRebuildsIndexes();
    void replaceOfManyEqualsAddingEach();
    void builtInIndexFunctions_data();
    void builtInIndexFunctions();
    void indexFunctionForUnknownName_data();
    void indexFunctionForUnknownName();
    void counters();
    void jsonBytesFollowsChanges();
    void readersSeeConsistentIndexWhileWriting();
    void valuesWithManyKeysStayExact();
};

void TestIndexer::metaNamespaceKeys_data()
{
    QTest::addColumn<KubeObject>("object");
    QTest::addColumn<QString>("key");
    QTest::newRow("namespaced object is ns/name") << pod(u"shop/web"_s) << u"shop/web"_s;
    QTest::newRow("cluster-scoped object is its name") << pod(u"node-1"_s) << u"node-1"_s;
    QTest::newRow("invalid object has no key") << KubeObject() << QString();
}

void TestIndexer::metaNamespaceKeys()
{
    QFETCH(KubeObject, object);
    QTEST(metaNamespaceKey(object), "key");
    QTEST(deletionHandlingMetaNamespaceKey(object), "key");
}

void TestIndexer::splitKeys_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("name");
    QTest::newRow("ns/name splits in two") << u"shop/web"_s << true << u"shop"_s << u"web"_s;
    QTest::newRow("name alone is cluster-scoped") << u"node-1"_s << true << QString() << u"node-1"_s;
    QTest::newRow("leading slash gives an empty namespace") << u"/web"_s << true << QString() << u"web"_s;
    QTest::newRow("two slashes are malformed") << u"a/b/c"_s << false << QString() << QString();
}

void TestIndexer::splitKeys()
{
    QFETCH(QString, key);
    QFETCH(bool, valid);
    const auto split = splitMetaNamespaceKey(key);
    QCOMPARE(bool(split), valid);
    if (split) {
        QTEST(split->namespaceName, "ns");
        QTEST(split->name, "name");
    }
}

void TestIndexer::deletionHandlingKeyOfTombstone()
{
    // The tombstone's own key wins, even over the key of the (stale) object it carries.
    const DeletedFinalStateUnknown tombstone{u"shop/old-name"_s, pod(u"shop/web"_s)};
    QCOMPARE(deletionHandlingMetaNamespaceKey(tombstone), u"shop/old-name"_s);
    QCOMPARE(deletionHandlingMetaNamespaceKey(DeletedFinalStateUnknown{u"gone"_s, KubeObject()}), u"gone"_s);
}

void TestIndexer::indexesStayExact_data()
{
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<QString>("namespaces");
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<QString>("apps");
    QTest::addColumn<QString>("owners");

    QTest::newRow("add indexes every value") << QStringList{u"add a/p node=n1 app=web owners=u1"_s, u"add b/q node=n1"_s} << u"a:a/p;b:b/q"_s << u"n1:a/p b/q"_s
                                             << u"web:a/p"_s << u"u1:a/p"_s;
    QTest::newRow("update moving a pod to another node removes the old value")
        << QStringList{u"add a/p node=n1"_s, u"add a/q node=n1"_s, u"update a/p node=n2"_s} << u"a:a/p a/q"_s << u"n1:a/q;n2:a/p"_s << QString() << QString();
    QTest::newRow("update taking the last key of a value drops the value")
        << QStringList{u"add a/p node=n1"_s, u"update a/p node=n2"_s} << u"a:a/p"_s << u"n2:a/p"_s << QString() << QString();
    QTest::newRow("update removing a label drops it from the label index")
        << QStringList{u"add a/p app=web"_s, u"add a/q app=web"_s, u"update a/p"_s} << u"a:a/p a/q"_s << QString() << u"web:a/q"_s << QString();
    QTest::newRow("update changing a label value moves the key")
        << QStringList{u"add a/p app=web"_s, u"update a/p app=api"_s} << u"a:a/p"_s << QString() << u"api:a/p"_s << QString();
    QTest::newRow("owner index keeps several values and updates exactly")
        << QStringList{u"add a/p owners=u1+u2"_s, u"update a/p owners=u2+u3"_s} << u"a:a/p"_s << QString() << QString() << u"u2:a/p;u3:a/p"_s;
    QTest::newRow("delete removes the key from every index")
        << QStringList{u"add a/p node=n1 app=web owners=u1"_s, u"add b/q node=n1"_s, u"delete a/p"_s} << u"b:b/q"_s << u"n1:b/q"_s << QString() << QString();
    QTest::newRow("delete of an absent key changes nothing")
        << QStringList{u"add a/p node=n1"_s, u"delete a/zzz"_s} << u"a:a/p"_s << u"n1:a/p"_s << QString() << QString();
    QTest::newRow("re-add after delete indexes again")
        << QStringList{u"add a/p node=n1"_s, u"delete a/p"_s, u"add a/p node=n2"_s} << u"a:a/p"_s << u"n2:a/p"_s << QString() << QString();
    QTest::newRow("unscheduled pod has no node value") << QStringList{u"add a/p"_s} << u"a:a/p"_s << QString() << QString() << QString();
    QTest::newRow("cluster-scoped object indexes under the empty namespace") << QStringList{u"add n1"_s} << u":n1"_s << QString() << QString() << QString();
    QTest::newRow("add of an existing key behaves as an update")
        << QStringList{u"add a/p node=n1"_s, u"add a/p node=n2"_s} << u"a:a/p"_s << u"n2:a/p"_s << QString() << QString();
}

void TestIndexer::indexesStayExact()
{
    QFETCH(QStringList, operations);
    Indexer indexer(builtInIndexers());
    for (const QString &operation : operations) {
        const QString verb = operation.section(u' ', 0, 0);
        const QString rest = operation.section(u' ', 1);
        if (verb == u"add") {
            indexer.add(pod(rest));
        } else if (verb == u"update") {
            indexer.update(pod(rest));
        } else {
            indexer.remove(pod(rest));
        }
    }
    QTEST(dump(indexer, namespaceIndexName()), "namespaces");
    QTEST(dump(indexer, nodeNameIndexName()), "nodes");
    QTEST(dump(indexer, labelIndexName(u"app"_s)), "apps");
    QTEST(dump(indexer, ownerUidIndexName()), "owners");
}

void TestIndexer::storeOperations()
{
    Indexer indexer;
    indexer.add(pod(u"a/p rv=1"_s));
    indexer.add(pod(u"a/q rv=1"_s));
    indexer.update(pod(u"a/p rv=2"_s));
    QCOMPARE(indexer.size(), 2);
    QCOMPARE(indexer.getByKey(u"a/p"_s).resourceVersion(), u"2"_s);
    QCOMPARE(indexer.get(pod(u"a/q rv=9"_s)).resourceVersion(), u"1"_s);
    QVERIFY(!indexer.getByKey(u"a/none"_s).isValid());
    QStringList keys = indexer.listKeys();
    keys.sort();
    QCOMPARE(keys, (QStringList{u"a/p"_s, u"a/q"_s}));
    QCOMPARE(sortedKeys(indexer.list()), keys);
    // A tombstone removes the key it names, as the informer deletes on a relist.
    indexer.remove(DeletedFinalStateUnknown{u"a/q"_s, KubeObject()});
    QCOMPARE(indexer.listKeys(), QStringList{u"a/p"_s});
}

void TestIndexer::byIndexAndIndexKeys()
{
    Indexer indexer(builtInIndexers());
    indexer.add(pod(u"a/p node=n1 owners=u1"_s));
    indexer.add(pod(u"a/q node=n1 owners=u2"_s));
    indexer.add(pod(u"b/r node=n2 owners=u2+u3"_s));
    QCOMPARE(sortedKeys(indexer.byIndex(nodeNameIndexName(), u"n1"_s)), (QStringList{u"a/p"_s, u"a/q"_s}));
    QCOMPARE(sortedKeys(indexer.byIndex(nodeNameIndexName(), u"n3"_s)), QStringList());
    QStringList keys = indexer.indexKeys(ownerUidIndexName(), u"u2"_s);
    keys.sort();
    QCOMPARE(keys, (QStringList{u"a/q"_s, u"b/r"_s}));
    // index() answers with every object sharing any value with the given one.
    QCOMPARE(sortedKeys(indexer.index(ownerUidIndexName(), pod(u"x/y owners=u1+u3"_s))), (QStringList{u"a/p"_s, u"b/r"_s}));
    QStringList nodes = indexer.listIndexFuncValues(nodeNameIndexName());
    nodes.sort();
    QCOMPARE(nodes, (QStringList{u"n1"_s, u"n2"_s}));
}

void TestIndexer::unknownIndexAnswersEmpty()
{
    Indexer indexer(builtInIndexers());
    indexer.add(pod(u"a/p node=n1"_s));
    QVERIFY(indexer.hasIndex(nodeNameIndexName()));
    QVERIFY(!indexer.hasIndex(u"bogus"_s));
    QVERIFY(indexer.byIndex(u"bogus"_s, u"n1"_s).isEmpty());
    QVERIFY(indexer.indexKeys(u"bogus"_s, u"n1"_s).isEmpty());
    QVERIFY(indexer.listIndexFuncValues(u"bogus"_s).isEmpty());
    QVERIFY(indexer.index(u"bogus"_s, pod(u"a/p node=n1"_s)).isEmpty());
    QCOMPARE(indexer.indexValueCount(u"bogus"_s), 0);
}

void TestIndexer::addIndexersAfterData()
{
    Indexer indexer;
    indexer.add(pod(u"a/p tier=fe"_s));
    indexer.add(pod(u"a/q tier=be"_s));
    indexer.add(pod(u"a/r"_s));
    QVERIFY(indexer.addIndexers({{labelIndexName(u"tier"_s), labelIndexFunction(u"tier"_s)}}));
    QCOMPARE(dump(indexer, labelIndexName(u"tier"_s)), u"be:a/q;fe:a/p"_s);
    // Later changes maintain the new index like any other.
    indexer.update(pod(u"a/q tier=fe"_s));
    indexer.add(pod(u"a/s tier=db"_s));
    QCOMPARE(dump(indexer, labelIndexName(u"tier"_s)), u"db:a/s;fe:a/p a/q"_s);
    QCOMPARE(indexer.indexers().size(), 1);
}

void TestIndexer::addIndexersConflict()
{
    Indexer indexer({{nodeNameIndexName(), nodeNameIndexFunction()}});
    indexer.add(pod(u"a/p node=n1 app=web"_s));
    QString error;
    // One name clashes: nothing is added, not even the other index.
    const bool added = indexer.addIndexers({{nodeNameIndexName(), labelIndexFunction(u"app"_s)}, {u"other"_s, namespaceIndexFunction()}}, &error);
    QVERIFY(!added);
    QVERIFY(error.contains(nodeNameIndexName()));
    QVERIFY(!indexer.hasIndex(u"other"_s));
    QCOMPARE(dump(indexer, nodeNameIndexName()), u"n1:a/p"_s);
}

void TestIndexer::replaceRebuildsIndexes()
{
    Indexer indexer(builtInIndexers());
    indexer.add(pod(u"a/p node=n1 app=web"_s));
    indexer.add(pod(u"a/q node=n2"_s));
    indexer.replace({pod(u"b/x node=n3 app=api"_s), pod(u"a/q node=n3"_s)}, u"100"_s);
    QStringList keys = indexer.listKeys();
    keys.sort();
    QCOMPARE(keys, (QStringList{u"a/q"_s, u"b/x"_s}));
    QCOMPARE(dump(indexer, nodeNameIndexName()), u"n3:a/q b/x"_s);
    QCOMPARE(dump(indexer, labelIndexName(u"app"_s)), u"api:b/x"_s);
    QCOMPARE(dump(indexer, namespaceIndexName()), u"a:a/q;b:b/x"_s);
    indexer.replace({}, u"101"_s);
    QCOMPARE(indexer.size(), 0);
    QVERIFY(indexer.listIndexFuncValues(nodeNameIndexName()).isEmpty());
}

// replace() builds its indexes at once, each on one thread (the caller's or a pool thread's):
// the same indexes as adding the objects one by one, for enough objects that the pool joins.
void TestIndexer::replaceOfManyEqualsAddingEach()
{
    QList<KubeObject> objects;
    for (int i = 0; i < 5000; ++i) {
        objects.append(pod(u"ns%1/p%2 node=n%3 app=a%4 owners=u%5+v%6"_s.arg(i % 7).arg(i).arg(i % 13).arg(i % 5).arg(i % 97).arg(i % 3)));
    }
    Indexer replaced(builtInIndexers());
    replaced.add(pod(u"gone/p node=n1 app=a1"_s));
    replaced.replace(objects, u"7"_s);
    Indexer added(builtInIndexers());
    for (const KubeObject &object : std::as_const(objects)) {
        added.add(object);
    }
    QCOMPARE(replaced.size(), 5000);
    for (const QString &name : builtInIndexers().keys()) {
        QCOMPARE(dump(replaced, name), dump(added, name));
    }
}

void TestIndexer::builtInIndexFunctions_data()
{
    QTest::addColumn<QString>("indexName");
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("values");

    QFile podFile(QStringLiteral(CACHESCOPE_TEST_DATA "/pod.json"));
    QVERIFY(podFile.open(QIODevice::ReadOnly));
    const QByteArray samplePod = podFile.readAll();
    const QByteArray custom =
        R"({"metadata":{"name":"w","namespace":"t","labels":{"app":""}},"spec":{"size":3,"ratio":0.5,"on":true,"tags":["a","b","a",{"x":1}],"meta":{"k":"v"},"none":null}})";

    QTest::newRow("namespace of a namespaced object") << namespaceIndexName() << samplePod << QStringList{u"shop"_s};
    QTest::newRow("namespace of a cluster-scoped object is empty")
        << namespaceIndexName() << QByteArray(R"({"metadata":{"name":"n"}})") << QStringList{QString()};
    QTest::newRow("label present") << labelIndexName(u"tier"_s) << samplePod << QStringList{u"frontend"_s};
    QTest::newRow("label with an empty value still indexes") << labelIndexName(u"app"_s) << custom << QStringList{QString()};
    QTest::newRow("label absent gives nothing") << labelIndexName(u"missing"_s) << samplePod << QStringList();
    QTest::newRow("owner uid") << ownerUidIndexName() << samplePod << QStringList{u"0b7a1f44-8d2e-4e0f-b7a3-5c9e2d1f6a30"_s};
    QTest::newRow("no owners gives nothing") << ownerUidIndexName() << custom << QStringList();
    QTest::newRow("node name") << nodeNameIndexName() << samplePod << QStringList{u"node-3"_s};
    QTest::newRow("field path to a string") << fieldPathIndexName(u"status.podIP"_s) << samplePod << QStringList{u"10.244.3.17"_s};
    QTest::newRow("field path to a label") << fieldPathIndexName(u"metadata.labels.pod-template-hash"_s) << samplePod << QStringList{u"7d4b9c8f5d"_s};
    QTest::newRow("field path into a list") << fieldPathIndexName(u"spec.containers.0.name"_s) << samplePod << QStringList{u"web"_s};
    QTest::newRow("field path to an integer") << fieldPathIndexName(u"spec.size"_s) << custom << QStringList{u"3"_s};
    QTest::newRow("field path to a fraction") << fieldPathIndexName(u"spec.ratio"_s) << custom << QStringList{u"0.5"_s};
    QTest::newRow("field path to a boolean") << fieldPathIndexName(u"spec.on"_s) << custom << QStringList{u"true"_s};
    QTest::newRow("field path to a list gives each distinct scalar") << fieldPathIndexName(u"spec.tags"_s) << custom << QStringList{u"a"_s, u"b"_s};
    QTest::newRow("field path to an object gives nothing") << fieldPathIndexName(u"spec.meta"_s) << custom << QStringList();
    QTest::newRow("field path to null gives nothing") << fieldPathIndexName(u"spec.none"_s) << custom << QStringList();
    QTest::newRow("field path that does not exist gives nothing") << fieldPathIndexName(u"spec.nope.deeper"_s) << custom << QStringList();
}

void TestIndexer::builtInIndexFunctions()
{
    QFETCH(QString, indexName);
    QFETCH(QByteArray, json);
    const auto object = KubeObject::fromJson(json);
    QVERIFY(object);
    const std::optional<IndexFunction> function = indexFunctionForName(indexName);
    QVERIFY(function);
    QTEST((*function)(*object), "values");
}

void TestIndexer::indexFunctionForUnknownName_data()
{
    QTest::addColumn<QString>("indexName");
    QTest::newRow("unknown name") << u"bogus"_s;
    QTest::newRow("label without a key") << u"label:"_s;
    QTest::newRow("field without a path") << u"field:"_s;
}

void TestIndexer::indexFunctionForUnknownName()
{
    QFETCH(QString, indexName);
    QVERIFY(!indexFunctionForName(indexName));
}

void TestIndexer::counters()
{
    Indexer indexer(builtInIndexers());
    QCOMPARE(indexer.size(), 0);
    indexer.add(pod(u"a/p node=n1"_s));
    indexer.add(pod(u"a/q node=n1"_s));
    indexer.add(pod(u"b/r node=n2"_s));
    QCOMPARE(indexer.size(), 3);
    QCOMPARE(indexer.indexValueCount(nodeNameIndexName()), 2);
    QCOMPARE(indexer.indexValueCount(namespaceIndexName()), 2);
    const QHash<QString, qsizetype> expected{{u"n1"_s, 2}, {u"n2"_s, 1}};
    QCOMPARE(indexer.indexValueSizes(nodeNameIndexName()), expected);
    indexer.remove(pod(u"b/r"_s));
    QCOMPARE(indexer.size(), 2);
    QCOMPARE(indexer.indexValueCount(nodeNameIndexName()), 1);
}

// jsonBytes() and storedBytes() follow every change: the sums of the JSON sizes of what the store
// holds, and of what that JSON takes stored.
void TestIndexer::jsonBytesFollowsChanges()
{
    const auto sumOf = [](const QList<KubeObject> &objects) {
        qint64 sum = 0;
        for (const KubeObject &object : objects) {
            sum += object.json().size();
        }
        return sum;
    };
    const auto storedOf = [](const QList<KubeObject> &objects) {
        qint64 sum = 0;
        for (const KubeObject &object : objects) {
            sum += object.storedSize();
        }
        return sum;
    };
    Indexer indexer(builtInIndexers());
    QCOMPARE(indexer.jsonBytes(), 0);
    const KubeObject p = pod(u"a/p node=n1"_s);
    indexer.add(p);
    indexer.add(pod(u"a/q node=n1"_s));
    QVERIFY(indexer.jsonBytes() > p.json().size());
    QCOMPARE(indexer.jsonBytes(), sumOf(indexer.list()));
    QCOMPARE(indexer.storedBytes(), storedOf(indexer.list()));
    indexer.update(pod(u"a/p node=a-much-longer-node-name app=web rv=2"_s));
    QCOMPARE(indexer.jsonBytes(), sumOf(indexer.list()));
    QCOMPARE(indexer.storedBytes(), storedOf(indexer.list()));
    indexer.remove(pod(u"a/q"_s));
    QCOMPARE(indexer.jsonBytes(), sumOf(indexer.list()));
    QCOMPARE(indexer.storedBytes(), storedOf(indexer.list()));
    indexer.replace({pod(u"b/r"_s), pod(u"b/s app=x"_s)}, u"9"_s);
    QCOMPARE(indexer.jsonBytes(), sumOf(indexer.list()));
    QCOMPARE(indexer.storedBytes(), storedOf(indexer.list()));
    indexer.replace({}, u"10"_s);
    QCOMPARE(indexer.jsonBytes(), 0);
    QCOMPARE(indexer.storedBytes(), 0);
}

void TestIndexer::readersSeeConsistentIndexWhileWriting()
{
    // The GUI reads while the informer writes: every answer must match the index it came from.
    Indexer indexer(builtInIndexers());
    constexpr int Pods = 50;
    for (int i = 0; i < Pods; ++i) {
        indexer.add(pod(u"a/p%1 node=n1"_s.arg(i)));
    }
    QList<KubeObject> onN1;
    QList<KubeObject> onN2;
    for (int i = 0; i < Pods; ++i) {
        onN1.append(pod(u"a/p%1 node=n1"_s.arg(i)));
        onN2.append(pod(u"a/p%1 node=n2"_s.arg(i)));
    }
    std::atomic<bool> done = false;
    std::unique_ptr<QThread> writer(QThread::create([&] {
        for (int round = 0; round < 200; ++round) {
            for (int i = 0; i < Pods; ++i) {
                indexer.update(round % 2 ? onN1.at(i) : onN2.at(i));
            }
        }
        done = true;
    }));
    writer->start();
    int mismatches = 0;
    qint64 reads = 0;
    while (!done || reads == 0) {
        for (const KubeObject &object : indexer.byIndex(nodeNameIndexName(), u"n1"_s)) {
            mismatches += object.nodeName() != u"n1" ? 1 : 0;
        }
        // Each answer is one snapshot: no key twice, never more keys than pods. (Two separate
        // calls are two snapshots, so a pod may move between them.)
        const QStringList keys = indexer.indexKeys(nodeNameIndexName(), u"n2"_s);
        QVERIFY(keys.size() <= Pods);
        QCOMPARE(QSet<QString>(keys.cbegin(), keys.cend()).size(), keys.size());
        ++reads;
    }
    QVERIFY(writer->wait(60000));
    QCOMPARE(mismatches, 0);
    QCOMPARE(indexer.indexKeys(nodeNameIndexName(), u"n1"_s).size(), Pods);
    QCOMPARE(indexer.indexKeys(nodeNameIndexName(), u"n2"_s).size(), 0);
}

// A value that gathers many keys (a namespace, a node) is held in another form than one with a
// few (an owner; IndexKeySet): the index stays exact as values grow past that limit and shrink.
void TestIndexer::valuesWithManyKeysStayExact()
{
    Indexer indexer(builtInIndexers());
    constexpr int Pods = 100;
    for (int i = 0; i < Pods; ++i) {
        indexer.add(pod(u"a/p%1 node=n1 owners=u%2"_s.arg(i).arg(i % 3)));
    }
    QCOMPARE(indexer.indexKeys(nodeNameIndexName(), u"n1"_s).size(), Pods);
    // Move all but five to n2, then delete every even pod.
    for (int i = 5; i < Pods; ++i) {
        indexer.update(pod(u"a/p%1 node=n2 owners=u%2"_s.arg(i).arg(i % 3)));
    }
    for (int i = 0; i < Pods; i += 2) {
        indexer.remove(pod(u"a/p%1"_s.arg(i)));
    }
    QStringList onN1;
    QStringList onN2;
    QStringList ofU1;
    for (int i = 1; i < Pods; i += 2) {
        (i < 5 ? onN1 : onN2).append(u"a/p%1"_s.arg(i));
        if (i % 3 == 1) {
            ofU1.append(u"a/p%1"_s.arg(i));
        }
    }
    const auto sorted = [](QStringList list) {
        list.sort();
        return list;
    };
    QCOMPARE(sorted(indexer.indexKeys(nodeNameIndexName(), u"n1"_s)), sorted(onN1));
    QCOMPARE(sorted(indexer.indexKeys(nodeNameIndexName(), u"n2"_s)), sorted(onN2));
    QCOMPARE(sorted(indexer.indexKeys(ownerUidIndexName(), u"u1"_s)), sorted(ofU1));
    QCOMPARE(sortedKeys(indexer.byIndex(nodeNameIndexName(), u"n2"_s)), sorted(onN2));
    QCOMPARE(indexer.indexKeys(namespaceIndexName(), u"a"_s).size(), Pods / 2);
    const QHash<QString, qsizetype> sizes{{u"n1"_s, onN1.size()}, {u"n2"_s, onN2.size()}};
    QCOMPARE(indexer.indexValueSizes(nodeNameIndexName()), sizes);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestIndexer)
#include "tst_indexer.moc"
