// Controller semantics on a bare Indexer, keys queued by hand: every key is processed, never by
// two workers at once; failures are retried with the limiter's backoff and given up on after
// maxRetries; success forgets; pause stops processing while the queue keeps filling; stop drains;
// findings follow the last result. (tst_controllersim runs the same controller on an informer
// against the simulated cluster.)
#include "core/cache/indexer.h"
#include "core/controller/controller.h"
#include "core/controller/findingsstore.h"
#include "core/controller/labelpolicycheck.h"
#include "core/controller/processlog.h"
#include "core/util/fakeclock.h"
#include "core/workqueue/ratelimitingqueue.h"

#include "concurrentsignallog.h"
#include "testmain.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace {
// RecordingFunction records every call, and every time a key was being processed by two
// workers at once; it can fail some keys always, fail the first attempts of a key, and work for
// a while.
class RecordingFunction final : public ProcessFunction
{
public:
    Duration work{0};
    QSet<QString> failAlways;
    std::atomic<int> failFirstAttempts{0};
    bool retryable = true;

    QString name() const override { return u"recording"_s; }

    ProcessResult process(const QString &key, const KubeObject &, const ProcessContext &context) override
    {
        {
            const std::lock_guard lock(m_mutex);
            if (m_inFlight.contains(key)) {
                ++m_overlaps;
            }
            m_inFlight.insert(key);
            m_calls.append({key, context.worker, context.attempt});
        }
        if (work.count() > 0) {
            std::this_thread::sleep_for(work);
        }
        {
            const std::lock_guard lock(m_mutex);
            m_inFlight.remove(key);
        }
        if (failAlways.contains(key) || context.attempt < failFirstAttempts) {
            return ProcessResult::error(u"failed %1"_s.arg(key), retryable);
        }
        return ProcessResult::ok();
    }

    struct Call
    {
        QString key;
        int worker;
        int attempt;
    };
    QList<Call> calls() const
    {
        const std::lock_guard lock(m_mutex);
        return m_calls;
    }
    QSet<QString> calledKeys() const
    {
        QSet<QString> keys;
        for (const Call &call : calls()) {
            keys.insert(call.key);
        }
        return keys;
    }
    int callCount() const
    {
        const std::lock_guard lock(m_mutex);
        return int(m_calls.size());
    }
    int overlaps() const
    {
        const std::lock_guard lock(m_mutex);
        return m_overlaps;
    }

private:
    mutable std::mutex m_mutex;
    QSet<QString> m_inFlight;
    QList<Call> m_calls;
    int m_overlaps = 0;
};

QStringList keys(int count)
{
    QStringList list;
    for (int i = 0; i < count; ++i) {
        list.append(u"ns/key-%1"_s.arg(i));
    }
    return list;
}

QList<QueueEvent> eventsOf(const Controller &controller, const QString &key, QueueEventType type)
{
    QList<QueueEvent> events;
    for (const QueueEvent &event : controller.eventLog()->since(0).entries) {
        if (event.key == key && event.type == type) {
            events.append(event);
        }
    }
    return events;
}

KubeObject configMap(const QString &name, bool labelled)
{
    QJsonObject metadata{{u"name"_s, name}, {u"namespace"_s, u"ns"_s}};
    if (labelled) {
        metadata.insert(u"labels"_s, QJsonObject{{u"app"_s, u"web"_s}});
    }
    const QJsonObject json{{u"apiVersion"_s, u"v1"_s}, {u"kind"_s, u"ConfigMap"_s}, {u"metadata"_s, metadata}};
    return *KubeObject::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

ControllerSettings settings(int workers)
{
    ControllerSettings s;
    s.workers = workers;
    return s;
}
} // namespace

class TestController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyKeyIsProcessed_data();
    void everyKeyIsProcessed();
    void noKeyIsProcessedByTwoWorkersAtOnce();
    void failuresAreRetriedWithTheLimitersBackoff_data();
    void failuresAreRetriedWithTheLimitersBackoff();
    void theBucketSpacesRetriesOnceItsBurstIsSpent();
    void successForgetsTheBackoff();
    void nonRetryableErrorsAreDroppedAtOnce();
    void pauseStopsProcessingWhileTheQueueFills();
    void stopDrains_data();
    void stopDrains();
    void findingsFollowTheLastResult();
};

