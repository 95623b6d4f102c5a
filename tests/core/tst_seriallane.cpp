// core/util/seriallane: items are worked on off the receiver's thread, one run at a time or up to
// maxRuns side by side, and their results come back on the receiver's thread in the order the
// items were pushed; results not handed over are bounded; after close() or the receiver's
// destruction nothing more is delivered.
#include "core/util/seriallane.h"

#include "testmain.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <thread>

using namespace Cachescope;

class TestSerialLane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resultsComeBackInOrderOnTheReceiversThread_data();
    void resultsComeBackInOrderOnTheReceiversThread();
    void neverTwoRunsOfALaneAtOnce();
    void runsSideBySideDeliverInOrder();
    void resultsNotHandedOverAreBounded();
    void closeDropsWhatIsPendingAndInFlight();
    void aDestroyedReceiverIsNeverCalled();
};

void TestSerialLane::resultsComeBackInOrderOnTheReceiversThread_data()
{
    QTest::addColumn<int>("count");
    QTest::newRow("one") << 1;
    constexpr int maxBatch = int(SerialLane<int, int>::MaxBatch);
    QTest::newRow("one batch") << maxBatch;
    QTest::newRow("many batches") << 20000;
}

void TestSerialLane::resultsComeBackInOrderOnTheReceiversThread()
{
    QFETCH(int, count);
    QObject receiver;
    QThread *const receiverThread = QThread::currentThread();
    std::atomic<int> workedOnReceiverThread = 0;
    QList<int> results;
    int batches = 0;
    int deliveredOffThread = 0;
    qsizetype largestBatch = 0;
    auto lane = SerialLane<int, int>::create(
        &receiver,
        [&](int &item) {
            if (QThread::currentThread() == receiverThread) {
                ++workedOnReceiverThread;
            }
            return item * 3 + 1;
        },
        [&](const QList<int> &batch) {
            if (QThread::currentThread() != receiverThread) {
                ++deliveredOffThread;
            }
            ++batches;
            largestBatch = std::max(largestBatch, batch.size());
            results += batch;
        });
    for (int i = 0; i < count; ++i) {
        lane->push(i);
    }
    QVERIFY(QTest::qWaitFor([&] { return results.size() >= count; }, 20000));
    QTest::qWait(20); // nothing more comes
    QCOMPARE(results.size(), count);
    for (int i = 0; i < count; ++i) {
        QCOMPARE(results.at(i), i * 3 + 1);
    }
    QCOMPARE(workedOnReceiverThread.load(), 0);
    QCOMPARE(deliveredOffThread, 0);
    constexpr qsizetype maxBatch = SerialLane<int, int>::MaxBatch;
    QVERIFY(largestBatch <= maxBatch);
    QVERIFY(batches >= (count + maxBatch - 1) / maxBatch);
}

// With the pool's threads free, a second run of the same lane could start beside the first; it
// must not: each item's work sees the items before it done.
void TestSerialLane::neverTwoRunsOfALaneAtOnce()
{
    QObject receiver;
    std::atomic<int> inside = 0;
    std::atomic<int> most = 0;
    int delivered = 0;
    auto lane = SerialLane<int, int>::create(
        &receiver,
        [&](int &item) {
            const int now = ++inside;
            most = std::max(most.load(), now);
            std::this_thread::sleep_for(std::chrono::microseconds(50));
            --inside;
            return item;
        },
        [&](const QList<int> &batch) { delivered += int(batch.size()); });
    // Pushed in bursts between turns of the event loop, so runs are scheduled again and again.
    for (int burst = 0; burst < 40; ++burst) {
        for (int i = 0; i < 50; ++i) {
            lane->push(i);
        }
        QTest::qWait(1);
    }
    QVERIFY(QTest::qWaitFor([&] { return delivered >= 2000; }, 20000));
    QCOMPARE(most.load(), 1);
}

