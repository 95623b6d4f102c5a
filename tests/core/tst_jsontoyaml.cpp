#include "core/kube/jsontoyaml.h"

#include "testmain.h"
#include "testpaths.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

class TestJsonToYaml : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void render_data();
    void render();
    void samplePod();
};

void TestJsonToYaml::render_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QByteArray>("yaml");

    QTest::newRow("keys sorted like kubectl") << QByteArray(R"({"b":1,"a":"x"})") << QByteArray("a: x\nb: 1\n");
    QTest::newRow("nested map in block style") << QByteArray(R"({"metadata":{"name":"p","labels":{"app":"web"}}})")
                                               << QByteArray("metadata:\n  labels:\n    app: web\n  name: p\n");
    QTest::newRow("list of maps indented under key") << QByteArray(R"({"containers":[{"name":"a","image":"i"}]})")
                                                     << QByteArray("containers:\n  - image: i\n    name: a\n");
    QTest::newRow("empty map and list in flow style") << QByteArray(R"({"a":{},"b":[]})") << QByteArray("a: {}\nb: []\n");
    QTest::newRow("integral number without fraction") << QByteArray(R"({"replicas":3.0,"big":9007199254740992})")
                                                      << QByteArray("big: 9007199254740992\nreplicas: 3\n");
    QTest::newRow("fractional number kept") << QByteArray(R"({"ratio":0.25})") << QByteArray("ratio: 0.25\n");
    QTest::newRow("string that reads as bool is quoted") << QByteArray(R"({"value":"true"})") << QByteArray("value: \"true\"\n");
    QTest::newRow("string that reads as number is quoted") << QByteArray(R"({"port":"8080"})") << QByteArray("port: \"8080\"\n");
    QTest::newRow("real bool and null plain") << QByteArray(R"({"a":true,"b":null})") << QByteArray("a: true\nb: ~\n");
    QTest::newRow("multi-line string ending in newline as literal block")
        << QByteArray(R"({"data":"line1\nline2\n"})") << QByteArray("data: |\n  line1\n  line2\n");
    QTest::newRow("multi-line string without final newline quoted exactly")
        << QByteArray(R"({"data":"line1\nline2"})") << QByteArray("data: \"line1\\nline2\"\n");
    QTest::newRow("string that reads as null is quoted") << QByteArray(R"({"a":"null","b":"~","c":""})") << QByteArray("a: \"null\"\nb: \"~\"\nc: \"\"\n");
    QTest::newRow("yaml 1.1 booleans quoted") << QByteArray(R"({"a":"yes","b":"off"})") << QByteArray("a: \"yes\"\nb: \"off\"\n");
    QTest::newRow("string that reads as float is quoted")
        << QByteArray(R"({"a":"1.5","b":"1e3","c":".inf"})") << QByteArray("a: \"1.5\"\nb: \"1e3\"\nc: \".inf\"\n");
    QTest::newRow("timestamps quoted like kubectl") << QByteArray(R"({"creationTimestamp":"2026-11-30T09:12:44Z"})")
                                                    << QByteArray("creationTimestamp: \"2026-11-30T09:12:44Z\"\n");
    QTest::newRow("ordinary strings stay plain") << QByteArray(R"({"a":"250m","b":"v1.2","c":"10.244.3.17"})")
                                                 << QByteArray("a: 250m\nb: v1.2\nc: 10.244.3.17\n");
    QTest::newRow("utf-8 kept") << QByteArray(R"({"note":"缓存"})") << QByteArray("note: 缓存\n");
}

void TestJsonToYaml::render()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, yaml);
    const QJsonDocument document = QJsonDocument::fromJson(json);
    QVERIFY(document.isObject());
    QCOMPARE(Cachescope::jsonToYaml(document.object()), yaml);
}

void TestJsonToYaml::samplePod()
{
    QFile file(QStringLiteral(CACHESCOPE_TEST_DATA "/pod.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QFile expected(QStringLiteral(CACHESCOPE_TEST_DATA "/pod.yaml"));
    QVERIFY(expected.open(QIODevice::ReadOnly));
    QCOMPARE(Cachescope::jsonToYaml(QJsonDocument::fromJson(file.readAll()).object()), expected.readAll());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestJsonToYaml)
#include "tst_jsontoyaml.moc"
