#pragma once

// InformerSim: an in-process simulated cluster (Sim::SimCluster over HTTPS) and real informers
// against it, for the tests of the index and pipeline views: the same chain as the app runs
// (kubeconfig → ApiClient → ApiListerWatcher → Reflector → queue → SharedIndexInformer).
// Informers run on the test's thread as their network thread and are stopped and deleted
// before the client and the cluster.

#include "core/cache/apilisterwatcher.h"
#include "core/cache/indexfunctions.h"
#include "core/cache/keys.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"
#include "simclusterfixture.h"

#include <QSignalSpy>
#include <QThread>

#include <functional>
#include <memory>
#include <variant>

namespace CachescopeTest {

using namespace Qt::Literals::StringLiterals;

// The indexes the lead sets on pod informers.
inline Cachescope::Indexers podIndexers()
{
    using namespace Cachescope;
    return Indexers{
        {namespaceIndexName(), namespaceIndexFunction()},
        {nodeNameIndexName(), nodeNameIndexFunction()},
        {ownerUidIndexName(), ownerUidIndexFunction()},
        {labelIndexName(u"app"_s), labelIndexFunction(u"app"_s)},
    };
}

class InformerSim
{
public:
    explicit InformerSim(const Cachescope::Sim::SimOptions &options)
        : m_sim(std::make_unique<Cachescope::Sim::SimCluster>(options))
    {
    }

    ~InformerSim()
    {
        for (const auto &informer : m_informers) {
            informer->stop();
        }
        m_informers.clear();
        m_client.reset();
        m_sim.reset();
    }

    [[nodiscard]] bool start(QString *error)
    {
        if (!m_sim->start(error)) {
            return false;
        }
        const std::optional<Cachescope::RestConfig> rest = simRestConfig(*m_sim);
        if (!rest) {
            *error = u"no rest config for sim-token"_s;
            return false;
        }
        m_client = std::make_unique<Cachescope::ApiClient>(*rest);
        return true;
    }

    Cachescope::Sim::SimCluster &sim() { return *m_sim; }

    // informer() makes and runs an informer of a core/v1 resource ("pods", "configmaps");
    // adjust may change its options (queue kind, backoff) before it is made.
    Cachescope::SharedIndexInformer *informer(const QString &resource,
                                              const QString &kind,
                                              const Cachescope::Indexers &indexers,
                                              const std::function<void(Cachescope::SharedIndexInformer::Options &)> &adjust = {})
    {
        using namespace Cachescope;
        ApiListerWatcher::Target target;
        target.resource.gvr = GroupVersionResource(QString(), u"v1"_s, resource);
        target.resource.kind = kind;
        target.resource.namespaced = true;
        target.idleTimeout = std::chrono::milliseconds(2000);
        SharedIndexInformer::Options options;
        options.name = resource;
        options.indexers = indexers;
        options.reflector.pageSize = 50;
        // Short backoffs and watches keep the tests quick; the behaviour is the same.
        options.reflector.backoff.initial = std::chrono::milliseconds(50);
        options.reflector.backoff.cap = std::chrono::milliseconds(500);
        options.reflector.minWatchTimeout = std::chrono::seconds(2);
        if (adjust) {
            adjust(options);
        }
        m_informers.push_back(
            std::make_unique<SharedIndexInformer>(std::make_unique<ApiListerWatcher>(m_client.get(), target), QThread::currentThread(), options));
        SharedIndexInformer *informer = m_informers.back().get();
        informer->run();
        return informer;
    }

    // remove() stops and deletes one informer made by informer().
    void remove(Cachescope::SharedIndexInformer *informer)
    {
        for (auto it = m_informers.begin(); it != m_informers.end(); ++it) {
            if (it->get() == informer) {
                informer->stop();
                m_informers.erase(it);
                return;
            }
        }
    }

private:
    std::unique_ptr<Cachescope::Sim::SimCluster> m_sim;
    std::unique_ptr<Cachescope::ApiClient> m_client;
    std::vector<std::unique_ptr<Cachescope::SharedIndexInformer>> m_informers;
};

} // namespace CachescopeTest
