#include "core/cache/kubeobject.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

QByteArray readData(const QString &name)
{
    QFile file(QStringLiteral(CACHESCOPE_TEST_DATA "/") + name);
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", qPrintable(file.fileName()));
    }
    return file.readAll();
}

QString labelsText(const KubeObject &object)
{
    QStringList parts;
    for (const auto &[key, value] : object.labels()) {
        parts.append(key + u'=' + value);
    }
    return parts.join(u',');
}

QString ownersText(const KubeObject &object)
{
    QStringList parts;
    for (const KubeObject::OwnerReference &owner : object.ownerReferences()) {
        parts.append(owner.apiVersion + u' ' + owner.kind + u'/' + owner.name + u' ' + owner.uid + (owner.controller ? u" controller"_s : QString()));
    }
    return parts.join(u';');
}

QJsonObject withoutManagedFields(QJsonObject root)
{
    QJsonObject metadata = root.value(u"metadata"_s).toObject();
    metadata.remove(u"managedFields"_s);
    root.insert(u"metadata"_s, metadata);
    return root;
}

} // namespace

class TestKubeObject : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void extraction_data();
    void extraction();
    void defaultIsInvalid();
    void managedFieldsDropped_data();
    void managedFieldsDropped();
    void managedFieldsDroppedBytes_data();
    void managedFieldsDroppedBytes();
    void transformNoneKeepsBytes();
    void malformed_data();
    void malformed();
    void rawControlBytesComeBackAsTheyWere();
    void hugeObjectDecodes();
    void value_data();
    void value();
    void copiesShareData();
    void repeatedStringsAreShared();
    void equalLabelsAndOwnersAreShared_data();
    void equalLabelsAndOwnersAreShared();
    void identifiersFromStoredBytes_data();
    void identifiersFromStoredBytes();
    void controllerReference();
};

void TestKubeObject::extraction_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("apiVersion");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("uid");
    QTest::addColumn<QString>("rv");
    QTest::addColumn<qint64>("generation");
    QTest::addColumn<QString>("created");
    QTest::addColumn<QString>("deleted");
    QTest::addColumn<QString>("labels");
    QTest::addColumn<QString>("owners");
    QTest::addColumn<QString>("nodeName");
    QTest::addColumn<QString>("phase");

    QTest::newRow("running pod: every metadata field, node and phase")
        << u"pod.json"_s << u"v1"_s << u"Pod"_s << u"shop"_s << u"web-7d4b9c8f5d-x2k8p"_s << u"6f1c2a9e-3b1d-4c52-9a57-2f0f3f5d2b11"_s << u"184231"_s
        << qint64(0) << u"2026-11-30T09:12:44Z"_s << QString() << u"app=web,pod-template-hash=7d4b9c8f5d,tier=frontend"_s
        << u"apps/v1 ReplicaSet/web-7d4b9c8f5d 0b7a1f44-8d2e-4e0f-b7a3-5c9e2d1f6a30 controller"_s << u"node-3"_s << u"Running"_s;
    QTest::newRow("terminating pod: generation, fractional deletion time, two owners, labels sorted")
        << u"cache/pod-managedfields.json"_s << u"v1"_s << u"Pod"_s << u"shop"_s << u"api-5f6d7c8b9-q7w2e"_s << u"1d2e3f40-5a6b-4c7d-8e9f-a0b1c2d3e4f5"_s
        << u"184500"_s << qint64(3) << u"2026-11-30T09:12:44Z"_s << u"2026-12-01T10:00:30.123Z"_s << u"app=api,tier=backend"_s
        << u"apps/v1 ReplicaSet/api-5f6d7c8b9 7e8f9a0b-1c2d-4e3f-8a9b-0c1d2e3f4a5b controller;example.com/v1 Tracker/t1 99999999-0000-4000-8000-000000000001"_s
        << u"node-1"_s << u"Pending"_s;
    QTest::newRow("pretty-printed node: cluster-scoped, empty label value, no node name")
        << u"cache/node.json"_s << u"v1"_s << u"Node"_s << QString() << u"node-3"_s << u"a3c9a1f2-1111-4b2c-9d3e-000000000003"_s << u"99120"_s << qint64(0)
        << u"2026-11-01T00:00:00Z"_s << QString() << u"kubernetes.io/hostname=node-3,node-role.kubernetes.io/worker=,topology.kubernetes.io/zone=zone-b"_s
        << QString() << QString() << QString();
    QTest::newRow("custom resource: offset timestamp, null labels, non-string spec.nodeName and status ignored")
        << u"cache/widget-cr.json"_s << u"example.com/v1alpha1"_s << u"Widget"_s << u"team-a"_s << u"blue"_s << u"c0ffee00-0000-4000-8000-00000000beef"_s
        << u"7"_s << qint64(12) << u"2026-10-05T10:30:00Z"_s << QString() << QString() << QString() << QString() << QString();
}

