// Tests of the simulator's patch formats: JSON merge patch, strategic merge patch, JSON patch.
#include "core/sim/jsonpatch.h"

#include "testmain.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

namespace {
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(text).object();
}
} // namespace

class TestSimJsonPatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mergePatch_data()
    {
        QTest::addColumn<QJsonObject>("target");
        QTest::addColumn<QJsonObject>("patch");
        QTest::addColumn<QJsonObject>("expected");
        QTest::newRow("adds a label") << json(R"({"metadata":{"labels":{"a":"1"}}})") << json(R"({"metadata":{"labels":{"b":"2"}}})")
                                      << json(R"({"metadata":{"labels":{"a":"1","b":"2"}}})");
        QTest::newRow("null removes a key") << json(R"({"metadata":{"labels":{"a":"1","b":"2"}}})") << json(R"({"metadata":{"labels":{"a":null}}})")
                                            << json(R"({"metadata":{"labels":{"b":"2"}}})");
        QTest::newRow("lists are replaced") << json(R"({"spec":{"list":[1,2,3]}})") << json(R"({"spec":{"list":[4]}})") << json(R"({"spec":{"list":[4]}})");
        QTest::newRow("scale") << json(R"({"spec":{"replicas":1,"x":true}})") << json(R"({"spec":{"replicas":5}})")
                               << json(R"({"spec":{"replicas":5,"x":true}})");
    }
    void mergePatch()
    {
        QFETCH(QJsonObject, target);
        QFETCH(QJsonObject, patch);
        QFETCH(QJsonObject, expected);
        QCOMPARE(JsonPatch::mergePatch(target, patch), expected);
    }

    void strategicMergePatch_data()
    {
        QTest::addColumn<QJsonObject>("target");
        QTest::addColumn<QJsonObject>("patch");
        QTest::addColumn<QJsonObject>("expected");
        const QJsonObject pod =
            json(R"({"spec":{"containers":[{"name":"a","image":"a:1","ports":[{"name":"http","containerPort":80}]},{"name":"b","image":"b:1"}]}})");
        QTest::newRow("containers merge by name")
            << pod << json(R"({"spec":{"containers":[{"name":"b","image":"b:2"}]}})")
            << json(R"({"spec":{"containers":[{"name":"a","image":"a:1","ports":[{"name":"http","containerPort":80}]},{"name":"b","image":"b:2"}]}})");
        QTest::newRow("a new name is appended")
            << pod << json(R"({"spec":{"containers":[{"name":"c","image":"c:1"}]}})")
            << json(
                   R"({"spec":{"containers":[{"name":"a","image":"a:1","ports":[{"name":"http","containerPort":80}]},{"name":"b","image":"b:1"},{"name":"c","image":"c:1"}]}})");
        QTest::newRow("$patch delete removes an element")
            << pod << json(R"({"spec":{"containers":[{"name":"a","$patch":"delete"}]}})") << json(R"({"spec":{"containers":[{"name":"b","image":"b:1"}]}})");
        QTest::newRow("$setElementOrder is ignored") << json(R"({"metadata":{"labels":{"a":"1"}}})")
                                                     << json(R"({"$setElementOrder/containers":[{"name":"a"}],"metadata":{"labels":{"b":"2"}}})")
                                                     << json(R"({"metadata":{"labels":{"a":"1","b":"2"}}})");
        QTest::newRow("conditions merge by type")
            << json(R"({"status":{"conditions":[{"type":"Ready","status":"False"},{"type":"Initialized","status":"True"}]}})")
            << json(R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})")
            << json(R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"Initialized","status":"True"}]}})");
        QTest::newRow("$patch replace replaces a map")
            << json(R"({"metadata":{"labels":{"a":"1"}}})") << json(R"({"metadata":{"labels":{"$patch":"replace","b":"2"}}})")
            << json(R"({"metadata":{"labels":{"b":"2"}}})");
    }
    void strategicMergePatch()
    {
        QFETCH(QJsonObject, target);
        QFETCH(QJsonObject, patch);
        QFETCH(QJsonObject, expected);
        QCOMPARE(JsonPatch::strategicMergePatch(target, patch), expected);
    }

    void jsonPatch_data()
    {
        QTest::addColumn<QByteArray>("operations");
        QTest::addColumn<QJsonObject>("expected"); // empty: the patch fails
        QTest::newRow("replace") << QByteArray(R"([{"op":"replace","path":"/spec/replicas","value":3}])") << json(R"({"spec":{"replicas":3,"items":["x"]}})");
        QTest::newRow("add to a map") << QByteArray(R"([{"op":"add","path":"/metadata~1x","value":1}])")
                                      << json(R"({"spec":{"replicas":1,"items":["x"]},"metadata/x":1})");
        QTest::newRow("append to a list") << QByteArray(R"([{"op":"add","path":"/spec/items/-","value":"y"}])")
                                          << json(R"({"spec":{"replicas":1,"items":["x","y"]}})");
        QTest::newRow("remove") << QByteArray(R"([{"op":"remove","path":"/spec/items/0"}])") << json(R"({"spec":{"replicas":1,"items":[]}})");
        QTest::newRow("failed test aborts") << QByteArray(R"([{"op":"test","path":"/spec/replicas","value":2},{"op":"remove","path":"/spec"}])")
                                            << QJsonObject();
        QTest::newRow("replace of a missing key fails") << QByteArray(R"([{"op":"replace","path":"/spec/missing","value":1}])") << QJsonObject();
        QTest::newRow("unknown operation fails") << QByteArray(R"([{"op":"move","from":"/a","path":"/b"}])") << QJsonObject();
    }
    void jsonPatch()
    {
        QFETCH(QByteArray, operations);
        QFETCH(QJsonObject, expected);
        const QJsonObject target = json(R"({"spec":{"replicas":1,"items":["x"]}})");
        QString error;
        const std::optional<QJsonObject> result = JsonPatch::jsonPatch(target, QJsonDocument::fromJson(operations).array(), &error);
        if (expected.isEmpty()) {
            QVERIFY(!result.has_value());
            QVERIFY(!error.isEmpty());
        } else {
            QVERIFY2(result.has_value(), qPrintable(error));
            QCOMPARE(*result, expected);
        }
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimJsonPatch)
#include "tst_simjsonpatch.moc"
