// bench_informersync: the initial sync of an informer from the simulated cluster, the whole
// client chain (HTTPS, ApiClient on the cluster's worker thread, paged lists, decode with the
// managedFields transform, RealFifo or DeltaFifo, Indexer with the default pod indexes).
//   bench_informersync [PODS] [realfifo|deltafifo]      defaults: 100000 realfifo
// Prints the sync time, objects per second and the process's resident memory growth per cached
// pod (one queue kind per run, so that one run's heap does not blur the other's figure). The
// reflector's first list asks for resourceVersion 0, which the server (like a real apiserver's
// watch cache) answers in one piece whatever the page size.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"
#include "core/util/processmemory.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int pods = argc > 1 ? QByteArray(argv[1]).toInt() : 100000;
    const DeltaQueue::Kind kind = argc > 2 && QByteArray(argv[2]) == "deltafifo" ? DeltaQueue::Kind::DeltaFifo : DeltaQueue::Kind::RealFifo;

    Sim::SimOptions simOptions;
    simOptions.pods = pods;
    simOptions.churn = 0;
    simOptions.seed = 1;
    Sim::SimCluster sim(simOptions);
    QElapsedTimer timer;
    timer.start();
    QString error;
    if (!sim.start(&error)) {
        std::fprintf(stderr, "sim: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("simulator with %d pods ready in %.1f s\n", pods, double(timer.elapsed()) / 1000.0);
    const Kubeconfig kubeconfig = Kubeconfig::loadFiles({sim.kubeconfigPath()}, true);
    const RestConfig rest = std::get<RestConfig>(kubeconfig.restConfig(u"sim-token"_s));

    std::printf("%-10s %10s %12s %14s %16s\n", "queue", "objects", "sync (s)", "objects/s", "RSS/pod (B)");
    {
        const qint64 rssBefore = residentBytes();
        auto cluster = std::make_unique<Cluster>(rest);
        SharedIndexInformer::Options options;
        options.queueKind = kind;
        cluster->informers()->setDefaultOptions(options);
        SharedIndexInformer *informer = nullptr;
        QObject::connect(cluster.get(), &Cluster::discovered, cluster.get(), [&] {
            InformerKey key;
            key.resource = std::get<ApiResource>(cluster->discovery().resolve(u"pods"_s));
            informer = cluster->informers()->informer(key);
            QObject::connect(informer, &SharedIndexInformer::synced, &app, [&] { app.exit(0); });
            timer.restart();
            cluster->informers()->start();
        });
        cluster->start();
        app.exec();
        const double seconds = double(timer.elapsed()) / 1000.0;
        const qsizetype objects = informer->indexer().size();
        const qint64 rssGrowth = residentBytes() - rssBefore;
        std::printf("%-10s %10lld %12.2f %14.0f %16lld\n",
                    kind == DeltaQueue::Kind::RealFifo ? "RealFifo" : "DeltaFifo",
                    static_cast<long long>(objects),
                    seconds,
                    double(objects) / seconds,
                    static_cast<long long>(objects > 0 ? rssGrowth / objects : 0));
        cluster.reset();
    }
    return 0;
}
