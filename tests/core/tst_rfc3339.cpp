#include "core/util/rfc3339.h"

#include "testmain.h"

#include <QTest>

#include <limits>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {
// The instant every valid row below names unless it says otherwise: 2026-12-01T10:00:30Z.
constexpr qint64 Instant = 1796119230000;
constexpr qint64 Invalid = std::numeric_limits<qint64>::min();
} // namespace

class TestRfc3339 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void msecsSinceEpoch_data();
    void msecsSinceEpoch();
    void dateTime_data() { msecsSinceEpoch_data(); }
    void dateTime();
    void dateTimeRejectsNonAscii();
    void agreesWithQtOnTheApiserverForms_data();
    void agreesWithQtOnTheApiserverForms();
    void writesWhatQtWrites_data();
    void writesWhatQtWrites();
};

void TestRfc3339::msecsSinceEpoch_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("expected"); // Invalid: malformed

    QTest::newRow("apiserver form (metav1.Time)") << QByteArray("2026-11-30T09:12:44Z") << qint64(1796029964000);
    QTest::newRow("UTC instant") << QByteArray("2026-12-01T10:00:30Z") << Instant;
    QTest::newRow("milliseconds") << QByteArray("2026-12-01T10:00:30.123Z") << Instant + 123;
    QTest::newRow("MicroTime: microseconds truncated to milliseconds") << QByteArray("2026-12-01T10:00:30.123456Z") << Instant + 123;
    QTest::newRow("nanoseconds truncated, not rounded up") << QByteArray("2026-12-01T10:00:30.999999999Z") << Instant + 999;
    QTest::newRow("more than nine fraction digits") << QByteArray("2026-12-01T10:00:30.1234567891234Z") << Instant + 123;
    QTest::newRow("one fraction digit") << QByteArray("2026-12-01T10:00:30.5Z") << Instant + 500;
    QTest::newRow("two fraction digits") << QByteArray("2026-12-01T10:00:30.05Z") << Instant + 50;
    QTest::newRow("comma as the decimal mark") << QByteArray("2026-12-01T10:00:30,25Z") << Instant + 250;
    QTest::newRow("positive offset") << QByteArray("2026-12-01T12:00:30+02:00") << Instant;
    QTest::newRow("negative offset with minutes") << QByteArray("2026-12-01T04:30:30-05:30") << Instant;
    QTest::newRow("-00:00 is UTC") << QByteArray("2026-12-01T10:00:30-00:00") << Instant;
    QTest::newRow("offset and fraction") << QByteArray("2026-12-01T11:00:30.250+01:00") << Instant + 250;
    QTest::newRow("offset that crosses the year") << QByteArray("2026-01-01T01:00:00+02:00") << qint64(1767222000000);
    QTest::newRow("largest offset") << QByteArray("2026-12-02T09:59:30+23:59") << Instant;
    QTest::newRow("leap day of a leap year") << QByteArray("2024-02-29T12:00:00Z") << qint64(1709208000000);
    QTest::newRow("leap day of a century divisible by 400") << QByteArray("2000-02-29T00:00:00Z") << qint64(951782400000);
    QTest::newRow("before the epoch") << QByteArray("1969-12-31T23:59:59Z") << qint64(-1000);
    QTest::newRow("Go's zero time") << QByteArray("0001-01-01T00:00:00Z") << qint64(-62135596800000);
    QTest::newRow("year 0000, which Go accepts and Qt does not") << QByteArray("0000-01-01T00:00:00Z") << qint64(-62167219200000);
    QTest::newRow("last instant of year 9999") << QByteArray("9999-12-31T23:59:59.999Z") << qint64(253402300799999);

    QTest::newRow("empty") << QByteArray() << Invalid;
    QTest::newRow("date alone") << QByteArray("2026-12-01") << Invalid;
    QTest::newRow("no zone (Qt would read local time)") << QByteArray("2026-12-01T10:00:30") << Invalid;
    QTest::newRow("no zone after a fraction") << QByteArray("2026-12-01T10:00:30.123") << Invalid;
    QTest::newRow("no seconds") << QByteArray("2026-12-01T10:00Z") << Invalid;
    QTest::newRow("lowercase t") << QByteArray("2026-12-01t10:00:30Z") << Invalid;
    QTest::newRow("lowercase z") << QByteArray("2026-12-01T10:00:30z") << Invalid;
    QTest::newRow("space for T") << QByteArray("2026-12-01 10:00:30Z") << Invalid;
    QTest::newRow("offset without a colon") << QByteArray("2026-12-01T12:00:30+0200") << Invalid;
    QTest::newRow("offset hours alone") << QByteArray("2026-12-01T12:00:30+02") << Invalid;
    QTest::newRow("offset hour 24") << QByteArray("2026-12-01T10:00:30+24:00") << Invalid;
    QTest::newRow("offset minute 60") << QByteArray("2026-12-01T10:00:30+02:60") << Invalid;
    QTest::newRow("Z and an offset") << QByteArray("2026-12-01T10:00:30Z+02:00") << Invalid;
    QTest::newRow("decimal mark without digits") << QByteArray("2026-12-01T10:00:30.Z") << Invalid;
    QTest::newRow("hour 24") << QByteArray("2026-12-01T24:00:00Z") << Invalid;
    QTest::newRow("minute 60") << QByteArray("2026-12-01T10:60:00Z") << Invalid;
    QTest::newRow("leap second") << QByteArray("2026-12-31T23:59:60Z") << Invalid;
    QTest::newRow("February 29 of a common year") << QByteArray("2026-02-29T00:00:00Z") << Invalid;
    QTest::newRow("February 29 of a century not divisible by 400") << QByteArray("1900-02-29T00:00:00Z") << Invalid;
    QTest::newRow("April 31") << QByteArray("2026-04-31T00:00:00Z") << Invalid;
    QTest::newRow("month 13") << QByteArray("2026-13-01T00:00:00Z") << Invalid;
    QTest::newRow("month 00") << QByteArray("2026-00-01T00:00:00Z") << Invalid;
    QTest::newRow("day 00") << QByteArray("2026-12-00T00:00:00Z") << Invalid;
    QTest::newRow("letter in the year") << QByteArray("2O26-12-01T10:00:30Z") << Invalid;
    QTest::newRow("sign in a field") << QByteArray("2026-12-01T10:-0:30Z") << Invalid;
    QTest::newRow("two-digit year") << QByteArray("26-12-01T10:00:30Z") << Invalid;
    QTest::newRow("signed year") << QByteArray("+2026-12-01T10:00:30Z") << Invalid;
    QTest::newRow("leading space") << QByteArray(" 2026-12-01T10:00:30Z") << Invalid;
    QTest::newRow("trailing newline") << QByteArray("2026-12-01T10:00:30Z\n") << Invalid;
    QTest::newRow("trailing text") << QByteArray("2026-12-01T10:00:30Zulu") << Invalid;
    QTest::newRow("cut inside the offset") << QByteArray("2026-12-01T10:00:30+02:0") << Invalid;
}

