// bench_timeline: the workqueue timeline under the load of issue 7, run by hand (not a test;
// nothing is asserted).
//   QT_QPA_PLATFORM=offscreen build/dev/bench/bench_timeline [seconds=10] [width=1600] [height=600] [png prefix]
// With a png prefix, the last frame of each lane mode is saved as PREFIX-worker.png / PREFIX-key.png,
// and the last 200 ms per key as PREFIX-key-zoomed.png.
// 8 worker threads process keys drawn from 10k, added at 1k/s by a producer; ~10 % of attempts
// fail and are re-added with addRateLimited() (given up after 5 retries). The GUI thread polls
// the feed into a TimelineModel ~30 times a second and renders a full-width frame of the
// TimelineWidget into a QImage after each poll, alternating lanes per worker and per key.
// Prints the model's ingest cost per event and the p50/p99/max frame time of each lane mode.
#include "core/workqueue/itemexponentialfailureratelimiter.h"
#include "core/workqueue/ratelimitingqueue.h"
#include "ui/models/timelinemodel.h"
#include "ui/widgets/timelinewidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTextStream>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <random>
#include <thread>
#include <vector>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int Workers = 8;
constexpr int Keys = 10'000;
constexpr int AddsPerSecond = 1'000;
constexpr double FailureRate = 0.10;
constexpr int MaxRetries = 5;

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QString ms(double nanoseconds)
{
    return QString::number(nanoseconds / 1e6, 'f', 2) + u" ms"_s;
}

void reportFrames(const QString &what, std::vector<qint64> frames)
{
    if (frames.empty()) {
        return;
    }
    std::sort(frames.begin(), frames.end());
    const auto quantile = [&](double q) {
        return static_cast<double>(frames[std::min(frames.size() - 1, static_cast<size_t>(q * static_cast<double>(frames.size())))]);
    };
    out() << what << u": "_s << frames.size() << u" frames, p50 "_s << ms(quantile(0.5)) << u", p99 "_s << ms(quantile(0.99)) << u", max "_s
          << ms(static_cast<double>(frames.back())) << Qt::endl;
}

