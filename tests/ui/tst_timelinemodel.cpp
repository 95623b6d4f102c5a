#include "ui/models/timelinemodel.h"

#include "core/util/fakeclock.h"
#include "core/workqueue/itemexponentialfailureratelimiter.h"
#include "core/workqueue/ratelimitingqueue.h"

#include "testmain.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;
using Cachescope::Duration;
using Cachescope::QueueEvent;
using Cachescope::QueueEventType;
using Cachescope::TimelineLane;
using Cachescope::TimelineMark;
using Cachescope::TimelineModel;
using Cachescope::TimelineSpan;
using Cachescope::TimePoint;

Q_DECLARE_METATYPE(Cachescope::QueueEvent)

namespace {

const TimePoint T0 = TimePoint(std::chrono::hours(1));

TimePoint at(qint64 ms)
{
    return T0 + std::chrono::milliseconds(ms);
}

qint64 msOf(TimePoint t)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(t - T0).count();
}

// One event of a scripted feed: (type, key, time in ms from T0, worker, delay ms, requeues).
QueueEvent ev(QueueEventType type, const QString &key, qint64 ms, int worker = -1, qint64 delayMs = 0, int requeues = 0)
{
    QueueEvent e;
    e.type = type;
    e.key = key;
    e.time = at(ms);
    e.worker = worker;
    e.delay = std::chrono::milliseconds(delayMs);
    e.requeues = requeues;
    return e;
}

TimelineLane keyLane(const QString &key)
{
    return TimelineLane{TimelineLane::Mode::Key, key, -1};
}

TimelineLane workerLane(int worker)
{
    return TimelineLane{TimelineLane::Mode::Worker, {}, worker};
}

QString describe(const TimelineSpan &s)
{
    static const char *const kinds[] = {"W", "P", "B"};
    QString text = u"%1 %2-%3"_s.arg(QLatin1String(kinds[static_cast<int>(s.kind)])).arg(msOf(s.start)).arg(msOf(s.end));
    if (s.kind == TimelineSpan::Kind::Processing) {
        text += u" w%1"_s.arg(s.worker);
    }
    if (s.kind == TimelineSpan::Kind::Backoff) {
        text += u" due%1"_s.arg(msOf(s.plannedEnd));
    }
    text += u" a%1"_s.arg(s.attempt);
    if (s.failed) {
        text += u" failed"_s;
    }
    if (s.open) {
        text += u" open"_s;
    }
    return text;
}

QString describe(const TimelineMark &m)
{
    static const char *const kinds[] = {"merged", "addedWhileProcessing", "requeued", "forgotten", "givenUp", "rejected"};
    return u"%1@%2"_s.arg(QLatin1String(kinds[static_cast<int>(m.kind)])).arg(msOf(m.time));
}

// Everything the model holds for lane: spans by start (then kind), then marks by time.
QStringList describeLane(const TimelineModel &model, const TimelineLane &lane)
{
    QList<TimelineSpan> spans = model.spansIn(lane, TimePoint::min(), TimePoint::max());
    std::stable_sort(
        spans.begin(), spans.end(), [](const TimelineSpan &a, const TimelineSpan &b) { return a.start != b.start ? a.start < b.start : a.kind < b.kind; });
    QStringList result;
    for (const TimelineSpan &s : spans) {
        result << describe(s);
    }
    for (const TimelineMark &m : model.marksIn(lane, TimePoint::min(), TimePoint::max())) {
        result << describe(m);
    }
    return result;
}

} // namespace

class TestTimelineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void spansFromFeed_data();
    void spansFromFeed();
    void workerLanesHoldProcessing();
    void spansInRange_data();
    void spansInRange();
    void ringDropsOldest();
    void keyLanesMostRecentFirst();
    void spanAtPrefersProcessingAndHitsThinSpans();
    void errorThenForgetIsGivenUp();
    void pollsRateLimitingQueue();
    void countsMissedEvents();
    void recentQuantilesForgetOldWork();
};

