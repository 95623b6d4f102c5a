#include "ui/models/objecthistory.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using Cachescope::KubeObject;
using Cachescope::Notification;
using Cachescope::ObjectHistory;

namespace {

KubeObject pod(const QString &name, int resourceVersion, const QString &phase = u"Pending"_s)
{
    const QString json =
        uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"%1","namespace":"shop","resourceVersion":"%2"},"status":{"phase":"%3"}})"_s.arg(
            name, QString::number(resourceVersion), phase);
    return *KubeObject::fromJson(json.toUtf8());
}

Notification add(const QString &name, int rv)
{
    return Notification::add(u"shop/"_s + name, pod(name, rv), false);
}

Notification update(const QString &name, int oldRv, int newRv)
{
    return Notification::update(u"shop/"_s + name, pod(name, oldRv), pod(name, newRv, u"Running"_s));
}

} // namespace

class TestObjectHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recordsEveryNotificationOfTheCurrentKey();
    void perKeyCapDropsOldestVersions();
    void globalCapEvictsLeastRecentlyUsedKeys_data();
    void globalCapEvictsLeastRecentlyUsedKeys();
    void currentKeyIsEvictedLast();
    void updateWithoutOldObjectDiffsAgainstPreviousVersion();
    void resourcesKeepSeparateHistories();
    void deleteTombstoneIsRecorded();
    void secretMasking_data();
    void secretMasking();
};

void TestObjectHistory::recordsEveryNotificationOfTheCurrentKey()
{
    ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    int tick = 0;
    history.setClock([&tick] { return QDateTime(QDate(2026, 12, 2), QTime(10, 0, tick++)); });
    history.setCurrentKey(u"pods"_s, u"shop/web"_s);
    QSignalSpy inserted(&history, &QAbstractItemModel::rowsInserted);

    history.append(u"pods"_s, {add(u"web"_s, 1), add(u"db"_s, 2)});
    history.append(u"pods"_s, {update(u"web"_s, 1, 3)});
    history.append(u"pods"_s, {Notification::remove(u"shop/web"_s, pod(u"web"_s, 4))});

    QCOMPARE(history.rowCount(), 3);
    QCOMPARE(inserted.count(), 3);
    QCOMPARE(history.index(0, ObjectHistory::TypeColumn).data().toString(), u"Added"_s);
    QCOMPARE(history.index(1, ObjectHistory::TypeColumn).data().toString(), u"Updated"_s);
    QCOMPARE(history.index(2, ObjectHistory::TypeColumn).data().toString(), u"Deleted"_s);
    QCOMPARE(history.index(1, ObjectHistory::ResourceVersionColumn).data().toString(), u"3"_s);
    QCOMPARE(history.index(0, ObjectHistory::TimeColumn).data().toString(), u"10:00:00.000"_s);
    QCOMPARE(history.index(2, ObjectHistory::TimeColumn).data().toString(), u"10:00:02.000"_s);
    QCOMPARE(history.entry(1).oldObject.resourceVersion(), u"1"_s);
    QCOMPARE(history.entries(u"pods"_s, u"shop/db"_s).size(), 1);
    QCOMPARE(history.versionCount(), 4);
}

void TestObjectHistory::perKeyCapDropsOldestVersions()
{
    ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    history.setMaxVersionsPerKey(3);
    history.setCurrentKey(u"pods"_s, u"shop/web"_s);
    QList<Notification> batch{add(u"web"_s, 1)};
    for (int rv = 2; rv <= 6; ++rv) {
        batch << update(u"web"_s, rv - 1, rv);
    }
    history.append(u"pods"_s, batch);

    QCOMPARE(history.rowCount(), 3);
    QCOMPARE(history.index(0, ObjectHistory::ResourceVersionColumn).data().toString(), u"4"_s);
    QCOMPARE(history.index(2, ObjectHistory::ResourceVersionColumn).data().toString(), u"6"_s);
    QCOMPARE(history.versionCount(), 3);

    history.setMaxVersionsPerKey(2);
    QCOMPARE(history.rowCount(), 2);
    QCOMPARE(history.index(0, ObjectHistory::ResourceVersionColumn).data().toString(), u"5"_s);
}

void TestObjectHistory::globalCapEvictsLeastRecentlyUsedKeys_data()
{
    QTest::addColumn<QStringList>("appends");
    QTest::addColumn<QStringList>("kept");
    QTest::newRow("oldest keys go first") << QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s} << QStringList{u"b"_s, u"c"_s, u"d"_s};
    QTest::newRow("a key appended again is young again") << QStringList{u"a"_s, u"b"_s, u"c"_s, u"a"_s, u"d"_s} << QStringList{u"a"_s, u"c"_s, u"d"_s};
    QTest::newRow("under the cap nothing is evicted") << QStringList{u"a"_s, u"b"_s, u"a"_s} << QStringList{u"a"_s, u"b"_s};
}

