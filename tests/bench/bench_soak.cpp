// bench_soak: the app's stack for a long run. A cachescope-sim process churns (1,000 changes/s
// by default) with its fault plan on; this process opens its kubeconfig in the assembled window
// (offscreen): the Explorer with the tables, event stream, history, pipeline and index views,
// informers for ten kinds, and the pod-health controller on the pods. Every --sample seconds it
// prints the resident memory, the heap in use (malloc's own count: what RSS would be without
// freed pages kept), open file descriptors and threads of this process, with how full the
// bounded stores are (the event stream's rows, the object history's versions, the workqueue
// timeline's spans); at the end the slope of each after the warm-up (least squares), the RSS and
// heap growth over the run in per cent, and the informers' lists, relists and watch reconnects
// (the faults must show there).
//
// The bounded stores fill at their own pace (the timeline's 200,000 spans took 110 s at 1,000
// changes/s; the event stream's 50,000 rows and the history's 20,000 versions less): memory
// they take while filling is by design, not a leak. `--warmup full` ends the warm-up when the
// last of them is first full, and the run then goes on for --seconds.
//
//   bench_soak [--seconds 1800] [--warmup 300|full] [--sample 10] [--churn 1000] [--pods 3000]
//              [--faults SPEC] [--sim PATH] [--demo] [--check]
//
// --demo runs the cluster of `cachescope --demo --demo-pods N --demo-churn R` instead: in this
// process, on its own thread, as the app starts it (SimOptions::forDemo), with no faults. It is
// how the app is tried at scale: the pods must reach Watching, events keep flowing while the
// churn goes on, and no list is ever repeated.
//
// --check (CI's short runs) exits 1 when descriptors or threads grew: the largest count of the
// last third of the samples after the warm-up above the largest of the first third by more than
// a few (connections come and go with the faults). With --demo it also fails when an informer
// relisted or saw an error (there are no faults), when the pods' watch applied no event over a
// sample after the warm-up, or when the pods' cache does not equal the server's truth within
// five minutes once the churn stops. Memory and the GUI event loop's latency (the lateness of a
// 1 ms timer while the pods sync, and over the run, leaving out the benchmark's own samples,
// whose time is reported beside it) are reported, not checked: no timing is.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/controller/controller.h"
#include "core/sim/simcluster.h"
#include "core/util/processmemory.h"
#include "guimeasures.h"
#include "simclusterfixture.h"
#include "ui/models/eventstreammodel.h"
#include "ui/models/objecthistory.h"
#include "ui/models/timelinemodel.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/timelineview.h"
#include "ui/workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <sys/prctl.h>

using namespace Cachescope;
using namespace CachescopeBench;
using namespace Qt::Literals::StringLiterals;

namespace {

struct Sample
{
    double seconds = 0;
    qint64 residentBytes = 0;
    qint64 heapBytes = 0;
    int descriptors = 0;
    int threads = 0;
    quint64 podEvents = 0; // watch events the pods' reflector applied so far
};

Sample sampleNow(double seconds)
{
    Sample sample;
    sample.seconds = seconds;
    sample.residentBytes = residentBytes();
    sample.heapBytes = heapInUseBytes();
    sample.descriptors = int(QDir(u"/proc/self/fd"_s).entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot).size());
    QFile status(u"/proc/self/status"_s);
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : status.readAll().split('\n')) {
            if (line.startsWith("Threads:")) {
                sample.threads = line.mid(8).trimmed().toInt();
            }
        }
    }
    return sample;
}

// slope() is the least-squares slope of value over seconds.
template<typename Value>
double slope(const QList<Sample> &samples, Value value)
{
    if (samples.size() < 2) {
        return 0;
    }
    double meanX = 0;
    double meanY = 0;
    for (const Sample &sample : samples) {
        meanX += sample.seconds;
        meanY += value(sample);
    }
    meanX /= double(samples.size());
    meanY /= double(samples.size());
    double numerator = 0;
    double denominator = 0;
    for (const Sample &sample : samples) {
        numerator += (sample.seconds - meanX) * (value(sample) - meanY);
        denominator += (sample.seconds - meanX) * (sample.seconds - meanX);
    }
    return denominator > 0 ? numerator / denominator : 0;
}