void TestTimelineModel::spansFromFeed_data()
{
    using T = QueueEventType;
    const QString a = u"ns/a"_s;
    QTest::addColumn<QList<QueueEvent>>("feed");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("an added key waits until a worker gets it, then processes until done")
        << QList<QueueEvent>{ev(T::Added, a, 0), ev(T::Got, a, 4, 2), ev(T::Done, a, 10, 2)} << QStringList{u"W 0-4 a1"_s, u"P 4-10 w2 a1"_s};
    QTest::newRow("a merged add shows as a mark, not a new span")
        << QList<QueueEvent>{ev(T::Added, a, 0), ev(T::Merged, a, 2), ev(T::Merged, a, 3), ev(T::Got, a, 5, 0), ev(T::Done, a, 6, 0)}
        << QStringList{u"W 0-5 a1"_s, u"P 5-6 w0 a1"_s, u"merged@2"_s, u"merged@3"_s};
    QTest::newRow("a retried key shows backoff then processing again")
        << QList<QueueEvent>{ev(T::Added, a, 0),
                             ev(T::Got, a, 1, 0),
                             ev(T::RateLimited, a, 3, -1, 5, 1),
                             ev(T::Done, a, 4, 0),
                             ev(T::DelayReady, a, 8),
                             ev(T::Added, a, 8),
                             ev(T::Got, a, 9, 1),
                             ev(T::Forgotten, a, 11),
                             ev(T::Done, a, 12, 1)}
        << QStringList{u"W 0-1 a1"_s, u"P 1-4 w0 a1 failed"_s, u"B 3-8 due8 a1 failed"_s, u"W 8-9 a2"_s, u"P 9-12 w1 a2"_s, u"forgotten@11"_s};
    QTest::newRow("a key added while processing is queued again at done")
        << QList<QueueEvent>{ev(T::Added, a, 0),
                             ev(T::Got, a, 1, 0),
                             ev(T::AddedWhileProcessing, a, 2),
                             ev(T::Done, a, 3, 0),
                             ev(T::Requeued, a, 3),
                             ev(T::Got, a, 4, 1),
                             ev(T::Done, a, 5, 1)}
        << QStringList{u"W 0-1 a1"_s, u"P 1-3 w0 a1"_s, u"W 3-4 a1"_s, u"P 4-5 w1 a1"_s, u"addedWhileProcessing@2"_s, u"requeued@3"_s};
    QTest::newRow("a sooner addAfter moves a waiting backoff forward, a later one does not") << QList<QueueEvent>{ev(T::AddedAfter, a, 0, -1, 10),
                                                                                                                  ev(T::AddedAfter, a, 1, -1, 20),
                                                                                                                  ev(T::AddedAfter, a, 2, -1, 3),
                                                                                                                  ev(T::DelayReady, a, 5),
                                                                                                                  ev(T::Added, a, 5)}
                                                                                             << QStringList{u"B 0-5 due5 a0"_s, u"W 5-5 a1 open"_s};
    QTest::newRow("a rate-limited add without delay opens no backoff")
        << QList<QueueEvent>{ev(T::RateLimited, a, 0, -1, 0, 1), ev(T::Added, a, 0), ev(T::Got, a, 2, 3), ev(T::Done, a, 3, 3)}
        << QStringList{u"W 0-2 a2"_s, u"P 2-3 w3 a2"_s};
    QTest::newRow("shutdown ends backoffs that will never be ready")
        << QList<QueueEvent>{ev(T::RateLimited, a, 0, -1, 1000, 1), ev(T::ShutDown, QString(), 7), ev(T::Rejected, a, 9)}
        << QStringList{u"B 0-7 due1000 a1 failed"_s, u"rejected@9"_s};
    QTest::newRow("a running span ends at the latest time known")
        << QList<QueueEvent>{ev(T::Added, a, 0), ev(T::Got, a, 1, 0), ev(T::Added, u"other"_s, 20)} << QStringList{u"W 0-1 a1"_s, u"P 1-20 w0 a1 open"_s};
    QTest::newRow("an event earlier than its predecessor is moved to its time")
        << QList<QueueEvent>{ev(T::Added, a, 5), ev(T::Got, a, 4, 0), ev(T::Done, a, 6, 0)} << QStringList{u"W 5-5 a1"_s, u"P 5-6 w0 a1"_s};
    QTest::newRow("a lost Done is closed by the next Got")
        << QList<QueueEvent>{ev(T::Added, a, 0), ev(T::Got, a, 1, 0), ev(T::Got, a, 4, 1), ev(T::Done, a, 6, 1)}
        << QStringList{u"W 0-1 a1"_s, u"P 1-4 w0 a1"_s, u"P 4-6 w1 a1"_s};
}

