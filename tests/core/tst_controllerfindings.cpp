// FindingsStore, the controller's results table, and durationText(), which its messages use.
#include "core/controller/findingsstore.h"
#include "core/printers/duration.h"

#include "testmain.h"

#include <QSignalSpy>
#include <QTest>

#include <thread>
#include <vector>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {
const QDateTime t0 = QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);

Finding finding(const QString &reason, const QDateTime &time = t0, FindingSeverity severity = FindingSeverity::Warning)
{
    return Finding{severity, reason, reason + u" message"_s, time};
}
} // namespace

class TestControllerFindings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setAndClear();
    void repeatedFindingsKeepTheirFirstTime();
    void unchangedResultsDoNotBumpTheRevision_data();
    void unchangedResultsDoNotBumpTheRevision();
    void concurrentWritersKeepCountsExact();
    void durationText_data();
    void durationText();
};

void TestControllerFindings::setAndClear()
{
    FindingsStore store;
    QSignalSpy changed(&store, &FindingsStore::changed);
    store.setFindings(u"shop/a"_s, {finding(u"NotReady"_s), finding(u"Restarting"_s)});
    store.setFindings(u"shop/b"_s, {finding(u"Failed"_s)});
    QCOMPARE(store.keyCount(), 2);
    QCOMPARE(store.findingCount(), 3);
    QCOMPARE(store.findings(u"shop/a"_s).size(), 2);
    QCOMPARE(store.revision(), 2u);
    QCOMPARE(changed.size(), 2);
    QCOMPARE(changed.last().at(0).toULongLong(), 2u);

    // An object that got fixed: an empty result removes its key.
    store.setFindings(u"shop/a"_s, {});
    QCOMPARE(store.keyCount(), 1);
    QCOMPARE(store.findingCount(), 1);
    QVERIFY(!store.all().contains(u"shop/a"_s));
    // Removing what is not there is no change.
    store.remove(u"shop/absent"_s);
    QCOMPARE(store.revision(), 3u);
    store.remove(u"shop/b"_s);
    QCOMPARE(store.keyCount(), 0);
    QCOMPARE(store.findingCount(), 0);
    QCOMPARE(store.revision(), 4u);
    store.clear();
    QCOMPARE(store.revision(), 4u);
    QCOMPARE(changed.size(), 4);
}

void TestControllerFindings::repeatedFindingsKeepTheirFirstTime()
{
    FindingsStore store;
    store.setFindings(u"shop/a"_s, {finding(u"NotReady"_s, t0)});
    store.setFindings(u"shop/a"_s, {finding(u"Restarting"_s, t0.addSecs(60)), finding(u"NotReady"_s, t0.addSecs(60))});
    const QList<Finding> findings = store.findings(u"shop/a"_s);
    QCOMPARE(findings.size(), 2);
    QCOMPARE(findings.at(0).reason, u"Restarting"_s);
    QCOMPARE(findings.at(0).time, t0.addSecs(60));
    QCOMPARE(findings.at(1).reason, u"NotReady"_s);
    QCOMPARE(findings.at(1).time, t0);
}

void TestControllerFindings::unchangedResultsDoNotBumpTheRevision_data()
{
    QTest::addColumn<QList<Finding>>("second");
    QTest::addColumn<bool>("changes");

    QTest::newRow("the same finding seen later is no change") << QList<Finding>{finding(u"NotReady"_s, t0.addSecs(30))} << false;
    QTest::newRow("another severity is a change") << QList<Finding>{finding(u"NotReady"_s, t0, FindingSeverity::Error)} << true;
    QTest::newRow("another reason is a change") << QList<Finding>{finding(u"Restarting"_s)} << true;
    QTest::newRow("an added finding is a change") << QList<Finding>{finding(u"NotReady"_s), finding(u"Restarting"_s)} << true;
    QTest::newRow("no findings is a change") << QList<Finding>{} << true;
}

void TestControllerFindings::unchangedResultsDoNotBumpTheRevision()
{
    QFETCH(QList<Finding>, second);
    QFETCH(bool, changes);

    FindingsStore store;
    store.setFindings(u"shop/a"_s, {finding(u"NotReady"_s)});
    const quint64 before = store.revision();
    store.setFindings(u"shop/a"_s, second);
    QCOMPARE(store.revision() != before, changes);
    QCOMPARE(store.findingCount(), second.size());
}

void TestControllerFindings::concurrentWritersKeepCountsExact()
{
    FindingsStore store;
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w) {
        writers.emplace_back([&store, w] {
            for (int i = 0; i < 500; ++i) {
                const QString key = u"ns/key-%1"_s.arg(i % 50);
                if ((i + w) % 3 == 0) {
                    store.remove(key);
                } else {
                    QList<Finding> findings;
                    for (int n = 0; n <= (i + w) % 4; ++n) {
                        findings.append(finding(u"R%1"_s.arg(n)));
                    }
                    store.setFindings(key, findings);
                }
            }
        });
    }
    for (std::thread &writer : writers) {
        writer.join();
    }
    qsizetype counted = 0;
    const auto all = store.all();
    for (const QList<Finding> &findings : all) {
        QVERIFY(!findings.isEmpty());
        counted += findings.size();
    }
    QCOMPARE(store.findingCount(), counted);
    QCOMPARE(store.keyCount(), all.size());
}

void TestControllerFindings::durationText_data()
{
    QTest::addColumn<qint64>("nanoseconds");
    QTest::addColumn<QString>("expected");

    QTest::newRow("nanoseconds") << qint64(500) << u"500ns"_s;
    QTest::newRow("microseconds") << qint64(25'000) << u"25µs"_s;
    QTest::newRow("milliseconds") << qint64(850'000'000) << u"850ms"_s;
    QTest::newRow("a few seconds keep two decimals") << qint64(2'500'000'000) << u"2.50s"_s;
    QTest::newRow("whole seconds") << qint64(42'000'000'000) << u"42s"_s;
    QTest::newRow("minutes and seconds") << qint64(423) * 1'000'000'000 << u"7m3s"_s;
    QTest::newRow("whole minutes") << qint64(600) * 1'000'000'000 << u"10m"_s;
    QTest::newRow("hours and minutes") << qint64(7500) * 1'000'000'000 << u"2h5m"_s;
    QTest::newRow("days and hours") << qint64(273600) * 1'000'000'000 << u"3d4h"_s;
    QTest::newRow("negative is zero") << qint64(-5) << u"0ns"_s;
}

void TestControllerFindings::durationText()
{
    QFETCH(qint64, nanoseconds);
    QFETCH(QString, expected);
    QCOMPARE(Cachescope::durationText(std::chrono::nanoseconds(nanoseconds)), expected);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestControllerFindings)
#include "tst_controllerfindings.moc"