void TestKubeObject::extraction()
{
    QFETCH(QString, file);
    QString error;
    const auto object = KubeObject::fromJson(readData(file), KubeObject::Transform::DropManagedFields, &error);
    QVERIFY2(object, qPrintable(error));
    QVERIFY(object->isValid());
    QTEST(object->apiVersion(), "apiVersion");
    QTEST(object->kind(), "kind");
    QTEST(object->namespaceName(), "ns");
    QTEST(object->name(), "name");
    QTEST(object->uid(), "uid");
    QTEST(object->resourceVersion(), "rv");
    QTEST(object->generation(), "generation");
    QFETCH(QString, created);
    QCOMPARE(object->creationTimestamp(), QDateTime::fromString(created, Qt::ISODateWithMs));
    QVERIFY(object->creationTimestamp().isValid());
    QFETCH(QString, deleted);
    if (deleted.isEmpty()) {
        QVERIFY(!object->deletionTimestamp().isValid());
    } else {
        QCOMPARE(object->deletionTimestamp(), QDateTime::fromString(deleted, Qt::ISODateWithMs));
    }
    QTEST(labelsText(*object), "labels");
    QTEST(ownersText(*object), "owners");
    QTEST(object->nodeName(), "nodeName");
    QTEST(object->phase(), "phase");
}

void TestKubeObject::defaultIsInvalid()
{
    const KubeObject object;
    QVERIFY(!object.isValid());
    QVERIFY(object.json().isEmpty());
    QVERIFY(object.name().isEmpty());
    QVERIFY(object.labels().isEmpty());
    QVERIFY(!object.label(u"app"_s));
    QVERIFY(object.value(u"metadata.name"_s).isUndefined());
    QVERIFY(object == KubeObject());
}

void TestKubeObject::managedFieldsDropped_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray managed = R"([{"manager":"kubectl","operation":"Apply","fieldsV1":{"f:data":{"f:x":{}}}}])";
    QTest::newRow("first member of metadata") << (R"({"metadata":{"managedFields":)" + managed + R"(,"name":"a","namespace":"n"},"data":{"x":"1"}})");
    QTest::newRow("middle member of metadata") << (R"({"metadata":{"name":"a","managedFields":)" + managed + R"(,"namespace":"n"},"data":{}})");
    QTest::newRow("last member of metadata") << (R"({"metadata":{"name":"a","namespace":"n","managedFields":)" + managed + R"(}})");
    QTest::newRow("only member of metadata") << (R"({"kind":"ConfigMap","metadata":{"managedFields":)" + managed + R"(}})");
    QTest::newRow("pretty-printed with spaces and newlines")
        << ("{\n  \"metadata\" : {\n    \"name\" : \"a\" ,\n    \"managedFields\" : " + managed + "   ,\n    \"namespace\": \"n\"\n  }\n}");
    QTest::newRow("null managedFields") << QByteArray(R"({"metadata":{"name":"a","managedFields":null,"uid":"u"}})");
    QTest::newRow("empty list") << QByteArray(R"({"metadata":{"managedFields":[],"name":"a"}})");
    QTest::newRow("sample pod with two managers") << readData(u"cache/pod-managedfields.json"_s);
}