void TestTimelineModel::spansFromFeed()
{
    QFETCH(QList<QueueEvent>, feed);
    QFETCH(QStringList, expected);
    TimelineModel model;
    QSignalSpy changed(&model, &TimelineModel::changed);
    model.ingest(feed);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(describeLane(model, keyLane(u"ns/a"_s)), expected);
}

void TestTimelineModel::workerLanesHoldProcessing()
{
    using T = QueueEventType;
    TimelineModel model;
    model.setWorkerCount(3);
    model.ingest({ev(T::Added, u"a"_s, 0),
                  ev(T::Added, u"b"_s, 0),
                  ev(T::Got, u"a"_s, 1, 1),
                  ev(T::Got, u"b"_s, 2, 0),
                  ev(T::Done, u"a"_s, 3, 1),
                  ev(T::Added, u"c"_s, 3),
                  ev(T::Got, u"c"_s, 4, 1),
                  ev(T::Done, u"b"_s, 5, 0),
                  ev(T::Done, u"c"_s, 6, 1)});
    const QList<TimelineLane> lanes = model.lanes(TimelineLane::Mode::Worker);
    QCOMPARE(lanes.size(), 3); // worker 2 is idle and still has its lane
    QCOMPARE(lanes.at(2).worker, 2);
    QCOMPARE(describeLane(model, workerLane(0)), (QStringList{u"P 2-5 w0 a1"_s}));
    QCOMPARE(describeLane(model, workerLane(1)), (QStringList{u"P 1-3 w1 a1"_s, u"P 4-6 w1 a1"_s}));
    QVERIFY(describeLane(model, workerLane(2)).isEmpty());
    const QList<TimelineSpan> spans = model.spansIn(workerLane(1), at(1), at(2));
    QCOMPARE(spans.size(), 1);
    QCOMPARE(spans.first().key, u"a"_s);
}

void TestTimelineModel::spansInRange_data()
{
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::newRow("spans in a range, both ends inside spans") << qint64(1003) << qint64(5007);
    QTest::newRow("a range that touches span edges exactly") << qint64(1000) << qint64(2000);
    QTest::newRow("a range inside one span") << qint64(3001) << qint64(3002);
    QTest::newRow("a range before all spans") << qint64(-100) << qint64(-1);
    QTest::newRow("a range after all spans") << qint64(100000) << qint64(200000);
    QTest::newRow("everything") << qint64(-1) << qint64(100000);
}

