#include "core/util/linediff.h"

#include "testmain.h"

#include <QRandomGenerator>
#include <QTest>

#include <vector>

using namespace Qt::Literals::StringLiterals;
using Cachescope::LineDiff;
using Kind = LineDiff::Edit::Kind;

class TestLineDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unifiedOutput_data();
    void unifiedOutput();
    void scriptIsMinimalAndReproducesBothTexts_data();
    void scriptIsMinimalAndReproducesBothTexts();
    void editDistanceCapStillGivesACorrectDiff();
    void hunkHeaders_data();
    void hunkHeaders();

private:
    static QStringList lines(const QString &text) { return text.isEmpty() ? QStringList() : text.split(u'|'); }
    static int lcsLength(const QStringList &a, const QStringList &b);
    static void checkScript(const QList<LineDiff::Edit> &edits, const QStringList &a, const QStringList &b);
};

// The reference: the classic O(N·M) dynamic programme for the longest common subsequence.
int TestLineDiff::lcsLength(const QStringList &a, const QStringList &b)
{
    std::vector<std::vector<int>> table(static_cast<size_t>(a.size() + 1), std::vector<int>(static_cast<size_t>(b.size() + 1), 0));
    for (qsizetype i = 1; i <= a.size(); ++i) {
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const auto si = static_cast<size_t>(i);
            const auto sj = static_cast<size_t>(j);
            table[si][sj] = a[i - 1] == b[j - 1] ? table[si - 1][sj - 1] + 1 : std::max(table[si - 1][sj], table[si][sj - 1]);
        }
    }
    return table.back().back();
}

// An edit script is correct when its Equal+Delete lines are exactly `a` in order, its
// Equal+Insert lines exactly `b` in order, and Equal pairs really are equal.
void TestLineDiff::checkScript(const QList<LineDiff::Edit> &edits, const QStringList &a, const QStringList &b)
{
    int oldNext = 0;
    int newNext = 0;
    for (const LineDiff::Edit &edit : edits) {
        if (edit.kind != Kind::Insert) {
            QCOMPARE(edit.oldLine, oldNext);
            ++oldNext;
        } else {
            QCOMPARE(edit.oldLine, -1);
        }
        if (edit.kind != Kind::Delete) {
            QCOMPARE(edit.newLine, newNext);
            ++newNext;
        } else {
            QCOMPARE(edit.newLine, -1);
        }
        if (edit.kind == Kind::Equal) {
            QCOMPARE(a.at(edit.oldLine), b.at(edit.newLine));
        }
    }
    QCOMPARE(oldNext, a.size());
    QCOMPARE(newNext, b.size());
}

void TestLineDiff::unifiedOutput_data()
{
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");
    QTest::addColumn<int>("context");
    QTest::addColumn<QString>("expected");

    QTest::newRow("both empty give no hunk") << QString() << QString() << 3 << QString();
    QTest::newRow("identical texts give no hunk") << u"a|b|c"_s << u"a|b|c"_s << 3 << QString();
    QTest::newRow("everything inserted into an empty text") << QString() << u"a|b"_s << 3 << u"@@ -0,0 +1,2 @@\n+a\n+b\n"_s;
    QTest::newRow("everything deleted") << u"a|b"_s << QString() << 3 << u"@@ -1,2 +0,0 @@\n-a\n-b\n"_s;
    QTest::newRow("insert in the middle keeps context") << u"a|b|c|d"_s << u"a|b|x|c|d"_s << 1 << u"@@ -2,2 +2,3 @@\n b\n+x\n c\n"_s;
    QTest::newRow("delete in the middle") << u"a|b|c|d|e"_s << u"a|b|d|e"_s << 1 << u"@@ -2,3 +2,2 @@\n b\n-c\n d\n"_s;
    QTest::newRow("changed line is a delete then an insert")
        << u"a|phase: Pending|c"_s << u"a|phase: Running|c"_s << 3 << u"@@ -1,3 +1,3 @@\n a\n-phase: Pending\n+phase: Running\n c\n"_s;
    QTest::newRow("distant changes make two hunks") << u"1|2|3|4|5|6|7|8|9"_s << u"x|2|3|4|5|6|7|8|y"_s << 1
                                                    << u"@@ -1,2 +1,2 @@\n-1\n+x\n 2\n@@ -8,2 +8,2 @@\n 8\n-9\n+y\n"_s;
    QTest::newRow("changes 2·context apart share a hunk") << u"1|2|3|4"_s << u"x|2|3|y"_s << 1 << u"@@ -1,4 +1,4 @@\n-1\n+x\n 2\n 3\n-4\n+y\n"_s;
    QTest::newRow("zero context") << u"a|b|c"_s << u"a|x|c"_s << 0 << u"@@ -2 +2 @@\n-b\n+x\n"_s;
    QTest::newRow("insert at the start") << u"b|c"_s << u"a|b|c"_s << 0 << u"@@ -0,0 +1 @@\n+a\n"_s;
}

