// bench_scale: a large cluster through the client, each side a process of its own.
//   bench_scale [--pods N] [--runs R] [--no-kubectl] [--kubectl PATH]      defaults: 100000 2
// Starts `cachescope-sim --pods N --namespaces 20 --nodes 100 --churn 0` (TLS, HTTP/2, as an
// apiserver answers) and reports:
//  - the simulator: populate time and resident memory per object;
//  - an informer of pods (this program again, as a child: Cluster on its worker thread, RealFifo,
//    Indexer with the default indexes), once with a streaming list (the default) and once with
//    the RV "0" LIST that the server answers in one piece, decoded as it arrives: time to synced, peak and steady RSS of that
//    process, the cache's stored JSON bytes per object (after the managedFields transform) and
//    steady RSS per object against them;
//  - `cachescope-cli get pods -A -o name` and `kubectl get pods -A -o name` against the same
//    server: wall time and peak RSS of each whole process (wait4), R runs each, and the ratios.
// The targets it speaks to (README, Benchmarks): 100k pods synced in <= 3 s with peak RSS <= 1.5x
// the steady cache; >= 10x kubectl's wall time and <= 1/10 of its peak memory.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/kubeconfig.h"
#include "core/util/processmemory.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

// procStatusKiB() reads one "VmXxx:   N kB" line of /proc/PID/status.
qint64 procStatusKiB(qint64 pid, const QByteArray &field)
{
    QFile status(pid > 0 ? u"/proc/%1/status"_s.arg(pid) : u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(QByteArray(field + ':'))) {
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
        }
    }
    return -1;
}

// The child: sync one informer of pods and print what it cost, as key=value lines. streaming:
// the informer's default, a streaming list (sendInitialEvents); else the RV "0" LIST, which the
// server (like an apiserver's watch cache) answers in one piece.
int runClient(const QString &kubeconfigPath, bool streaming)
{
    const Kubeconfig kubeconfig = Kubeconfig::loadFiles({kubeconfigPath}, true);
    const auto rest = kubeconfig.restConfig(u"sim-token"_s);
    if (!std::holds_alternative<RestConfig>(rest)) {
        std::fprintf(stderr, "client: no sim-token context in %s\n", qPrintable(kubeconfigPath));
        return 1;
    }
    const qint64 baseline = procStatusKiB(0, "VmRSS");
    auto cluster = std::make_unique<Cluster>(std::get<RestConfig>(rest));
    SharedIndexInformer::Options options = cluster->informers()->defaultOptions();
    options.reflector.useWatchList = streaming;
    cluster->informers()->setDefaultOptions(options);
    SharedIndexInformer *informer = nullptr;
    QElapsedTimer timer;
    QObject::connect(cluster.get(), &Cluster::discovered, cluster.get(), [&] {
        InformerKey key;
        key.resource = std::get<ApiResource>(cluster->discovery().resolve(u"pods"_s));
        informer = cluster->informers()->informer(key);
        QObject::connect(informer, &SharedIndexInformer::synced, qApp, [] { qApp->exit(0); });
        timer.start();
        cluster->informers()->start();
    });
    // The heap in use at its highest while syncing, beside the peak RSS: what the process held
    // live, against what malloc kept of what it freed. mallinfo2() walks every free chunk of
    // every arena, each arena locked meanwhile: at a million objects one walk took seconds, and
    // sampled every 250 ms it held the decoding thread's arena most of the time (a streaming list
    // synced in 330-544 s instead of 84). The next sample waits 50 times the last one's length.
    qint64 peakHeap = 0;
    QTimer heapSampler;
    heapSampler.setSingleShot(true);
    QObject::connect(&heapSampler, &QTimer::timeout, &heapSampler, [&peakHeap, &heapSampler] {
        QElapsedTimer took;
        took.start();
        peakHeap = std::max(peakHeap, heapInUseBytes());
        heapSampler.start(std::max<qint64>(250, took.elapsed() * 50));
    });
    heapSampler.start(250);
    cluster->start();
    QCoreApplication::exec();
    heapSampler.stop();
    const double synced = double(timer.nsecsElapsed()) / 1e9;
    // The informer's processing loop may still be draining the FIFO into the store: the figure is
    // the cache as it stands once every object is in.
    qint64 jsonBytes = 0;
    const QList<KubeObject> objects = informer->indexer().list();
    for (const KubeObject &object : objects) {
        jsonBytes += object.jsonSize();
    }
    const qint64 steadyHeap = heapInUseBytes();
    std::printf("synced_s=%.3f\nobjects=%lld\njson_bytes=%lld\nbaseline_kib=%lld\nsteady_kib=%lld\npeak_kib=%lld\npeak_heap_kib=%lld\nsteady_heap_kib=%lld\n",
                synced,
                static_cast<long long>(objects.size()),
                static_cast<long long>(jsonBytes),
                static_cast<long long>(baseline),
                static_cast<long long>(procStatusKiB(0, "VmRSS")),
                static_cast<long long>(procStatusKiB(0, "VmHWM")),
                static_cast<long long>(std::max(peakHeap, steadyHeap) / 1024),
                static_cast<long long>(steadyHeap / 1024));
    // What the reflector went through: a list retried or a stream lost is time the figure hides.
    const Reflector::Status status = informer->counters().reflector;
    std::printf("lists=%llu\nreconnects=%llu\nerrors=%llu\nlast_error=%s\n",
                static_cast<unsigned long long>(status.lists),
                static_cast<unsigned long long>(status.reconnects),
                static_cast<unsigned long long>(status.errors),
                qPrintable(status.lastError.isError() ? status.lastError.toString().simplified() : u"none"_s));
    std::fflush(stdout);
    // Exit without tearing 100k objects down: the figures are taken.
    std::_Exit(0);
}