// With two runs allowed, the first batch is held until another run has begun: the second run
// finishes first, and its results still wait for the first's.
void TestSerialLane::runsSideBySideDeliverInOrder()
{
    QObject receiver;
    QSemaphore otherStarted;
    std::atomic<bool> firstSawAnother = false;
    std::atomic<int> inside = 0;
    std::atomic<int> most = 0;
    QList<int> results;
    auto lane = SerialLane<int, int>::create(
        &receiver,
        [&](int &item) {
            const int now = ++inside;
            most = std::max(most.load(), now);
            if (item == 0) {
                firstSawAnother = otherStarted.tryAcquire(1, 10000);
                QThread::msleep(200); // meanwhile the other run finishes and posts its batch
            } else if (item % SerialLane<int, int>::MaxBatch == 1) {
                otherStarted.release();
            }
            --inside;
            return item * 2;
        },
        [&](const QList<int> &batch) { results += batch; },
        2);
    constexpr int count = 4000;
    for (int i = 0; i < count; ++i) {
        lane->push(i);
    }
    QVERIFY(QTest::qWaitFor([&] { return results.size() >= count; }, 30000));
    QVERIFY(firstSawAnother.load());
    QCOMPARE(most.load(), 2);
    QCOMPARE(results.size(), count);
    for (int i = 0; i < count; ++i) {
        QCOMPARE(results.at(i), i * 2);
    }
}

// A receiver that does not get to its event loop is handed nothing, and the runs stop once
// 2 x maxRuns batches wait for it: the rest stays pending, where the producer can see it.
void TestSerialLane::resultsNotHandedOverAreBounded()
{
    QObject receiver;
    std::atomic<int> worked = 0;
    QList<int> results;
    auto lane = SerialLane<int, int>::create(
        &receiver,
        [&](int &item) {
            ++worked;
            return item;
        },
        [&](const QList<int> &batch) { results += batch; },
        2);
    constexpr int count = 5000;
    for (int i = 0; i < count; ++i) {
        lane->push(i);
    }
    constexpr int bound = 4 * int(SerialLane<int, int>::MaxBatch);
    QThread::msleep(500); // the receiver's thread is busy: nothing is delivered meanwhile
    QVERIFY(worked.load() > 0);
    QVERIFY2(worked.load() <= bound, qPrintable(QString::number(worked.load())));
    QCOMPARE(lane->pendingCount(), qsizetype(count - worked.load()));
    QVERIFY(results.isEmpty());
    QVERIFY(QTest::qWaitFor([&] { return results.size() >= count; }, 30000));
    for (int i = 0; i < count; ++i) {
        QCOMPARE(results.at(i), i);
    }
}

void TestSerialLane::closeDropsWhatIsPendingAndInFlight()
{
    QObject receiver;
    QSemaphore started;
    QSemaphore release;
    int delivered = 0;
    auto lane = SerialLane<int, int>::create(
        &receiver,
        [&](int &item) {
            if (item == 0) {
                started.release();
                release.acquire();
            }
            return item;
        },
        [&](const QList<int> &batch) { delivered += int(batch.size()); });
    for (int i = 0; i < 1000; ++i) {
        lane->push(i);
    }
    QVERIFY(started.tryAcquire(1, 10000));
    lane->close();
    lane->push(1000); // ignored once closed
    release.release();
    QTest::qWait(200);
    QCOMPARE(delivered, 0);
    QVERIFY(lane->isClosed());

    // A batch already posted when the lane closes is not delivered either.
    QObject second;
    int secondDelivered = 0;
    auto posted = SerialLane<int, int>::create(
        &second, [](int &item) { return item; }, [&](const QList<int> &batch) { secondDelivered += int(batch.size()); });
    posted->push(1);
    QThread::msleep(100); // worked on and posted while this thread does not run its event loop
    posted->close();
    QTest::qWait(100);
    QCOMPARE(secondDelivered, 0);
}

void TestSerialLane::aDestroyedReceiverIsNeverCalled()
{
    auto *receiver = new QObject;
    QSemaphore started;
    QSemaphore release;
    std::atomic<int> worked = 0;
    int delivered = 0;
    auto lane = SerialLane<int, int>::create(
        receiver,
        [&](int &item) {
            if (item == 0) {
                started.release();
                release.acquire();
            }
            ++worked;
            return item;
        },
        [&](const QList<int> &batch) { delivered += int(batch.size()); });
    for (int i = 0; i < 600; ++i) {
        lane->push(i);
    }
    QVERIFY(started.tryAcquire(1, 10000));
    delete receiver; // mid-run: its first batch is still being worked on
    release.release();
    QTest::qWait(200);
    QCOMPARE(delivered, 0);
    QVERIFY(lane->isClosed());
    QVERIFY(worked.load() >= 1);
    constexpr int maxBatch = int(SerialLane<int, int>::MaxBatch);
    QVERIFY(worked.load() <= maxBatch); // the rest were dropped unworked
}

CACHESCOPE_TEST_GUILESS_MAIN(TestSerialLane)
#include "tst_seriallane.moc"
