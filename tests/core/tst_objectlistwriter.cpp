#include "core/printers/objectlistwriter.h"

#include "core/cache/kubeobject.h"
#include "core/kube/jsontoyaml.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QTextStream>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

// The writer's promise: writing object by object gives the very bytes of converting the whole
// `List` as one document, which is how `get -o json|yaml` printed before (and what the
// comparisons with kubectl in tst_cligetwatch pin).
class TestObjectListWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameBytesAsTheWholeDocument_data();
    void sameBytesAsTheWholeDocument();
};

namespace {

KubeObject object(const QByteArray &json)
{
    QString error;
    const auto decoded = KubeObject::fromJson(json, KubeObject::Transform::DropManagedFields, &error);
    if (!decoded) {
        qFatal("test object does not decode: %s", qPrintable(error));
    }
    return *decoded;
}

QByteArray readData(const QString &name)
{
    QFile file(QStringLiteral(CACHESCOPE_TEST_DATA "/") + name);
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", qPrintable(file.fileName()));
    }
    return file.readAll();
}

// The whole list as one compact document: the oracle, written independently of the writer.
QByteArray wholeList(const QList<KubeObject> &objects)
{
    QByteArray out = R"({"apiVersion":"v1","items":[)";
    for (qsizetype i = 0; i < objects.size(); ++i) {
        out += (i ? "," : "") + objects.at(i).json();
    }
    return out + R"(],"kind":"List","metadata":{"resourceVersion":""}})";
}

QByteArray written(const QList<KubeObject> &objects, ObjectListWriter::Format format)
{
    QByteArray bytes;
    QTextStream out(&bytes);
    ObjectListWriter writer(out, format);
    for (const KubeObject &item : objects) {
        writer.write(item);
    }
    writer.finish();
    out.flush();
    return bytes;
}

} // namespace

void TestObjectListWriter::sameBytesAsTheWholeDocument_data()
{
    QTest::addColumn<QList<KubeObject>>("objects");

    const KubeObject pod = object(readData(u"pod.json"_s));
    const KubeObject configMap = object(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"shop","labels":{}},)"
                                        R"("data":{"script":"#!/bin/sh\necho hi\n","spaced":"  two\n lines","empty":"","yes":"yes","n":"1.5"}})");
    const KubeObject nested = object(R"({"apiVersion":"v1","kind":"List","metadata":{"name":"x","annotations":{"a.b/c":"ü 🚀 \"q\""}},)"
                                     R"("spec":{"m":[[1,2],[],[{}],{"k":[true,false,null]}],"e":{},"f":-0.25,"big":12345678901234}})");

    QTest::newRow("no objects") << QList<KubeObject>{};
    QTest::newRow("one pod") << QList<KubeObject>{pod};
    QTest::newRow("multi-line strings, empty maps, scalars that look typed") << QList<KubeObject>{configMap};
    QTest::newRow("nested lists and maps, unicode, numbers") << QList<KubeObject>{nested, pod, configMap};
}

void TestObjectListWriter::sameBytesAsTheWholeDocument()
{
    QFETCH(QList<KubeObject>, objects);
    const QByteArray whole = wholeList(objects);
    const QJsonDocument document = QJsonDocument::fromJson(whole);
    QVERIFY(document.isObject());

    QCOMPARE(written(objects, ObjectListWriter::Format::CompactJson), whole);
    QCOMPARE(written(objects, ObjectListWriter::Format::Json), document.toJson(QJsonDocument::Indented));
    QCOMPARE(written(objects, ObjectListWriter::Format::Yaml), jsonToYaml(document.object()));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestObjectListWriter)
#include "tst_objectlistwriter.moc"