void TestController::everyKeyIsProcessed_data()
{
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("keyCount");
    QTest::addColumn<int>("timesEach");

    QTest::newRow("one worker processes every key") << 1 << 200 << 1;
    QTest::newRow("four workers process every key") << 4 << 500 << 1;
    QTest::newRow("keys added several times are processed too") << 8 << 300 << 3;
}

void TestController::everyKeyIsProcessed()
{
    QFETCH(int, workers);
    QFETCH(int, keyCount);
    QFETCH(int, timesEach);

    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    Controller controller(&indexer, function, settings(workers));
    QSignalSpy states(&controller, &Controller::stateChanged);
    controller.start();
    QCOMPARE(controller.state(), Controller::State::Running);
    QCOMPARE(states.size(), 1);
    const QStringList all = keys(keyCount);
    for (int round = 0; round < timesEach; ++round) {
        for (const QString &key : all) {
            controller.enqueue(key);
        }
    }
    const QSet<QString> expected(all.cbegin(), all.cend());
    QTRY_COMPARE(function->calledKeys(), expected);
    QTRY_COMPARE(controller.metrics().depth, 0);
    QTRY_COMPARE(controller.metrics().processing, 0);
    controller.stop();
    QCOMPARE(controller.state(), Controller::State::Stopped);
    QCOMPARE(controller.counters().succeeded, quint64(function->callCount()));
    // Every worker id the feed names is one of ours.
    QSet<int> workerIds;
    for (const QueueEvent &event : controller.eventLog()->since(0).entries) {
        if (event.type == QueueEventType::Got) {
            QVERIFY2(event.worker >= 0 && event.worker < workers, qPrintable(QString::number(event.worker)));
            workerIds.insert(event.worker);
        }
    }
    QVERIFY(!workerIds.isEmpty());
}

void TestController::noKeyIsProcessedByTwoWorkersAtOnce()
{
    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    function->work = 200us;
    Controller controller(&indexer, function, settings(8));
    controller.start();
    // Two threads add a few hot keys over and over while eight workers take them: re-adds of a
    // key being processed are the case where a careless queue hands it to a second worker.
    const QStringList hot = keys(6);
    std::vector<std::thread> adders;
    for (int a = 0; a < 2; ++a) {
        adders.emplace_back([&controller, &hot] {
            for (int i = 0; i < 3000; ++i) {
                controller.enqueue(hot.at(i % hot.size()));
                if (i % 50 == 0) {
                    std::this_thread::sleep_for(100us);
                }
            }
        });
    }
    for (std::thread &adder : adders) {
        adder.join();
    }
    controller.stop();

    QCOMPARE(function->overlaps(), 0);
    // The feed agrees: between a key's Got and its Done there is no other Got of it.
    QHash<QString, int> processingBy;
    int addedWhileProcessing = 0;
    QSet<int> workersSeen;
    for (const QueueEvent &event : controller.eventLog()->since(0).entries) {
        if (event.type == QueueEventType::Got) {
            QVERIFY2(!processingBy.contains(event.key), qPrintable(event.key));
            processingBy.insert(event.key, event.worker);
            workersSeen.insert(event.worker);
        } else if (event.type == QueueEventType::Done) {
            QCOMPARE(processingBy.take(event.key), event.worker);
        } else if (event.type == QueueEventType::AddedWhileProcessing) {
            ++addedWhileProcessing;
        }
    }
    // The test exercised what it claims: keys were re-added while processed, by many workers.
    QVERIFY2(addedWhileProcessing > 0, "no key was re-added while being processed");
    QVERIFY2(workersSeen.size() > 1, "only one worker ever took a key");
}

void TestController::failuresAreRetriedWithTheLimitersBackoff_data()
{
    QTest::addColumn<int>("baseMs");
    QTest::addColumn<int>("maxMs");
    QTest::addColumn<int>("maxRetries");
    QTest::addColumn<QList<int>>("expectedDelaysMs");

    QTest::newRow("delays double from the base") << 1 << 1000 << 4 << QList<int>{1, 2, 4, 8};
    QTest::newRow("delays stop growing at the maximum") << 2 << 5 << 5 << QList<int>{2, 4, 5, 5, 5};
    QTest::newRow("no retries gives up at the first failure") << 1 << 1000 << 0 << QList<int>{};
}