void TestRfc3339::msecsSinceEpoch()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, expected);
    const std::optional<qint64> msecs = msecsSinceEpochFromRfc3339(std::string_view(text.constData(), std::size_t(text.size())));
    QCOMPARE(msecs.has_value(), expected != Invalid);
    if (msecs) {
        QCOMPARE(*msecs, expected);
    }
}

void TestRfc3339::dateTime()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, expected);
    const QDateTime time = dateTimeFromRfc3339(QString::fromLatin1(text));
    QCOMPARE(time.isValid(), expected != Invalid);
    if (time.isValid()) {
        QCOMPARE(time.toMSecsSinceEpoch(), expected);
        QCOMPARE(time.timeSpec(), Qt::UTC);
    }
}

void TestRfc3339::dateTimeRejectsNonAscii()
{
    // A fullwidth Z and Arabic-Indic digits: QChar::digitValue() would accept the digits.
    QVERIFY(!dateTimeFromRfc3339(u"2026-12-01T10:00:30\uFF3A").isValid());
    QVERIFY(!dateTimeFromRfc3339(u"\u0662\u0660\u0662\u0666-12-01T10:00:30Z").isValid());
    QVERIFY(dateTimeFromRfc3339(u"2026-12-01T10:00:30Z").isValid());
}

void TestRfc3339::agreesWithQtOnTheApiserverForms_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("metav1.Time") << u"2026-11-30T09:12:44Z"_s;
    QTest::newRow("milliseconds") << u"2026-12-01T10:00:30.123Z"_s;
    QTest::newRow("offset") << u"2026-12-01T04:30:30-05:30"_s;
    QTest::newRow("offset and fraction") << u"2026-12-01T11:00:30.250+01:00"_s;
    QTest::newRow("leap day") << u"2024-02-29T12:00:00Z"_s;
}

// The parser replaced QDateTime::fromString(…, Qt::ISODateWithMs) in the cache, the printers and
// the simulator: on the forms Kubernetes writes, both must name the same instant.
void TestRfc3339::agreesWithQtOnTheApiserverForms()
{
    QFETCH(QString, text);
    const QDateTime qt = QDateTime::fromString(text, Qt::ISODateWithMs);
    QVERIFY(qt.isValid());
    QCOMPARE(dateTimeFromRfc3339(text).toMSecsSinceEpoch(), qt.toMSecsSinceEpoch());
}

void TestRfc3339::writesWhatQtWrites_data()
{
    QTest::addColumn<qint64>("secs");
    QTest::newRow("an instant of today") << Instant / 1000;
    QTest::newRow("the epoch") << qint64(0);
    QTest::newRow("before the epoch") << qint64(-1);
    QTest::newRow("leap day of a leap year") << qint64(1709208000);
    QTest::newRow("leap day of a century divisible by 400") << qint64(951782400);
    QTest::newRow("last second of a year") << qint64(1767225599);
    QTest::newRow("first second of a year") << qint64(1767225600);
    QTest::newRow("Go's zero time") << qint64(-62135596800);
    QTest::newRow("last second of year 9999") << qint64(253402300799);
}

void TestRfc3339::writesWhatQtWrites()
{
    // The simulator's objects were written with QDateTime::toString(Qt::ISODate); they keep
    // their bytes, and the text reads back as the instant it was written from.
    QFETCH(qint64, secs);
    const QString text = rfc3339FromSecsSinceEpoch(secs);
    QCOMPARE(text, QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(Qt::ISODate));
    QCOMPARE(msecsSinceEpochFromRfc3339(text.toStdString()), std::optional<qint64>(secs * 1000));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRfc3339)
#include "tst_rfc3339.moc"
