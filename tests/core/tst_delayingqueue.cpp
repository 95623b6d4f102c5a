// Tests of DelayingQueue on a FakeClock: client-go's delaying_queue_test.go scenarios.
#include "core/util/fakeclock.h"
#include "core/workqueue/delayingqueue.h"

#include "queuetesthelpers.h"

#include "testmain.h"

#include <QTest>

#include <memory>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(Cachescope::Duration)

class TestDelayingQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appearsOnlyAfterDelay_data();
    void appearsOnlyAfterDelay();
    void simpleQueue();
    void deduping_data();
    void deduping();
    void ordering_data();
    void ordering();
    void addTwoFireEarly();
    void nonPositiveDelayAddsImmediately_data();
    void nonPositiveDelayAddsImmediately();
    void delayedKeyWhileProcessing();
    void shutDownDropsWaitingKeys();
    void retriesCountEveryAddAfter();
    void realClockDelay();
};

void TestDelayingQueue::appearsOnlyAfterDelay_data()
{
    QTest::addColumn<Duration>("delay");
    QTest::addColumn<Duration>("step");
    QTest::addColumn<bool>("added");

    QTest::newRow("not added before its delay") << Duration(50ms) << Duration(49ms) << false;
    QTest::newRow("added when the clock reaches the delay") << Duration(50ms) << Duration(50ms) << true;
    QTest::newRow("added once the clock passes the delay") << Duration(50ms) << Duration(60ms) << true;
    QTest::newRow("a long delay waits past the 10 s heartbeat") << Duration(1h) << Duration(30s) << false;
    QTest::newRow("a long delay fires when due") << Duration(1h) << Duration(1h) << true;
}

void TestDelayingQueue::appearsOnlyAfterDelay()
{
    QFETCH(Duration, delay);
    QFETCH(Duration, step);
    QFETCH(bool, added);

    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.addAfter(u"foo"_s, delay);
    QCOMPARE(q.waitingCount(), 1);
    QCOMPARE(q.len(), 0);

    clock.get()->step(step - 1ns); // settle() steps the last nanosecond
    const QStringList queued = settle(q, *clock);
    QCOMPARE(queued, added ? QStringList{u"foo"_s} : QStringList{});
    QCOMPARE(q.waitingCount(), added ? 0 : 1);
}

// client-go TestSimpleQueue: a delayed key is added once, and never again after later steps.
void TestDelayingQueue::simpleQueue()
{
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.addAfter(u"foo"_s, 50ms);
    QCOMPARE(q.len(), 0);

    clock->step(60ms);
    QTRY_COMPARE(q.len(), 1);
    QCOMPARE(takeAll(q), QStringList{u"foo"_s});

    // Step past the next heartbeat: nothing comes back.
    clock->step(10s);
    QCOMPARE(settle(q, *clock), QStringList{});
    QCOMPARE(q.waitingCount(), 0);
}

void TestDelayingQueue::deduping_data()
{
    QTest::addColumn<Duration>("firstDelay");
    QTest::addColumn<Duration>("secondDelay");
    QTest::addColumn<Duration>("readyAfter");

    QTest::newRow("a later re-add does not postpone a waiting key") << Duration(50ms) << Duration(70ms) << Duration(50ms);
    QTest::newRow("an earlier re-add moves a waiting key forward") << Duration(50ms) << Duration(30ms) << Duration(30ms);
    QTest::newRow("a re-add with the same delay changes nothing") << Duration(50ms) << Duration(50ms) << Duration(50ms);
}

// client-go TestDeduping: a key waits once, at the sooner of its ready times, and is added once.
void TestDelayingQueue::deduping()
{
    QFETCH(Duration, firstDelay);
    QFETCH(Duration, secondDelay);
    QFETCH(Duration, readyAfter);

    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.addAfter(u"foo"_s, firstDelay);
    q.addAfter(u"foo"_s, secondDelay);
    QCOMPARE(q.waitingCount(), 1);

    clock->step(readyAfter - 2ns);
    QCOMPARE(settle(q, *clock), QStringList{}); // 1 ns short of readyAfter
    QCOMPARE(settle(q, *clock), QStringList{u"foo"_s});
    QCOMPARE(q.waitingCount(), 0);

    // Past both ready times: the key does not come a second time.
    clock->step(std::max(firstDelay, secondDelay));
    QCOMPARE(settle(q, *clock), QStringList{});
}