void TestKubeObject::managedFieldsDropped()
{
    QFETCH(QByteArray, json);
    QString error;
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
    QVERIFY2(object, qPrintable(error));
    QJsonParseError parseError;
    const QJsonDocument stored = QJsonDocument::fromJson(object->json(), &parseError);
    QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString() + u": "_s + QString::fromUtf8(object->json())));
    QVERIFY(!object->json().contains("managedFields"));
    QCOMPARE(stored.object(), withoutManagedFields(QJsonDocument::fromJson(json).object()));
    QCOMPARE(object->name(), QJsonDocument::fromJson(json).object()[u"metadata"_s][u"name"_s].toString());
}

void TestKubeObject::managedFieldsDroppedBytes_data()
{
    // The exact bytes kept: the member goes with one neighbouring comma, everything else (the
    // whitespace around it included) stays as received.
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("first member, its following comma goes")
        << QByteArray(R"({"metadata":{"managedFields":[{"manager":"m"}],"name":"a"}})") << QByteArray(R"({"metadata":{"name":"a"}})");
    QTest::newRow("middle member, its preceding comma goes")
        << QByteArray(R"({"metadata":{"name":"a","managedFields":[{"manager":"m"}],"uid":"u"}})") << QByteArray(R"({"metadata":{"name":"a","uid":"u"}})");
    QTest::newRow("last member, its preceding comma goes")
        << QByteArray(R"({"metadata":{"name":"a","managedFields":[{"manager":"m"}]},"data":{}})") << QByteArray(R"({"metadata":{"name":"a"},"data":{}})");
    QTest::newRow("only member") << QByteArray(R"({"metadata":{"managedFields":[]}})") << QByteArray(R"({"metadata":{}})");
    QTest::newRow("absent: bytes unchanged") << QByteArray(R"({"metadata":{"name":"a"},"spec":{"x":[1, 2]}})")
                                             << QByteArray(R"({"metadata":{"name":"a"},"spec":{"x":[1, 2]}})");
    QTest::newRow("null") << QByteArray(R"({"metadata":{"name":"a","managedFields":null}})") << QByteArray(R"({"metadata":{"name":"a"}})");
    QTest::newRow("null first, spaces around the colon and comma")
        << QByteArray(R"({"metadata":{"managedFields" : null , "name":"a"}})") << QByteArray(R"({"metadata":{ "name":"a"}})");
    QTest::newRow("pretty-printed, middle member")
        << QByteArray("{\n  \"metadata\": {\n    \"name\": \"a\",\n    \"managedFields\": [\n      {\"manager\": \"m\"}\n    ],\n    \"uid\": \"u\"\n  }\n}")
        << QByteArray("{\n  \"metadata\": {\n    \"name\": \"a\",\n    \"uid\": \"u\"\n  }\n}");
    QTest::newRow("pretty-printed, first member") << QByteArray("{\n  \"metadata\": {\n    \"managedFields\": [],\n    \"name\": \"a\"\n  }\n}")
                                                  << QByteArray("{\n  \"metadata\": {\n    \n    \"name\": \"a\"\n  }\n}");
    QTest::newRow("tabs and CRLF, last member") << QByteArray("{\"metadata\":{\"name\":\"a\",\r\n\t\"managedFields\"\t:\t[ ]\r\n}}")
                                                << QByteArray("{\"metadata\":{\"name\":\"a\"\r\n}}");
    QTest::newRow("\"managedFields\" in strings, keys elsewhere, escaped quotes and braces in the value")
        << QByteArray(
               R"({"kind":"managedFields","spec":{"metadata":{"managedFields":[]}},"metadata":{"annotations":{"note":"\"managedFields\": [ { } ]"},"managedFields":[{"manager":"a \"}] {\\","f":"[{"}],"name":"a"},"data":{"managedFields":"x"}})")
        << QByteArray(
               R"({"kind":"managedFields","spec":{"metadata":{"managedFields":[]}},"metadata":{"annotations":{"note":"\"managedFields\": [ { } ]"},"name":"a"},"data":{"managedFields":"x"}})");
    QTest::newRow("a string ending in an escaped backslash")
        << QByteArray(R"({"metadata":{"managedFields":[{"m":"a\\"},{"m":"]"}],"name":"a"}})") << QByteArray(R"({"metadata":{"name":"a"}})");
    QTest::newRow("a key spelled with escapes is kept")
        << QByteArray(R"({"metadata":{"name":"a","managed\u0046ields":[]}})") << QByteArray(R"({"metadata":{"name":"a","managed\u0046ields":[]}})");
    QTest::newRow("a repeated key: the first goes") << QByteArray(R"({"metadata":{"managedFields":[],"managedFields":null,"name":"a"}})")
                                                    << QByteArray(R"({"metadata":{"managedFields":null,"name":"a"}})");
    QTest::newRow("a key that starts with managedFields is kept") << QByteArray(R"({"metadata":{"managedFieldsOld":[1],"managedFields":[],"name":"a"}})")
                                                                  << QByteArray(R"({"metadata":{"managedFieldsOld":[1],"name":"a"}})");
    QTest::newRow("a metadata key spelled with escapes keeps its managedFields")
        << QByteArray(R"({"metad\u0061ta":{"name":"a","managedFields":[]}})") << QByteArray(R"({"metad\u0061ta":{"name":"a","managedFields":[]}})");
    const QByteArray blob(qsizetype(2) * 1024 * 1024, 'x');
    QTest::newRow("an object above LargeObjectBytes") << (R"({"metadata":{"name":"big","managedFields":[{"manager":"m"}]},"data":{"blob":")" + blob + R"("}})")
                                                      << (R"({"metadata":{"name":"big"},"data":{"blob":")" + blob + R"("}})");
}