void TestController::failuresAreRetriedWithTheLimitersBackoff()
{
    QFETCH(int, baseMs);
    QFETCH(int, maxMs);
    QFETCH(int, maxRetries);
    QFETCH(QList<int>, expectedDelaysMs);

    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    const QString failing = u"ns/failing"_s;
    function->failAlways = {failing};
    ControllerSettings s = settings(2);
    s.baseDelay = std::chrono::milliseconds(baseMs);
    s.maxDelay = std::chrono::milliseconds(maxMs);
    s.maxRetries = maxRetries;
    Controller controller(&indexer, function, s);
    CachescopeTest::ConcurrentSignalLog<QString, QString> gaveUp(&controller, &Controller::gaveUp);
    controller.start();
    controller.enqueue(failing);
    controller.enqueue(u"ns/fine"_s);
    QTRY_COMPARE(controller.counters().gaveUp, 1u);
    controller.stop();
    QCOMPARE(gaveUp.size(), 1);
    QCOMPARE(std::get<0>(gaveUp.calls().at(0)), failing);
    QCOMPARE(std::get<1>(gaveUp.calls().at(0)), u"failed ns/failing"_s);

    // The feed's RateLimited events carry the limiter's delays and the requeue count.
    const QList<QueueEvent> limited = eventsOf(controller, failing, QueueEventType::RateLimited);
    QList<int> delays;
    for (qsizetype i = 0; i < limited.size(); ++i) {
        delays.append(int(std::chrono::duration_cast<std::chrono::milliseconds>(limited.at(i).delay).count()));
        QCOMPARE(limited.at(i).requeues, int(i + 1));
    }
    QCOMPARE(delays, expectedDelaysMs);
    // Each retry is taken no sooner than its delay after it was rate-limited.
    const QList<QueueEvent> gots = eventsOf(controller, failing, QueueEventType::Got);
    QCOMPARE(gots.size(), maxRetries + 1);
    for (qsizetype i = 0; i < limited.size(); ++i) {
        QVERIFY(gots.at(i + 1).time - limited.at(i).time >= limited.at(i).delay);
    }
    // Given up: forgotten after its last attempt, never taken again.
    const QList<QueueEvent> forgotten = eventsOf(controller, failing, QueueEventType::Forgotten);
    QCOMPARE(forgotten.size(), 1);
    QVERIFY(forgotten.at(0).sequence > gots.last().sequence);
    QCOMPARE(controller.counters().gaveUp, 1u);
    QCOMPARE(controller.counters().retried, quint64(maxRetries));
    // The process log tells the attempts apart.
    QList<ProcessOutcome> outcomes;
    QList<int> attempts;
    for (const ProcessRecord &record : controller.processLog().since(0).entries) {
        if (record.key == failing) {
            outcomes.append(record.outcome);
            attempts.append(record.attempt);
            QCOMPARE(record.message, u"failed ns/failing"_s);
        }
    }
    QList<ProcessOutcome> expectedOutcomes(maxRetries, ProcessOutcome::Retrying);
    expectedOutcomes.append(ProcessOutcome::GaveUp);
    QCOMPARE(outcomes, expectedOutcomes);
    QList<int> expectedAttempts;
    for (int i = 0; i <= maxRetries; ++i) {
        expectedAttempts.append(i);
    }
    QCOMPARE(attempts, expectedAttempts);
    QCOMPARE(controller.queue().numRequeues(failing), 0);
}

