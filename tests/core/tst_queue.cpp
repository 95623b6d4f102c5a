// Tests of Queue: client-go's util/workqueue queue_test.go scenarios, plus a stress test of the
// one-worker-per-key guarantee.
#include "core/workqueue/queue.h"

#include "testmain.h"

#include <QMutex>
#include <QScopeGuard>
#include <QTest>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

enum class Stop { ShutDown, ShutDownWithDrain };

void stopQueue(Queue &q, Stop how)
{
    if (how == Stop::ShutDown) {
        q.shutDown();
    } else {
        q.shutDownWithDrain();
    }
}

// Joins every thread when the test function returns, even after a failed QCOMPARE.
struct Threads
{
    std::vector<std::thread> threads;
    template<typename F>
    void start(F &&f)
    {
        threads.emplace_back(std::forward<F>(f));
    }
    void join()
    {
        for (auto &t : threads) {
            if (t.joinable()) {
                t.join();
            }
        }
    }
    ~Threads() { join(); }
};

} // namespace

Q_DECLARE_METATYPE(Stop)

class TestQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sequences_data();
    void sequences();
    void producersAndConsumers_data();
    void producersAndConsumers();
    void addWhileProcessing_data();
    void addWhileProcessing();
    void shutDownUnblocksGetters_data();
    void shutDownUnblocksGetters();
    void drainWaitsForProcessing();
    void shutDownEndsDrainEarly();
    void drainWithDirtyItem();
    void drainWithNothingProcessingReturnsAtOnce();
    void noKeyProcessedByTwoWorkers();
};

// A script is a list of steps run on one thread:
//   "add K"      add(K)
//   "get K"      get() must return K (the script checks a key is queued first, so it never blocks)
//   "done K"     done(K)
//   "len N"      len() must be N
//   "shutdown"   shutDown()
//   "closed"     get() must return std::nullopt (the queue is shut down and empty)
void TestQueue::sequences_data()
{
    QTest::addColumn<QStringList>("script");

    QTest::newRow("keys come out in the order they were added")
        << QStringList{u"add c"_s, u"add a"_s, u"add b"_s, u"len 3"_s, u"get c"_s, u"get a"_s, u"get b"_s};
    QTest::newRow("duplicates while waiting are merged")
        << QStringList{u"add foo"_s, u"add bar"_s, u"add foo"_s, u"len 2"_s, u"get foo"_s, u"get bar"_s, u"len 0"_s};
    QTest::newRow("merged duplicate keeps its first place") << QStringList{u"add a"_s, u"add b"_s, u"add a"_s, u"get a"_s, u"get b"_s};
    QTest::newRow("re-added while processing is processed again after done")
        << QStringList{u"add foo"_s, u"get foo"_s, u"add foo"_s, u"len 0"_s, u"done foo"_s, u"len 1"_s, u"get foo"_s, u"done foo"_s, u"len 0"_s};
    QTest::newRow("re-added many times while processing is queued once") << QStringList{
        u"add foo"_s, u"get foo"_s, u"add foo"_s, u"add foo"_s, u"add foo"_s, u"done foo"_s, u"len 1"_s, u"get foo"_s, u"done foo"_s, u"len 0"_s};
    QTest::newRow("a key being processed is not handed to another worker")
        << QStringList{u"add foo"_s, u"get foo"_s, u"add foo"_s, u"add bar"_s, u"len 1"_s, u"get bar"_s, u"len 0"_s, u"done foo"_s, u"get foo"_s};
    QTest::newRow("done without re-add does not queue the key again") << QStringList{u"add foo"_s, u"get foo"_s, u"done foo"_s, u"len 0"_s};
    QTest::newRow("done of a key that is not processing is ignored")
        << QStringList{u"add foo"_s, u"done foo"_s, u"len 1"_s, u"done bar"_s, u"len 1"_s, u"get foo"_s, u"len 0"_s};
    QTest::newRow("add after shutdown is ignored") << QStringList{u"add foo"_s, u"shutdown"_s, u"add bar"_s, u"len 1"_s, u"get foo"_s, u"closed"_s};
    QTest::newRow("shutdown still hands out queued keys, then reports shutdown")
        << QStringList{u"add a"_s, u"add b"_s, u"shutdown"_s, u"get a"_s, u"get b"_s, u"closed"_s, u"closed"_s};
    QTest::newRow("a dirty key is re-queued by done after shutdown")
        << QStringList{u"add foo"_s, u"get foo"_s, u"add foo"_s, u"shutdown"_s, u"done foo"_s, u"get foo"_s, u"done foo"_s, u"closed"_s};
    QTest::newRow("add while processing after shutdown is ignored")
        << QStringList{u"add foo"_s, u"get foo"_s, u"shutdown"_s, u"add foo"_s, u"done foo"_s, u"len 0"_s, u"closed"_s};
}