struct Measured
{
    double wallSeconds = 0;
    qint64 peakKiB = 0;
    int exitCode = -1;
};

// measure() runs a command to completion with stdout to outputFile (or /dev/null) and returns its
// wall time and peak RSS from wait4(): the whole process, as /usr/bin/time reports it.
Measured measure(const QStringList &command, const QString &outputFile = u"/dev/null"_s)
{
    Measured result;
    QList<QByteArray> args;
    for (const QString &arg : command) {
        args.append(arg.toLocal8Bit());
    }
    std::vector<char *> argv;
    for (QByteArray &arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const QByteArray output = outputFile.toLocal8Bit();
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    result.wallSeconds = double(timer.nsecsElapsed()) / 1e9;
    result.peakKiB = usage.ru_maxrss;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

QHash<QByteArray, QByteArray> keyValues(const QByteArray &text)
{
    QHash<QByteArray, QByteArray> values;
    for (const QByteArray &line : text.split('\n')) {
        const qsizetype eq = line.indexOf('=');
        if (eq > 0) {
            values.insert(line.left(eq), line.mid(eq + 1));
        }
    }
    return values;
}

double mib(qint64 kib)
{
    return double(kib) / 1024.0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({u"pods"_s, u"Pods in the simulated cluster."_s, u"N"_s, u"100000"_s});
    parser.addOption({u"runs"_s, u"Runs of each whole-process command."_s, u"R"_s, u"2"_s});
    parser.addOption({u"kubectl"_s, u"kubectl to compare with."_s, u"PATH"_s});
    parser.addOption({u"no-kubectl"_s, u"Do not run kubectl."_s});
    parser.addOption({u"client"_s, u"(internal) sync an informer against KUBECONFIG and report."_s, u"KUBECONFIG"_s});
    parser.addOption({u"list"_s, u"(internal) with --client: a LIST, not a streaming list."_s});
    parser.addHelpOption();
    parser.process(app);
    if (parser.isSet(u"client"_s)) {
        return runClient(parser.value(u"client"_s), !parser.isSet(u"list"_s));
    }
    const int pods = parser.value(u"pods"_s).toInt();
    const int runs = std::max(1, parser.value(u"runs"_s).toInt());
    const QString binDir = QDir(QCoreApplication::applicationDirPath() + u"/../bin"_s).canonicalPath();
    const QString simPath = binDir + u"/cachescope-sim"_s;
    const QString cliPath = binDir + u"/cachescope-cli"_s;
    const QString kubectl =
        parser.isSet(u"no-kubectl"_s) ? QString() : (parser.isSet(u"kubectl"_s) ? parser.value(u"kubectl"_s) : QStandardPaths::findExecutable(u"kubectl"_s));

    QTemporaryDir dir;
    const QString kubeconfig = dir.filePath(u"kubeconfig"_s);
    QProcess sim;
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer timer;
    timer.start();
    sim.start(simPath,
              {u"--listen"_s,
               u"127.0.0.1:0"_s,
               u"--pods"_s,
               QString::number(pods),
               u"--namespaces"_s,
               u"20"_s,
               u"--nodes"_s,
               u"100"_s,
               u"--churn"_s,
               u"0"_s,
               u"--seed"_s,
               u"1"_s,
               u"--kubeconfig-out"_s,
               kubeconfig});
    QByteArray simOutput;
    while (!simOutput.contains("ready\n")) {
        if (!sim.waitForReadyRead(600000)) {
            std::fprintf(stderr, "cachescope-sim did not become ready: %s\n", simOutput.constData());
            return 1;
        }
        simOutput += sim.readAllStandardOutput();
    }
    const double populate = double(timer.nsecsElapsed()) / 1e9;
    const qint64 simRss = procStatusKiB(sim.processId(), "VmRSS");
    std::printf("cachescope-sim --pods %d: ready in %.1f s, RSS %.0f MiB (%.0f bytes per pod, nodes and the rest included)\n\n",
                pods,
                populate,
                mib(simRss),
                double(simRss) * 1024.0 / pods);

    // The informer, in a child process of its own: each way of listing.
    for (const bool streaming : {true, false}) {
        QProcess client;
        client.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QStringList arguments{u"--client"_s, kubeconfig};
        if (!streaming) {
            arguments.append(u"--list"_s);
        }
        client.start(QCoreApplication::applicationFilePath(), arguments);
        client.waitForFinished(600000);
        const auto values = keyValues(client.readAllStandardOutput());
        const qint64 objects = values.value("objects").toLongLong();
        const qint64 jsonBytes = values.value("json_bytes").toLongLong();
        const qint64 steadyGrowth = values.value("steady_kib").toLongLong() - values.value("baseline_kib").toLongLong();
        if (objects <= 0) {
            std::fprintf(stderr, "the informer did not sync\n");
            return 1;
        }
        std::printf("informer of pods, %s:\n", streaming ? "streaming list (sendInitialEvents, the default)" : "RV=0 LIST (answered in one piece)");
        std::printf("  synced in %s s, %lld objects (%.0f objects/s)\n",
                    values.value("synced_s").constData(),
                    static_cast<long long>(objects),
                    double(objects) / values.value("synced_s").toDouble());
        std::printf("  process RSS: peak %.0f MiB, steady %.0f MiB (%.0f MiB before connecting)\n",
                    mib(values.value("peak_kib").toLongLong()),
                    mib(values.value("steady_kib").toLongLong()),
                    mib(values.value("baseline_kib").toLongLong()));
        std::printf("  heap in use (sampled every 250 ms or 50x a sample's length): peak %.0f MiB, steady %.0f MiB\n",
                    mib(values.value("peak_heap_kib").toLongLong()),
                    mib(values.value("steady_heap_kib").toLongLong()));
        std::printf("  stored JSON %.0f bytes/object (%.0f MiB); steady RSS growth %.0f bytes/object = %.2fx the JSON\n",
                    double(jsonBytes) / objects,
                    double(jsonBytes) / 1048576.0,
                    double(steadyGrowth) * 1024.0 / objects,
                    double(steadyGrowth) * 1024.0 / double(jsonBytes));
        std::printf("  peak RSS / steady RSS = %.2f\n", double(values.value("peak_kib").toLongLong()) / double(values.value("steady_kib").toLongLong()));
        std::printf("  reflector: %s lists, %s reconnects, %s errors (last: %s)\n\n",
                    values.value("lists").constData(),
                    values.value("reconnects").constData(),
                    values.value("errors").constData(),
                    values.value("last_error").constData());
        std::fflush(stdout);
    }

    // Whole processes, side by side.
    struct Row
    {
        QString name;
        QStringList command;
        QList<Measured> runs;
    };
    QList<Row> rows;
    // The CLI gives up after --timeout (60 s by default); a million pods on a loaded machine take
    // longer than that, and the figure wanted is how long, not whether within a minute.
    rows.append({u"cachescope-cli get pods -A -o name"_s,
                 {cliPath, u"--kubeconfig"_s, kubeconfig, u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s, u"--timeout"_s, u"600s"_s},
                 {}});
    if (!kubectl.isEmpty() && pods <= 200000) {
        rows.append({u"kubectl get pods -A -o name"_s, {kubectl, u"--kubeconfig"_s, kubeconfig, u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s}, {}});
    }
    std::printf("%-40s %16s %18s\n", "command", "wall (s)", "peak RSS (MiB)");
    for (Row &row : rows) {
        for (int i = 0; i < runs; ++i) {
            row.runs.append(measure(row.command, dir.filePath(u"out.txt"_s)));
        }
        double minWall = 1e9, maxWall = 0;
        qint64 minPeak = std::numeric_limits<qint64>::max(), maxPeak = 0;
        bool ok = true;
        for (const Measured &m : row.runs) {
            minWall = std::min(minWall, m.wallSeconds);
            maxWall = std::max(maxWall, m.wallSeconds);
            minPeak = std::min(minPeak, m.peakKiB);
            maxPeak = std::max(maxPeak, m.peakKiB);
            ok = ok && m.exitCode == 0;
        }
        std::printf("%-40s %7.2f-%-8.2f %8.0f-%-9.0f%s\n", qPrintable(row.name), minWall, maxWall, mib(minPeak), mib(maxPeak), ok ? "" : " (FAILED)");
        std::fflush(stdout);
    }
    if (rows.size() == 2) {
        const auto best = [](const Row &row, auto field) {
            double value = 1e18;
            for (const Measured &m : row.runs) {
                value = std::min(value, double(field(m)));
            }
            return value;
        };
        const auto wall = [](const Measured &m) {
            return m.wallSeconds;
        };
        const auto peak = [](const Measured &m) {
            return double(m.peakKiB);
        };
        std::printf("\nkubectl / cachescope-cli (best runs): wall %.1fx, peak RSS %.1fx\n",
                    best(rows.at(1), wall) / best(rows.at(0), wall),
                    best(rows.at(1), peak) / best(rows.at(0), peak));
    }
    sim.terminate();
    sim.waitForFinished(60000);
    return 0;
}
