// EventRecord: what the Events of an object show of a core/v1 or events.k8s.io/v1 Event.
#include "core/relations/eventrecord.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestEventRecord : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reads_data();
    void reads();
};

void TestEventRecord::reads_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("fields"); // type, reason, message, source, object kind/ns/name/uid
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("firstSeen");
    QTest::addColumn<QString>("lastSeen");

    const QByteArray created = R"("metadata":{"name":"e","namespace":"shop","creationTimestamp":"2026-01-01T09:00:00Z"})";
    QTest::newRow("core/v1 with counts and timestamps")
        << QByteArray(R"({"apiVersion":"v1","kind":"Event",)" + created +
                      R"(,"involvedObject":{"kind":"Pod","namespace":"shop","name":"web-1","uid":"u-1"},"type":"Warning","reason":"BackOff",)"
                      R"("message":"Back-off restarting failed container","source":{"component":"kubelet","host":"node-1"},"count":4,)"
                      R"("firstTimestamp":"2026-01-01T10:00:00Z","lastTimestamp":"2026-01-01T10:05:00Z"})")
        << QStringList{u"Warning"_s, u"BackOff"_s, u"Back-off restarting failed container"_s, u"kubelet, node-1"_s, u"Pod"_s, u"shop"_s, u"web-1"_s, u"u-1"_s}
        << 4 << u"2026-01-01T10:00:00Z"_s << u"2026-01-01T10:05:00Z"_s;
    QTest::newRow("core/v1 with a series: its count and last observed time")
        << QByteArray(
               R"({"apiVersion":"v1","kind":"Event",)" + created +
               R"(,"involvedObject":{"kind":"Widget","namespace":"shop","name":"w"},"type":"Normal","reason":"Synced","message":"ok",)"
               R"("reportingComponent":"widget-controller","eventTime":"2026-01-01T10:00:00.000000Z","series":{"count":9,"lastObservedTime":"2026-01-01T10:30:00.000000Z"}})")
        << QStringList{u"Normal"_s, u"Synced"_s, u"ok"_s, u"widget-controller"_s, u"Widget"_s, u"shop"_s, u"w"_s, QString()} << 9 << u"2026-01-01T10:00:00Z"_s
        << u"2026-01-01T10:30:00Z"_s;
    QTest::newRow("core/v1 without timestamps: the creation time, count 1")
        << QByteArray(
               R"({"apiVersion":"v1","kind":"Event",)" + created +
               R"(,"involvedObject":{"kind":"Pod","namespace":"shop","name":"p"},"type":"Normal","reason":"Pulled","message":"done","count":0,"eventTime":null})")
        << QStringList{u"Normal"_s, u"Pulled"_s, u"done"_s, QString(), u"Pod"_s, u"shop"_s, u"p"_s, QString()} << 1 << u"2026-01-01T09:00:00Z"_s
        << u"2026-01-01T09:00:00Z"_s;
    QTest::newRow("events.k8s.io/v1: regarding, note, reportingController, deprecated counts")
        << QByteArray(R"({"apiVersion":"events.k8s.io/v1","kind":"Event",)" + created +
                      R"(,"regarding":{"kind":"Deployment","namespace":"shop","name":"web","uid":"d-1"},"type":"Normal","reason":"ScalingReplicaSet",)"
                      R"("note":"Scaled up replica set web-5d to 3","reportingController":"deployment-controller","deprecatedCount":2,)"
                      R"("deprecatedFirstTimestamp":"2026-01-01T10:00:00Z","deprecatedLastTimestamp":"2026-01-01T10:01:00Z","eventTime":null})")
        << QStringList{u"Normal"_s,
                       u"ScalingReplicaSet"_s,
                       u"Scaled up replica set web-5d to 3"_s,
                       u"deployment-controller"_s,
                       u"Deployment"_s,
                       u"shop"_s,
                       u"web"_s,
                       u"d-1"_s}
        << 2 << u"2026-01-01T10:00:00Z"_s << u"2026-01-01T10:01:00Z"_s;
}

void TestEventRecord::reads()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, fields);
    QFETCH(int, count);
    QFETCH(QString, firstSeen);
    QFETCH(QString, lastSeen);

    const auto event = KubeObject::fromJson(json);
    QVERIFY(event);
    const EventRecord record = EventRecord::fromObject(*event);
    QCOMPARE((QStringList{
                 record.type, record.reason, record.message, record.source, record.objectKind, record.objectNamespace, record.objectName, record.objectUid}),
             fields);
    QCOMPARE(record.count, count);
    QCOMPARE(record.firstSeen.toString(Qt::ISODate), firstSeen);
    QCOMPARE(record.lastSeen.toString(Qt::ISODate), lastSeen);
    QCOMPARE(record.isWarning(), record.type == u"Warning"_s);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestEventRecord)
#include "tst_eventrecord.moc"
