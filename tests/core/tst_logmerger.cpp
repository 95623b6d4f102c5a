// LogMerger: lines of several sources come out in time order within the reorder window (by the
// watermark every source has passed, or once they waited the window), a line later than that is
// late and comes out at once, sources that join hold lines back until their first lines and
// sources that leave hold nothing back, equal times keep their arrival order, and the pending
// lines never exceed the bound (the oldest leave early; of those, more than the bound are
// dropped and counted).
#include "core/kube/logmerger.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

// A kubelet timestamp at `second` seconds past a fixed minute.
QString stamp(int second)
{
    return u"2026-12-06T00:00:%1.000000000Z"_s.arg(second, 2, 10, QChar(u'0'));
}

QStringList texts(const LogLines &lines)
{
    QStringList names;
    for (const LogLine &line : lines)
        names.append(line.text);
    return names;
}

} // namespace

class TestLogMerger : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each row is a script run against one merger:
    //   "join a" / "leave a"          a source joins / leaves
    //   "at MS a 1 3 -"                at MS, source a delivers lines at seconds 1 and 3 and one
    //                                  without a timestamp; their texts are "a1", "a3", "a-"
    //   "take MS a1 b2"                take(MS) releases exactly these lines, in this order
    //   "all a1 b2"                    takeAll() releases exactly these
    //   "pending N" / "due MS"         pendingCount() is N (never more than the bound, nor
    //                                  earlyCount()) / nextDueMs() is MS
    void mergesInTimeOrder_data()
    {
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("bound");
        QTest::addColumn<QStringList>("script");
        QTest::addColumn<qint64>("late");
        QTest::addColumn<qint64>("dropped");

        QTest::newRow("two pods interleaved inside the window come out in time order") << 500 << 100
                                                                                       << QStringList{u"join a"_s,
                                                                                                      u"join b"_s,
                                                                                                      u"at 0 a 1 3 5"_s,
                                                                                                      u"take 50"_s,
                                                                                                      u"at 100 b 2 4 6"_s,
                                                                                                      u"take 100 a1 b2 a3 b4 a5"_s,
                                                                                                      u"take 599"_s,
                                                                                                      u"take 600 b6"_s,
                                                                                                      u"pending 0"_s}
                                                                                       << qint64(0) << qint64(0);
        QTest::newRow("nothing waits for a quiet pod longer than the window")
            << 500 << 100 << QStringList{u"join a"_s, u"join b"_s, u"at 0 a 1 2"_s, u"due 500"_s, u"take 499"_s, u"take 500 a1 a2"_s, u"due -1"_s} << qint64(0)
            << qint64(0);
        QTest::newRow("a pod holds back only the lines after its newest")
            << 500 << 100 << QStringList{u"join a"_s, u"join b"_s, u"at 0 b 2"_s, u"at 0 a 1 3"_s, u"take 0 a1 b2"_s, u"take 499"_s, u"take 500 a3"_s}
            << qint64(0) << qint64(0);
        QTest::newRow("a batch later than the window is late and comes out at once") << 500 << 100
                                                                                     << QStringList{u"join a"_s,
                                                                                                    u"join b"_s,
                                                                                                    u"at 0 a 5"_s,
                                                                                                    u"at 0 b 6"_s,
                                                                                                    u"take 0 a5"_s,
                                                                                                    u"take 500 b6"_s,
                                                                                                    u"join c"_s,
                                                                                                    u"at 900 c 4 7"_s,
                                                                                                    u"take 900 c4"_s,
                                                                                                    u"take 1400 c7"_s}
                                                                                     << qint64(1) << qint64(0);
        QTest::newRow("a pod that joins holds lines back until its first lines") << 500 << 100
                                                                                 << QStringList{u"join a"_s,
                                                                                                u"at 0 a 1 2"_s,
                                                                                                u"take 0 a1 a2"_s,
                                                                                                u"join b"_s,
                                                                                                u"at 100 a 3"_s,
                                                                                                u"take 200"_s,
                                                                                                u"at 200 b 3 4"_s,
                                                                                                u"take 200 a3 b3"_s,
                                                                                                u"take 700 b4"_s}
                                                                                 << qint64(0) << qint64(0);
        QTest::newRow("a pod that leaves holds nothing back and its lines stay")
            << 500 << 100 << QStringList{u"join a"_s, u"join b"_s, u"at 0 a 1 5"_s, u"at 0 b 2"_s, u"take 0 a1 b2"_s, u"leave b"_s, u"take 0 a5"_s} << qint64(0)
            << qint64(0);
        QTest::newRow("lines of a pod that left are released in order with the rest") << 500 << 100
                                                                                      << QStringList{u"join a"_s,
                                                                                                     u"join b"_s,
                                                                                                     u"join c"_s,
                                                                                                     u"at 0 a 1 4"_s,
                                                                                                     u"at 0 b 2 3"_s,
                                                                                                     u"leave b"_s,
                                                                                                     u"take 0"_s,
                                                                                                     u"at 10 c 5"_s,
                                                                                                     u"take 10 a1 b2 b3 a4"_s,
                                                                                                     u"leave a"_s,
                                                                                                     u"leave c"_s,
                                                                                                     u"take 10 c5"_s}
                                                                                      << qint64(0) << qint64(0);
        QTest::newRow("equal times keep the order they arrived in")
            << 500 << 100 << QStringList{u"join a"_s, u"join b"_s, u"at 0 b 2"_s, u"at 10 a 2 3"_s, u"take 10 b2 a2"_s, u"all a3"_s} << qint64(0) << qint64(0);
        QTest::newRow("a line without a time stays with the line before it")
            << 500 << 100 << QStringList{u"join a"_s, u"join b"_s, u"at 0 a 1 - 3"_s, u"at 0 b 2 3"_s, u"take 0 a1 a- b2 a3 b3"_s} << qint64(0) << qint64(0);
        QTest::newRow("pending lines beyond the bound leave early, in order") << 1000 << 3
                                                                              << QStringList{u"join a"_s,
                                                                                             u"join b"_s,
                                                                                             u"at 0 a 1 3 5 7"_s,
                                                                                             u"pending 3"_s,
                                                                                             u"due 0"_s,
                                                                                             u"at 0 b 2 4"_s,
                                                                                             u"pending 3"_s,
                                                                                             u"take 0 a1 b2 a3 b4"_s,
                                                                                             u"all a5 a7"_s,
                                                                                             u"pending 0"_s}
                                                                              << qint64(0) << qint64(0);
        QTest::newRow("of more than the bound released early the oldest are dropped")
            << 500 << 2 << QStringList{u"join a"_s, u"at 0 a 1 2 3 4 5 6"_s, u"pending 2"_s, u"take 0 a3 a4 a5 a6"_s} << qint64(0) << qint64(2);
    }
    void mergesInTimeOrder()
    {
        QFETCH(int, window);
        QFETCH(int, bound);
        QFETCH(QStringList, script);
        QFETCH(qint64, late);
        QFETCH(qint64, dropped);

        LogMerger merger(std::chrono::milliseconds(window), bound);
        for (const QString &step : std::as_const(script)) {
            const QStringList words = step.split(u' ');
            const QString &verb = words.constFirst();
            if (verb == u"join") {
                merger.addSource(words.at(1));
            } else if (verb == u"leave") {
                merger.removeSource(words.at(1));
            } else if (verb == u"at") {
                const QString source = words.at(2);
                QStringList lines;
                for (const QString &second : words.mid(3))
                    lines.append(second == u"-" ? QString(source + u'-') : QString(stamp(second.toInt()) + u' ' + source + second));
                merger.append(source, lines, words.at(1).toLongLong());
            } else if (verb == u"take") {
                const LogLines released = merger.take(words.at(1).toLongLong());
                QVERIFY2(texts(released) == words.mid(2), qPrintable(step + u" gave: "_s + texts(released).join(u' ')));
                for (const LogLine &line : released)
                    QCOMPARE(line.source, line.text.left(1));
            } else if (verb == u"all") {
                const LogLines released = merger.takeAll();
                QVERIFY2(texts(released) == words.mid(1), qPrintable(step + u" gave: "_s + texts(released).join(u' ')));
            } else if (verb == u"pending") {
                QCOMPARE(merger.pendingCount(), words.at(1).toLongLong());
                QVERIFY(merger.pendingCount() <= merger.bound());
                QVERIFY(merger.earlyCount() <= merger.bound());
            } else if (verb == u"due") {
                QCOMPARE(merger.nextDueMs(), words.at(1).toLongLong());
            } else {
                QFAIL(qPrintable(u"unknown step: "_s + step));
            }
        }
        QCOMPARE(merger.lateCount(), late);
        QCOMPARE(merger.droppedCount(), dropped);
    }

    void timestampsAreKeptApartFromTheText()
    {
        LogMerger merger;
        merger.append(u"web-1/app"_s, {stamp(7) + u" GET / 200"_s}, 0);
        const LogLines released = merger.takeAll();
        QCOMPARE(released.size(), 1);
        QCOMPARE(released.constFirst(), (LogLine{u"web-1/app"_s, stamp(7), u"GET / 200"_s}));
        // A source appended without addSource() joined.
        QVERIFY(merger.hasSource(u"web-1/app"_s));
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestLogMerger)
#include "tst_logmerger.moc"
