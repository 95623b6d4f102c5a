// Tests of the workqueue's instrumentation: client-go's metrics (depth, adds, queue latency,
// work duration, unfinished work, longest running processor, retries) on a FakeClock, the
// DurationHistogram behind the latency metrics, and the event feed (QueueEventLog).
#include "core/util/fakeclock.h"
#include "core/workqueue/delayingqueue.h"
#include "core/workqueue/durationhistogram.h"
#include "core/workqueue/itemexponentialfailureratelimiter.h"
#include "core/workqueue/queue.h"
#include "core/workqueue/queueeventlog.h"
#include "core/workqueue/ratelimitingqueue.h"

#include "testmain.h"

#include <QScopeGuard>
#include <QTest>

#include <memory>
#include <thread>
#include <vector>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(Cachescope::Duration)

namespace {

QString describe(const QueueEvent &e)
{
    QString s = queueEventTypeName(e.type);
    if (!e.key.isEmpty()) {
        s += u' ' + e.key;
    }
    if (e.worker >= 0) {
        s += u" w"_s + QString::number(e.worker);
    }
    if (e.delay != Duration(0)) {
        s += u" +"_s + QString::number(std::chrono::duration_cast<std::chrono::milliseconds>(e.delay).count()) + u"ms"_s;
    }
    if (e.requeues != 0) {
        s += u" #"_s + QString::number(e.requeues);
    }
    return s;
}

QStringList describeAll(const QList<QueueEvent> &events)
{
    QStringList out;
    for (const QueueEvent &e : events) {
        out.append(describe(e));
    }
    return out;
}

QString ms(Duration d)
{
    return QString::number(std::chrono::duration<double, std::milli>(d).count()) + u"ms"_s;
}

} // namespace

class TestQueueMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void depthAndAdds();
    void latencyAndWorkDurationFollowTheClock();
    void unfinishedWorkAndLongestRunning();
    void histogramQuantiles_data();
    void histogramQuantiles();
    void histogramBuckets();
    void feedRecordsQueueOperations_data();
    void feedRecordsQueueOperations();
    void feedRecordsDelaysAndRetries();
    void feedTimestampsFollowTheClock();
    void feedRingOverwritesOldest();
    void feedDisabled();
    void eventTypeNames();
    void feedOrderUnderConcurrency();
};

void TestQueueMetrics::depthAndAdds()
{
    auto clock = std::make_shared<FakeClock>();
    Queue q(clock, u"test"_s);
    QCOMPARE(q.metrics().name, u"test"_s);
    q.add(u"a"_s);
    q.add(u"b"_s);
    q.add(u"a"_s); // merged: neither an add nor depth
    QCOMPARE(q.metrics().depth, 2);
    QCOMPARE(q.metrics().adds, 2u);

    QCOMPARE(q.get(), std::optional<QString>(u"a"_s));
    QCOMPARE(q.metrics().depth, 1);
    // Re-added while processing: client-go counts it at once in depth and adds.
    q.add(u"a"_s);
    QCOMPARE(q.metrics().depth, 2);
    QCOMPARE(q.metrics().adds, 3u);
    q.done(u"a"_s);
    QCOMPARE(q.metrics().depth, 2);
    QCOMPARE(q.get(), std::optional<QString>(u"b"_s));
    QCOMPARE(q.get(), std::optional<QString>(u"a"_s));
    QCOMPARE(q.metrics().depth, 0);
    QCOMPARE(q.metrics().processing, 2);
    QCOMPARE(q.metrics().retries, 0u);
}

void TestQueueMetrics::latencyAndWorkDurationFollowTheClock()
{
    auto clock = std::make_shared<FakeClock>();
    Queue q(clock);
    q.add(u"a"_s);
    clock->step(10ms);
    q.add(u"a"_s); // merged: the latency still counts from the first add
    clock->step(20ms);
    QVERIFY(q.get().has_value());
    QueueMetrics m = q.metrics();
    QCOMPARE(m.queueLatency.count(), 1u);
    QCOMPARE(ms(m.queueLatency.quantile(0.5)), ms(30ms));
    QCOMPARE(ms(m.queueLatency.sum()), ms(30ms));
    QCOMPARE(m.workDuration.count(), 0u);

    clock->step(70ms);
    q.done(u"a"_s);
    m = q.metrics();
    QCOMPARE(m.workDuration.count(), 1u);
    QCOMPARE(ms(m.workDuration.quantile(0.5)), ms(70ms));
    QCOMPARE(ms(m.workDuration.quantile(0.99)), ms(70ms));

    // A key re-added while processing: its latency runs from that add to its next get.
    q.add(u"b"_s);
    QVERIFY(q.get().has_value());
    clock->step(5ms);
    q.add(u"b"_s);
    clock->step(15ms);
    q.done(u"b"_s);
    clock->step(40ms);
    QVERIFY(q.get().has_value());
    m = q.metrics();
    QCOMPARE(m.queueLatency.count(), 3u);
    QCOMPARE(ms(m.queueLatency.max()), ms(55ms));
    QCOMPARE(ms(m.workDuration.max()), ms(70ms));
    QCOMPARE(ms(m.workDuration.min()), ms(20ms));
}

