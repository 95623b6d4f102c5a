// Durations as the CLI reads them (--for, --timeout) and as ages are shown (kubectl's HumanDuration).
#include "core/printers/duration.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using std::chrono::milliseconds;

class TestDurations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("expected"); // -1: rejected
        QTest::newRow("seconds") << u"30s"_s << qint64(30000);
        QTest::newRow("milliseconds") << u"500ms"_s << qint64(500);
        QTest::newRow("minutes and seconds") << u"1m30s"_s << qint64(90000);
        QTest::newRow("hours") << u"2h"_s << qint64(7200000);
        QTest::newRow("fractions") << u"1.5s"_s << qint64(1500);
        QTest::newRow("a bare number is seconds") << u"3"_s << qint64(3000);
        QTest::newRow("unknown unit") << u"3d"_s << qint64(-1);
        QTest::newRow("words") << u"soon"_s << qint64(-1);
        QTest::newRow("trailing garbage") << u"3sx"_s << qint64(-1);
        QTest::newRow("negative") << u"-5"_s << qint64(-1);
        QTest::newRow("empty") << QString() << qint64(-1);
        // Too long for a qint64 of nanoseconds (292 years), or no number at all: no duration, and
        // no overflow on the way (UBSan in the asan preset reports one).
        QTest::newRow("a bare number too large") << u"1e300"_s << qint64(-1);
        QTest::newRow("infinity") << u"inf"_s << qint64(-1);
        QTest::newRow("not a number") << u"nan"_s << qint64(-1);
        QTest::newRow("hours too many") << u"99999999999999999h"_s << qint64(-1);
        QTest::newRow("parts that add up to too many") << u"2000000h2000000h"_s << qint64(-1);
        QTest::newRow("the longest: 2,562,047 hours") << u"2562047h"_s << qint64(2562047) * 3600000;
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(qint64, expected);
        const auto parsed = parseDuration(text);
        if (expected < 0) {
            QVERIFY(!parsed);
        } else {
            QVERIFY(parsed);
            QCOMPARE(parsed->count(), expected);
        }
    }

    void humanises_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("expected");
        // apimachinery's HumanDuration: a second of clock skew is "now", more is "<invalid>".
        QTest::newRow("a second in the future (clock skew) is zero") << qint64(-1) << u"0s"_s;
        QTest::newRow("further in the future is invalid, as kubectl prints it") << qint64(-5) << u"<invalid>"_s;
        QTest::newRow("under two minutes in seconds") << qint64(119) << u"119s"_s;
        QTest::newRow("minutes and seconds under ten minutes") << qint64(200) << u"3m20s"_s;
        QTest::newRow("whole minutes") << qint64(300) << u"5m"_s;
        QTest::newRow("minutes under three hours") << qint64(42 * 60 + 10) << u"42m"_s;
        QTest::newRow("hours and minutes under eight hours") << qint64(5 * 3600 + 12 * 60) << u"5h12m"_s;
        QTest::newRow("hours under two days") << qint64(20 * 3600 + 59) << u"20h"_s;
        QTest::newRow("days and hours under eight days") << qint64(3 * 86400 + 4 * 3600) << u"3d4h"_s;
        QTest::newRow("days under two years") << qint64(200 * 86400) << u"200d"_s;
        QTest::newRow("years and days") << qint64((2 * 365 + 45) * 86400) << u"2y45d"_s;
        QTest::newRow("years only from eight years") << qint64((9 * 365 + 45) * 86400) << u"9y"_s;
    }
    void humanises()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, expected);
        QCOMPARE(humanDuration(milliseconds(seconds * 1000)), expected);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestDurations)
#include "tst_durations.moc"