void TestKubeObject::managedFieldsDroppedBytes()
{
    QFETCH(QByteArray, json);
    QString error;
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
    QVERIFY2(object, qPrintable(error));
    QTEST(object->json(), "expected");
    QCOMPARE(object->name(), QJsonDocument::fromJson(json).object()[u"metadata"_s][u"name"_s].toString());
}

void TestKubeObject::transformNoneKeepsBytes()
{
    const QByteArray json = readData(u"cache/pod-managedfields.json"_s);
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::None);
    QVERIFY(object);
    QCOMPARE(object->json(), json);
    const auto dropped = KubeObject::fromJson(json);
    QVERIFY(dropped);
    QVERIFY(dropped->json().size() < json.size());
}

void TestKubeObject::malformed_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray pod = readData(u"pod.json"_s);
    QTest::newRow("empty input") << QByteArray();
    QTest::newRow("whitespace only") << QByteArray("  \n");
    QTest::newRow("truncated in the middle") << pod.left(pod.size() / 2);
    QTest::newRow("truncated before the last brace") << pod.trimmed().chopped(1);
    QTest::newRow("truncated inside metadata string") << QByteArray("{\"metadata\":{\"name\":\"we");
    QTest::newRow("a list, not an object") << QByteArray(R"([{"metadata":{"name":"a"}}])");
    QTest::newRow("a string, not an object") << QByteArray(R"("Pod")");
    QTest::newRow("a number, not an object") << QByteArray("42");
    QTest::newRow("null") << QByteArray("null");
    QTest::newRow("metadata is a string") << QByteArray(R"({"metadata":"a"})");
    QTest::newRow("name is a number") << QByteArray(R"({"metadata":{"name":5}})");
    QTest::newRow("namespace is an object") << QByteArray(R"({"metadata":{"name":"a","namespace":{}}})");
    QTest::newRow("kind is a list") << QByteArray(R"({"kind":["Pod"],"metadata":{"name":"a"}})");
    QTest::newRow("generation is a string") << QByteArray(R"({"metadata":{"name":"a","generation":"3"}})");
    QTest::newRow("labels is a list") << QByteArray(R"({"metadata":{"name":"a","labels":["app"]}})");
    QTest::newRow("label value is a number") << QByteArray(R"({"metadata":{"name":"a","labels":{"app":1}}})");
    QTest::newRow("ownerReferences is an object") << QByteArray(R"({"metadata":{"name":"a","ownerReferences":{"uid":"x"}}})");
    QTest::newRow("owner reference is a string") << QByteArray(R"({"metadata":{"name":"a","ownerReferences":["x"]}})");
    QTest::newRow("owner controller is a string") << QByteArray(R"({"metadata":{"name":"a","ownerReferences":[{"uid":"x","controller":"yes"}]}})");
    QTest::newRow("creationTimestamp is a number") << QByteArray(R"({"metadata":{"name":"a","creationTimestamp":1}})");
    QTest::newRow("managedFields is a string") << QByteArray(R"({"metadata":{"name":"a","managedFields":"x"}})");
    QTest::newRow("trailing garbage after the object") << QByteArray(R"({"metadata":{"name":"a"}} {"x":1})");
    QTest::newRow("unterminated string") << QByteArray("{\"metadata\":{\"name\":\"a}}");
    QTest::newRow("invalid UTF-8 in a name") << QByteArray("{\"metadata\":{\"name\":\"a\xff\xfe\"}}");
    QTest::newRow("nested ten thousand levels deep") << (QByteArray(R"({"metadata":{"name":"a"},"spec":)") + QByteArray(10000, '[') + QByteArray(10000, ']') +
                                                         "}");
}