void TestQueueMetrics::unfinishedWorkAndLongestRunning()
{
    auto clock = std::make_shared<FakeClock>();
    Queue q(clock);
    q.add(u"a"_s);
    q.add(u"b"_s);
    QCOMPARE(q.get(), std::optional<QString>(u"a"_s));
    clock->step(100ms);
    QCOMPARE(q.get(), std::optional<QString>(u"b"_s));
    clock->step(30ms);
    QueueMetrics m = q.metrics();
    QCOMPARE(ms(m.unfinishedWork), ms(160ms)); // a: 130 ms, b: 30 ms
    QCOMPARE(ms(m.longestRunningProcessor), ms(130ms));
    QCOMPARE(m.processing, 2);

    q.done(u"a"_s);
    m = q.metrics();
    QCOMPARE(ms(m.unfinishedWork), ms(30ms));
    QCOMPARE(ms(m.longestRunningProcessor), ms(30ms));
    clock->step(1s);
    QCOMPARE(ms(q.metrics().longestRunningProcessor), ms(1030ms));

    q.done(u"b"_s);
    m = q.metrics();
    QCOMPARE(m.unfinishedWork, Duration(0));
    QCOMPARE(m.longestRunningProcessor, Duration(0));
}

void TestQueueMetrics::histogramQuantiles_data()
{
    QTest::addColumn<QList<qint64>>("valuesUs");
    QTest::addColumn<double>("q");
    QTest::addColumn<Duration>("expected");
    QTest::addColumn<double>("tolerance"); // relative

    QList<qint64> oneToHundredMs;
    for (qint64 i = 1; i <= 100; ++i) {
        oneToHundredMs.append(i * 1000);
    }
    QTest::newRow("a single value is exact at any quantile") << QList<qint64>{42000} << 0.99 << Duration(42ms) << 0.0;
    QTest::newRow("p50 of 1..100 ms") << oneToHundredMs << 0.5 << Duration(50ms) << 0.1;
    QTest::newRow("p99 of 1..100 ms") << oneToHundredMs << 0.99 << Duration(99ms) << 0.1;
    QTest::newRow("p0 is the minimum") << oneToHundredMs << 0.0 << Duration(1ms) << 0.0;
    QTest::newRow("p100 is the maximum") << oneToHundredMs << 1.0 << Duration(100ms) << 0.0;
    QTest::newRow("p99 sees a slow tail") << (QList<qint64>(98, 1000) << 5000000 << 5000000) << 0.99 << Duration(5s) << 0.1;
    QTest::newRow("sub-microsecond values land in the underflow bucket") << QList<qint64>{0, 0, 0} << 0.5 << Duration(0) << 0.0;
    QTest::newRow("values beyond the last bucket stay within the maximum") << QList<qint64>{qint64(24) * 3600 * 1000000} << 0.5 << Duration(24h) << 0.0;
}

void TestQueueMetrics::histogramQuantiles()
{
    QFETCH(QList<qint64>, valuesUs);
    QFETCH(double, q);
    QFETCH(Duration, expected);
    QFETCH(double, tolerance);

    DurationHistogram h;
    QCOMPARE(h.quantile(0.5), Duration(0));
    Duration sum(0);
    for (qint64 us : std::as_const(valuesUs)) {
        h.observe(std::chrono::microseconds(us));
        sum += std::chrono::microseconds(us);
    }
    QCOMPARE(h.count(), static_cast<quint64>(valuesUs.size()));
    QCOMPARE(h.sum(), sum);
    const double got = static_cast<double>(h.quantile(q).count());
    const double want = static_cast<double>(expected.count());
    QVERIFY2(std::abs(got - want) <= tolerance * want, qPrintable(ms(h.quantile(q)) + u" vs "_s + ms(expected)));
}

