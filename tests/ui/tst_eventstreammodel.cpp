#include "ui/models/eventstreammodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using Cachescope::EventStreamModel;
using Cachescope::KubeObject;
using Cachescope::Notification;

namespace {

KubeObject object(const QString &json)
{
    const auto parsed = KubeObject::fromJson(json.toUtf8());
    Q_ASSERT(parsed);
    return *parsed;
}

KubeObject pod(const QString &name, int rv, const QString &ns = u"shop"_s)
{
    return object(uR"({"kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%3"},"status":{"phase":"Pending"}})"_s.arg(
        name, ns, QString::number(rv)));
}

QList<Notification> adds(int first, int count, const QString &ns = u"shop"_s)
{
    QList<Notification> batch;
    for (int i = first; i < first + count; ++i) {
        batch << Notification::add(ns + u"/p"_s + QString::number(i), pod(u"p"_s + QString::number(i), i, ns), false);
    }
    return batch;
}

QString keyAt(const EventStreamModel &model, int row)
{
    return model.index(row, EventStreamModel::KeyColumn).data().toString();
}

} // namespace

class TestEventStreamModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsShowEveryColumn();
    void boundedBufferDropsOldestRows_data();
    void boundedBufferDropsOldestRows();
    void oneInsertPerBatch();
    void largeBatchIsMadeInSlices_data();
    void largeBatchIsMadeInSlices();
    void summaries_data();
    void summaries();
    void pauseHoldsBackAndResumes();
    void pauseBufferIsBounded();
    void eventsPerSecondIsRolling();
    void namespacesAreCollected();
};

void TestEventStreamModel::rowsShowEveryColumn()
{
    EventStreamModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setClock([] { return QDateTime(QDate(2026, 12, 2), QTime(9, 30, 15, 250)).toMSecsSinceEpoch(); });
    model.setCluster(u"kind-dev"_s);
    model.append(u"pods"_s, {Notification::add(u"shop/web"_s, pod(u"web"_s, 42), true)});
    QCOMPARE(model.rowCount(), 1);
    const auto cell = [&model](int column) {
        return model.index(0, column).data().toString();
    };
    QCOMPARE(cell(EventStreamModel::TimeColumn), u"09:30:15.250"_s);
    QCOMPARE(cell(EventStreamModel::ClusterColumn), u"kind-dev"_s);
    QCOMPARE(cell(EventStreamModel::ResourceColumn), u"pods"_s);
    QCOMPARE(cell(EventStreamModel::TypeColumn), u"Added"_s);
    QCOMPARE(cell(EventStreamModel::KeyColumn), u"shop/web"_s);
    QCOMPARE(cell(EventStreamModel::ResourceVersionColumn), u"42"_s);
    QCOMPARE(cell(EventStreamModel::SummaryColumn), u"Pod, initial list, phase Pending"_s);
    QCOMPARE(model.index(0, 0).data(EventStreamModel::NamespaceRole).toString(), u"shop"_s);
    QCOMPARE(model.index(0, 0).data(EventStreamModel::TypeRole).toInt(), static_cast<int>(Notification::Type::Add));
}

void TestEventStreamModel::boundedBufferDropsOldestRows_data()
{
    QTest::addColumn<QList<int>>("batchSizes");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<int>("firstKept");
    QTest::addColumn<int>("rows");
    QTest::newRow("under capacity keeps all") << QList<int>{3, 4} << 10 << 0 << 7;
    QTest::newRow("overflow removes the oldest") << QList<int>{6, 6} << 10 << 2 << 10;
    QTest::newRow("one batch larger than the buffer keeps its tail") << QList<int>{3, 25} << 10 << 18 << 10;
    QTest::newRow("capacity of one") << QList<int>{2, 2, 2} << 1 << 5 << 1;
}

void TestEventStreamModel::boundedBufferDropsOldestRows()
{
    QFETCH(QList<int>, batchSizes);
    QFETCH(int, capacity);
    QFETCH(int, firstKept);
    QFETCH(int, rows);

    EventStreamModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(capacity);
    int next = 0;
    for (const int size : std::as_const(batchSizes)) {
        model.append(u"pods"_s, adds(next, size));
        next += size;
    }
    QCOMPARE(model.rowCount(), rows);
    QCOMPARE(keyAt(model, 0), u"shop/p"_s + QString::number(firstKept));
    QCOMPARE(keyAt(model, rows - 1), u"shop/p"_s + QString::number(next - 1));

    model.setCapacity(std::max(1, rows / 2));
    QCOMPARE(model.rowCount(), std::max(1, rows / 2));
    QCOMPARE(keyAt(model, model.rowCount() - 1), u"shop/p"_s + QString::number(next - 1));
}

void TestEventStreamModel::oneInsertPerBatch()
{
    EventStreamModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(100);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.append(u"pods"_s, adds(0, 80));
    model.append(u"pods"_s, adds(80, 50));
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(inserted.at(1).at(1).toInt(), 50);
    QCOMPARE(inserted.at(1).at(2).toInt(), 99);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(2).toInt(), 29);
    QCOMPARE(reset.count(), 0);
}