void TestQueue::sequences()
{
    QFETCH(QStringList, script);
    Queue q;
    for (const QString &step : std::as_const(script)) {
        const QStringList words = step.split(u' ');
        const QString &op = words.at(0);
        const QString arg = words.value(1);
        if (op == u"add") {
            q.add(arg);
        } else if (op == u"get") {
            QVERIFY2(q.len() > 0, qPrintable(step));
            const std::optional<QString> got = q.get();
            QVERIFY2(got.has_value(), qPrintable(step));
            QCOMPARE(*got, arg);
        } else if (op == u"done") {
            q.done(arg);
        } else if (op == u"len") {
            QCOMPARE(q.len(), arg.toLongLong());
        } else if (op == u"shutdown") {
            q.shutDown();
            QVERIFY(q.shuttingDown());
        } else if (op == u"closed") {
            QCOMPARE(q.len(), 0);
            QVERIFY2(!q.get().has_value(), qPrintable(step));
        } else {
            QFAIL(qPrintable(u"unknown step "_s + step));
        }
    }
}

void TestQueue::producersAndConsumers_data()
{
    QTest::addColumn<Stop>("stop");
    QTest::newRow("50 producers, 10 consumers, shutDown") << Stop::ShutDown;
    QTest::newRow("50 producers, 10 consumers, shutDownWithDrain") << Stop::ShutDownWithDrain;
}

void TestQueue::producersAndConsumers()
{
    QFETCH(Stop, stop);
    constexpr int producers = 50;
    constexpr int addsPerProducer = 50;
    constexpr int consumers = 10;

    Queue q;
    QMutex mutex;
    QSet<QString> processed;
    std::atomic<bool> gotAfterShutdown{false};

    Threads consumerThreads;
    // On a failed check, shut the queue down before the threads are joined, or they never end.
    const auto stopOnExit = qScopeGuard([&q] { q.shutDown(); });
    for (int c = 0; c < consumers; ++c) {
        consumerThreads.start([&, c] {
            while (const std::optional<QString> item = q.get(c)) {
                if (*item == u"added after shutdown!") {
                    gotAfterShutdown = true;
                }
                {
                    const QMutexLocker lock(&mutex);
                    processed.insert(*item);
                }
                q.done(*item);
            }
        });
    }
    {
        Threads producerThreads;
        for (int p = 0; p < producers; ++p) {
            producerThreads.start([&q, p] {
                for (int j = 0; j < addsPerProducer; ++j) {
                    q.add(QString::number(p));
                    std::this_thread::yield();
                }
            });
        }
    }
    stopQueue(q, stop);
    q.add(u"added after shutdown!"_s);
    consumerThreads.join();

    QVERIFY(!gotAfterShutdown);
    QCOMPARE(q.len(), 0);
    // Every producer's key was processed: shutdown hands out what was queued before it.
    QCOMPARE(processed.size(), producers);
}

void TestQueue::addWhileProcessing_data()
{
    producersAndConsumers_data();
}

