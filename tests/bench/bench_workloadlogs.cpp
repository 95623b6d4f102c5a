// bench_workloadlogs: a workload's merged Logs tab against a simulated cluster, headless
// (offscreen), as issue 15 asks: a Deployment of N pods (20), each container writing R lines a
// second (50, cachescope-sim --log-rate) followed for S seconds (30) by the real LogView,
// WorkloadLogs (one LogFollower per pod on the Cluster's worker thread, through a
// RelationService) and LogBuffer. Reported, for the join (the first read of every pod's tail)
// and for the follow: the GUI event loop's latency (the lateness of a 1 ms repeating timer: p50,
// p99, max) and the GUI thread's CPU; the lines the streams delivered a second and the lines the
// view took a second; the most lines the ring and the merge held against their bound, the lines
// dropped and the lines the merge counted late; the process's resident memory. No assertion on
// timing: figures for README and for regressions.
//
//   bench_workloadlogs [--pods 20] [--rate 50] [--seconds 30] [--ring 10000] [--max-streams 50]
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/kube/apiclient.h"
#include "core/kube/apirequest.h"
#include "core/kube/apiresponse.h"
#include "core/kube/kubeconfig.h"
#include "core/relations/relationservice.h"
#include "core/relations/workloadlogs.h"
#include "core/sim/simcluster.h"
#include "guimeasures.h"
#include "ui/models/logbuffer.h"
#include "ui/widgets/logview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QSettings>

#include <cstdio>
#include <functional>
#include <memory>

using namespace Cachescope;
using namespace CachescopeBench;
using namespace Qt::Literals::StringLiterals;

namespace {

// waitFor() runs the event loop until `done` or `ms` passed; whether it was done.
bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > ms)
            return false;
        spin(20);
    }
    return true;
}

// patch() sends a merge patch on the cluster's worker thread, where its client lives; the HTTP
// status, 0 when no answer came in 30 s.
int patch(Cluster *cluster, const QString &path, const QJsonObject &body)
{
    ApiRequest request;
    request.verb = "PATCH";
    request.path = path;
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    request.contentType = "application/merge-patch+json";
    auto status = std::make_shared<std::atomic<int>>(0);
    ApiClient *client = cluster->client();
    QMetaObject::invokeMethod(client, [client, request, status] {
        client->send(request, client, [status](const ApiResponse &response) { *status = response.httpStatus > 0 ? response.httpStatus : -1; });
    });
    waitFor([&status] { return status->load() != 0; }, 30000);
    return status->load();
}

int startedPods(RelationService &relations, const ObjectRef &deployment)
{
    int started = 0;
    for (const ObjectRef &pod : relations.podsOf(deployment)) {
        const QJsonArray statuses = QJsonDocument::fromJson(pod.object.json()).object().value(u"status").toObject().value(u"containerStatuses").toArray();
        started += !statuses.isEmpty() && statuses.at(0).toObject().value(u"state").toObject().contains(u"running"_s) ? 1 : 0;
    }
    return started;
}