void TestTimelineModel::spansInRange()
{
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    using T = QueueEventType;
    // One key processed 50 times with waits and backoffs of varying length; the answer must be
    // exactly the spans a linear scan finds intersecting the range.
    TimelineModel model;
    QList<QueueEvent> feed;
    for (int i = 0; i < 50; ++i) {
        const qint64 base = i * 1000;
        feed << ev(T::Added, u"k"_s, base) << ev(T::Got, u"k"_s, base + 10 * (i % 7), i % 3) << ev(T::Done, u"k"_s, base + 300 + i);
        if (i % 4 == 0) {
            feed << ev(T::AddedAfter, u"k"_s, base + 400, -1, 100 + i) << ev(T::DelayReady, u"k"_s, base + 500 + i) << ev(T::Added, u"k"_s, base + 500 + i)
                 << ev(T::Got, u"k"_s, base + 600, 0) << ev(T::Done, u"k"_s, base + 700, 0);
        }
    }
    model.ingest(feed);
    const QList<TimelineSpan> all = model.spansIn(keyLane(u"k"_s), TimePoint::min(), TimePoint::max());
    QCOMPARE(all.size(), 50 * 2 + 13 * 3);
    QStringList expected;
    for (const TimelineSpan &s : all) {
        if (s.end >= at(from) && s.start <= at(to)) {
            expected << describe(s);
        }
    }
    QStringList actual;
    for (const TimelineSpan &s : model.spansIn(keyLane(u"k"_s), at(from), at(to))) {
        actual << describe(s);
    }
    expected.sort();
    actual.sort();
    QCOMPARE(actual, expected);
    // The worker lanes answer the same question for their own spans.
    int workerSpans = 0;
    for (int w = 0; w < 3; ++w) {
        workerSpans += static_cast<int>(model.spansIn(workerLane(w), at(from), at(to)).size());
    }
    const auto processing = std::count_if(
        all.cbegin(), all.cend(), [&](const TimelineSpan &s) { return s.kind == TimelineSpan::Kind::Processing && s.end >= at(from) && s.start <= at(to); });
    QCOMPARE(workerSpans, static_cast<int>(processing));
}

void TestTimelineModel::ringDropsOldest()
{
    using T = QueueEventType;
    TimelineModel model(nullptr, 10, 4);
    QList<QueueEvent> feed;
    for (int i = 0; i < 20; ++i) {
        const QString key = u"key-%1"_s.arg(i, 2, 10, QLatin1Char('0'));
        feed << ev(T::Added, key, i * 10) << ev(T::Merged, key, i * 10 + 1) << ev(T::Got, key, i * 10 + 2, 0) << ev(T::Done, key, i * 10 + 5, 0);
    }
    model.ingest(feed);
    // 40 spans were built; the ring keeps the newest 10: the last five keys' waits and runs.
    QCOMPARE(model.spanCount(), 10);
    QCOMPARE(model.markCount(), 4);
    QCOMPARE(msOf(model.oldest()), 150);
    QVERIFY(model.spansIn(keyLane(u"key-00"_s), TimePoint::min(), TimePoint::max()).isEmpty());
    QCOMPARE(describeLane(model, keyLane(u"key-15"_s)), (QStringList{u"W 150-152 a1"_s, u"P 152-155 w0 a1"_s}));
    QCOMPARE(describeLane(model, keyLane(u"key-19"_s)), (QStringList{u"W 190-192 a1"_s, u"P 192-195 w0 a1"_s, u"merged@191"_s}));
    QCOMPARE(model.spansIn(workerLane(0), TimePoint::min(), TimePoint::max()).size(), 5);
    // Keys with nothing left are swept from the lanes (the sweep runs every quarter of the rings).
    QVERIFY(model.keyCount() < 20);
    for (const TimelineLane &lane : model.lanes(TimelineLane::Mode::Key)) {
        QVERIFY2(lane.key >= u"key-05"_s, qPrintable(lane.key));
    }
}

void TestTimelineModel::keyLanesMostRecentFirst()
{
    using T = QueueEventType;
    TimelineModel model;
    model.ingest({ev(T::Added, u"a"_s, 0), ev(T::Added, u"b"_s, 1), ev(T::Added, u"c"_s, 2), ev(T::Got, u"a"_s, 3, 0)});
    const auto keys = [&model] {
        QStringList result;
        for (const TimelineLane &lane : model.lanes(TimelineLane::Mode::Key)) {
            result << lane.key;
        }
        return result;
    };
    QCOMPARE(keys(), (QStringList{u"a"_s, u"c"_s, u"b"_s}));
    model.ingest({ev(T::Merged, u"b"_s, 4)});
    QCOMPARE(keys(), (QStringList{u"b"_s, u"a"_s, u"c"_s}));
    model.setMaxKeyLanes(2);
    QCOMPARE(keys(), (QStringList{u"b"_s, u"a"_s}));
}