// waitFor() runs the event loop until done() or the deadline, asking done() every pollMs: a real
// event loop, as the app's, so that the GUI latency measured meanwhile is the app's own.
template<typename Predicate>
bool waitFor(Predicate done, int milliseconds, int pollMs = 20)
{
    if (done()) {
        return true;
    }
    const QDeadlineTimer deadline(milliseconds);
    QEventLoop loop;
    QTimer poll;
    bool finished = false;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        finished = done();
        if (finished || deadline.hasExpired()) {
            loop.quit();
        }
    });
    poll.start(std::max(1, std::min<int>(pollMs, int(deadline.remainingTime()))));
    loop.exec();
    return finished;
}

void printLatency(const char *phase, const LatencyProbe::Figures &figures)
{
    std::printf("GUI event loop %s: lateness of a 1 ms timer p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples); GUI thread %.0f %% busy\n",
                phase,
                figures.p50,
                figures.p99,
                figures.max,
                figures.samples,
                figures.cpuPercent);
}

template<typename Value>
int largest(const QList<Sample> &samples, Value value)
{
    int most = 0;
    for (const Sample &sample : samples) {
        most = std::max(most, value(sample));
    }
    return most;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"The app's stack against a churning, faulty cachescope-sim: RSS, descriptors and threads over time."_s);
    parser.addHelpOption();
    const QCommandLineOption secondsOption(u"seconds"_s, u"How long to run."_s, u"s"_s, u"1800"_s);
    const QCommandLineOption warmupOption(u"warmup"_s,
                                          u"Samples before this are left out of the slopes; 'full': until the bounded stores are first full, and "
                                          u"--seconds after that."_s,
                                          u"s"_s,
                                          u"300"_s);
    const QCommandLineOption sampleOption(u"sample"_s, u"Sampling interval."_s, u"s"_s, u"10"_s);
    const QCommandLineOption churnOption(u"churn"_s, u"The simulator's changes per second."_s, u"rate"_s, u"1000"_s);
    const QCommandLineOption podsOption(u"pods"_s, u"The simulator's pods."_s, u"n"_s, u"3000"_s);
    const QCommandLineOption faultsOption(u"faults"_s,
                                          u"The simulator's fault plan."_s,
                                          u"spec"_s,
                                          u"drop=0.01,truncate=0.01,gone=0.01,throttle=0.01:1,error=0.01,reset=0.005,halfopen=0.002,restart=120"_s);
    const QCommandLineOption simOption(
        u"sim"_s, u"The cachescope-sim binary."_s, u"path"_s, QCoreApplication::applicationDirPath() + u"/../bin/cachescope-sim"_s);
    const QCommandLineOption demoOption(u"demo"_s, u"The cluster of cachescope --demo, in this process, with no faults (--faults and --sim unused)."_s);
    const QCommandLineOption checkOption(
        u"check"_s, u"Exit 1 when descriptors or threads grew after the warm-up; with --demo also when the informers relisted or stalled."_s);
    parser.addOptions({secondsOption, warmupOption, sampleOption, churnOption, podsOption, faultsOption, simOption, demoOption, checkOption});
    parser.process(app);
    const double runSeconds = parser.value(secondsOption).toDouble();
    // Under `--warmup full` the warm-up ends when the stores are full, at most after an hour.
    constexpr double LongestFill = 3600;
    const bool warmupUntilFull = parser.value(warmupOption) == u"full"_s;
    double warmupSeconds = warmupUntilFull ? LongestFill : parser.value(warmupOption).toDouble();
    double endSeconds = warmupUntilFull ? LongestFill + runSeconds : runSeconds;
    const int sampleMs = int(parser.value(sampleOption).toDouble() * 1000);

    const bool demo = parser.isSet(demoOption);
    QTemporaryDir dir;
    QString kubeconfigPath = dir.filePath(u"kubeconfig"_s);
    QProcess sim;
    std::unique_ptr<Sim::SimCluster> demoSim;
    QElapsedTimer populating;
    populating.start();
    if (demo) {
        demoSim = std::make_unique<Sim::SimCluster>(Sim::SimOptions::forDemo(parser.value(podsOption).toInt(), parser.value(churnOption).toDouble()));
        std::optional<QString> startError;
        QObject::connect(demoSim.get(), &Sim::SimCluster::started, demoSim.get(), [&](bool ok, const QString &error) { startError = ok ? QString() : error; });
        demoSim->startAsync();
        // A million pods populate in about a minute of CPU; more on a loaded machine.
        if (!waitFor([&] { return startError.has_value(); }, 900000) || !startError->isEmpty()) {
            std::fprintf(stderr, "the demo cluster did not start: %s\n", qPrintable(startError.value_or(u"timed out"_s)));
            return 1;
        }
        kubeconfigPath = demoSim->kubeconfigPath();
        std::printf("demo cluster (in-process): %s pods, churn %s/s, no faults; ready after %.1f s\n",
                    qPrintable(parser.value(podsOption)),
                    qPrintable(parser.value(churnOption)),
                    double(populating.elapsed()) / 1000.0);
    } else {
        sim.setProgram(parser.value(simOption));
        sim.setArguments({u"--kubeconfig-out"_s,
                          kubeconfigPath,
                          u"--pods"_s,
                          parser.value(podsOption),
                          u"--namespaces"_s,
                          u"5"_s,
                          u"--churn"_s,
                          parser.value(churnOption),
                          u"--faults"_s,
                          parser.value(faultsOption)});
        sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        // The simulator ends with this process, even when it crashes: a simulator left behind would
        // keep churning, and keep ctest waiting on the output it inherited.
        sim.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        sim.start();
        QByteArray announced;
        if (!waitFor(
                [&] {
                    announced += sim.readAllStandardOutput();
                    return announced.contains("ready\n") || sim.state() == QProcess::NotRunning;
                },
                120000) ||
            !announced.contains("ready\n")) {
            std::fprintf(stderr, "cachescope-sim (%s) did not get ready: %s\n", qPrintable(sim.program()), announced.constData());
            return 1;
        }
        std::printf("cachescope-sim: %s pods, churn %s/s, faults %s\n",
                    qPrintable(parser.value(podsOption)),
                    qPrintable(parser.value(churnOption)),
                    qPrintable(parser.value(faultsOption)));
    }

    int result = 0;
    {
        MainWindow window;
        Workspace workspace;
        Explorer explorer(&window, &workspace);
        window.resize(1600, 1000);
        window.show();
        LatencyProbe latency;
        latency.start();
        QElapsedTimer syncing;
        syncing.start();
        explorer.openKubeconfig(kubeconfigPath);
        const auto shownSynced = [&explorer] {
            return explorer.currentInformer() != nullptr && explorer.currentInformer()->hasSynced();
        };
        // A million pods take minutes to list on a loaded machine.
        if (!waitFor(shownSynced, demo ? 900000 : 120000)) {
            std::fprintf(stderr, "the pods never synced\n");
            return 1;
        }
        std::printf("pods synced after %.1f s\n", double(syncing.elapsed()) / 1000.0);
        printLatency("while the pods synced", latency.stop());
        Cluster *cluster = explorer.contextsView()->currentCluster();
        // The soak opens ten kinds and runs a controller; the demo stays as the app opens it.
        const QStringList kinds = demo ? QStringList()
                                       : QStringList{u"deployments"_s,
                                                     u"replicasets"_s,
                                                     u"services"_s,
                                                     u"endpoints"_s,
                                                     u"configmaps"_s,
                                                     u"secrets"_s,
                                                     u"events"_s,
                                                     u"namespaces"_s,
                                                     u"nodes"_s,
                                                     u"pods"_s};
        for (const QString &kind : kinds) {
            const auto resolved = cluster->discovery().resolve(kind);
            if (const auto *resource = std::get_if<ApiResource>(&resolved)) {
                explorer.showResource(*resource);
                if (!waitFor(shownSynced, 120000)) {
                    std::fprintf(stderr, "%s never synced\n", qPrintable(kind));
                    return 1;
                }
            }
        }
        QString error;
        if (!demo && !explorer.runController(u"pod-health"_s, &error)) {
            std::fprintf(stderr, "pod-health: %s\n", qPrintable(error));
            return 1;
        }
        std::printf("informers: %d, controller: %s\n",
                    int(cluster->informers()->informers().size()),
                    explorer.controller() != nullptr ? qPrintable(explorer.controller()->name()) : "none");
        const SharedIndexInformer *pods = explorer.currentInformer(); // the first and the last kind shown
        const auto *timelineView = window.findChild<TimelineView *>();
        const TimelineModel *timeline = timelineView != nullptr ? timelineView->model() : nullptr;
        if (timeline == nullptr) {
            std::fprintf(stderr, "the window has no workqueue timeline\n");
            return 1;
        }
        const EventStreamModel *stream = explorer.eventStream();
        const ObjectHistory *history = explorer.history();
        std::printf("bounded stores: event stream %d rows, object history %d versions, timeline %lld spans\n",
                    stream->capacity(),
                    history->maxVersions(),
                    qlonglong(timeline->spanCapacity()));
        std::printf("%8s %10s %10s %6s %8s %10s %8s %8s %8s %10s %s\n",
                    "t (s)",
                    "RSS (MB)",
                    "heap (MB)",
                    "fds",
                    "threads",
                    "objects",
                    "stream",
                    "history",
                    "spans",
                    "pod events",
                    "pods");
        std::fflush(stdout);

        QList<Sample> samples;
        qint64 mostSamplingMs = 0;
        qint64 totalSamplingMs = 0;
        QElapsedTimer clock;
        clock.start();
        bool storesFull = false;
        latency.start();
        while (clock.elapsed() < qint64(endSeconds * 1000)) {
            waitFor([] { return false; }, sampleMs);
            // The sample is the benchmark's, not the app's: heapInUseBytes() walks every arena
            // with it locked, seconds at a million objects. The latency figures leave it out;
            // its own time is reported below them.
            QElapsedTimer sampling;
            sampling.start();
            Sample sample = sampleNow(double(clock.elapsed()) / 1000.0);
            const qint64 samplingMs = sampling.elapsed();
            latency.skip();
            mostSamplingMs = std::max(mostSamplingMs, samplingMs);
            totalSamplingMs += samplingMs;
            const Reflector::Status podStatus = pods->counters().reflector;
            sample.podEvents = podStatus.events;
            qsizetype objects = 0;
            for (const SharedIndexInformer *informer : cluster->informers()->informers()) {
                objects += informer->indexer().size();
            }
            std::printf("%8.0f %10.1f %10.1f %6d %8d %10lld %8d %8d %8lld %10llu %s\n",
                        sample.seconds,
                        double(sample.residentBytes) / 1e6,
                        double(sample.heapBytes) / 1e6,
                        sample.descriptors,
                        sample.threads,
                        qlonglong(objects),
                        stream->rowCount() + stream->pendingCount(),
                        history->versionCount(),
                        qlonglong(timeline->spanCount()),
                        qulonglong(sample.podEvents),
                        QMetaEnum::fromType<Reflector::State>().valueToKey(int(podStatus.state)));
            samples.append(sample);
            if (!storesFull && stream->rowCount() + stream->pendingCount() >= stream->capacity() && history->versionCount() >= history->maxVersions() &&
                timeline->spanCount() >= timeline->spanCapacity()) {
                storesFull = true;
                if (warmupUntilFull) {
                    warmupSeconds = sample.seconds;
                    endSeconds = sample.seconds + runSeconds;
                }
                std::printf("-- the bounded stores are full at %.0f s\n", sample.seconds);
            }
            std::fflush(stdout);
        }
        printLatency("over the run", latency.stop());
        std::printf("the benchmark's own samples (left out of the latency above): %d, longest %lld ms, %lld ms in all\n",
                    int(samples.size()),
                    qlonglong(mostSamplingMs),
                    qlonglong(totalSamplingMs));

        QList<Sample> steady;
        for (const Sample &sample : std::as_const(samples)) {
            if (sample.seconds >= warmupSeconds) {
                steady.append(sample);
            }
        }
        if (steady.size() < 3) {
            std::fprintf(stderr, "too few samples after the warm-up (%d)\n", int(steady.size()));
            return 1;
        }
        const auto rss = [](const Sample &s) {
            return double(s.residentBytes);
        };
        const auto fds = [](const Sample &s) {
            return s.descriptors;
        };
        const auto threads = [](const Sample &s) {
            return s.threads;
        };
        const auto heap = [](const Sample &s) {
            return double(s.heapBytes);
        };
        const double spanSeconds = steady.constLast().seconds - steady.constFirst().seconds;
        std::printf("\nafter the %.0f s warm-up (%d samples over %.0f s; the bounded stores %s):\n",
                    warmupSeconds,
                    int(steady.size()),
                    spanSeconds,
                    storesFull ? "were full" : "never filled");
        const auto printGrowth = [&](const char *name, auto value, qint64 first, qint64 last) {
            const double perSecond = slope(steady, value);
            std::printf("  %-10s %.1f -> %.1f MB, slope %.1f KB/min, growth over the run %.2f %%\n",
                        name,
                        double(first) / 1e6,
                        double(last) / 1e6,
                        perSecond * 60 / 1e3,
                        100.0 * perSecond * spanSeconds / double(first));
        };
        printGrowth("RSS", rss, steady.constFirst().residentBytes, steady.constLast().residentBytes);
        printGrowth("heap", heap, steady.constFirst().heapBytes, steady.constLast().heapBytes);
        std::printf("  fds        %d -> %d, slope %.3f/min\n", steady.constFirst().descriptors, steady.constLast().descriptors, slope(steady, fds) * 60);
        std::printf("  threads    %d -> %d, slope %.3f/min\n", steady.constFirst().threads, steady.constLast().threads, slope(steady, threads) * 60);
        quint64 lists = 0;
        quint64 relists = 0;
        quint64 reconnects = 0;
        quint64 errors = 0;
        for (const SharedIndexInformer *informer : cluster->informers()->informers()) {
            const Reflector::Status status = informer->counters().reflector;
            lists += status.lists;
            relists += status.relists;
            reconnects += status.reconnects;
            errors += status.errors;
        }
        std::printf("  informers  %llu lists (%llu relists), %llu watch reconnects, %llu errors; freed heap released %llu times\n",
                    qulonglong(lists),
                    qulonglong(relists),
                    qulonglong(reconnects),
                    qulonglong(errors),
                    qulonglong(cluster->informers()->heapTrims()));
        bool converged = true;
        if (demo) {
            // The churn stops; the pods' cache must come to equal the server's truth.
            demoSim->setChurn(0);
            QElapsedTimer converging;
            converging.start();
            converged = waitFor([&] { return CachescopeTest::cacheState(*pods) == demoSim->truth(u"pods"_s); }, 300000, 1000);
            std::printf("  pods       the cache (%lld objects) %s the server's truth %.1f s after the churn stopped\n",
                        qlonglong(pods->indexer().size()),
                        converged ? "equals" : "does NOT equal",
                        double(converging.elapsed()) / 1000.0);
        }

        if (parser.isSet(checkOption)) {
            const qsizetype third = std::max<qsizetype>(1, steady.size() / 3);
            const QList<Sample> first = steady.first(third);
            const QList<Sample> last = steady.last(third);
            constexpr int DescriptorSlack = 8;
            constexpr int ThreadSlack = 4;
            if (largest(last, fds) > largest(first, fds) + DescriptorSlack) {
                std::printf("FAIL: descriptors grew from at most %d to %d\n", largest(first, fds), largest(last, fds));
                result = 1;
            }
            if (largest(last, threads) > largest(first, threads) + ThreadSlack) {
                std::printf("FAIL: threads grew from at most %d to %d\n", largest(first, threads), largest(last, threads));
                result = 1;
            }
            if (demo) {
                if (relists > 0 || errors > 0) {
                    std::printf("FAIL: with no faults, the informers relisted %llu times and saw %llu errors\n", qulonglong(relists), qulonglong(errors));
                    result = 1;
                }
                for (qsizetype i = 1; i < steady.size(); ++i) {
                    if (steady.at(i).podEvents == steady.at(i - 1).podEvents) {
                        std::printf("FAIL: the pods' watch applied no event from %.0f to %.0f s\n", steady.at(i - 1).seconds, steady.at(i).seconds);
                        result = 1;
                    }
                }
                if (!converged) {
                    std::printf("FAIL: the pods' cache never came to equal the server's truth\n");
                    result = 1;
                }
            }
            if (result == 0) {
                std::printf(demo ? "PASS: descriptors and threads flat; events flowed, no relist, the cache converged\n"
                                 : "PASS: descriptors and threads flat\n");
            }
        }
    }
    if (!demo) {
        ::kill(pid_t(sim.processId()), SIGTERM);
        if (!sim.waitForFinished(20000)) {
            sim.kill();
            sim.waitForFinished();
        }
    }
    return result;
}
