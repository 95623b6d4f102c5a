// LineSplitter: the same lines whatever pieces the stream arrives in, a line's start kept until
// its newline, a character split between pieces decoded whole, and the rest at the end.
#include "core/kube/linesplitter.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

class TestLineSplitter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void splitsWhateverThePieces_data()
    {
        QTest::addColumn<QByteArrayList>("pieces");
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QString>("rest"); // what finish() returns; null: nothing
        QTest::newRow("one piece of whole lines") << QByteArrayList{"a\nb\n"} << QStringList{u"a"_s, u"b"_s} << QString();
        QTest::newRow("a line split across two pieces") << QByteArrayList{"first li", "ne\nsecond\n"} << QStringList{u"first line"_s, u"second"_s} << QString();
        QTest::newRow("a line split across three pieces") << QByteArrayList{"ab", "cd", "ef\n"} << QStringList{u"abcdef"_s} << QString();
        QTest::newRow("the newline alone in the next piece") << QByteArrayList{"abc", "\n"} << QStringList{u"abc"_s} << QString();
        QTest::newRow("empty lines are lines") << QByteArrayList{"\n\nx\n"} << QStringList{QString(), QString(), u"x"_s} << QString();
        QTest::newRow("empty pieces change nothing") << QByteArrayList{"", "a", "", "\n", ""} << QStringList{u"a"_s} << QString();
        QTest::newRow("a last line without newline is the rest") << QByteArrayList{"a\nb"} << QStringList{u"a"_s} << u"b"_s;
        // "é" is C3 A9 in UTF-8: decoding either half alone would give replacement characters.
        QTest::newRow("a character split between pieces") << QByteArrayList{"caf\xc3", "\xa9\n"} << QStringList{u"café"_s} << QString();
        QTest::newRow("a byte at a time") << QByteArrayList{"h", "i", "\n", "y", "o", "\n"} << QStringList{u"hi"_s, u"yo"_s} << QString();
    }
    void splitsWhateverThePieces()
    {
        QFETCH(QByteArrayList, pieces);
        QFETCH(QStringList, lines);
        QFETCH(QString, rest);
        LineSplitter splitter;
        QStringList seen;
        for (const QByteArray &piece : pieces)
            seen += splitter.feed(piece);
        QCOMPARE(seen, lines);
        const std::optional<QString> last = splitter.finish();
        QCOMPARE(last.has_value(), !rest.isNull());
        if (last)
            QCOMPARE(*last, rest);
        QCOMPARE(splitter.pendingBytes(), 0);
    }

    void keepsOnlyTheUnfinishedLine()
    {
        LineSplitter splitter;
        QCOMPARE(splitter.feed("complete\nunfini"), QStringList{u"complete"_s});
        QCOMPARE(splitter.pendingBytes(), 6);
        QCOMPARE(splitter.feed("shed\n"), QStringList{u"unfinished"_s});
        QCOMPARE(splitter.pendingBytes(), 0);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestLineSplitter)
#include "tst_linesplitter.moc"
