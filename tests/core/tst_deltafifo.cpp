#include "core/cache/deltafifo.h"

#include "cachetesthelpers.h"

#include "testmain.h"

#include <QSet>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Cachescope;
using namespace CacheTest;
using namespace Qt::Literals::StringLiterals;

namespace {

// queuedState() renders what waits in the queue: one entry per key, in pop order.
QStringList queuedState(const DeltaFifo &fifo)
{
    QStringList state;
    for (const QString &key : fifo.listKeys()) {
        state.append(describe(fifo.getByKey(key).value_or(Deltas())));
    }
    return state;
}

} // namespace

class TestDeltaFifo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scenarios_data();
    void scenarios();
    void hasSynced_data();
    void hasSynced();
    void initialListFlag();
    void popBlocksUntilAdd();
    void closeUnblocksPop();
    void popTimesOutAtDeadline();
    void itemsQueuedBeforeCloseStillPop();
    void addIfNotPresent_data();
    void addIfNotPresent();
    void listAndGet();
    void counters();
    void invalidObjectsAreIgnored();
    void concurrentProducersLoseNothing();
};

void TestDeltaFifo::scenarios_data()
{
    QTest::addColumn<bool>("withKnownObjects");
    QTest::addColumn<bool>("emitReplaced");
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<QStringList>("popped");
    QTest::addColumn<QStringList>("queued");

    QTest::newRow("keys pop in the order they were first queued")
        << true << true << QStringList{u"add a/x@1"_s, u"add a/y@1"_s, u"update a/x@2"_s, u"pop"_s, u"pop"_s}
        << QStringList{u"Added a/x@1, Updated a/x@2"_s, u"Added a/y@1"_s} << QStringList();
    QTest::newRow("add, update and delete of one key are kept together in order")
        << true << true << QStringList{u"add a/x@1"_s, u"update a/x@2"_s, u"delete a/x@2"_s} << QStringList()
        << QStringList{u"Added a/x@1, Updated a/x@2, Deleted a/x@2"_s};
    // client-go's isDeletionDup keeps the older delete unless it is a tombstone.
    QTest::newRow("two consecutive real deletes keep the older one")
        << true << true << QStringList{u"known a/x@1"_s, u"delete a/x@1"_s, u"delete a/x@2"_s} << QStringList() << QStringList{u"Deleted a/x@1"_s};
    QTest::newRow("delete then tombstone keeps the real object")
        << true << true << QStringList{u"known a/x@1"_s, u"delete a/x@3"_s, u"tombstone a/x"_s} << QStringList() << QStringList{u"Deleted a/x@3"_s};
    QTest::newRow("tombstone then delete keeps the real object")
        << true << true << QStringList{u"known a/x@1"_s, u"tombstone a/x"_s, u"delete a/x@3"_s} << QStringList() << QStringList{u"Deleted a/x@3"_s};
    QTest::newRow("deletes separated by an add are not merged")
        << true << true << QStringList{u"known a/x@1"_s, u"delete a/x@1"_s, u"add a/x@2"_s, u"delete a/x@3"_s} << QStringList()
        << QStringList{u"Deleted a/x@1, Added a/x@2, Deleted a/x@3"_s};
    QTest::newRow("delete of an object neither queued nor known is dropped")
        << true << true << QStringList{u"known b/z@1"_s, u"delete a/x@1"_s} << QStringList() << QStringList();
    QTest::newRow("delete of an unknown object that is queued is kept")
        << true << true << QStringList{u"add a/x@1"_s, u"delete a/x@1"_s} << QStringList() << QStringList{u"Added a/x@1, Deleted a/x@1"_s};
    QTest::newRow("delete of a known object is queued")
        << true << true << QStringList{u"known a/x@1"_s, u"delete a/x@2"_s} << QStringList() << QStringList{u"Deleted a/x@2"_s};
    QTest::newRow("delete without known objects and nothing queued is dropped")
        << false << true << QStringList{u"delete a/x@1"_s} << QStringList() << QStringList();
    QTest::newRow("replace emits Replaced for listed objects")
        << true << true << QStringList{u"replace a/x@1 a/y@1"_s} << QStringList() << QStringList{u"Replaced a/x@1"_s, u"Replaced a/y@1"_s};
    QTest::newRow("replace without emitDeltaTypeReplaced emits Sync")
        << true << false << QStringList{u"replace a/x@1 a/y@1"_s} << QStringList() << QStringList{u"Sync a/x@1"_s, u"Sync a/y@1"_s};
    QTest::newRow("replace tombstones known keys missing from the list") << true << true << QStringList{u"known a/x@1"_s, u"known a/y@1"_s, u"replace a/y@2"_s}
                                                                         << QStringList() << QStringList{u"Replaced a/y@2"_s, u"Deleted !a/x@1"_s};
    QTest::newRow("replace tombstones a queued key with its newest queued object")
        << true << true << QStringList{u"known a/x@1"_s, u"update a/x@2"_s, u"replace"_s} << QStringList() << QStringList{u"Updated a/x@2, Deleted !a/x@2"_s};
    QTest::newRow("replace tombstones a queued key unknown to the store") << true << true << QStringList{u"add a/x@1"_s, u"replace b/y@1"_s} << QStringList()
                                                                          << QStringList{u"Added a/x@1, Deleted !a/x@1"_s, u"Replaced b/y@1"_s};
    QTest::newRow("replace without known objects tombstones only queued keys")
        << false << true << QStringList{u"known a/z@1"_s, u"add a/x@1"_s, u"replace b/y@1"_s} << QStringList()
        << QStringList{u"Added a/x@1, Deleted !a/x@1"_s, u"Replaced b/y@1"_s};
    QTest::newRow("a second replace keeps one tombstone with the last known object")
        << true << true << QStringList{u"known a/x@1"_s, u"replace"_s, u"replace"_s} << QStringList() << QStringList{u"Deleted !a/x@1"_s};
    QTest::newRow("replace of a listed key appends to its queued deltas")
        << true << true << QStringList{u"add a/x@1"_s, u"replace a/x@2"_s} << QStringList() << QStringList{u"Added a/x@1, Replaced a/x@2"_s};
    QTest::newRow("relist after the initial list tombstones what vanished from the store")
        << true << true << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s, u"pop"_s, u"replace a/y@2"_s, u"pop"_s, u"pop"_s}
        << QStringList{u"Replaced a/x@1 (initial)"_s, u"Replaced a/y@1 (initial)"_s, u"Replaced a/y@2"_s, u"Deleted !a/x@1"_s} << QStringList();
    QTest::newRow("resync queues Sync only for known keys with nothing queued")
        << true << true << QStringList{u"known a/x@1"_s, u"known a/y@1"_s, u"update a/y@2"_s, u"resync"_s} << QStringList()
        << QStringList{u"Updated a/y@2"_s, u"Sync a/x@1"_s};
    QTest::newRow("resync twice does not queue a second Sync")
        << true << true << QStringList{u"known a/x@1"_s, u"resync"_s, u"resync"_s} << QStringList() << QStringList{u"Sync a/x@1"_s};
    QTest::newRow("resync without known objects does nothing") << false << true << QStringList{u"known a/x@1"_s, u"resync"_s} << QStringList() << QStringList();
    QTest::newRow("a popped key queued again goes to the back") << true << true << QStringList{u"add a/x@1"_s, u"add a/y@1"_s, u"pop"_s, u"update a/x@2"_s}
                                                                << QStringList{u"Added a/x@1"_s} << QStringList{u"Added a/y@1"_s, u"Updated a/x@2"_s};
    QTest::newRow("pop on an empty queue returns nothing") << true << true << QStringList{u"pop"_s} << QStringList{u"<empty>"_s} << QStringList();
}