void TestLineDiff::unifiedOutput()
{
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    QFETCH(int, context);
    QFETCH(QString, expected);
    const QStringList a = lines(oldText);
    const QStringList b = lines(newText);
    const QList<LineDiff::Edit> edits = LineDiff::edits(a, b);
    checkScript(edits, a, b);
    QCOMPARE(LineDiff::unified(LineDiff::hunks(edits, context), a, b), expected);
}

void TestLineDiff::scriptIsMinimalAndReproducesBothTexts_data()
{
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");

    QTest::newRow("classic Myers example") << u"a|b|c|a|b|b|a"_s << u"c|b|a|b|a|c"_s;
    QTest::newRow("repeated lines") << u"x|x|x|y|x"_s << u"x|y|x|x|x|x"_s;
    QTest::newRow("disjoint texts") << u"a|b|c"_s << u"d|e"_s;
    QTest::newRow("one line each, different") << u"a"_s << u"b"_s;
    QTest::newRow("prefix and suffix around a swap") << u"p|q|a|b|s|t"_s << u"p|q|b|a|s|t"_s;

    // Random texts over a small alphabet have many equal lines, the hard case for a diff.
    QRandomGenerator random(20261202);
    for (int i = 0; i < 60; ++i) {
        QStringList a;
        QStringList b;
        const int n = random.bounded(0, 30);
        const int m = random.bounded(0, 30);
        for (int j = 0; j < n; ++j) {
            a << QString(QChar(u'a' + random.bounded(4)));
        }
        for (int j = 0; j < m; ++j) {
            b << QString(QChar(u'a' + random.bounded(4)));
        }
        QTest::addRow("random %d", i) << a.join(u'|') << b.join(u'|');
    }
}

void TestLineDiff::scriptIsMinimalAndReproducesBothTexts()
{
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    const QStringList a = lines(oldText);
    const QStringList b = lines(newText);
    const QList<LineDiff::Edit> edits = LineDiff::edits(a, b);
    checkScript(edits, a, b);
    const auto equal = std::count_if(edits.cbegin(), edits.cend(), [](const LineDiff::Edit &edit) { return edit.kind == Kind::Equal; });
    QCOMPARE(static_cast<int>(equal), lcsLength(a, b));
}

void TestLineDiff::editDistanceCapStillGivesACorrectDiff()
{
    QStringList a;
    QStringList b;
    for (int i = 0; i < 50; ++i) {
        a << u"old %1"_s.arg(i);
        b << u"new %1"_s.arg(i);
    }
    a.prepend(u"same"_s);
    b.prepend(u"same"_s);
    const QList<LineDiff::Edit> edits = LineDiff::edits(a, b, 10);
    checkScript(edits, a, b);
    QCOMPARE(edits.first().kind, Kind::Equal);
    QCOMPARE(edits.size(), 101);
}

void TestLineDiff::hunkHeaders_data()
{
    QTest::addColumn<int>("oldStart");
    QTest::addColumn<int>("oldCount");
    QTest::addColumn<int>("newStart");
    QTest::addColumn<int>("newCount");
    QTest::addColumn<QString>("header");
    QTest::newRow("counts of one are omitted") << 3 << 1 << 3 << 1 << u"@@ -3 +3 @@"_s;
    QTest::newRow("empty old range") << 0 << 0 << 1 << 2 << u"@@ -0,0 +1,2 @@"_s;
    QTest::newRow("general") << 10 << 7 << 11 << 8 << u"@@ -10,7 +11,8 @@"_s;
}

void TestLineDiff::hunkHeaders()
{
    QFETCH(int, oldStart);
    QFETCH(int, oldCount);
    QFETCH(int, newStart);
    QFETCH(int, newCount);
    QFETCH(QString, header);
    LineDiff::Hunk hunk;
    hunk.oldStart = oldStart;
    hunk.oldCount = oldCount;
    hunk.newStart = newStart;
    hunk.newCount = newCount;
    QCOMPARE(hunk.header(), header);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