void TestController::theBucketSpacesRetriesOnceItsBurstIsSpent()
{
    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    const QStringList failing = keys(4);
    function->failAlways = QSet<QString>(failing.cbegin(), failing.cend());
    ControllerSettings s = settings(4);
    s.baseDelay = 1ns; // the per-key backoff out of the way: the bucket decides
    s.maxDelay = 1ns;
    s.qps = 100.0;
    s.burst = 2;
    s.maxRetries = 3;
    // On a fake clock the time a retry is logged at is the time the bucket granted it at. On the
    // real clock a worker preempted between the two shifts one and not the other (CI, loaded).
    auto clock = std::make_shared<FakeClock>();
    Controller controller(&indexer, function, s, clock);
    CachescopeTest::ConcurrentSignalLog<QString, QString> gaveUp(&controller, &Controller::gaveUp);
    controller.start();
    for (const QString &key : failing) {
        controller.enqueue(key);
    }
    // The clock moves only while no worker holds a key, so no step falls between a grant and its
    // log entry: every key is either waiting out its delay or given up.
    const auto quiet = [&] {
        const QueueMetrics m = controller.metrics();
        return m.depth == 0 && m.processing == 0 && controller.queue().waitingCount() + qsizetype(controller.counters().gaveUp) == failing.size();
    };
    QDeadlineTimer deadline(30s);
    while (controller.counters().gaveUp < quint64(failing.size()) && !deadline.hasExpired()) {
        if (quiet()) {
            clock->step(1ms);
        }
        QTest::qWait(1);
    }
    QCOMPARE(controller.counters().gaveUp, quint64(failing.size()));
    controller.stop();
    QCOMPARE(gaveUp.size(), failing.size());

    // Every failure takes a token from the one bucket all keys share. A bucket of b tokens
    // refilled at qps grants at most b + t * qps retries in any span t, so any k consecutive
    // ready times (sorted) span at least (k - b) / qps. Without the bucket these twelve 1 ns
    // backoffs would all be ready within a few steps.
    QList<TimePoint> ready;
    for (const QueueEvent &event : controller.eventLog()->since(0).entries) {
        if (event.type == QueueEventType::RateLimited) {
            ready.append(event.time + event.delay);
        }
    }
    QCOMPARE(ready.size(), failing.size() * s.maxRetries);
    std::sort(ready.begin(), ready.end());
    const Duration spacing = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(1.0 / s.qps));
    for (qsizetype first = 0; first < ready.size(); ++first) {
        for (qsizetype last = first + s.burst; last < ready.size(); ++last) {
            const qsizetype granted = last - first + 1;
            // Within 50 µs: the bucket's arithmetic is in floating point seconds.
            QVERIFY2(ready[last] - ready[first] >= spacing * (granted - s.burst) - 50us,
                     qPrintable(QStringLiteral("retries %1..%2 ready %3 µs apart")
                                    .arg(first)
                                    .arg(last)
                                    .arg(std::chrono::duration_cast<std::chrono::microseconds>(ready[last] - ready[first]).count())));
        }
    }
}

void TestController::successForgetsTheBackoff()
{
    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    function->failFirstAttempts = 2;
    ControllerSettings s = settings(1);
    s.baseDelay = 1ms;
    Controller controller(&indexer, function, s);
    controller.start();
    const QString key = u"ns/flaky"_s;
    controller.enqueue(key);
    QTRY_COMPARE(controller.counters().succeeded, 1u);
    QCOMPARE(controller.queue().numRequeues(key), 0);
    // Failing again starts from the base delay: the success forgot the earlier failures.
    function->failFirstAttempts = 1;
    controller.enqueue(key);
    QTRY_COMPARE(controller.counters().succeeded, 2u);
    controller.stop();
    QList<int> requeues;
    for (const QueueEvent &event : eventsOf(controller, key, QueueEventType::RateLimited)) {
        requeues.append(event.requeues);
    }
    QCOMPARE(requeues, (QList<int>{1, 2, 1}));
    QCOMPARE(eventsOf(controller, key, QueueEventType::RateLimited).last().delay, Duration(1ms));
    QCOMPARE(controller.counters().gaveUp, 0u);
}

void TestController::nonRetryableErrorsAreDroppedAtOnce()
{
    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    function->failAlways = {u"ns/bad"_s};
    function->retryable = false;
    Controller controller(&indexer, function, settings(2));
    controller.start();
    controller.enqueue(u"ns/bad"_s);
    QTRY_COMPARE(controller.counters().dropped, 1u);
    controller.stop();
    QCOMPARE(function->callCount(), 1);
    QVERIFY(eventsOf(controller, u"ns/bad"_s, QueueEventType::RateLimited).isEmpty());
    QCOMPARE(eventsOf(controller, u"ns/bad"_s, QueueEventType::Forgotten).size(), 1);
    QCOMPARE(controller.processLog().since(0).entries.constFirst().outcome, ProcessOutcome::Dropped);
}

