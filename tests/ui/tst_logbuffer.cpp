// LogBuffer: a bounded ring of log lines as a list model. Batches beyond the bound drop the
// oldest lines and count them, the rows stay in arrival order across the ring's wrap, a batch
// larger than the ring keeps its end, the bound comes from QSettings "logs/maxLines", and
// matches() finds the rows whose text (not timestamp) contains the search text.
#include "ui/models/logbuffer.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using Cachescope::LogBuffer;

namespace {

// Lines numbered from `from`, as the kubelet writes them with timestamps.
QStringList lines(int from, int count)
{
    QStringList result;
    for (int i = from; i < from + count; ++i)
        result.append(u"2026-12-05T18:00:%1.000000000Z line %2"_s.arg(i % 60, 2, 10, QChar(u'0')).arg(i));
    return result;
}

} // namespace

class TestLogBuffer : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        // The user's own settings are not the test's.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
        QCoreApplication::setOrganizationName(u"cachescope-tests"_s);
        QCoreApplication::setApplicationName(u"tst_logbuffer"_s);
    }

    void ringBounds_data()
    {
        QTest::addColumn<int>("maxLines");
        QTest::addColumn<QList<int>>("batches");
        QTest::addColumn<int>("expectedCount");
        QTest::addColumn<qint64>("expectedDropped");

        QTest::newRow("below the bound nothing is dropped") << 10 << QList<int>{3, 4} << 7 << qint64(0);
        QTest::newRow("exactly the bound") << 10 << QList<int>{5, 5} << 10 << qint64(0);
        QTest::newRow("one over drops the oldest") << 10 << QList<int>{10, 1} << 10 << qint64(1);
        QTest::newRow("a batch that overflows a partly filled ring") << 10 << QList<int>{5, 8} << 10 << qint64(3);
        QTest::newRow("wraps around many times") << 7 << QList<int>{3, 3, 3, 3, 3, 3, 3} << 7 << qint64(14);
        QTest::newRow("a batch larger than the ring keeps its end") << 5 << QList<int>{2, 12} << 5 << qint64(9);
        QTest::newRow("a ring of one line") << 1 << QList<int>{1, 2, 1} << 1 << qint64(3);
    }
    void ringBounds()
    {
        QFETCH(int, maxLines);
        QFETCH(QList<int>, batches);
        QFETCH(int, expectedCount);
        QFETCH(qint64, expectedDropped);

        LogBuffer buffer;
        QAbstractItemModelTester tester(&buffer, QAbstractItemModelTester::FailureReportingMode::QtTest);
        buffer.setMaxLines(maxLines);
        QSignalSpy dropped(&buffer, &LogBuffer::linesDropped);
        int next = 0;
        for (int size : std::as_const(batches)) {
            buffer.append(lines(next, size));
            next += size;
            QVERIFY(buffer.rowCount() <= maxLines);
        }
        QCOMPARE(buffer.rowCount(), expectedCount);
        QCOMPARE(buffer.lineCount(), expectedCount);
        QCOMPARE(buffer.droppedCount(), expectedDropped);
        qint64 signalled = 0;
        for (const QList<QVariant> &args : std::as_const(dropped))
            signalled += args.at(0).toInt();
        QCOMPARE(signalled, expectedDropped);
        // The newest lines, oldest first, whatever the ring's wraps.
        for (int row = 0; row < buffer.rowCount(); ++row) {
            const int number = next - expectedCount + row;
            QCOMPARE(buffer.data(buffer.index(row), Qt::DisplayRole).toString(), u"line %1"_s.arg(number));
            QCOMPARE(buffer.data(buffer.index(row), LogBuffer::LineRole).toString(), lines(number, 1).constFirst());
        }
    }

    void shrinkingKeepsTheNewest()
    {
        LogBuffer buffer;
        QAbstractItemModelTester tester(&buffer, QAbstractItemModelTester::FailureReportingMode::QtTest);
        buffer.setMaxLines(8);
        buffer.append(lines(0, 8));
        buffer.append(lines(8, 3)); // wrapped: 3..10
        buffer.setMaxLines(4);
        QCOMPARE(buffer.rowCount(), 4);
        QCOMPARE(buffer.droppedCount(), qint64(7));
        QCOMPARE(buffer.text(0), u"line 7"_s);
        QCOMPARE(buffer.text(3), u"line 10"_s);
        buffer.append(lines(11, 1));
        QCOMPARE(buffer.text(0), u"line 8"_s);
        QCOMPARE(buffer.text(3), u"line 11"_s);
        buffer.clear();
        QCOMPARE(buffer.rowCount(), 0);
        QCOMPARE(buffer.droppedCount(), qint64(0));
    }

    void boundComesFromSettings_data()
    {
        QTest::addColumn<QVariant>("setting");
        QTest::addColumn<int>("expected");
        QTest::newRow("no setting: ten thousand") << QVariant() << LogBuffer::DefaultMaxLines;
        QTest::newRow("a number of lines") << QVariant(250) << 250;
        QTest::newRow("zero is no bound at all: the default") << QVariant(0) << LogBuffer::DefaultMaxLines;
        QTest::newRow("not a number: the default") << QVariant(u"many"_s) << LogBuffer::DefaultMaxLines;
    }
    void boundComesFromSettings()
    {
        QFETCH(QVariant, setting);
        QFETCH(int, expected);
        {
            QSettings settings;
            if (setting.isValid())
                settings.setValue(LogBuffer::maxLinesSettingsKey(), setting);
            else
                settings.remove(LogBuffer::maxLinesSettingsKey());
        }
        LogBuffer buffer;
        QCOMPARE(buffer.maxLines(), expected);
        QSettings().remove(LogBuffer::maxLinesSettingsKey());
    }

    void timestampsApart_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("timestamp");
        QTest::addColumn<QString>("text");
        QTest::newRow("kubelet timestamp") << u"2026-12-05T18:00:01.123456789Z GET / 200"_s << u"2026-12-05T18:00:01.123456789Z"_s << u"GET / 200"_s;
        QTest::newRow("an empty line after its time") << u"2026-12-05T18:00:01.123456789Z "_s << u"2026-12-05T18:00:01.123456789Z"_s << QString();
        QTest::newRow("text that starts with a short number") << u"200 OK sent"_s << QString() << u"200 OK sent"_s;
        QTest::newRow("no space at all") << u"2026-12-05T18:00:01Z"_s << QString() << u"2026-12-05T18:00:01Z"_s;
    }
    void timestampsApart()
    {
        QFETCH(QString, line);
        QFETCH(QString, timestamp);
        QFETCH(QString, text);
        LogBuffer buffer;
        buffer.append({line});
        QCOMPARE(buffer.timestamp(0), timestamp);
        QCOMPARE(buffer.text(0), text);
        QCOMPARE(buffer.line(0, true), line);
        QCOMPARE(buffer.line(0, false), text);
    }

    void search_data()
    {
        QTest::addColumn<QString>("needle");
        QTest::addColumn<int>("caseSensitivity");
        QTest::addColumn<QList<int>>("rows");
        QTest::newRow("empty finds nothing") << QString() << int(Qt::CaseInsensitive) << QList<int>{};
        QTest::newRow("a word in some lines") << u"error"_s << int(Qt::CaseInsensitive) << QList<int>{1, 3};
        QTest::newRow("case sensitive") << u"ERROR"_s << int(Qt::CaseSensitive) << QList<int>{3};
        QTest::newRow("the timestamp is not searched") << u"2026-12-05"_s << int(Qt::CaseInsensitive) << QList<int>{};
        QTest::newRow("no match") << u"panic"_s << int(Qt::CaseInsensitive) << QList<int>{};
        QTest::newRow("after the ring dropped lines, rows as they are now") << u"kept"_s << int(Qt::CaseInsensitive) << QList<int>{4};
    }
    void search()
    {
        QFETCH(QString, needle);
        QFETCH(int, caseSensitivity);
        QFETCH(QList<int>, rows);
        LogBuffer buffer;
        buffer.setMaxLines(5);
        buffer.append({u"2026-12-05T18:00:00.000000000Z dropped error"_s});
        buffer.append({u"2026-12-05T18:00:01.000000000Z GET / 200"_s,
                       u"2026-12-05T18:00:02.000000000Z an error occurred"_s,
                       u"2026-12-05T18:00:03.000000000Z GET /health 200"_s,
                       u"2026-12-05T18:00:04.000000000Z ERROR again"_s,
                       u"2026-12-05T18:00:05.000000000Z kept"_s});
        QCOMPARE(buffer.droppedCount(), qint64(1));
        QCOMPARE(buffer.matches(needle, Qt::CaseSensitivity(caseSensitivity)), rows);
    }
};

CACHESCOPE_TEST_MAIN(TestLogBuffer)
#include "tst_logbuffer.moc"
