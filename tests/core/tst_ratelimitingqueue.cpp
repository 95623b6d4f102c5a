// Tests of RateLimitingQueue on a FakeClock: client-go's rate_limiting_queue_test.go, and the
// controller pattern's retry loop (delays follow the limiter, forget resets).
#include "core/util/fakeclock.h"
#include "core/workqueue/itemexponentialfailureratelimiter.h"
#include "core/workqueue/ratelimitingqueue.h"

#include "queuetesthelpers.h"

#include "testmain.h"

#include <QTest>

#include <memory>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace {

QList<QueueEvent> eventsOfType(const Queue &q, QueueEventType type)
{
    QList<QueueEvent> out;
    const auto events = q.eventLog()->since(0).entries;
    for (const QueueEvent &e : events) {
        if (e.type == type && !e.key.startsWith(u'~')) {
            out.append(e);
        }
    }
    return out;
}

} // namespace

class TestRateLimitingQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rateLimitingQueue();
    void retryDelaysFollowTheLimiter_data();
    void retryDelaysFollowTheLimiter();
    void forgetResetsNumRequeues();
    void defaultLimiterWhenNoneGiven();
    void addRateLimitedAfterShutdownIsIgnored();
};

// client-go TestRateLimitingQueue: repeated failures of a waiting key keep one waiting entry
// at the sooner time, each counted by the limiter.
void TestRateLimitingQueue::rateLimitingQueue()
{
    auto clock = std::make_shared<FakeClock>();
    RateLimitingQueue q(std::make_unique<ItemExponentialFailureRateLimiter>(1ms, 1s), clock);

    q.addRateLimited(u"one"_s);
    QCOMPARE(q.waitingCount(), 1);
    q.addRateLimited(u"one"_s);
    QCOMPARE(q.waitingCount(), 1);
    QCOMPARE(q.numRequeues(u"one"_s), 2);

    q.addRateLimited(u"two"_s);
    QCOMPARE(q.waitingCount(), 2);
    QCOMPARE(q.numRequeues(u"two"_s), 1);

    q.forget(u"one"_s);
    QCOMPARE(q.numRequeues(u"one"_s), 0);
    q.forget(u"two"_s);
    QCOMPARE(q.numRequeues(u"two"_s), 0);

    // "one" is due at 1 ms (its first delay won over the second's 2 ms), "two" at 1 ms too.
    clock->step(1ms - 1ns);
    QCOMPARE(settle(q, *clock), (QStringList{u"one"_s, u"two"_s}));
    QCOMPARE(q.waitingCount(), 0);
}

void TestRateLimitingQueue::retryDelaysFollowTheLimiter_data()
{
    QTest::addColumn<Duration>("base");
    QTest::addColumn<Duration>("max");
    QTest::addColumn<int>("failures");
    QTest::addColumn<QList<qint64>>("expectedDelaysMs");

    QTest::newRow("failures back off 5, 10, 20, 40 ms") << Duration(5ms) << Duration(1000s) << 4 << QList<qint64>{5, 10, 20, 40};
    QTest::newRow("backoff is capped at the limiter's max") << Duration(100ms) << Duration(300ms) << 4 << QList<qint64>{100, 200, 300, 300};
}

// The controller loop: get a key, fail, addRateLimited, done; each retry waits exactly the
// limiter's delay on the queue's clock, and the feed records it.
void TestRateLimitingQueue::retryDelaysFollowTheLimiter()
{
    QFETCH(Duration, base);
    QFETCH(Duration, max);
    QFETCH(int, failures);
    QFETCH(QList<qint64>, expectedDelaysMs);

    auto clock = std::make_shared<FakeClock>();
    RateLimitingQueue q(std::make_unique<ItemExponentialFailureRateLimiter>(base, max), clock);
    q.add(u"key"_s);
    for (int attempt = 0; attempt < failures; ++attempt) {
        const std::optional<QString> key = q.get(0);
        QCOMPARE(key, std::optional<QString>(u"key"_s));
        q.addRateLimited(*key); // processing failed
        q.done(*key);
        QCOMPARE(q.numRequeues(u"key"_s), attempt + 1);

        const Duration delay = std::chrono::milliseconds(expectedDelaysMs.at(attempt));
        clock->step(delay - 2ns);
        QCOMPARE(settle(q, *clock), QStringList{}); // 1 ns early: still backing off
        // One more nanosecond: due. Put it back by hand, since settle() took it out.
        q.addAfter(u"~tick"_s, 1ns);
        clock->step(1ns);
        QTRY_COMPARE(q.len(), 2);
        QCOMPARE(q.get(), std::optional<QString>(u"key"_s));
        q.done(u"key"_s);
        QCOMPARE(q.get(), std::optional<QString>(u"~tick"_s));
        q.done(u"~tick"_s);
        q.add(u"key"_s);
    }

    const QList<QueueEvent> limited = eventsOfType(q, QueueEventType::RateLimited);
    QCOMPARE(limited.size(), failures);
    for (int i = 0; i < failures; ++i) {
        QCOMPARE(limited.at(i).key, u"key"_s);
        QCOMPARE(limited.at(i).delay, Duration(std::chrono::milliseconds(expectedDelaysMs.at(i))));
        QCOMPARE(limited.at(i).requeues, i + 1);
    }
    QCOMPARE(q.metrics().retries, static_cast<quint64>(failures) + 2 * static_cast<quint64>(failures)); // + the sentinels
}

void TestRateLimitingQueue::forgetResetsNumRequeues()
{
    auto clock = std::make_shared<FakeClock>();
    RateLimitingQueue q(std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1000s), clock);
    q.addRateLimited(u"k"_s);
    q.addRateLimited(u"k"_s);
    q.addRateLimited(u"k"_s);
    QCOMPARE(q.numRequeues(u"k"_s), 3);

    q.forget(u"k"_s);
    QCOMPARE(q.numRequeues(u"k"_s), 0);
    QCOMPARE(eventsOfType(q, QueueEventType::Forgotten).size(), 1);

    // Forgetting does not cancel the waiting retry: k is still due at its first delay.
    QCOMPARE(q.waitingCount(), 1);
    clock->step(5ms - 1ns);
    QCOMPARE(settle(q, *clock), QStringList{u"k"_s});

    // After forget the next failure starts again from the base delay.
    q.addRateLimited(u"k"_s);
    const QList<QueueEvent> limited = eventsOfType(q, QueueEventType::RateLimited);
    QCOMPARE(limited.size(), 4);
    QCOMPARE(limited.last().delay, Duration(5ms));
    QCOMPARE(limited.last().requeues, 1);
}

void TestRateLimitingQueue::defaultLimiterWhenNoneGiven()
{
    auto clock = std::make_shared<FakeClock>();
    RateLimitingQueue q({}, clock);
    QCOMPARE(q.rateLimiter().when(u"k"_s), Duration(5ms));
    QCOMPARE(q.rateLimiter().when(u"k"_s), Duration(10ms));
    QCOMPARE(q.numRequeues(u"k"_s), 2);
}

void TestRateLimitingQueue::addRateLimitedAfterShutdownIsIgnored()
{
    auto clock = std::make_shared<FakeClock>();
    RateLimitingQueue q(std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1s), clock);
    q.shutDown();
    q.addRateLimited(u"k"_s);
    QCOMPARE(q.waitingCount(), 0);
    QCOMPARE(q.len(), 0);
    QCOMPARE(eventsOfType(q, QueueEventType::Rejected).size(), 1);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRateLimitingQueue)
#include "tst_ratelimitingqueue.moc"