void TestDeltaFifo::scenarios()
{
    QFETCH(bool, withKnownObjects);
    QFETCH(bool, emitReplaced);
    QFETCH(QStringList, operations);
    FakeKnownObjects known;
    DeltaFifo fifo({metaNamespaceKey, withKnownObjects ? &known : nullptr, emitReplaced});
    QCOMPARE(fifo.kind(), DeltaQueue::Kind::DeltaFifo);
    const QStringList popped = runOperations(fifo, known, operations);
    QTEST(popped, "popped");
    QTEST(queuedState(fifo), "queued");
}

void TestDeltaFifo::hasSynced_data()
{
    QTest::addColumn<QStringList>("operations");
    QTest::addColumn<bool>("synced");
    QTest::newRow("empty queue has not synced") << QStringList() << false;
    QTest::newRow("add before any replace syncs at once") << QStringList{u"add a/x@1"_s} << true;
    QTest::newRow("delete before any replace syncs at once") << QStringList{u"delete a/x@1"_s} << true;
    QTest::newRow("empty replace syncs at once") << QStringList{u"replace"_s} << true;
    QTest::newRow("replace not popped yet") << QStringList{u"replace a/x@1 a/y@1"_s} << false;
    QTest::newRow("replace partly popped") << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s} << false;
    QTest::newRow("replace fully popped") << QStringList{u"replace a/x@1 a/y@1"_s, u"pop"_s, u"pop"_s} << true;
    QTest::newRow("tombstones of the first replace count") << QStringList{u"known a/z@1"_s, u"replace a/x@1"_s, u"pop"_s} << false;
    QTest::newRow("tombstones of the first replace popped") << QStringList{u"known a/z@1"_s, u"replace a/x@1"_s, u"pop"_s, u"pop"_s} << true;
    QTest::newRow("an add after the first replace is not waited for") << QStringList{u"replace a/x@1"_s, u"add b/y@1"_s, u"pop"_s} << true;
    QTest::newRow("a later replace does not unsync") << QStringList{u"replace a/x@1"_s, u"pop"_s, u"replace a/y@1"_s} << true;
    QTest::newRow("resync alone does not sync") << QStringList{u"known a/x@1"_s, u"resync"_s} << false;
}