void TestTimelineModel::spanAtPrefersProcessingAndHitsThinSpans()
{
    using T = QueueEventType;
    TimelineModel model;
    model.ingest({ev(T::Added, u"a"_s, 0),
                  ev(T::Got, u"a"_s, 10, 0),
                  ev(T::RateLimited, u"a"_s, 15, -1, 100, 1),
                  ev(T::Done, u"a"_s, 20, 0),
                  ev(T::DelayReady, u"a"_s, 115),
                  ev(T::Added, u"a"_s, 115),
                  ev(T::Got, u"a"_s, 115, 1),
                  ev(T::Done, u"a"_s, 115, 1)});
    const TimelineLane lane = keyLane(u"a"_s);
    QCOMPARE(model.spanAt(lane, at(5))->kind, TimelineSpan::Kind::Waiting);
    QCOMPARE(model.spanAt(lane, at(17))->kind, TimelineSpan::Kind::Processing); // overlaps the backoff
    QCOMPARE(model.spanAt(lane, at(50))->kind, TimelineSpan::Kind::Backoff);
    QVERIFY(!model.spanAt(lane, at(200)));
    // A zero-length processing span is found within the slop, and preferred to the waits that touch it.
    const std::optional<TimelineSpan> thin = model.spanAt(lane, at(116), 2ms);
    QVERIFY(thin);
    QCOMPARE(thin->kind, TimelineSpan::Kind::Processing);
    QCOMPARE(thin->worker, 1);
    QCOMPARE(thin->attempt, 2);
}

void TestTimelineModel::errorThenForgetIsGivenUp()
{
    using T = QueueEventType;
    TimelineModel model;
    model.ingest({ev(T::Added, u"a"_s, 0), ev(T::Got, u"a"_s, 1, 0)});
    model.noteError(u"a"_s, u"connection refused"_s);
    model.ingest({ev(T::Forgotten, u"a"_s, 2), ev(T::Done, u"a"_s, 3, 0), ev(T::Added, u"b"_s, 4), ev(T::Got, u"b"_s, 5, 0), ev(T::Forgotten, u"b"_s, 6)});
    QCOMPARE(describeLane(model, keyLane(u"a"_s)), (QStringList{u"W 0-1 a1"_s, u"P 1-3 w0 a1 failed"_s, u"givenUp@2"_s}));
    QCOMPARE(model.spanAt(keyLane(u"a"_s), at(2))->error, u"connection refused"_s);
    // Success: forgotten, not given up.
    QCOMPARE(describeLane(model, keyLane(u"b"_s)).last(), u"forgotten@6"_s);
}

