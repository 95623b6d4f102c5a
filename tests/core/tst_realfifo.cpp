#include "core/cache/realfifo.h"

#include "cachetesthelpers.h"

#include "testmain.h"

#include <QTest>
#include <QThread>

#include <memory>

using namespace Cachescope;
using namespace CacheTest;
using namespace Qt::Literals::StringLiterals;

namespace {

QStringList queuedState(const RealFifo &fifo)
{
    QStringList state;
    for (const Delta &delta : fifo.queued()) {
        state.append(describe(delta));
    }
    return state;
}

} // namespace

class TestRealFifo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scenarios_data();
    void scenarios();
    void hasSynced_data();
    void hasSynced();
    void atomicReplace_data();
    void atomicReplace();
    void popDeliversOneDeltaAtATime();
    void closeUnblocksPop();
    void itemsQueuedBeforeCloseStillPop();
    void popTimesOutAtDeadline();
    void counters();
};

void TestRealFifo::scenarios_data()
{
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<QStringList>("popped");
    QTest::addColumn<QStringList>("queued");

    QTest::newRow("every event is kept in arrival order without merging")
        << QStringList{u"add a/x@1"_s, u"add a/y@1"_s, u"update a/x@2"_s, u"delete a/x@2"_s} << QStringList()
        << QStringList{u"Added a/x@1"_s, u"Added a/y@1"_s, u"Updated a/x@2"_s, u"Deleted a/x@2"_s};
    QTest::newRow("consecutive deletes are both kept")
        << QStringList{u"known a/x@1"_s, u"delete a/x@1"_s, u"delete a/x@2"_s} << QStringList() << QStringList{u"Deleted a/x@1"_s, u"Deleted a/x@2"_s};
    QTest::newRow("delete of an unknown object is still queued") << QStringList{u"delete a/x@1"_s} << QStringList() << QStringList{u"Deleted a/x@1"_s};
    QTest::newRow("an object deleted and re-created between pops is seen each time")
        << QStringList{u"add a/x@1"_s, u"delete a/x@1"_s, u"add a/x@2"_s, u"pop"_s, u"pop"_s, u"pop"_s}
        << QStringList{u"Added a/x@1"_s, u"Deleted a/x@1"_s, u"Added a/x@2"_s} << QStringList();
    QTest::newRow("replace queues Replaced for every listed object")
        << QStringList{u"replace a/x@1 a/y@1"_s} << QStringList() << QStringList{u"Replaced a/x@1"_s, u"Replaced a/y@1"_s};
    QTest::newRow("replace tombstones vanished known keys before the listed objects")
        << QStringList{u"known a/x@1"_s, u"known a/y@1"_s, u"replace a/y@2"_s} << QStringList() << QStringList{u"Deleted !a/x@1"_s, u"Replaced a/y@2"_s};
    QTest::newRow("replace tombstones a queued key with its last queued object")
        << QStringList{u"add a/x@1"_s, u"update a/x@2"_s, u"replace"_s} << QStringList()
        << QStringList{u"Added a/x@1"_s, u"Updated a/x@2"_s, u"Deleted !a/x@2"_s};
    QTest::newRow("a queued known key is tombstoned once, with the queued object")
        << QStringList{u"known a/x@1"_s, u"update a/x@2"_s, u"replace"_s} << QStringList() << QStringList{u"Updated a/x@2"_s, u"Deleted !a/x@2"_s};
    QTest::newRow("replace adds no tombstone for a queued key already deleted")
        << QStringList{u"known a/x@1"_s, u"delete a/x@2"_s, u"replace"_s} << QStringList() << QStringList{u"Deleted a/x@2"_s};
    QTest::newRow("replace keeps a queued delete of a key that is listed again")
        << QStringList{u"known a/x@1"_s, u"delete a/x@2"_s, u"replace a/x@3"_s} << QStringList() << QStringList{u"Deleted a/x@2"_s, u"Replaced a/x@3"_s};
    QTest::newRow("relist after the initial list tombstones what vanished from the store")
        << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s, u"pop"_s, u"replace a/y@2"_s, u"pop"_s, u"pop"_s}
        << QStringList{u"Replaced a/x@1 (initial)"_s, u"Replaced a/y@1 (initial)"_s, u"Deleted !a/x@1"_s, u"Replaced a/y@2"_s} << QStringList();
    QTest::newRow("resync queues Sync only for known keys with nothing queued")
        << QStringList{u"known a/x@1"_s, u"known a/y@1"_s, u"update a/y@2"_s, u"resync"_s} << QStringList() << QStringList{u"Updated a/y@2"_s, u"Sync a/x@1"_s};
    QTest::newRow("resync after everything was popped syncs the whole store")
        << QStringList{u"add a/x@1"_s, u"add a/y@1"_s, u"pop"_s, u"pop"_s, u"resync"_s} << QStringList{u"Added a/x@1"_s, u"Added a/y@1"_s}
        << QStringList{u"Sync a/x@1"_s, u"Sync a/y@1"_s};
}