void TestQueue::addWhileProcessing()
{
    QFETCH(Stop, stop);
    constexpr int producers = 50;
    constexpr int consumers = 10;

    Queue q;
    QMutex mutex;
    QHash<QString, int> counts;
    std::atomic<int> processedTotal{0};

    Threads consumerThreads;
    // On a failed check, shut the queue down before the threads are joined, or they never end.
    const auto stopOnExit = qScopeGuard([&q] { q.shutDown(); });
    for (int c = 0; c < consumers; ++c) {
        consumerThreads.start([&, c] {
            while (const std::optional<QString> item = q.get(c)) {
                // Every key is re-added once while it is being processed: it must come back.
                bool reAdd = false;
                {
                    const QMutexLocker lock(&mutex);
                    reAdd = ++counts[*item] < 2;
                }
                if (reAdd) {
                    q.add(*item);
                }
                q.done(*item);
                ++processedTotal;
            }
        });
    }
    {
        Threads producerThreads;
        for (int p = 0; p < producers; ++p) {
            producerThreads.start([&q, p] { q.add(QString::number(p)); });
        }
    }
    QTRY_COMPARE(processedTotal.load(), 2 * producers);
    stopQueue(q, stop);
    consumerThreads.join();

    QCOMPARE(q.len(), 0);
    QCOMPARE(counts.size(), producers);
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        QCOMPARE(it.value(), 2);
    }
}

void TestQueue::shutDownUnblocksGetters_data()
{
    producersAndConsumers_data();
}

void TestQueue::shutDownUnblocksGetters()
{
    QFETCH(Stop, stop);
    constexpr int getters = 8;
    Queue q;
    std::atomic<int> returnedEmpty{0};
    Threads threads;
    for (int i = 0; i < getters; ++i) {
        threads.start([&] {
            if (!q.get().has_value()) {
                ++returnedEmpty;
            }
        });
    }
    stopQueue(q, stop);
    threads.join();
    QCOMPARE(returnedEmpty.load(), getters);
}

// client-go TestQueueDrainageUsingShutDownWithDrain: the drain returns only once the keys being
// processed are done.
void TestQueue::drainWaitsForProcessing()
{
    Queue q;
    q.add(u"foo"_s);
    q.add(u"bar"_s);
    const std::optional<QString> first = q.get();
    const std::optional<QString> second = q.get();
    QVERIFY(first && second);

    std::atomic<bool> drained{false};
    std::atomic<int> processingWhenDrained{-1};
    Threads threads;
    // On a failed check, shut the queue down before the threads are joined, or they never end.
    const auto stopOnExit = qScopeGuard([&q] { q.shutDown(); });
    threads.start([&] {
        q.shutDownWithDrain();
        processingWhenDrained = q.metrics().processing;
        drained = true;
    });
    QTRY_VERIFY(q.shuttingDown());
    // As client-go's test does: a worker sees the shutdown before it finishes its keys.
    QVERIFY(!q.get().has_value());
    QVERIFY(!drained);
    q.done(*first);
    QVERIFY(!drained || processingWhenDrained == 0);
    q.done(*second);
    threads.join();
    QVERIFY(drained);
    QCOMPARE(processingWhenDrained.load(), 0);
}

// client-go TestForceQueueShutdownUsingShutDown: shutDown() from another thread ends a drain
// although keys are still processing.
void TestQueue::shutDownEndsDrainEarly()
{
    Queue q;
    q.add(u"foo"_s);
    q.add(u"bar"_s);
    QVERIFY(q.get().has_value());
    QVERIFY(q.get().has_value());

    std::atomic<int> processingWhenDrained{-1};
    Threads threads;
    // On a failed check, shut the queue down before the threads are joined, or they never end.
    const auto stopOnExit = qScopeGuard([&q] { q.shutDown(); });
    threads.start([&] {
        q.shutDownWithDrain();
        processingWhenDrained = q.metrics().processing;
    });
    QTRY_VERIFY(q.shuttingDown());
    q.shutDown();
    threads.join();
    QCOMPARE(processingWhenDrained.load(), 2);
}

