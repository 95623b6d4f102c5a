#include "core/cache/indexkeyset.h"

#include "testmain.h"

#include <QSet>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

// apply() runs a script of steps on set and on a QSet that serves as the reference: `+0-40`
// inserts k0…k39, `-3-10` removes k3…k9, `+7` inserts k7 alone.
void apply(IndexKeySet &set, QSet<QString> &reference, const QString &script)
{
    for (const QString &step : script.split(u' ', Qt::SkipEmptyParts)) {
        const bool insert = step.startsWith(u'+');
        const QStringList range = step.mid(1).split(u'-');
        const int from = range.first().toInt();
        const int to = range.size() > 1 ? range.last().toInt() : from + 1;
        for (int i = from; i < to; ++i) {
            const QString key = u"ns/pod-%1"_s.arg(i);
            if (insert) {
                set.insert(key);
                reference.insert(key);
            } else {
                set.remove(key);
                reference.remove(key);
            }
        }
    }
}

} // namespace

class TestIndexKeySet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void behavesAsASetAcrossItsTwoForms_data();
    void behavesAsASetAcrossItsTwoForms();
};

void TestIndexKeySet::behavesAsASetAcrossItsTwoForms_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("size");
    QTest::addColumn<bool>("large");

    QTest::newRow("empty") << QString() << 0 << false;
    QTest::newRow("a few keys stay a list") << u"+0-3"_s << 3 << false;
    QTest::newRow("inserting a key held changes nothing") << u"+0-3 +1 +2"_s << 3 << false;
    QTest::newRow("removing a key not held changes nothing") << u"+0-3 -7 -3"_s << 3 << false;
    QTest::newRow("removing from the middle of the list") << u"+0-5 -2 -0"_s << 3 << false;
    QTest::newRow("exactly the limit stays a list") << u"+0-32"_s << 32 << false;
    QTest::newRow("the limit's duplicate stays a list") << u"+0-32 +31"_s << 32 << false;
    QTest::newRow("one past the limit becomes a set") << u"+0-33"_s << 33 << true;
    QTest::newRow("a set keeps set semantics") << u"+0-100 +50 -200 -10-20"_s << 90 << true;
    QTest::newRow("a set shrinking below the limit stays a set") << u"+0-40 -0-30"_s << 10 << true;
    QTest::newRow("a set shrunk to a quarter of the limit is a list again") << u"+0-40 -0-32"_s << 8 << false;
    QTest::newRow("and grows into a set again") << u"+0-40 -0-32 +100-130"_s << 38 << true;
    QTest::newRow("emptied set") << u"+0-40 -0-40"_s << 0 << false;
    QTest::newRow("hovering at the limit") << u"+0-33 -32 +32 -32 +32 -0"_s << 32 << true;
}

void TestIndexKeySet::behavesAsASetAcrossItsTwoForms()
{
    QFETCH(QString, script);
    IndexKeySet set;
    QSet<QString> reference;
    apply(set, reference, script);
    QTEST(int(set.size()), "size");
    QTEST(set.isLarge(), "large");
    QCOMPARE(set.isEmpty(), reference.isEmpty());
    const QStringList keys = set.keys();
    QCOMPARE(keys.size(), reference.size());
    QCOMPARE(QSet<QString>(keys.cbegin(), keys.cend()), reference);
    QSet<QString> visited;
    set.forEach([&visited](const QString &key) { visited.insert(key); });
    QCOMPARE(visited, reference);
    for (int i = 0; i < 220; ++i) {
        const QString key = u"ns/pod-%1"_s.arg(i);
        QCOMPARE(set.contains(key), reference.contains(key));
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestIndexKeySet)
#include "tst_indexkeyset.moc"