// CPU time of the calling thread: on a machine shared with other work, wall time overstates.
qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<qint64>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The model alone, single-threaded, on a synthetic feed of the same shape (adds, merges, gets,
// dones, 10 % rate-limited retries): its ingest cost without any thread competing for the CPU.
void offlineIngest(const std::vector<QString> &keys)
{
    constexpr int Rounds = 200'000;
    QList<QueueEvent> feed;
    feed.reserve(Rounds * 6);
    TimePoint t(std::chrono::hours(1));
    const auto push = [&](QueueEventType type, const QString &key, int worker = -1, Duration delay = Duration(0), int requeues = 0) {
        QueueEvent e;
        e.sequence = static_cast<quint64>(feed.size());
        e.time = t;
        e.type = type;
        e.key = key;
        e.worker = worker;
        e.delay = delay;
        e.requeues = requeues;
        feed.append(std::move(e));
    };
    for (int i = 0; i < Rounds; ++i) {
        const QString &key = keys[static_cast<size_t>(i * 7919) % keys.size()];
        t += 1ms;
        push(QueueEventType::Added, key);
        if (i % 5 == 0) {
            push(QueueEventType::Merged, key);
        }
        push(QueueEventType::Got, key, i % Workers);
        if (i % 10 == 0) {
            push(QueueEventType::RateLimited, key, -1, 5ms, 1);
            push(QueueEventType::Done, key, i % Workers);
            t += 5ms;
            push(QueueEventType::DelayReady, key);
        } else {
            push(QueueEventType::Forgotten, key);
            push(QueueEventType::Done, key, i % Workers);
        }
    }
    TimelineModel model;
    QElapsedTimer timer;
    const qint64 cpuBefore = threadCpuNs();
    timer.start();
    model.ingest(feed);
    const qint64 ns = timer.nsecsElapsed();
    const qint64 cpuNs = threadCpuNs() - cpuBefore;
    const auto perEvent = [&](qint64 total) {
        return QString::number(static_cast<double>(total) / static_cast<double>(feed.size()), 'f', 0);
    };
    out() << u"offline ingest: "_s << feed.size() << u" events in "_s << ms(static_cast<double>(ns)) << u" = "_s << perEvent(ns) << u" ns/event wall, "_s
          << perEvent(cpuNs) << u" ns/event of CPU time; "_s << model.spanCount() << u" spans, "_s << model.markCount() << u" marks kept"_s << Qt::endl;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int seconds = args.size() > 1 ? args.at(1).toInt() : 10;
    const int width = args.size() > 2 ? args.at(2).toInt() : 1600;
    const int height = args.size() > 3 ? args.at(3).toInt() : 600;
    const QString pngPrefix = args.size() > 4 ? args.at(4) : QString();

    std::vector<QString> keys;
    keys.reserve(Keys);
    for (int i = 0; i < Keys; ++i) {
        keys.push_back(u"namespace-"_s + QString::number(i % 50) + u"/pod-"_s + QString::number(i));
    }

    offlineIngest(keys);

    RateLimitingQueue queue(std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1s), {}, u"bench"_s);
    TimelineModel model;
    model.setWorkerCount(Workers);
    model.setPollInterval(0ms);
    model.setQueue(&queue);
    TimelineWidget widget(&model);
    widget.resize(width, height);
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);

    std::atomic<bool> stop{false};
    std::vector<std::thread> workers;
    for (int w = 0; w < Workers; ++w) {
        workers.emplace_back([&queue, w] {
            std::mt19937 random(static_cast<unsigned>(w) + 1);
            std::uniform_int_distribution<int> work(500, 6000); // µs: 8 workers keep up with 1k/s
            std::bernoulli_distribution fails(FailureRate);
            while (const std::optional<QString> key = queue.get(w)) {
                std::this_thread::sleep_for(std::chrono::microseconds(work(random)));
                if (fails(random) && queue.numRequeues(*key) < MaxRetries) {
                    queue.addRateLimited(*key);
                } else {
                    queue.forget(*key);
                }
                queue.done(*key);
            }
        });
    }
    std::thread producer([&] {
        std::mt19937 random(42);
        std::uniform_int_distribution<int> pick(0, Keys - 1);
        // Ten adds every 10 ms: 1k/s without a thousand wake-ups a second.
        auto next = std::chrono::steady_clock::now();
        while (!stop.load()) {
            for (int i = 0; i < AddsPerSecond / 100; ++i) {
                queue.add(keys[static_cast<size_t>(pick(random))]);
            }
            next += 10ms;
            std::this_thread::sleep_until(next);
        }
    });

    // A second model, connected to nothing, ingests a copy of the same feed: its cost is the
    // model's own, apart from the widget's lane refresh that follows each poll of the first.
    TimelineModel shadow;
    quint64 shadowNext = 0;
    qint64 shadowNs = 0;
    quint64 shadowEvents = 0;

    std::vector<qint64> workerFrames;
    std::vector<qint64> keyFrames;
    std::vector<qint64> workerFramesCpu;
    std::vector<qint64> keyFramesCpu;
    qint64 ingestNs = 0;
    quint64 ingested = 0;
    QElapsedTimer total;
    total.start();
    QElapsedTimer timer;
    bool keyMode = false;
    auto nextFrame = std::chrono::steady_clock::now();
    while (total.elapsed() < seconds * 1000) {
        nextFrame += 33ms;
        std::this_thread::sleep_until(nextFrame);
        const quint64 before = model.eventsIngested();
        timer.start();
        model.poll();
        ingestNs += timer.nsecsElapsed();
        ingested += model.eventsIngested() - before;

        const QueueEventLog::Batch batch = queue.eventLog()->since(shadowNext);
        shadowNext = batch.nextSequence;
        timer.start();
        shadow.ingest(batch.entries);
        shadowNs += timer.nsecsElapsed();
        shadowEvents += static_cast<quint64>(batch.entries.size());

        widget.setLaneMode(keyMode ? TimelineLane::Mode::Key : TimelineLane::Mode::Worker);
        const qint64 frameCpu = threadCpuNs();
        timer.start();
        {
            QPainter painter(&image);
            widget.render(&painter);
        }
        (keyMode ? keyFrames : workerFrames).push_back(timer.nsecsElapsed());
        (keyMode ? keyFramesCpu : workerFramesCpu).push_back(threadCpuNs() - frameCpu);
        keyMode = !keyMode;
    }
    if (!pngPrefix.isEmpty()) {
        for (const bool key : {false, true}) {
            widget.setLaneMode(key ? TimelineLane::Mode::Key : TimelineLane::Mode::Worker);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            widget.render(&painter);
            painter.end();
            image.save(pngPrefix + (key ? u"-key.png"_s : u"-worker.png"_s));
        }
        // The last 200 ms, where single attempts are wide enough to see.
        widget.setFollowLive(false);
        widget.setVisibleRange(model.now() - 200ms, model.now());
        image.fill(Qt::transparent);
        QPainter painter(&image);
        widget.render(&painter);
        painter.end();
        image.save(pngPrefix + u"-key-zoomed.png"_s);
    }
    stop = true;
    producer.join();
    queue.shutDown();
    for (std::thread &t : workers) {
        t.join();
    }

    const TimelineMetrics metrics = model.metrics();
    out() << u"load: "_s << Workers << u" workers, "_s << Keys << u" keys, "_s << AddsPerSecond << u" adds/s, "_s << FailureRate * 100 << u" % failures, "_s
          << seconds << u" s, frame "_s << width << u"x"_s << height << Qt::endl;
    out() << u"queue: "_s << metrics.queue.adds << u" adds, "_s << metrics.queue.retries << u" retries, work p50 "_s
          << ms(static_cast<double>(metrics.queue.workDuration.quantile(0.5).count())) << u", latency p99 "_s
          << ms(static_cast<double>(metrics.queue.queueLatency.quantile(0.99).count())) << Qt::endl;
    out() << u"model: "_s << ingested << u" events ingested ("_s << metrics.eventsMissed << u" missed), "_s
          << QString::number(ingested ? static_cast<double>(ingestNs) / static_cast<double>(ingested) : 0, 'f', 0)
          << u" ns/event per poll (feed copy, metrics, widget's lane refresh); "_s << model.spanCount() << u" spans, "_s << model.keyCount() << u" keys kept"_s
          << Qt::endl;
    out() << u"model ingest alone: "_s << QString::number(shadowEvents ? static_cast<double>(shadowNs) / static_cast<double>(shadowEvents) : 0, 'f', 0)
          << u" ns/event over "_s << shadowEvents << u" events"_s << Qt::endl;
    reportFrames(u"frame, lanes per worker, wall"_s, workerFrames);
    reportFrames(u"frame, lanes per worker, CPU"_s, workerFramesCpu);
    reportFrames(u"frame, lanes per key, wall"_s, keyFrames);
    reportFrames(u"frame, lanes per key, CPU"_s, keyFramesCpu);
    return 0;
}