// One version per key and three versions in all: only the three most recently used keys stay.
void TestObjectHistory::globalCapEvictsLeastRecentlyUsedKeys()
{
    QFETCH(QStringList, appends);
    QFETCH(QStringList, kept);

    ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    history.setMaxVersionsPerKey(1);
    history.setMaxVersions(3);
    int rv = 1;
    for (const QString &name : std::as_const(appends)) {
        history.append(u"pods"_s, {add(name, rv++)});
    }
    QCOMPARE(history.versionCount(), kept.size());
    QCOMPARE(history.keyCount(), kept.size());
    for (const QString &name : std::as_const(appends)) {
        QCOMPARE(history.entries(u"pods"_s, u"shop/"_s + name).isEmpty(), !kept.contains(name));
    }
}

void TestObjectHistory::currentKeyIsEvictedLast()
{
    ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    history.setMaxVersionsPerKey(2);
    history.setMaxVersions(2);
    history.setCurrentKey(u"pods"_s, u"shop/web"_s);
    history.append(u"pods"_s, {add(u"web"_s, 1)});
    history.append(u"pods"_s, {add(u"a"_s, 2), add(u"b"_s, 3), add(u"c"_s, 4)});
    QCOMPARE(history.rowCount(), 1);
    QCOMPARE(history.entries(u"pods"_s, u"shop/web"_s).size(), 1);
    QCOMPARE(history.keyCount(), 2);
    QVERIFY(history.entries(u"pods"_s, u"shop/a"_s).isEmpty());
    QCOMPARE(history.entries(u"pods"_s, u"shop/c"_s).size(), 1);
}

void TestObjectHistory::updateWithoutOldObjectDiffsAgainstPreviousVersion()
{
    ObjectHistory history;
    history.append(u"pods"_s, {add(u"web"_s, 1)});
    Notification coalesced = update(u"web"_s, 1, 2);
    coalesced.oldObject = KubeObject();
    history.append(u"pods"_s, {coalesced});
    const auto entries = history.entries(u"pods"_s, u"shop/web"_s);
    QCOMPARE(entries.size(), 2);
    QCOMPARE(entries.at(1).oldObject.resourceVersion(), u"1"_s);
}

void TestObjectHistory::resourcesKeepSeparateHistories()
{
    ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    history.append(u"pods"_s, {add(u"web"_s, 1)});
    history.append(u"configmaps"_s, {add(u"web"_s, 2), update(u"web"_s, 2, 3)});
    history.setCurrentKey(u"configmaps"_s, u"shop/web"_s);
    QCOMPARE(history.rowCount(), 2);
    history.setCurrentKey(u"pods"_s, u"shop/web"_s);
    QCOMPARE(history.rowCount(), 1);
    history.setCurrentKey(QString(), QString());
    QCOMPARE(history.rowCount(), 0);
    history.clear();
    QCOMPARE(history.keyCount(), 0);
    QCOMPARE(history.versionCount(), 0);
}

void TestObjectHistory::deleteTombstoneIsRecorded()
{
    ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    history.setCurrentKey(u"pods"_s, u"shop/web"_s);
    history.append(u"pods"_s, {Notification::remove(u"shop/web"_s, Cachescope::DeletedFinalStateUnknown{u"shop/web"_s, KubeObject()})});
    QCOMPARE(history.rowCount(), 1);
    QVERIFY(history.entry(0).tombstone);
    QVERIFY(!history.entry(0).object.isValid());
    QVERIFY(history.index(0, ObjectHistory::TypeColumn).data().toString().contains(u"unknown"_s));
}

void TestObjectHistory::secretMasking_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<bool>("secret");
    QTest::newRow("kind Secret") << u"Secret"_s << QString() << true;
    QTest::newRow("no kind, secrets resource") << QString() << u"secrets"_s << true;
    QTest::newRow("no kind, v1/secrets") << QString() << u"v1/secrets"_s << true;
    QTest::newRow("ConfigMap") << u"ConfigMap"_s << u"configmaps"_s << false;
    QTest::newRow("no kind, configmaps") << QString() << u"configmaps"_s << false;
}

void TestObjectHistory::secretMasking()
{
    QFETCH(QString, kind);
    QFETCH(QString, resource);
    QFETCH(bool, secret);
    QCOMPARE(ObjectHistory::isSecret(kind, resource), secret);

    const QJsonObject object{
        {u"data"_s, QJsonObject{{u"password"_s, u"aHVudGVyMg=="_s}}}, {u"stringData"_s, QJsonObject{{u"token"_s, u"plain"_s}}}, {u"type"_s, u"Opaque"_s}};
    const QJsonObject masked = ObjectHistory::maskSecretValues(object);
    QCOMPARE(masked.value(u"data"_s).toObject().value(u"password"_s).toString(), ObjectHistory::MaskedValue.toString());
    QCOMPARE(masked.value(u"stringData"_s).toObject().value(u"token"_s).toString(), ObjectHistory::MaskedValue.toString());
    QCOMPARE(masked.value(u"type"_s).toString(), u"Opaque"_s);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestObjectHistory)
#include "tst_objecthistory.moc"