void TestTimelineModel::pollsRateLimitingQueue()
{
    auto clock = std::make_shared<Cachescope::FakeClock>(T0);
    Cachescope::RateLimitingQueue queue(std::make_unique<Cachescope::ItemExponentialFailureRateLimiter>(10ms, 1s), clock);
    TimelineModel model;
    model.setWorkerCount(2);
    model.setPollInterval(0ms);
    model.setQueue(&queue);

    queue.add(u"a"_s);
    queue.add(u"a"_s);
    clock->step(2ms);
    const std::optional<QString> first = queue.get(1);
    QCOMPARE(*first, u"a"_s);
    clock->step(3ms);
    queue.addRateLimited(u"a"_s); // first failure: 10 ms
    queue.done(u"a"_s);
    model.poll();
    QCOMPARE(describeLane(model, keyLane(u"a"_s)), (QStringList{u"W 0-2 a1"_s, u"P 2-5 w1 a1 failed"_s, u"B 5-5 due15 a1 failed open"_s, u"merged@0"_s}));
    QCOMPARE(model.metrics().queue.retries, 1u);

    clock->step(10ms);
    QTRY_COMPARE(queue.len(), 1);
    const std::optional<QString> second = queue.get(0);
    QCOMPARE(*second, u"a"_s);
    clock->step(1ms);
    queue.forget(u"a"_s);
    queue.done(u"a"_s);
    model.poll();
    QCOMPARE(describeLane(model, keyLane(u"a"_s)),
             (QStringList{
                 u"W 0-2 a1"_s, u"P 2-5 w1 a1 failed"_s, u"B 5-15 due15 a1 failed"_s, u"W 15-15 a2"_s, u"P 15-16 w0 a2"_s, u"merged@0"_s, u"forgotten@16"_s}));
    QCOMPARE(msOf(model.now()), 16);
    const Cachescope::TimelineMetrics metrics = model.metrics();
    QVERIFY(metrics.valid);
    QCOMPARE(metrics.queue.adds, 2u);
    QCOMPARE(metrics.queue.depth, 0);
    QCOMPARE(metrics.queue.workDuration.count(), 2u);
    // Two adds between the first sample (5 ms, one add) and the second (16 ms, two adds).
    QCOMPARE(qRound(metrics.addsPerSecond), qRound(1 / 0.011));
    QCOMPARE(model.lanes(TimelineLane::Mode::Worker).size(), 2);
}

void TestTimelineModel::countsMissedEvents()
{
    Cachescope::RateLimitingQueue queue({}, std::make_shared<Cachescope::FakeClock>(T0), {}, 4);
    TimelineModel model;
    model.setPollInterval(0ms);
    model.setQueue(&queue);
    for (int i = 0; i < 10; ++i) {
        queue.add(u"k%1"_s.arg(i));
    }
    model.poll();
    QCOMPARE(model.metrics().eventsMissed, 6u);
    QCOMPARE(model.eventsIngested(), 4u);
    QCOMPARE(model.lanes(TimelineLane::Mode::Key).size(), 4);
}

void TestTimelineModel::recentQuantilesForgetOldWork()
{
    using T = QueueEventType;
    TimelineModel model;
    QList<QueueEvent> feed;
    // 100 attempts, one every 20 ms, each on a worker of its own: each waits 2 ms and runs 10 ms,
    // except two that run 500 ms.
    for (int i = 0; i < 100; ++i) {
        const QString key = u"k%1"_s.arg(i);
        const qint64 base = i * 20;
        const qint64 work = (i == 10 || i == 60) ? 500 : 10;
        feed << ev(T::Added, key, base) << ev(T::Got, key, base + 2, i) << ev(T::Done, key, base + 2 + work, i);
    }
    std::stable_sort(feed.begin(), feed.end(), [](const QueueEvent &a, const QueueEvent &b) { return a.time < b.time; });
    model.ingest(feed);
    Cachescope::TimelineMetrics metrics = model.metrics();
    QCOMPARE(metrics.recentWorkCount, 100);
    QCOMPARE(metrics.recentWorkP50, Duration(10ms));
    QCOMPARE(metrics.recentWorkP99, Duration(500ms));
    QCOMPARE(metrics.recentLatencyCount, 100);
    QCOMPARE(metrics.recentLatencyP99, Duration(2ms));
    // Once the window has slid past them, they no longer count.
    model.ingest({ev(T::Added, u"late"_s, 2000 + 10000 + 1)});
    metrics = model.metrics();
    QCOMPARE(metrics.recentWorkCount, 0);
    QCOMPARE(metrics.recentWorkP99, Duration(0));
    QCOMPARE(metrics.recentLatencyCount, 0);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestTimelineModel)
#include "tst_timelinemodel.moc"