// client-go TestQueueDrainageUsingShutDownWithDrainWithDirtyItem.
void TestQueue::drainWithDirtyItem()
{
    Queue q;
    q.add(u"foo"_s);
    const std::optional<QString> gotten = q.get();
    QVERIFY(gotten);
    q.add(u"foo"_s);

    std::atomic<bool> drained{false};
    Threads threads;
    // On a failed check, shut the queue down before the threads are joined, or they never end.
    const auto stopOnExit = qScopeGuard([&q] { q.shutDown(); });
    threads.start([&] {
        q.shutDownWithDrain();
        drained = true;
    });
    QTRY_VERIFY(q.shuttingDown());
    QCOMPARE(q.len(), 0); // foo is dirty but processing: not handed out

    q.done(*gotten);
    // done() put foo back: get() hands it out although the queue is shutting down.
    const std::optional<QString> again = q.get();
    QVERIFY(again.has_value());
    QCOMPARE(*again, u"foo"_s);
    q.done(*again);
    QVERIFY(!q.get().has_value());
    threads.join();
    QVERIFY(drained);
}

// client-go TestNoQueueDrainageUsingShutDown, and a drain with nothing to wait for.
void TestQueue::drainWithNothingProcessingReturnsAtOnce()
{
    Queue drainingQueue;
    drainingQueue.add(u"foo"_s);
    drainingQueue.shutDownWithDrain(); // nothing processing: returns on this thread
    QVERIFY(drainingQueue.shuttingDown());

    Queue q;
    q.add(u"foo"_s);
    QVERIFY(q.get().has_value());
    q.shutDown(); // a plain shutdown never waits for processing keys
    QVERIFY(q.shuttingDown());
}

void TestQueue::noKeyProcessedByTwoWorkers()
{
    constexpr int keys = 16;
    constexpr int workers = 8;
    constexpr int producers = 4;
    constexpr int addsPerProducer = 5000;

    Queue q;
    std::array<std::atomic<int>, keys> inFlight{};
    std::array<std::atomic<int>, keys> processedCount{};
    std::atomic<int> overlaps{0};

    Threads workerThreads;
    // On a failed check, shut the queue down before the threads are joined, or they never end.
    const auto stopOnExit = qScopeGuard([&q] { q.shutDown(); });
    for (int w = 0; w < workers; ++w) {
        workerThreads.start([&, w] {
            while (const std::optional<QString> item = q.get(w)) {
                const auto k = static_cast<size_t>(item->toInt());
                if (inFlight[k].fetch_add(1) != 0) {
                    ++overlaps;
                }
                // Widen the window in which a second worker would get the same key.
                std::this_thread::yield();
                ++processedCount[k];
                inFlight[k].fetch_sub(1);
                q.done(*item);
            }
        });
    }
    {
        Threads producerThreads;
        for (int p = 0; p < producers; ++p) {
            producerThreads.start([&q, p] {
                for (int i = 0; i < addsPerProducer; ++i) {
                    q.add(QString::number((i * 7 + p) % keys));
                }
            });
        }
    }
    // Every key whose last add happened before this point is processed once more after it.
    QTRY_VERIFY(q.len() == 0 && q.metrics().processing == 0);
    q.shutDown();
    workerThreads.join();

    QCOMPARE(overlaps.load(), 0);
    for (int k = 0; k < keys; ++k) {
        QVERIFY2(processedCount[static_cast<size_t>(k)] > 0, qPrintable(QString::number(k)));
    }
    const QueueMetrics m = q.metrics();
    QCOMPARE(m.depth, 0);
    QCOMPARE(m.workDuration.count(), m.queueLatency.count());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestQueue)
#include "tst_queue.moc"
