// The simulator's JsonWriter must write exactly what QJsonDocument::toJson(Compact) writes: the
// stored bytes of every object are what clients receive, and the workload for a seed must not
// change because the serializer got faster.
#include "core/sim/jsonwriter.h"
#include "core/sim/objectstore.h"
#include "core/sim/workloadgenerator.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <limits>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope::Sim;

class TestSimJsonWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writesWhatQtWrites_data()
    {
        QTest::addColumn<QJsonObject>("object");
        QTest::newRow("empty object") << QJsonObject();
        QTest::newRow("keys come out sorted") << QJsonObject{{u"b"_s, 1}, {u"a"_s, 2}, {u"C"_s, 3}};
        QTest::newRow("quotes, backslashes and control characters are escaped") << QJsonObject{{u"s"_s, u"a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj/"_s}};
        QTest::newRow("non-ASCII text is UTF-8") << QJsonObject{{u"s"_s, u"é 简体中文 €"_s}, {u"ключ"_s, u"значение"_s}};
        QTest::newRow("a surrogate pair is one 4-byte character") << QJsonObject{{u"s"_s, QString::fromUcs4(U"emoji \U0001F600 end")}};
        QTest::newRow("lone surrogates are escaped") << QJsonObject{
            {u"high"_s, QString(QString(QChar(0xd83d)) + u"x"_s)}, {u"low"_s, QString(QChar(0xde00))}, {u"end"_s, QString(u"x"_s + QChar(0xd83d))}};
        QTest::newRow("integers stay integers") << QJsonObject{
            {u"zero"_s, 0}, {u"million"_s, 1000000}, {u"negative"_s, -42}, {u"big"_s, qint64(1) << 53}, {u"max"_s, std::numeric_limits<qint64>::max()}};
        QTest::newRow("doubles in their shortest form") << QJsonObject{
            {u"tenth"_s, 0.1}, {u"integral"_s, 1000000.0}, {u"huge"_s, 1e21}, {u"tiny"_s, 1.5e-7}, {u"negativeZero"_s, -0.0}, {u"third"_s, 1.0 / 3}};
        QTest::newRow("non-finite doubles are null") << QJsonObject{{u"nan"_s, std::numeric_limits<double>::quiet_NaN()},
                                                                    {u"inf"_s, std::numeric_limits<double>::infinity()}};
        QTest::newRow("booleans and null") << QJsonObject{{u"t"_s, true}, {u"f"_s, false}, {u"n"_s, QJsonValue::Null}};
        QTest::newRow("nested arrays and objects") << QJsonObject{
            {u"a"_s, QJsonArray{1, u"x"_s, QJsonArray(), QJsonObject(), QJsonArray{QJsonObject{{u"k"_s, QJsonArray{true, QJsonValue::Null}}}}}},
            {u"o"_s, QJsonObject{{u"inner"_s, QJsonObject{{u"deep"_s, 2.5}}}}}};
    }
    void writesWhatQtWrites()
    {
        QFETCH(QJsonObject, object);
        QCOMPARE(JsonWriter::compact(object), QJsonDocument(object).toJson(QJsonDocument::Compact));
    }

    // Every object the workload generator makes, as the store keeps it, is what Qt's writer
    // makes of the same object.
    void generatedObjectsAreWhatQtWrites()
    {
        ResourceCatalog catalog;
        ObjectStore store;
        WorkloadGenerator::Settings settings;
        settings.pods = 60;
        settings.seed = 5;
        WorkloadGenerator generator(&store, &catalog, settings);
        generator.populate();
        qsizetype objects = 0;
        for (const ResourceType &type : catalog.resources()) {
            const QList<ObjectPtr> stored = store.list(type);
            for (const ObjectPtr &object : stored) {
                const QJsonDocument parsed = QJsonDocument::fromJson(object->json);
                QVERIFY2(parsed.isObject(), object->json.constData());
                QCOMPARE(object->json, parsed.toJson(QJsonDocument::Compact));
                ++objects;
            }
        }
        QCOMPARE(store.count(catalog.findById(u"pods"_s)), qsizetype(settings.pods));
        QVERIFY(objects > settings.pods);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimJsonWriter)
#include "tst_simjsonwriter.moc"