void TestController::pauseStopsProcessingWhileTheQueueFills()
{
    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    constexpr int workers = 3;
    Controller controller(&indexer, function, settings(workers));
    controller.start();
    controller.pause();
    QCOMPARE(controller.state(), Controller::State::Paused);
    const QStringList all = keys(30);
    for (const QString &key : all) {
        controller.enqueue(key);
    }
    // Each worker takes one key and holds it, unprocessed; the rest stay queued. (Were pause
    // ignored, the workers would empty the queue and processing would fall back to 0.)
    QTRY_COMPARE(controller.metrics().processing, workers);
    QCOMPARE(controller.queue().len(), all.size() - workers);
    QCOMPARE(function->callCount(), 0);
    QCOMPARE(controller.counters().processed, 0u);

    controller.resume();
    QCOMPARE(controller.state(), Controller::State::Running);
    const QSet<QString> expected(all.cbegin(), all.cend());
    QTRY_COMPARE(function->calledKeys(), expected);
    controller.stop();
}

void TestController::stopDrains_data()
{
    QTest::addColumn<bool>("paused");
    QTest::addColumn<bool>("async");
    QTest::newRow("stop processes every key queued before it") << false << false;
    QTest::newRow("stop while paused processes every key too") << true << false;
    QTest::newRow("stopAsync drains on its own thread, then reports Stopped") << false << true;
    QTest::newRow("stopAsync while paused drains too") << true << true;
}

void TestController::stopDrains()
{
    QFETCH(bool, paused);
    QFETCH(bool, async);

    Indexer indexer;
    auto function = std::make_shared<RecordingFunction>();
    function->work = 3ms;
    Controller controller(&indexer, function, settings(2));
    QList<Controller::State> states;
    connect(&controller, &Controller::stateChanged, this, [&states](Controller::State state) { states.append(state); });
    controller.start();
    if (paused) {
        controller.pause();
    }
    const QStringList all = keys(100);
    for (const QString &key : all) {
        controller.enqueue(key);
    }
    if (async) {
        controller.stopAsync();
        // 100 keys of 3 ms on 2 workers take 150 ms: not all done the moment stopAsync() returns.
        QCOMPARE(controller.state(), Controller::State::Draining);
        QVERIFY(function->callCount() < all.size());
        QTRY_COMPARE(controller.state(), Controller::State::Stopped);
        QCOMPARE(states.mid(states.size() - 2), (QList<Controller::State>{Controller::State::Draining, Controller::State::Stopped}));
    } else {
        controller.stop();
        QCOMPARE(controller.state(), Controller::State::Stopped);
    }
    const QSet<QString> expected(all.cbegin(), all.cend());
    QCOMPARE(function->calledKeys(), expected);
    QCOMPARE(function->callCount(), all.size());
    // A stopped controller takes nothing more.
    controller.enqueue(u"ns/late"_s);
    QCOMPARE(eventsOf(controller, u"ns/late"_s, QueueEventType::Rejected).size(), 1);
}

void TestController::findingsFollowTheLastResult()
{
    Indexer indexer;
    const QString key = u"ns/settings"_s;
    indexer.add(configMap(u"settings"_s, false));
    Controller controller(&indexer, std::make_shared<LabelPolicyCheck>(QStringList{u"app"_s}), settings(2));
    FindingsStore *findings = controller.findings();
    controller.start();

    controller.enqueue(key);
    QTRY_COMPARE(findings->findings(key).size(), 1);
    QCOMPARE(findings->findings(key).constFirst().reason, u"MissingLabel"_s);

    // Fixed: the next pass clears it.
    indexer.update(configMap(u"settings"_s, true));
    controller.enqueue(key);
    QTRY_COMPARE(findings->keyCount(), 0);

    indexer.update(configMap(u"settings"_s, false));
    controller.enqueue(key);
    QTRY_COMPARE(findings->keyCount(), 1);

    // Deleted: gone from the indexer, gone from the findings.
    indexer.remove(configMap(u"settings"_s, false));
    controller.enqueue(key);
    QTRY_COMPARE(findings->keyCount(), 0);
    controller.stop();
    QCOMPARE(controller.counters().succeeded, 4u);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestController)
#include "tst_controller.moc"