void TestQueueMetrics::histogramBuckets()
{
    DurationHistogram h;
    h.observe(1500us);
    int nonEmpty = -1;
    quint64 total = 0;
    for (int i = 0; i < DurationHistogram::BucketCount; ++i) {
        total += h.bucketCount(i);
        if (h.bucketCount(i) > 0) {
            nonEmpty = i;
        }
        if (i > 0) {
            QVERIFY(DurationHistogram::bucketUpperBound(i) > DurationHistogram::bucketUpperBound(i - 1));
        }
    }
    QCOMPARE(total, 1u);
    QVERIFY(nonEmpty > 0);
    QVERIFY(DurationHistogram::bucketUpperBound(nonEmpty - 1) <= Duration(1500us));
    QVERIFY(DurationHistogram::bucketUpperBound(nonEmpty) > Duration(1500us));
}

// Scripts as in tst_queue ("add K", "get K W" with worker W, "done K", "shutdown").
void TestQueueMetrics::feedRecordsQueueOperations_data()
{
    QTest::addColumn<QStringList>("script");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("add, get by a worker, done") << QStringList{u"add a"_s, u"get a 3"_s, u"done a"_s}
                                                << QStringList{u"Added a"_s, u"Got a w3"_s, u"Done a w3"_s};
    QTest::newRow("an add merged into an already-waiting key")
        << QStringList{u"add a"_s, u"add a"_s, u"get a 0"_s} << QStringList{u"Added a"_s, u"Merged a"_s, u"Got a w0"_s};
    QTest::newRow("added while processing, requeued at done")
        << QStringList{u"add a"_s, u"get a 1"_s, u"add a"_s, u"add a"_s, u"done a"_s, u"get a 2"_s}
        << QStringList{u"Added a"_s, u"Got a w1"_s, u"AddedWhileProcessing a"_s, u"Merged a"_s, u"Done a w1"_s, u"Requeued a"_s, u"Got a w2"_s};
    QTest::newRow("worker unknown") << QStringList{u"add a"_s, u"get a -1"_s, u"done a"_s} << QStringList{u"Added a"_s, u"Got a"_s, u"Done a"_s};
    QTest::newRow("shutdown, then adds are rejected") << QStringList{u"add a"_s, u"shutdown"_s, u"shutdown"_s, u"add b"_s}
                                                      << QStringList{u"Added a"_s, u"ShutDown"_s, u"Rejected b"_s};
    QTest::newRow("a stray done records nothing") << QStringList{u"done a"_s} << QStringList{};
}

void TestQueueMetrics::feedRecordsQueueOperations()
{
    QFETCH(QStringList, script);
    QFETCH(QStringList, expected);
    auto clock = std::make_shared<FakeClock>();
    Queue q(clock);
    for (const QString &step : std::as_const(script)) {
        const QStringList w = step.split(u' ');
        if (w.at(0) == u"add") {
            q.add(w.at(1));
        } else if (w.at(0) == u"get") {
            QVERIFY(q.len() > 0);
            QCOMPARE(q.get(w.at(2).toInt()), std::optional<QString>(w.at(1)));
        } else if (w.at(0) == u"done") {
            q.done(w.at(1));
        } else if (w.at(0) == u"shutdown") {
            q.shutDown();
        }
    }
    const QueueEventLog::Batch batch = q.eventLog()->since(0);
    QCOMPARE(describeAll(batch.entries), expected);
    QCOMPARE(batch.missed, 0u);
    QCOMPARE(batch.nextSequence, static_cast<quint64>(expected.size()));
    for (int i = 0; i < batch.entries.size(); ++i) {
        QCOMPARE(batch.entries.at(i).sequence, static_cast<quint64>(i));
    }
}

void TestQueueMetrics::feedRecordsDelaysAndRetries()
{
    auto clock = std::make_shared<FakeClock>();
    RateLimitingQueue q(std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1s), clock);
    q.add(u"k"_s);
    QVERIFY(q.get(7).has_value());
    q.addRateLimited(u"k"_s);
    q.done(u"k"_s);
    q.addAfter(u"other"_s, 30ms);
    clock->step(5ms);
    QTRY_COMPARE(q.len(), 1);
    q.forget(u"k"_s);
    QCOMPARE(q.metrics().retries, 2u);

    const QStringList events = describeAll(q.eventLog()->since(0).entries);
    QCOMPARE(events,
             (QStringList{u"Added k"_s,
                          u"Got k w7"_s,
                          u"RateLimited k +5ms #1"_s,
                          u"Done k w7"_s,
                          u"AddedAfter other +30ms"_s,
                          u"DelayReady k"_s,
                          u"Added k"_s,
                          u"Forgotten k"_s}));
}