void TestDelayingQueue::ordering_data()
{
    QTest::addColumn<QList<int>>("delaysMs");
    QTest::addColumn<QStringList>("expected");

    // Keys are named k0, k1, … in the order they are added.
    QTest::newRow("keys come out by ready time, not by add order (client-go TestCopyShifting)")
        << QList<int>{1000, 500, 250} << QStringList{u"k2"_s, u"k1"_s, u"k0"_s};
    QTest::newRow("keys due at the same time come out in add order") << QList<int>{100, 100, 100} << QStringList{u"k0"_s, u"k1"_s, u"k2"_s};
    QTest::newRow("mixed delays") << QList<int>{30, 10, 20, 10, 40} << QStringList{u"k1"_s, u"k3"_s, u"k2"_s, u"k0"_s, u"k4"_s};
}

void TestDelayingQueue::ordering()
{
    QFETCH(QList<int>, delaysMs);
    QFETCH(QStringList, expected);

    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    for (int i = 0; i < delaysMs.size(); ++i) {
        q.addAfter(u"k"_s + QString::number(i), std::chrono::milliseconds(delaysMs.at(i)));
    }
    QCOMPARE(q.waitingCount(), delaysMs.size());
    QCOMPARE(q.len(), 0);

    clock->step(2s);
    QCOMPARE(settle(q, *clock), expected);
}

// client-go TestAddTwoFireEarly: each step releases exactly the keys that became due.
void TestDelayingQueue::addTwoFireEarly()
{
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.addAfter(u"foo"_s, 1s);
    q.addAfter(u"bar"_s, 50ms);

    clock->step(60ms);
    QCOMPARE(settle(q, *clock), QStringList{u"bar"_s});

    q.addAfter(u"baz"_s, 2s);
    clock->step(1s);
    QCOMPARE(settle(q, *clock), QStringList{u"foo"_s});

    clock->step(2s);
    QCOMPARE(settle(q, *clock), QStringList{u"baz"_s});
}

void TestDelayingQueue::nonPositiveDelayAddsImmediately_data()
{
    QTest::addColumn<Duration>("delay");
    QTest::newRow("zero delay adds at once") << Duration(0);
    QTest::newRow("negative delay adds at once") << Duration(-5ms);
}

void TestDelayingQueue::nonPositiveDelayAddsImmediately()
{
    QFETCH(Duration, delay);
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.addAfter(u"foo"_s, delay);
    // Synchronously, without any step of the clock.
    QCOMPARE(q.waitingCount(), 0);
    QCOMPARE(q.len(), 1);
    QCOMPARE(takeAll(q), QStringList{u"foo"_s});
}

// client-go TestDeduping's last part: a delayed key that comes due while it is processing is
// marked dirty and processed again after done.
void TestDelayingQueue::delayedKeyWhileProcessing()
{
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.add(u"foo"_s);
    const std::optional<QString> got = q.get();
    QCOMPARE(got, std::optional<QString>(u"foo"_s));

    q.addAfter(u"foo"_s, 5ms);
    clock->step(5ms);
    QTRY_COMPARE(q.waitingCount(), 0);
    // Wait for the loop's add of foo (a dirty mark: foo is processing), visible in the feed.
    QTRY_VERIFY([&] {
        const auto events = q.eventLog()->since(0).entries;
        return std::any_of(events.cbegin(), events.cend(), [](const QueueEvent &e) { return e.type == QueueEventType::AddedWhileProcessing; });
    }());
    QCOMPARE(q.len(), 0);
    q.done(u"foo"_s);
    QCOMPARE(q.len(), 1);
    QCOMPARE(takeAll(q), QStringList{u"foo"_s});
}

void TestDelayingQueue::shutDownDropsWaitingKeys()
{
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.addAfter(u"foo"_s, 1s);
    q.shutDown();
    QCOMPARE(q.waitingCount(), 0);
    q.addAfter(u"bar"_s, 1s);
    QCOMPARE(q.waitingCount(), 0);
    q.addAfter(u"baz"_s, 0s);
    clock->step(2s);
    QCOMPARE(q.len(), 0);
    QVERIFY(!q.get().has_value());
}

void TestDelayingQueue::retriesCountEveryAddAfter()
{
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock);
    q.add(u"plain"_s); // not a retry
    q.addAfter(u"a"_s, 1s);
    q.addAfter(u"a"_s, 2s); // merged into the waiting key, but still a retry
    q.addAfter(u"b"_s, 0s);
    QCOMPARE(q.metrics().retries, 3u);
    q.shutDown();
    q.addAfter(u"c"_s, 1s); // ignored
    QCOMPARE(q.metrics().retries, 3u);
}

// The real clock is only checked for reaching the queue at all; no timing is asserted.
void TestDelayingQueue::realClockDelay()
{
    DelayingQueue q;
    q.addAfter(u"foo"_s, 1ms);
    const std::optional<QString> got = q.get(); // blocks until the waiting loop adds it
    QCOMPARE(got, std::optional<QString>(u"foo"_s));
    q.done(*got);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestDelayingQueue)
#include "tst_delayingqueue.moc"