void TestDeltaFifo::hasSynced()
{
    QFETCH(QStringList, operations);
    FakeKnownObjects known;
    DeltaFifo fifo({metaNamespaceKey, &known, true});
    runOperations(fifo, known, operations);
    QTEST(fifo.hasSynced(), "synced");
}

void TestDeltaFifo::initialListFlag()
{
    FakeKnownObjects known;
    DeltaFifo fifo({metaNamespaceKey, &known, true});
    const QStringList popped = runOperations(fifo, known, {u"replace a/x@1 a/y@1"_s, u"add b/z@1"_s, u"pop"_s, u"pop"_s, u"pop"_s});
    QCOMPARE(popped, (QStringList{u"Replaced a/x@1 (initial)"_s, u"Replaced a/y@1 (initial)"_s, u"Added b/z@1"_s}));
}

void TestDeltaFifo::popBlocksUntilAdd()
{
    DeltaFifo fifo;
    std::atomic<bool> returned = false;
    std::optional<Deltas> result;
    std::unique_ptr<QThread> consumer(QThread::create([&] {
        result = fifo.pop({});
        returned = true;
    }));
    consumer->start();
    // The consumer is blocked on an empty queue; nothing can have come back yet.
    QVERIFY(!returned);
    fifo.add(object(u"a/x"_s));
    QVERIFY(consumer->wait(10000));
    QVERIFY(result);
    QCOMPARE(describe(*result), u"Added a/x@1"_s);
}

void TestDeltaFifo::closeUnblocksPop()
{
    DeltaFifo fifo;
    std::optional<Deltas> result = Deltas{};
    std::unique_ptr<QThread> consumer(QThread::create([&] { result = fifo.pop({}); }));
    consumer->start();
    QVERIFY(!fifo.isClosed());
    fifo.close();
    QVERIFY(consumer->wait(10000));
    QVERIFY(!result);
    QVERIFY(fifo.isClosed());
}

void TestDeltaFifo::popTimesOutAtDeadline()
{
    DeltaFifo fifo;
    bool called = false;
    QVERIFY(!fifo.pop([&](const Deltas &, bool) { called = true; }, QDeadlineTimer(20)));
    QVERIFY(!called);
    QVERIFY(!fifo.isClosed());
}

void TestDeltaFifo::itemsQueuedBeforeCloseStillPop()
{
    DeltaFifo fifo;
    fifo.add(object(u"a/x"_s));
    fifo.close();
    const auto first = fifo.pop({});
    QVERIFY(first);
    QCOMPARE(describe(*first), u"Added a/x@1"_s);
    QVERIFY(!fifo.pop({}));
}

