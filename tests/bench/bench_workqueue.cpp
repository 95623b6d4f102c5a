// bench_workqueue: throughput of the workqueue, run by hand (not a test; nothing is asserted).
//   build/dev/bin/bench_workqueue
// Prints operations per second for: one thread doing add/get/done; producers and workers on a
// shared key space (the controller shape of issue 7: 8 workers, 10k keys); the delaying queue's
// waiting set filled with random delays and released by one step of a fake clock.
#include "core/util/fakeclock.h"
#include "core/workqueue/delayingqueue.h"
#include "core/workqueue/queue.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

void report(const QString &what, qint64 operations, qint64 nanoseconds)
{
    const double seconds = static_cast<double>(nanoseconds) / 1e9;
    out() << what << u": "_s << operations << u" in "_s << QString::number(seconds, 'f', 3) << u" s = "_s
          << QString::number(static_cast<double>(operations) / seconds, 'f', 0) << u" /s"_s << Qt::endl;
}

std::vector<QString> makeKeys(int n)
{
    std::vector<QString> keys;
    keys.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        keys.push_back(u"namespace-"_s + QString::number(i % 50) + u"/pod-"_s + QString::number(i));
    }
    return keys;
}

void singleThread(bool withFeed)
{
    constexpr int n = 1'000'000;
    const std::vector<QString> keys = makeKeys(10'000);
    Queue q({}, {}, withFeed ? QueueEventLog::DefaultCapacity : 0);
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < n; ++i) {
        const QString &key = keys[static_cast<size_t>(i) % keys.size()];
        q.add(key);
        const std::optional<QString> got = q.get();
        q.done(*got);
    }
    report(withFeed ? u"one thread add+get+done, event feed on"_s : u"one thread add+get+done, event feed off"_s, n, timer.nsecsElapsed());
}

void producersAndWorkers(int producers, int workers, int keyCount, int adds)
{
    const std::vector<QString> keys = makeKeys(keyCount);
    Queue q;
    std::atomic<qint64> processed{0};
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(workers));
    for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&q, &processed, w] {
            while (const std::optional<QString> key = q.get(w)) {
                q.done(*key);
                processed.fetch_add(1, std::memory_order_relaxed);
            }
        });
    }
    std::vector<std::thread> producerThreads;
    producerThreads.reserve(static_cast<size_t>(producers));
    for (int p = 0; p < producers; ++p) {
        producerThreads.emplace_back([&, p] {
            std::mt19937 random(static_cast<unsigned>(p));
            std::uniform_int_distribution<size_t> pick(0, keys.size() - 1);
            for (int i = 0; i < adds / producers; ++i) {
                q.add(keys[pick(random)]);
            }
        });
    }
    for (auto &t : producerThreads) {
        t.join();
    }
    q.shutDownWithDrain();
    for (auto &t : threads) {
        t.join();
    }
    const qint64 elapsed = timer.nsecsElapsed();
    const QueueMetrics m = q.metrics();
    report(QString::number(producers) + u" producers, "_s + QString::number(workers) + u" workers, "_s + QString::number(keyCount) + u" keys: adds"_s,
           adds,
           elapsed);
    out() << u"  processed "_s << processed.load() << u", merged "_s << (adds - static_cast<qint64>(m.adds)) << u", queue latency p50 "_s
          << QString::number(std::chrono::duration<double, std::micro>(m.queueLatency.quantile(0.5)).count(), 'f', 1) << u" µs, p99 "_s
          << QString::number(std::chrono::duration<double, std::micro>(m.queueLatency.quantile(0.99)).count(), 'f', 1) << u" µs"_s << Qt::endl;
}

void delayingRelease()
{
    constexpr int n = 200'000;
    const std::vector<QString> keys = makeKeys(n);
    auto clock = std::make_shared<FakeClock>();
    DelayingQueue q(clock, {}, 0);
    std::mt19937 random(1);
    std::uniform_int_distribution<int> delayMs(1, 600'000);
    QElapsedTimer timer;
    timer.start();
    for (const QString &key : keys) {
        q.addAfter(key, std::chrono::milliseconds(delayMs(random)));
    }
    report(u"delaying queue addAfter (random delays up to 10 min)"_s, n, timer.nsecsElapsed());
    timer.restart();
    clock->step(std::chrono::minutes(11));
    qint64 taken = 0;
    while (taken < n) {
        const std::optional<QString> key = q.get();
        q.done(*key);
        ++taken;
    }
    report(u"delaying queue release after one clock step, then get+done"_s, n, timer.nsecsElapsed());
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    singleThread(true); // warms up the allocator and caches, so the next two compare fairly
    singleThread(false);
    singleThread(true);
    producersAndWorkers(1, 1, 10'000, 1'000'000);
    producersAndWorkers(4, 8, 10'000, 1'000'000);
    producersAndWorkers(4, 8, 100, 1'000'000);
    delayingRelease();
    return 0;
}