void TestRealFifo::scenarios()
{
    QFETCH(QStringList, operations);
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    QCOMPARE(fifo.kind(), DeltaQueue::Kind::RealFifo);
    QTEST(runOperations(fifo, known, operations), "popped");
    QTEST(queuedState(fifo), "queued");
}

void TestRealFifo::hasSynced_data()
{
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<bool>("synced");
    QTest::newRow("empty queue has not synced") << QStringList() << false;
    QTest::newRow("add before any replace syncs at once") << QStringList{u"add a/x@1"_s} << true;
    QTest::newRow("empty replace syncs at once") << QStringList{u"replace"_s} << true;
    QTest::newRow("replace partly popped") << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s} << false;
    QTest::newRow("replace fully popped") << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s, u"pop"_s} << true;
    QTest::newRow("tombstones of the first replace count") << QStringList{u"known a/z@1"_s, u"replace a/x@1"_s, u"pop"_s} << false;
    QTest::newRow("tombstones of the first replace popped") << QStringList{u"known a/z@1"_s, u"replace a/x@1"_s, u"pop"_s, u"pop"_s} << true;
    QTest::newRow("an add after the first replace is not waited for") << QStringList{u"replace a/x@1"_s, u"add b/y@1"_s, u"pop"_s} << true;
    QTest::newRow("a later replace does not unsync") << QStringList{u"replace a/x@1"_s, u"pop"_s, u"replace a/y@1"_s} << true;
}

void TestRealFifo::hasSynced()
{
    QFETCH(QStringList, operations);
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    runOperations(fifo, known, operations);
    QTEST(fifo.hasSynced(), "synced");
}

// client-go 1.36's AtomicFIFO: a relist and a resync are one event each.
void TestRealFifo::atomicReplace_data()
{
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<QStringList>("popped");
    QTest::addColumn<QStringList>("queued");
    QTest::addColumn<bool>("synced");
    QTest::newRow("with atomic replace a relist is one delta carrying the whole list")
        << QStringList{u"known a/z@1"_s, u"replace a/x@1 a/y@1"_s} << QStringList() << QStringList{u"ReplacedAll [a/x@1 a/y@1]@100"_s} << false;
    QTest::newRow("with atomic replace the relist supersedes what was queued before it")
        << QStringList{u"add a/x@1"_s, u"update a/x@2"_s, u"replace a/y@1"_s, u"add a/w@1"_s} << QStringList()
        << QStringList{u"ReplacedAll [a/y@1]@100"_s, u"Added a/w@1"_s} << true;
    QTest::newRow("with atomic replace the first list syncs once its one delta is popped")
        << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s} << QStringList{u"ReplacedAll [a/x@1 a/y@1]@100 (initial)"_s} << QStringList() << true;
    QTest::newRow("with atomic replace a resync is one SyncAll delta")
        << QStringList{u"replace a/x@1"_s, u"pop"_s, u"resync"_s} << QStringList{u"ReplacedAll [a/x@1]@100 (initial)"_s} << QStringList{u"SyncAll"_s} << true;
}

void TestRealFifo::atomicReplace()
{
    QFETCH(QStringList, operations);
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known, true});
    QVERIFY(fifo.isAtomicReplace());
    QTEST(runOperations(fifo, known, operations), "popped");
    QTEST(queuedState(fifo), "queued");
    QTEST(fifo.hasSynced(), "synced");
}

void TestRealFifo::popDeliversOneDeltaAtATime()
{
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    fifo.add(object(u"a/x"_s, u"1"_s));
    fifo.update(object(u"a/x"_s, u"2"_s));
    const auto first = fifo.pop({});
    QVERIFY(first);
    QCOMPARE(first->size(), 1);
    QCOMPARE(describe(*first), u"Added a/x@1"_s);
}

void TestRealFifo::closeUnblocksPop()
{
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    std::optional<Deltas> result = Deltas{};
    std::unique_ptr<QThread> consumer(QThread::create([&] { result = fifo.pop({}); }));
    consumer->start();
    fifo.close();
    QVERIFY(consumer->wait(10000));
    QVERIFY(!result);
    QVERIFY(fifo.isClosed());
}

void TestRealFifo::itemsQueuedBeforeCloseStillPop()
{
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    fifo.add(object(u"a/x"_s));
    fifo.close();
    QVERIFY(fifo.pop({}));
    QVERIFY(!fifo.pop({}));
}

void TestRealFifo::popTimesOutAtDeadline()
{
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    QVERIFY(!fifo.pop({}, QDeadlineTimer(20)));
    QVERIFY(!fifo.isClosed());
}

void TestRealFifo::counters()
{
    FakeKnownObjects known;
    RealFifo fifo({metaNamespaceKey, &known});
    fifo.add(object(u"a/x"_s));
    fifo.update(object(u"a/x"_s, u"2"_s));
    QCOMPARE(fifo.counters().depth, 2);
    QCOMPARE(fifo.counters().queued, quint64(2));
    QVERIFY(fifo.pop({}));
    QCOMPARE(fifo.counters().depth, 1);
    QCOMPARE(fifo.counters().popped, quint64(1));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRealFifo)
#include "tst_realfifo.moc"