void TestKubeObject::malformed()
{
    QFETCH(QByteArray, json);
    QString error;
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
    QVERIFY2(!object, qPrintable(QString::fromUtf8(object ? object->json() : QByteArray())));
    QVERIFY(!error.isEmpty());
}

void TestKubeObject::rawControlBytesComeBackAsTheyWere()
{
    // JSON must escape control characters; a server that does not may still be read. The byte
    // that StoredJson marks numbered keys with is among them: such an object is kept plain.
    const QByteArray json("{\"metadata\":{\"name\":\"a\"},\"data\":{\"x\":\"\x01\x02\"}}");
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::None);
    if (object) {
        QCOMPARE(object->json(), json);
        QCOMPARE(object->jsonSize(), json.size());
        QCOMPARE(object->name(), u"a"_s);
    }
}

void TestKubeObject::hugeObjectDecodes()
{
    // A ConfigMap near the apiserver's 1.5 MiB object limit, times four: decoded, not rejected.
    const QByteArray big(qsizetype(6) * 1024 * 1024, 'x');
    const QByteArray json = R"({"kind":"ConfigMap","metadata":{"name":"big","namespace":"n","labels":{"app":"a"}},"data":{"blob":")" + big + R"("}})";
    QString error;
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
    QVERIFY2(object, qPrintable(error));
    QCOMPARE(object->name(), u"big"_s);
    QCOMPARE(object->label(u"app"_s), std::optional<QString>(u"a"_s));
    QCOMPARE(object->json().size(), json.size());
}

void TestKubeObject::value_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonValue>("expected");
    const QJsonValue undefined(QJsonValue::Undefined);
    QTest::newRow("spec.nodeName from the extracted field") << u"pod.json"_s << u"spec.nodeName"_s << QJsonValue(u"node-3"_s);
    QTest::newRow("label by key") << u"pod.json"_s << u"metadata.labels.app"_s << QJsonValue(u"web"_s);
    QTest::newRow("absent label is undefined") << u"pod.json"_s << u"metadata.labels.nope"_s << undefined;
    QTest::newRow("list element by index") << u"pod.json"_s << u"spec.containers.0.image"_s << QJsonValue(u"registry.example/shop/web:1.14.2"_s);
    QTest::newRow("number field") << u"pod.json"_s << u"status.containerStatuses.0.restartCount"_s << QJsonValue(2);
    QTest::newRow("object field") << u"pod.json"_s << u"spec.containers.0.resources.limits"_s << QJsonValue(QJsonObject{{u"memory"_s, u"512Mi"_s}});
    QTest::newRow("index out of range is undefined") << u"pod.json"_s << u"spec.containers.3.image"_s << undefined;
    QTest::newRow("path through a scalar is undefined") << u"pod.json"_s << u"status.phase.x"_s << undefined;
    QTest::newRow("escaped dot in a label key") << u"cache/node.json"_s << u"metadata.labels.kubernetes\\.io/hostname"_s << QJsonValue(u"node-3"_s);
    QTest::newRow("non-string nodeName comes from the JSON") << u"cache/widget-cr.json"_s << u"spec.nodeName"_s << QJsonValue(42);
    QTest::newRow("managedFields is gone") << u"cache/pod-managedfields.json"_s << u"metadata.managedFields"_s << undefined;
}