void TestEventStreamModel::largeBatchIsMadeInSlices_data()
{
    QTest::addColumn<int>("capacity");
    QTest::addColumn<bool>("paused");
    QTest::addColumn<int>("shown"); // rows at the end, the newest
    QTest::addColumn<int>("heldBack");
    QTest::newRow("under capacity") << 10000 << false << 1030 << 0;
    QTest::newRow("over capacity: the newest kept") << 300 << false << 300 << 0;
    QTest::newRow("paused: held back, then shown") << 10000 << true << 1030 << 1030;
}

// A batch larger than a slice is made into rows over several passes of the event loop, in
// order, and a batch appended meanwhile comes after it.
void TestEventStreamModel::largeBatchIsMadeInSlices()
{
    QFETCH(int, capacity);
    QFETCH(bool, paused);
    QFETCH(int, shown);
    QFETCH(int, heldBack);

    EventStreamModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(capacity);
    model.setPaused(paused);
    // 100 rows a slice, however fast they are made: each slice is exactly 100.
    model.setSlicing(100, std::chrono::nanoseconds(0));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

    model.append(u"pods"_s, adds(0, 1000));
    const int firstSlice = std::min(100, capacity);
    QCOMPARE(model.rowCount() + model.pendingCount(), firstSlice);
    QCOMPARE(model.backlogCount(), std::min(1000, capacity) - firstSlice);
    model.append(u"pods"_s, adds(1000, 30));
    QCOMPARE(model.rowCount() + model.pendingCount(), firstSlice); // behind the backlog, not beside it

    QTRY_COMPARE(model.backlogCount(), 0);
    QCOMPARE(model.pendingCount(), heldBack);
    model.setPaused(false);
    QCOMPARE(model.rowCount(), shown);
    QCOMPARE(model.pendingCount(), 0);
    for (int row = 0; row < shown; ++row) {
        QCOMPARE(keyAt(model, row), u"shop/p"_s + QString::number(1030 - shown + row));
    }
    if (!paused) {
        QVERIFY(inserted.count() > 1);
    }
}

void TestEventStreamModel::summaries_data()
{
    QTest::addColumn<Notification>("notification");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("expected");

    const KubeObject pending = object(
        uR"({"kind":"Pod","metadata":{"name":"web","namespace":"shop","resourceVersion":"1","labels":{"tier":"web"}},"spec":{"nodeName":"node-1"},"status":{"phase":"Pending"}})"_s);
    const KubeObject running = object(
        uR"({"kind":"Pod","metadata":{"name":"web","namespace":"shop","resourceVersion":"2","labels":{"app":"web","tier":"web"}},"spec":{"nodeName":"node-1"},"status":{"phase":"Running"}})"_s);
    const KubeObject running3 = object(
        uR"({"kind":"Pod","metadata":{"name":"web","namespace":"shop","resourceVersion":"3","labels":{"app":"web","tier":"web"}},"spec":{"nodeName":"node-1"},"status":{"phase":"Running"}})"_s);

    QTest::newRow("update names changed scalars and added paths")
        << Notification::update(u"shop/web"_s, pending, running) << u"pods"_s << u"+metadata.labels.app: web, status.phase: Pending → Running"_s;
    QTest::newRow("update of resourceVersion only") << Notification::update(u"shop/web"_s, running, running3) << u"pods"_s << u"resourceVersion only"_s;
    QTest::newRow("resync of identical objects") << Notification::update(u"shop/web"_s, running, running) << u"pods"_s << u"no change (resync)"_s;
    QTest::newRow("removed path") << Notification::update(u"shop/web"_s, running, pending) << u"pods"_s
                                  << u"-metadata.labels.app, status.phase: Running → Pending"_s;
    QTest::newRow("add describes the object") << Notification::add(u"shop/web"_s, pending, false) << u"pods"_s << u"Pod, phase Pending, node node-1"_s;
    QTest::newRow("delete names the last phase") << Notification::remove(u"shop/web"_s, running) << u"pods"_s << u"Pod, last phase Running"_s;
    QTest::newRow("tombstone says the state is unknown") << Notification::remove(u"shop/web"_s, Cachescope::DeletedFinalStateUnknown{u"shop/web"_s, {}})
                                                         << u"pods"_s << u"deleted while the watch was down (final state unknown)"_s;

    QString many = uR"({"kind":"ConfigMap","metadata":{"name":"c","resourceVersion":"1"},"data":{)"_s;
    QString manyChanged = many;
    for (int i = 0; i < 7; ++i) {
        many += u"\"k%1\":\"v\"%2"_s.arg(i).arg(i < 6 ? u","_s : QString());
        manyChanged += u"\"k%1\":\"w\"%2"_s.arg(i).arg(i < 6 ? u","_s : QString());
    }
    many += u"}}"_s;
    manyChanged += u"}}"_s;
    QTest::newRow("many changes are counted") << Notification::update(u"c"_s, object(many), object(manyChanged)) << u"configmaps"_s
                                              << u"data.k0: v → w, data.k1: v → w, data.k2: v → w, data.k3: v → w, +3 more"_s;

    const QString secretJson = uR"({"kind":"Secret","metadata":{"name":"s","resourceVersion":"%1"},"type":"Opaque","data":{"password":"%2"}})"_s;
    QTest::newRow("secret values never appear") << Notification::update(u"s"_s,
                                                                        object(secretJson.arg(u"1"_s, u"aHVudGVyMg=="_s)),
                                                                        object(secretJson.arg(u"2"_s, u"c3dvcmRmaXNo"_s)))
                                                << u"secrets"_s << u"data.password"_s;
    const QString listedSecret = uR"({"metadata":{"name":"s","resourceVersion":"%1"},"type":"Opaque","data":{"password":"%2"}})"_s;
    QTest::newRow("secret without kind is recognised by its resource")
        << Notification::update(u"s"_s, object(listedSecret.arg(u"1"_s, u"aHVudGVyMg=="_s)), object(listedSecret.arg(u"2"_s, u"c3dvcmRmaXNo"_s)))
        << u"secrets"_s << u"data.password"_s;
    QTest::newRow("secret without kind or resource is recognised by its shape")
        << Notification::update(u"s"_s, object(listedSecret.arg(u"1"_s, u"aHVudGVyMg=="_s)), object(listedSecret.arg(u"2"_s, u"c3dvcmRmaXNo"_s))) << QString()
        << u"data.password"_s;
    QTest::newRow("long values are shortened") << Notification::update(
                                                      u"c"_s,
                                                      object(uR"({"metadata":{"name":"c"},"spec":{"image":"a"}})"_s),
                                                      object(uR"({"metadata":{"name":"c"},"spec":{"image":"registry.example/a/very/long/image:1.2.3"}})"_s))
                                               << u"deployments"_s << u"spec.image: a → registry.example/a/very/long/im…"_s;
}