void printLatency(const char *phase, const LatencyProbe::Figures &f, const QString &extra = {})
{
    std::printf("| %-26s | %8.2f | %8.2f | %8.2f | %8zu | %7.0f%% | %s\n", phase, f.p50, f.p99, f.max, f.samples, f.cpuPercent, qPrintable(extra));
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // The ring's bound is a setting: this run's own, not the user's.
    QCoreApplication::setOrganizationName(u"cachescope-bench"_s);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({u"pods"_s, u"Pods of the followed Deployment."_s, u"n"_s, u"20"_s});
    parser.addOption({u"rate"_s, u"Lines a second each container writes."_s, u"r"_s, u"50"_s});
    parser.addOption({u"seconds"_s, u"Length of the follow phase."_s, u"s"_s, u"30"_s});
    parser.addOption({u"ring"_s, u"The view's ring (logs/maxLines)."_s, u"lines"_s, QString::number(LogBuffer::DefaultMaxLines)});
    parser.addOption({u"max-streams"_s, u"Streams the view runs at most."_s, u"n"_s, QString::number(WorkloadLogs::DefaultMaxStreams)});
    parser.process(app);
    const int pods = parser.value(u"pods"_s).toInt();
    const double rate = parser.value(u"rate"_s).toDouble();
    const int seconds = parser.value(u"seconds"_s).toInt();
    const int ring = parser.value(u"ring"_s).toInt();
    const int maxStreams = parser.value(u"max-streams"_s).toInt();

    Sim::SimOptions simOptions;
    simOptions.pods = 12;
    simOptions.namespaces = 1;
    simOptions.logLinesPerSecond = rate;
    Sim::SimCluster sim(simOptions);
    QString error;
    if (!sim.start(&error)) {
        std::fprintf(stderr, "sim: %s\n", qPrintable(error));
        return 1;
    }
    const auto rest = Kubeconfig::loadFiles({sim.kubeconfigPath()}, true).restConfig(u"sim-token"_s);
    if (!std::holds_alternative<RestConfig>(rest)) {
        std::fprintf(stderr, "no rest config\n");
        return 1;
    }
    Cluster cluster(std::get<RestConfig>(rest));
    cluster.start();
    if (!waitFor([&cluster] { return cluster.isDiscovered(); }, 30000)) {
        std::fprintf(stderr, "no discovery\n");
        return 1;
    }
    // The generator's application namespace: where its deployments are.
    const auto deploymentsResource = std::get<ApiResource>(cluster.discovery().resolve(u"deploy"_s));
    InformerKey key;
    key.resource = deploymentsResource;
    SharedIndexInformer *deployments = cluster.informers()->informer(key);
    cluster.informers()->start();
    waitFor([deployments] { return deployments->hasSynced(); }, 30000);
    KubeObject chosen;
    for (const KubeObject &deployment : deployments->indexer().list()) {
        if (deployment.namespaceName() != u"kube-system" && (!chosen.isValid() || deployment.name() < chosen.name()))
            chosen = deployment;
    }
    if (!chosen.isValid()) {
        std::fprintf(stderr, "no deployment\n");
        return 1;
    }
    RelationService relations(&cluster, chosen.namespaceName());
    waitFor([&relations] { return relations.hasSynced(); }, 30000);
    const ObjectRef deployment = relations.refOf(chosen, deploymentsResource);

    // Scale until `pods` pods run (the simulator leaves a few pending, as a kubelet would).
    const QString path = u"/apis/apps/v1/namespaces/%1/deployments/%2"_s.arg(deployment.namespaceName, deployment.name);
    int replicas = pods;
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (patch(&cluster, path, QJsonObject{{u"spec"_s, QJsonObject{{u"replicas"_s, replicas}}}}) != 200) {
            std::fprintf(stderr, "scale failed\n");
            return 1;
        }
        waitFor([&] { return relations.podsOf(deployment).size() == replicas; }, 30000);
        const int started = startedPods(relations, deployment);
        if (started >= pods)
            break;
        replicas += pods - started;
    }
    std::printf("deployment %s/%s: %d replicas, %d running, each container %.0f lines/s; ring %d lines, at most %d streams\n",
                qPrintable(deployment.namespaceName),
                qPrintable(deployment.name),
                replicas,
                startedPods(relations, deployment),
                rate,
                ring,
                maxStreams);
    printResident("before the view");

    QSettings().setValue(LogBuffer::maxLinesSettingsKey(), ring);
    LogView view;
    QSettings().remove(LogBuffer::maxLinesSettingsKey());
    view.setMaxStreams(maxStreams);
    view.setCluster(&cluster);
    view.setRelations(&relations);
    view.resize(1400, 900);
    view.show();

    // The view's intake: lines appended to the ring, and the most it held.
    qint64 appended = 0;
    int mostHeld = 0;
    QObject::connect(view.buffer(), &QAbstractItemModel::rowsInserted, view.buffer(), [&](const QModelIndex &, int first, int last) {
        appended += last - first + 1;
        mostHeld = std::max(mostHeld, view.buffer()->lineCount());
    });
    qsizetype mostPending = 0;
    QTimer pendingProbe;
    QObject::connect(&pendingProbe, &QTimer::timeout, &pendingProbe, [&] {
        if (const WorkloadLogs *logs = view.workloadLogs())
            mostPending = std::max(mostPending, logs->merger().pendingCount() + logs->merger().earlyCount());
    });
    pendingProbe.start(10);

    std::printf("\n| %-26s | %8s | %8s | %8s | %8s | %8s |\n", "GUI event-loop latency (ms)", "p50", "p99", "max", "samples", "GUI CPU");
    std::printf("|%s|----------|----------|----------|----------|----------|\n", QByteArray(28, '-').constData());
    LatencyProbe probe;
    probe.start();
    QElapsedTimer wall;
    wall.start();
    view.setObject(chosen);
    waitFor([&] { return view.workloadLogs() && view.workloadLogs()->streamCount() >= std::min(pods, maxStreams); }, 60000);
    // The join: every stream's tail read, until a second brings no more than the pods write.
    const qint64 steadyPerSecond = qint64(rate * view.workloadLogs()->streamCount() * 1.5);
    qint64 lastReceived = view.workloadLogs()->receivedCount();
    for (int second = 0; second < 120; ++second) {
        spin(1000);
        const qint64 received = view.workloadLogs()->receivedCount();
        const bool steady = received > 0 && received - lastReceived <= steadyPerSecond;
        lastReceived = received;
        if (steady)
            break;
    }
    const LatencyProbe::Figures join = probe.stop();
    printLatency("join (every pod's tail)",
                 join,
                 u"%1 streams, %2 lines received in %3 s"_s.arg(view.workloadLogs()->streamCount())
                     .arg(view.workloadLogs()->receivedCount())
                     .arg(double(wall.elapsed()) / 1000.0, 0, 'f', 1));

    const qint64 receivedBefore = view.workloadLogs()->receivedCount();
    const qint64 appendedBefore = appended;
    const qint64 lateBefore = view.workloadLogs()->merger().lateCount();
    mostHeld = 0;
    mostPending = 0;
    probe.start();
    wall.restart();
    spin(seconds * 1000);
    const LatencyProbe::Figures follow = probe.stop();
    const double elapsed = double(wall.elapsed()) / 1000.0;
    const WorkloadLogs *logs = view.workloadLogs();
    printLatency("follow", follow, u"%1 s"_s.arg(elapsed, 0, 'f', 1));
    std::printf("\nfollow, %.1f s: %.0f lines/s received from %d streams (%d pods), %.0f lines/s into the view\n",
                elapsed,
                double(logs->receivedCount() - receivedBefore) / elapsed,
                logs->streamCount(),
                logs->podCount(),
                double(appended - appendedBefore) / elapsed);
    std::printf("ring: at most %d lines held of its bound %d; %lld dropped in all; %d lines shown in the document\n",
                mostHeld,
                view.buffer()->maxLines(),
                static_cast<long long>(view.buffer()->droppedCount() + logs->merger().droppedCount()),
                view.textView()->document()->blockCount());
    std::printf("merge: at most %lld lines waiting (bound %lld pending + %lld released early); %lld late during the follow\n",
                static_cast<long long>(mostPending),
                static_cast<long long>(logs->merger().bound()),
                static_cast<long long>(logs->merger().bound()),
                static_cast<long long>(logs->merger().lateCount() - lateBefore));
    printResident("after the follow");
    view.hide();
    return 0;
}
