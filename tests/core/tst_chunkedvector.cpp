#include "core/util/chunkedvector.h"

#include "testmain.h"

#include <QString>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestChunkedVector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sizes_data();
    void sizes();
    void elementsNeverMoveAsItGrows();
    void droppedElementsAreReleased();
};

void TestChunkedVector::sizes_data()
{
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("second");
    QTest::newRow("empty to one") << 0 << 1;
    QTest::newRow("within a chunk") << 3 << 7;
    QTest::newRow("to a chunk's end") << 5 << 8;
    QTest::newRow("past a chunk's end") << 8 << 9;
    QTest::newRow("over several chunks") << 1 << 37;
    QTest::newRow("shrink within a chunk") << 7 << 3;
    QTest::newRow("shrink over chunks") << 37 << 9;
    QTest::newRow("to nothing") << 17 << 0;
}

// Values written before a resize read back after it, up to the smaller size; added elements
// are default ones, including those of a chunk that held dropped elements before.
void TestChunkedVector::sizes()
{
    QFETCH(int, first);
    QFETCH(int, second);
    ChunkedVector<int, 3> vector;
    vector.resize(size_t(first));
    for (int i = 0; i < first; ++i) {
        vector[size_t(i)] = i + 1;
    }
    vector.resize(size_t(second));
    QCOMPARE(vector.size(), size_t(second));
    QCOMPARE(vector.empty(), second == 0);
    for (int i = 0; i < second; ++i) {
        QCOMPARE(vector[size_t(i)], i < first ? i + 1 : 0);
    }
    vector.resize(size_t(std::max(first, second)));
    for (int i = std::min(first, second); i < std::max(first, second); ++i) {
        QCOMPARE(vector[size_t(i)], 0);
    }
}

void TestChunkedVector::elementsNeverMoveAsItGrows()
{
    ChunkedVector<QString, 4> vector;
    vector.resize(5);
    vector[4] = u"kept"_s;
    const QString *address = &vector[4];
    for (size_t size = 6; size < 1000; size += 7) {
        vector.resize(size);
    }
    QCOMPARE(&vector[4], address);
    QCOMPARE(vector[4], u"kept"_s);
}

void TestChunkedVector::droppedElementsAreReleased()
{
    QString value = u"shared"_s;
    value.detach();
    ChunkedVector<QString, 4> vector;
    vector.resize(40);
    vector[3] = value; // in the first chunk, which stays
    vector[39] = value; // in the last chunk, which goes
    QVERIFY(!value.isDetached());
    vector.resize(2);
    QVERIFY(value.isDetached());
    vector.resize(40);
    QVERIFY(vector[3].isNull());
    QVERIFY(vector[39].isNull());
    vector[5] = value;
    vector.clear();
    QVERIFY(value.isDetached());
    QCOMPARE(vector.size(), size_t(0));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestChunkedVector)
#include "tst_chunkedvector.moc"