void TestKubeObject::value()
{
    QFETCH(QString, file);
    QFETCH(QString, path);
    const auto object = KubeObject::fromJson(readData(file));
    QVERIFY(object);
    QTEST(object->value(path), "expected");
}

void TestKubeObject::copiesShareData()
{
    const auto object = KubeObject::fromJson(readData(u"pod.json"_s));
    QVERIFY(object);
    // A copy on purpose: copying must share, not duplicate.
    KubeObject copy; // NOLINT(performance-unnecessary-copy-initialization)
    copy = *object;
    QVERIFY(copy == *object);
    // json() builds its bytes on each call (the keys are kept numbered); the fields are shared.
    QCOMPARE(copy.json(), object->json());
    QCOMPARE(copy.name().constData(), object->name().constData());
    QCOMPARE(copy.namespaceName().constData(), object->namespaceName().constData());
}

void TestKubeObject::repeatedStringsAreShared()
{
    // Interning: a second object of the same namespace and kind holds no copy of those strings.
    const auto a = KubeObject::fromJson(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"shop","labels":{"app":"web"}}})");
    const auto b = KubeObject::fromJson(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"shop","labels":{"app":"web"}}})");
    QVERIFY(a && b);
    QCOMPARE(a->namespaceName().constData(), b->namespaceName().constData());
    QCOMPARE(a->kind().constData(), b->kind().constData());
    QCOMPARE(a->labels().first().first.constData(), b->labels().first().first.constData());
    QVERIFY(a->name().constData() != b->name().constData());
}

void TestKubeObject::equalLabelsAndOwnersAreShared_data()
{
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<bool>("labelsShared");
    QTest::addColumn<bool>("ownersShared");
    QTest::addColumn<QString>("labels");
    QTest::addColumn<QString>("owners");
    const QByteArray owner = R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"u-1","controller":true}])";
    QTest::newRow("a pod of the same ReplicaSet shares both lists")
        << QByteArray(R"({"metadata":{"name":"b","labels":{"app":"web","tier":"fe"},)" + owner + "}}") << true << true << u"app=web,tier=fe"_s
        << u"apps/v1 ReplicaSet/web-1 u-1 controller"_s;
    QTest::newRow("other label values share no list") << QByteArray(R"({"metadata":{"name":"b","labels":{"app":"api","tier":"fe"},)" + owner + "}}") << false
                                                      << true << u"app=api,tier=fe"_s << u"apps/v1 ReplicaSet/web-1 u-1 controller"_s;
    QTest::newRow("the same text cut elsewhere is another label set")
        << QByteArray(R"({"metadata":{"name":"b","labels":{"appw":"eb","tier":"fe"},)" + owner + "}}") << false << true << u"appw=eb,tier=fe"_s
        << u"apps/v1 ReplicaSet/web-1 u-1 controller"_s;
    QTest::newRow("another owner uid shares no owner list")
        << QByteArray(
               R"({"metadata":{"name":"b","labels":{"app":"web","tier":"fe"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"u-2","controller":true}]}})")
        << true << false << u"app=web,tier=fe"_s << u"apps/v1 ReplicaSet/web-1 u-2 controller"_s;
    QTest::newRow("an owner that is not the controller shares no owner list")
        << QByteArray(
               R"({"metadata":{"name":"b","labels":{"app":"web","tier":"fe"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"u-1"}]}})")
        << true << false << u"app=web,tier=fe"_s << u"apps/v1 ReplicaSet/web-1 u-1"_s;
    QTest::newRow("labels in another order are still read sorted")
        << QByteArray(R"({"metadata":{"name":"b","labels":{"tier":"fe","app":"web"},)" + owner + "}}") << false << true << u"app=web,tier=fe"_s
        << u"apps/v1 ReplicaSet/web-1 u-1 controller"_s;
}

