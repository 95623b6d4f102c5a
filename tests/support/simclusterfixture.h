#pragma once

// What tests against the in-process simulated cluster share: the client configuration of its
// kubeconfig, an informer's cache in the form SimCluster::truth() gives the server's, and a
// fixture holding a started simulator with a Cluster connected to it, as the app connects one.

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/keys.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/apirequest.h"
#include "core/kube/apiresponse.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <atomic>
#include <memory>
#include <optional>
#include <variant>

namespace CachescopeTest {

// simRestConfig() is the client configuration of one of the simulator's contexts ("sim-token"
// authenticates with a bearer token); nothing when the kubeconfig does not resolve it.
inline std::optional<Cachescope::RestConfig> simRestConfig(const Cachescope::Sim::SimCluster &sim, const QString &context = QStringLiteral("sim-token"))
{
    const auto rest = Cachescope::Kubeconfig::loadFiles({sim.kubeconfigPath()}, true).restConfig(context);
    if (!std::holds_alternative<Cachescope::RestConfig>(rest)) {
        return std::nullopt;
    }
    return std::get<Cachescope::RestConfig>(rest);
}

// simOptions() is a simulated cluster of `pods` pods over `namespaces` namespaces, changing
// `churn` times a second, generated from `seed` (the same seed, the same objects).
inline Cachescope::Sim::SimOptions simOptions(int pods, int namespaces, double churn = 0, quint64 seed = Cachescope::Sim::SimOptions().seed)
{
    Cachescope::Sim::SimOptions options;
    options.pods = pods;
    options.namespaces = namespaces;
    options.churn = churn;
    options.seed = seed;
    return options;
}

// cacheState() maps each cached object's key to its resourceVersion, as truth() does the server's.
inline QHash<QString, quint64> cacheState(const Cachescope::SharedIndexInformer &informer)
{
    QHash<QString, quint64> state;
    const QList<Cachescope::KubeObject> objects = informer.indexer().list();
    for (const Cachescope::KubeObject &object : objects) {
        state.insert(Cachescope::metaNamespaceKey(object), object.resourceVersion().toULongLong());
    }
    return state;
}

// send() makes a request on the cluster's worker thread, where its client lives, and waits; it
// returns the HTTP status (0 when no answer came) and stores the answer's body in *answer.
inline int send(Cachescope::Cluster *cluster,
                const QByteArray &verb,
                const QString &path,
                const QJsonObject &body = {},
                const QByteArray &contentType = "application/json",
                QJsonObject *answer = nullptr)
{
    Cachescope::ApiRequest request;
    request.verb = verb;
    request.path = path;
    if (!body.isEmpty()) {
        request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
        request.contentType = contentType;
    }
    auto status = std::make_shared<std::atomic<int>>(0);
    auto bytes = std::make_shared<QByteArray>();
    Cachescope::ApiClient *client = cluster->client();
    QMetaObject::invokeMethod(client, [client, request, status, bytes] {
        client->send(request, client, [status, bytes](const Cachescope::ApiResponse &response) {
            *bytes = response.body; // written before the status the test thread waits for
            *status = response.httpStatus > 0 ? response.httpStatus : -1;
        });
    });
    if (!QTest::qWaitFor([&status] { return status->load() != 0; }, 10000)) {
        return 0;
    }
    if (answer) {
        *answer = QJsonDocument::fromJson(*bytes).object();
    }
    return status->load();
}

// SimClusterFixture is a simulated cluster and, once start() succeeded, a Cluster connected to
// it (not started: startDiscovered() starts it and waits for discovery).
struct SimClusterFixture
{
    explicit SimClusterFixture(const Cachescope::Sim::SimOptions &options)
        : sim(options)
    {
    }

    // start() says why it failed in *error, or as a warning when error is null.
    [[nodiscard]] bool start(QString *error = nullptr)
    {
        QString why;
        if (!sim.start(&why)) {
            error ? void(*error = why) : qWarning("%s", qPrintable(why));
            return false;
        }
        const std::optional<Cachescope::RestConfig> rest = simRestConfig(sim);
        if (!rest) {
            why = QStringLiteral("the simulator's kubeconfig has no sim-token context");
            error ? void(*error = why) : qWarning("%s", qPrintable(why));
            return false;
        }
        cluster = std::make_unique<Cachescope::Cluster>(*rest);
        return true;
    }

    [[nodiscard]] bool startDiscovered()
    {
        if (!start()) {
            return false;
        }
        cluster->start();
        return QTest::qWaitFor([this] { return cluster->isDiscovered(); }, 30000);
    }

    // syncedInformer() is the factory's informer of a resource named as kubectl names it
    // ("pods", "deploy"), started and synced; null when it does not resolve or sync in 30 s.
    Cachescope::SharedIndexInformer *syncedInformer(const QString &resource)
    {
        const auto found = cluster->discovery().resolve(resource);
        if (!std::holds_alternative<Cachescope::ApiResource>(found)) {
            return nullptr;
        }
        Cachescope::InformerKey key;
        key.resource = std::get<Cachescope::ApiResource>(found);
        Cachescope::SharedIndexInformer *informer = cluster->informers()->informer(key);
        cluster->informers()->start();
        return QTest::qWaitFor([informer] { return informer->hasSynced(); }, 30000) ? informer : nullptr;
    }

    Cachescope::Sim::SimCluster sim;
    std::unique_ptr<Cachescope::Cluster> cluster;
};

} // namespace CachescopeTest