void TestDeltaFifo::addIfNotPresent_data()
{
    QTest::addColumn<bool>("newerQueued");
    QTest::addColumn<QStringList>("queued");
    QTest::newRow("requeued deltas come back when nothing newer is queued") << false << QStringList{u"Added a/y@1"_s, u"Added a/x@1, Updated a/x@2"_s};
    QTest::newRow("requeue loses to a newer queued delta") << true << QStringList{u"Added a/y@1"_s, u"Updated a/x@3"_s};
}

void TestDeltaFifo::addIfNotPresent()
{
    QFETCH(bool, newerQueued);
    DeltaFifo fifo;
    fifo.add(object(u"a/x"_s, u"1"_s));
    fifo.update(object(u"a/x"_s, u"2"_s));
    fifo.add(object(u"a/y"_s, u"1"_s));
    const auto popped = fifo.pop({});
    QVERIFY(popped);
    if (newerQueued) {
        fifo.update(object(u"a/x"_s, u"3"_s));
    }
    fifo.addIfNotPresent(*popped);
    QTEST(queuedState(fifo), "queued");
}

void TestDeltaFifo::listAndGet()
{
    DeltaFifo fifo;
    fifo.add(object(u"a/x"_s, u"1"_s));
    fifo.add(object(u"b"_s, u"1"_s));
    fifo.update(object(u"a/x"_s, u"2"_s));
    QCOMPARE(fifo.listKeys(), (QStringList{u"a/x"_s, u"b"_s}));
    const QList<KubeObject> newest = fifo.list();
    QCOMPARE(newest.size(), 2);
    QCOMPARE(newest.at(0).resourceVersion(), u"2"_s);
    QCOMPARE(describe(fifo.getByKey(u"a/x"_s).value()), u"Added a/x@1, Updated a/x@2"_s);
    QVERIFY(!fifo.getByKey(u"a/none"_s));
    QCOMPARE(fifo.keyOf(DeletedFinalStateUnknown{u"t/k"_s, KubeObject()}), u"t/k"_s);
}

void TestDeltaFifo::counters()
{
    DeltaFifo fifo;
    fifo.add(object(u"a/x"_s));
    fifo.update(object(u"a/x"_s, u"2"_s));
    fifo.add(object(u"a/y"_s));
    DeltaQueue::Counters counters = fifo.counters();
    QCOMPARE(counters.depth, 2);
    QCOMPARE(counters.queued, quint64(3));
    QCOMPARE(counters.popped, quint64(0));
    QVERIFY(fifo.pop({}));
    counters = fifo.counters();
    QCOMPARE(counters.depth, 1);
    QCOMPARE(counters.popped, quint64(1));
}

void TestDeltaFifo::invalidObjectsAreIgnored()
{
    DeltaFifo fifo;
    fifo.add(KubeObject());
    fifo.update(KubeObject());
    fifo.remove(KubeObject());
    fifo.replace({KubeObject()}, u"1"_s);
    QCOMPARE(fifo.counters().depth, 0);
    QVERIFY(fifo.hasSynced());
}

void TestDeltaFifo::concurrentProducersLoseNothing()
{
    // The reflector feeds the queue from the network thread while the informer pops on its own.
    DeltaFifo fifo;
    constexpr int Producers = 4;
    constexpr int PerProducer = 500;
    std::vector<std::unique_ptr<QThread>> producers;
    for (int p = 0; p < Producers; ++p) {
        producers.emplace_back(QThread::create([&fifo, p] {
            for (int i = 0; i < PerProducer; ++i) {
                fifo.add(object(u"ns%1/o%2"_s.arg(p).arg(i)));
            }
        }));
        producers.back()->start();
    }
    QSet<QString> seen;
    int duplicates = 0;
    while (seen.size() < qsizetype(Producers) * PerProducer) {
        const auto deltas = fifo.pop({}, QDeadlineTimer(10000));
        QVERIFY(deltas);
        const QString key = metaNamespaceKey(deltas->last().kubeObject());
        duplicates += seen.contains(key) ? 1 : 0;
        seen.insert(key);
    }
    for (auto &producer : producers) {
        QVERIFY(producer->wait(10000));
    }
    QCOMPARE(duplicates, 0);
    QCOMPARE(fifo.counters().depth, 0);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestDeltaFifo)
#include "tst_deltafifo.moc"