void TestKubeObject::equalLabelsAndOwnersAreShared()
{
    QFETCH(QByteArray, second);
    QFETCH(bool, labelsShared);
    QFETCH(bool, ownersShared);
    const auto a = KubeObject::fromJson(
        R"({"metadata":{"name":"a","labels":{"app":"web","tier":"fe"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"u-1","controller":true}]}})");
    const auto b = KubeObject::fromJson(second);
    QVERIFY(a && b);
    QTEST(labelsText(*b), "labels");
    QTEST(ownersText(*b), "owners");
    QCOMPARE(labelsText(*a), u"app=web,tier=fe"_s);
    QCOMPARE(ownersText(*a), u"apps/v1 ReplicaSet/web-1 u-1 controller"_s);
    QCOMPARE(a->labels().constData() == b->labels().constData(), labelsShared);
    QCOMPARE(a->ownerReferences().constData() == b->ownerReferences().constData(), ownersShared);
}

void TestKubeObject::identifiersFromStoredBytes_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("uid");
    QTest::addColumn<QString>("rv");
    QTest::newRow("plain identifiers") << QByteArray(R"({"metadata":{"name":"a","uid":"6f1c2a9e-3b1d","resourceVersion":"42"}})") << u"6f1c2a9e-3b1d"_s
                                       << u"42"_s;
    QTest::newRow("after managedFields, which is dropped")
        << QByteArray(R"({"metadata":{"managedFields":[{"manager":"m","uid":"zz"}],"name":"a","uid":"u-9","resourceVersion":"7"}})") << u"u-9"_s << u"7"_s;
    QTest::newRow("written with escapes, found nowhere verbatim")
        << QByteArray(R"({"metadata":{"name":"a","uid":"\u0061b\"c","resourceVersion":"1\u00e92"}})") << u"ab\"c"_s << u"1\u00e92"_s;
    QTest::newRow("non-ASCII text") << QByteArray("{\"metadata\":{\"name\":\"a\",\"uid\":\"caf\xc3\xa9\",\"resourceVersion\":\"9\"}}") << u"caf\u00e9"_s
                                    << u"9"_s;
    QTest::newRow("absent") << QByteArray(R"({"metadata":{"name":"a"}})") << QString() << QString();
    QTest::newRow("null and empty") << QByteArray(R"({"metadata":{"name":"a","uid":null,"resourceVersion":""}})") << QString() << QString();
}

void TestKubeObject::identifiersFromStoredBytes()
{
    QFETCH(QByteArray, json);
    QString error;
    const auto object = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
    QVERIFY2(object, qPrintable(error));
    QTEST(object->uid(), "uid");
    QTEST(object->resourceVersion(), "rv");
    QFETCH(QString, uid);
    QFETCH(QString, rv);
    QCOMPARE(object->value(u"metadata.uid"_s).toString(), uid);
    QCOMPARE(object->value(u"metadata.resourceVersion"_s).toString(), rv);
    QVERIFY(!object->json().contains("managedFields"));
}

void TestKubeObject::controllerReference()
{
    const auto object = KubeObject::fromJson(readData(u"cache/pod-managedfields.json"_s));
    QVERIFY(object);
    const auto controller = object->controllerReference();
    QVERIFY(controller);
    QCOMPARE(controller->kind, u"ReplicaSet"_s);
    const auto node = KubeObject::fromJson(readData(u"cache/node.json"_s));
    QVERIFY(node);
    QVERIFY(!node->controllerReference());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestKubeObject)
#include "tst_kubeobject.moc"