void TestQueueMetrics::feedTimestampsFollowTheClock()
{
    auto clock = std::make_shared<FakeClock>();
    Queue q(clock);
    const TimePoint start = clock->now();
    q.add(u"a"_s);
    clock->step(25ms);
    QVERIFY(q.get().has_value());
    clock->step(50ms);
    q.done(u"a"_s);
    const auto events = q.eventLog()->since(0).entries;
    QCOMPARE(events.size(), 3);
    QCOMPARE(ms(events.at(0).time - start), ms(0ms));
    QCOMPARE(ms(events.at(1).time - start), ms(25ms));
    QCOMPARE(ms(events.at(2).time - start), ms(75ms));
}

void TestQueueMetrics::feedRingOverwritesOldest()
{
    QueueEventLog log(4);
    QCOMPARE(log.capacity(), 4);
    for (int i = 0; i < 10; ++i) {
        QueueEvent e;
        e.key = QString::number(i);
        log.append(e);
    }
    QCOMPARE(log.appended(), 10u);

    QueueEventLog::Batch batch = log.since(0);
    QCOMPARE(batch.missed, 6u);
    QCOMPARE(batch.nextSequence, 10u);
    QCOMPARE(batch.entries.size(), 4);
    QCOMPARE(batch.entries.first().key, u"6"_s);
    QCOMPARE(batch.entries.first().sequence, 6u);
    QCOMPARE(batch.entries.last().key, u"9"_s);

    batch = log.since(8);
    QCOMPARE(batch.missed, 0u);
    QCOMPARE(batch.entries.size(), 2);
    QCOMPARE(batch.entries.first().key, u"8"_s);

    batch = log.since(10);
    QVERIFY(batch.entries.isEmpty());
    QCOMPARE(batch.nextSequence, 10u);
}

void TestQueueMetrics::feedDisabled()
{
    Queue q({}, {}, 0);
    q.add(u"a"_s);
    QCOMPARE(q.eventLog()->appended(), 0u);
    QVERIFY(q.eventLog()->since(0).entries.isEmpty());
}

void TestQueueMetrics::eventTypeNames()
{
    QCOMPARE(queueEventTypeName(QueueEventType::Added), QLatin1String("Added"));
    QCOMPARE(queueEventTypeName(QueueEventType::RateLimited), QLatin1String("RateLimited"));
    QCOMPARE(queueEventTypeName(QueueEventType::ShutDown), QLatin1String("ShutDown"));
}

// A reader draining the feed while workers run sees, per key, a well-formed history: a Got is
// always followed by its Done before the next Got of that key.
void TestQueueMetrics::feedOrderUnderConcurrency()
{
    Queue q({}, {}, 1 << 20);
    constexpr int workers = 4;
    constexpr int keys = 8;
    constexpr int adds = 4000;
    std::vector<std::thread> threads;
    // On a failed check, stop and join the workers before the vector is destroyed.
    const auto joinOnExit = qScopeGuard([&] {
        q.shutDown();
        for (auto &t : threads) {
            if (t.joinable()) {
                t.join();
            }
        }
    });
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&q, w] {
            while (const std::optional<QString> k = q.get(w)) {
                q.done(*k);
            }
        });
    }
    QList<QueueEvent> events;
    quint64 next = 0;
    for (int i = 0; i < adds; ++i) {
        q.add(QString::number(i % keys));
        if (i % 100 == 0) {
            QueueEventLog::Batch b = q.eventLog()->since(next);
            QCOMPARE(b.missed, 0u);
            events += b.entries;
            next = b.nextSequence;
        }
    }
    QTRY_VERIFY(q.len() == 0 && q.metrics().processing == 0);
    q.shutDown();
    for (auto &t : threads) {
        t.join();
    }
    events += q.eventLog()->since(next).entries;

    QHash<QString, int> processingBy;
    for (int i = 0; i < events.size(); ++i) {
        const QueueEvent &e = events.at(i);
        QCOMPARE(e.sequence, static_cast<quint64>(i));
        if (e.type == QueueEventType::Got) {
            QVERIFY2(!processingBy.contains(e.key), qPrintable(e.key));
            processingBy.insert(e.key, e.worker);
        } else if (e.type == QueueEventType::Done) {
            QCOMPARE(processingBy.take(e.key), e.worker);
        }
    }
    QVERIFY(processingBy.isEmpty());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestQueueMetrics)
#include "tst_queuemetrics.moc"