void TestEventStreamModel::summaries()
{
    QFETCH(Notification, notification);
    QFETCH(QString, resource);
    QFETCH(QString, expected);
    QCOMPARE(EventStreamModel::summary(notification, resource), expected);

    EventStreamModel model;
    model.append(resource, {notification});
    QCOMPARE(model.index(0, EventStreamModel::SummaryColumn).data().toString(), expected);
}

void TestEventStreamModel::pauseHoldsBackAndResumes()
{
    EventStreamModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy pausedChanged(&model, &EventStreamModel::pausedChanged);
    model.append(u"pods"_s, adds(0, 2));
    model.setPaused(true);
    model.append(u"pods"_s, adds(2, 3));
    model.append(u"pods"_s, adds(5, 1));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.pendingCount(), 4);

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setPaused(false);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.pendingCount(), 0);
    QCOMPARE(keyAt(model, 5), u"shop/p5"_s);
    QCOMPARE(pausedChanged.count(), 2);
    QCOMPARE(model.droppedWhilePaused(), 0);
}

void TestEventStreamModel::pauseBufferIsBounded()
{
    EventStreamModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(5);
    model.setPaused(true);
    model.append(u"pods"_s, adds(0, 4));
    model.append(u"pods"_s, adds(4, 8));
    QCOMPARE(model.pendingCount(), 5);
    QCOMPARE(model.droppedWhilePaused(), 7);
    model.setPaused(false);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(keyAt(model, 0), u"shop/p7"_s);
    QCOMPARE(keyAt(model, 4), u"shop/p11"_s);
}

void TestEventStreamModel::eventsPerSecondIsRolling()
{
    EventStreamModel model;
    qint64 now = 1'000'000'000;
    model.setClock([&now] { return now; });
    QCOMPARE(model.eventsPerSecond(), 0.0);
    for (int second = 0; second < EventStreamModel::RateWindowSeconds; ++second) {
        model.append(u"pods"_s, adds(second * 10, 10));
        now += 1000;
    }
    now -= 1000;
    QCOMPARE(model.eventsPerSecond(), 10.0);

    // Paused events still count: the rate is what the informer delivers.
    model.setPaused(true);
    now += 1000;
    model.append(u"pods"_s, adds(100, 20));
    QCOMPARE(model.eventsPerSecond(), 12.0);

    now += 1000 * EventStreamModel::RateWindowSeconds;
    QCOMPARE(model.eventsPerSecond(), 0.0);
}

void TestEventStreamModel::namespacesAreCollected()
{
    EventStreamModel model;
    QSignalSpy changed(&model, &EventStreamModel::namespacesChanged);
    model.append(u"pods"_s, adds(0, 2, u"shop"_s));
    model.append(u"pods"_s, adds(2, 2, u"shop"_s));
    model.append(u"pods"_s, adds(4, 1, u"billing"_s));
    model.append(u"nodes"_s, {Notification::add(u"node-1"_s, object(uR"({"kind":"Node","metadata":{"name":"node-1"}})"_s), false)});
    QCOMPARE(model.namespaces(), (QStringList{u"billing"_s, u"shop"_s}));
    QCOMPARE(changed.count(), 2);
    QCOMPARE(model.index(5, 0).data(EventStreamModel::NamespaceRole).toString(), QString());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestEventStreamModel)
#include "tst_eventstreammodel.moc"
