// RowEdit's script, applied step by step to the old keys, gives the new keys, with no more steps
// than the change needs: appending and dropping rows moves none.
#include "ui/models/rowedit.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestRowEdit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scriptGivesTheNewRows_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<int>("moves");
        QTest::addColumn<int>("removes");
        QTest::addColumn<int>("inserts");

        const QStringList abc{u"a"_s, u"b"_s, u"c"_s};
        QTest::newRow("nothing changed") << abc << abc << 0 << 0 << 0;
        QTest::newRow("first rows") << QStringList() << abc << 0 << 0 << 3;
        QTest::newRow("all gone, one run") << abc << QStringList() << 0 << 1 << 0;
        QTest::newRow("newest on top") << abc << QStringList{u"n"_s, u"a"_s, u"b"_s, u"c"_s} << 0 << 0 << 1;
        QTest::newRow("one in the middle gone") << abc << QStringList{u"a"_s, u"c"_s} << 0 << 1 << 0;
        QTest::newRow("two runs gone") << QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s} << QStringList{u"c"_s} << 0 << 2 << 0;
        QTest::newRow("seen again: moves to the top") << abc << QStringList{u"c"_s, u"a"_s, u"b"_s} << 1 << 0 << 0;
        QTest::newRow("reversed") << abc << QStringList{u"c"_s, u"b"_s, u"a"_s} << 2 << 0 << 0;
        QTest::newRow("the same key twice") << QStringList{u"s"_s, u"s"_s} << QStringList{u"s"_s, u"x"_s, u"s"_s} << 0 << 0 << 1;
        QTest::newRow("gone, new and moved together") << abc << QStringList{u"c"_s, u"x"_s, u"a"_s} << 1 << 1 << 1;
    }

    void scriptGivesTheNewRows()
    {
        QFETCH(QStringList, before);
        QFETCH(QStringList, after);
        QFETCH(int, moves);
        QFETCH(int, removes);
        QFETCH(int, inserts);

        QStringList rows = before;
        int counted[4] = {};
        const QList<RowEdit> edits = RowEdit::between(before, after);
        QList<bool> kept(after.size(), false);
        for (const RowEdit &edit : edits) {
            ++counted[int(edit.kind)];
            switch (edit.kind) {
            case RowEdit::Kind::Remove:
                QVERIFY(edit.count > 0 && edit.row + edit.count <= rows.size());
                rows.remove(edit.row, edit.count);
                break;
            case RowEdit::Kind::Move:
                QVERIFY(edit.from > edit.row && edit.from < rows.size());
                rows.move(edit.from, edit.row);
                break;
            case RowEdit::Kind::Insert:
                QVERIFY(edit.row <= rows.size());
                rows.insert(edit.row, after.at(edit.fresh));
                kept[edit.fresh] = true;
                break;
            case RowEdit::Kind::Keep:
                QCOMPARE(rows.at(edit.row), after.at(edit.fresh));
                kept[edit.fresh] = true;
                break;
            }
        }
        QCOMPARE(rows, after);
        QVERIFY(!kept.contains(false)); // every new row was inserted or updated
        QCOMPARE(counted[int(RowEdit::Kind::Move)], moves);
        QCOMPARE(counted[int(RowEdit::Kind::Remove)], removes);
        QCOMPARE(counted[int(RowEdit::Kind::Insert)], inserts);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestRowEdit)
#include "tst_rowedit.moc"
