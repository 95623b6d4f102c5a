// Controllers on informers against the simulated cluster (in-process SimCluster over HTTPS,
// ApiClient, ApiListerWatcher, SharedIndexInformer), as tst_informerconvergence runs them:
// every key the informer queues is processed, never by two workers at once; failures are
// retried with the configured backoff (the feed's RateLimited delays follow the limiter) and
// given up on after maxRetries; stop drains; the built-in checks find what the cache holds.
#include "core/cache/apilisterwatcher.h"
#include "core/cache/cluster.h"
#include "core/cache/sharedindexinformer.h"
#include "core/controller/controller.h"
#include "core/controller/findingsstore.h"
#include "core/controller/ownerreferencecheck.h"
#include "core/controller/podhealthcheck.h"
#include "core/controller/processlog.h"
#include "core/controller/simulatedwork.h"
#include "core/kube/apiclient.h"
#include "core/kube/apiresponse.h"
#include "core/kube/kubeconfig.h"
#include "core/sim/simcluster.h"
#include "core/workqueue/queueeventlog.h"
#include "core/workqueue/ratelimitingqueue.h"

#include "concurrentsignallog.h"
#include "simclusterfixture.h"
#include "testmain.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>

#include <mutex>
#include <numeric>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace {
// OverlapRecorder wraps a process function and counts calls that began while the same key was
// still being processed by another worker.
class OverlapRecorder final : public ProcessFunction
{
public:
    explicit OverlapRecorder(std::shared_ptr<ProcessFunction> inner)
        : m_inner(std::move(inner))
    {
    }
    QString name() const override { return m_inner->name(); }
    ProcessResult process(const QString &key, const KubeObject &object, const ProcessContext &context) override
    {
        {
            const std::lock_guard lock(m_mutex);
            m_overlaps += m_inFlight.contains(key) ? 1 : 0;
            m_inFlight.insert(key);
        }
        ProcessResult result = m_inner->process(key, object, context);
        const std::lock_guard lock(m_mutex);
        m_inFlight.remove(key);
        return result;
    }
    int overlaps() const
    {
        const std::lock_guard lock(m_mutex);
        return m_overlaps;
    }

private:
    const std::shared_ptr<ProcessFunction> m_inner;
    mutable std::mutex m_mutex;
    QSet<QString> m_inFlight;
    int m_overlaps = 0;
};

// SimFixture is an in-process simulated cluster and a Cluster connected to it, with informers
// made directly (not through the factory): the client and every reflector on the Cluster's worker
// thread, as in the app.
struct SimFixture : CachescopeTest::SimClusterFixture
{
    using SimClusterFixture::SimClusterFixture;
    std::unique_ptr<SharedIndexInformer> informer(const QString &group, const QString &resource, const QString &kind, std::chrono::milliseconds resync = 0ms)
    {
        ApiListerWatcher::Target target;
        target.resource.gvr = GroupVersionResource(group, u"v1"_s, resource);
        target.resource.kind = kind;
        target.resource.namespaced = true;
        SharedIndexInformer::Options options;
        options.name = resource;
        options.resyncPeriod = resync;
        return std::make_unique<SharedIndexInformer>(std::make_unique<ApiListerWatcher>(cluster->client(), target), cluster->workerThread(), options);
    }
};

Sim::SimOptions simOptions(int pods, double churn, quint64 seed)
{
    Sim::SimOptions options;
    options.pods = pods;
    options.churn = churn;
    options.seed = seed;
    return options;
}

QSet<QString> cacheKeys(const SharedIndexInformer &informer)
{
    const QStringList keys = informer.indexer().listKeys();
    return QSet<QString>(keys.cbegin(), keys.cend());
}

// idle() counts keys waiting out a retry backoff too.
bool idle(const Controller &controller)
{
    const QueueMetrics metrics = controller.metrics();
    return metrics.depth == 0 && metrics.processing == 0 && controller.sharedQueue()->waitingCount() == 0;
}

// settled() is true when the cache equals the server's truth, every handler has received every
// notification and the controller has nothing queued or in hand: only then does "the cache"
// name exactly the keys the controller was given. (Stop the informer next, so it stays so.)
bool settled(const SharedIndexInformer &informer, const Sim::SimCluster &sim, const Controller &controller)
{
    const QList<qsizetype> backlogs = informer.counters().handlerBacklogs;
    return std::all_of(backlogs.cbegin(), backlogs.cend(), [](qsizetype backlog) { return backlog == 0; }) && idle(controller) &&
        CachescopeTest::cacheState(informer) == sim.truth(u"pods"_s);
}
// SteadilySettled latches once settled() held on `checks` consecutive calls (QTRY calls it every
// 50 ms). One true is not enough: a key passes through instants where no count holds it (from
// the delaying queue's waiting set into the queue; a notification taken from a handler's buffer
// before the handler adds its key), and QTRY evaluates its condition once more after it held.
class SteadilySettled
{
public:
    explicit SteadilySettled(int checks = 5)
        : m_checks(checks)
    {
    }
    bool operator()(const SharedIndexInformer &informer, const Sim::SimCluster &sim, const Controller &controller)
    {
        if (!m_latched) {
            m_streak = settled(informer, sim, controller) ? m_streak + 1 : 0;
            m_latched = m_streak >= m_checks;
        }
        return m_latched;
    }

private:
    const int m_checks;
    int m_streak = 0;
    bool m_latched = false;
};

// settleReport() says why settled() is still false.
QString settleReport(const SharedIndexInformer &informer, const Sim::SimCluster &sim, const Controller &controller)
{
    const SharedIndexInformer::Counters counters = informer.counters();
    const QueueMetrics metrics = controller.metrics();
    return u"cache %1 objects, truth %2, equal %3; relists %4, errors %5 (last: %6); handler backlogs %7; queue depth %8, processing %9, waiting %10"_s
        .arg(informer.indexer().size())
        .arg(sim.truth(u"pods"_s).size())
        .arg(CachescopeTest::cacheState(informer) == sim.truth(u"pods"_s))
        .arg(counters.reflector.relists)
        .arg(counters.reflector.errors)
        .arg(counters.reflector.lastError.toString())
        .arg(std::accumulate(counters.handlerBacklogs.cbegin(), counters.handlerBacklogs.cend(), qsizetype(0)))
        .arg(metrics.depth)
        .arg(metrics.processing)
        .arg(controller.sharedQueue()->waitingCount());
}
} // namespace

class TestControllerSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void simulatedWorkUnderChurn_data();
    void simulatedWorkUnderChurn();
    void stopDrainsWhatTheInformerQueued();
    void podHealthFindingsMatchTheCache();
    void ownerReferencesFindOrphanedPods();
};

void TestControllerSim::simulatedWorkUnderChurn_data()
{
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("maxRetries");
    QTest::addColumn<int>("baseMs");
    QTest::addColumn<int>("maxMs");

    QTest::newRow("one worker, three retries") << 1 << 3 << 1 << 1000;
    QTest::newRow("eight workers, three retries") << 8 << 3 << 1 << 1000;
    QTest::newRow("four workers, backoff capped at 4 ms") << 4 << 5 << 1 << 4;
}

void TestControllerSim::simulatedWorkUnderChurn()
{
    QFETCH(int, workers);
    QFETCH(int, maxRetries);
    QFETCH(int, baseMs);
    QFETCH(int, maxMs);

    SimFixture cluster(simOptions(120, 150, 11));
    QVERIFY(cluster.start());
    auto informer = cluster.informer(QString(), u"pods"_s, u"Pod"_s);

    auto recorder = std::make_shared<OverlapRecorder>(std::make_shared<SimulatedWork>(SimulatedWork::Settings{500us, 0.4, 5, true}));
    ControllerSettings settings;
    settings.workers = workers;
    settings.maxRetries = maxRetries;
    settings.baseDelay = std::chrono::milliseconds(baseMs);
    settings.maxDelay = std::chrono::milliseconds(maxMs);
    // A bucket this large never delays: the per-key backoff alone decides, so each delay is exact.
    settings.qps = 1e9;
    settings.burst = 1000000;
    settings.eventCapacity = 1 << 20;
    Controller controller(informer.get(), recorder, settings);
    CachescopeTest::ConcurrentSignalLog<QString, QString> gaveUp(&controller, &Controller::gaveUp);
    controller.start(); // before run(): the handler sees the initial list as adds
    QSignalSpy synced(informer.get(), &SharedIndexInformer::synced);
    informer->run();
    QVERIFY(synced.wait(30000));

    // Let the churn and the failures run until keys were given up on and much was processed.
    QTRY_VERIFY_WITH_TIMEOUT(controller.counters().gaveUp >= 2 && controller.counters().processed >= 600, 60000);
    cluster.sim.setChurn(0);
    // Settling may wait for a relist (a watch that fell behind the server's history gets 410),
    // after a reflector backoff of up to 30 s on a busy machine.
    SteadilySettled steadilySettled;
    QTRY_VERIFY2_WITH_TIMEOUT(steadilySettled(*informer, cluster.sim, controller), qPrintable(settleReport(*informer, cluster.sim, controller)), 90000);
    informer->stop();
    controller.stop();

    const QueueEventLog::Batch feed = controller.eventLog()->since(0);
    QCOMPARE(feed.missed, 0u);

    // Never two workers at once: not in the process function, not in the feed.
    QCOMPARE(recorder->overlaps(), 0);
    QHash<QString, int> processingBy;
    // Every key added is processed: after each key's last add, the feed has a Got of it.
    QHash<QString, quint64> lastAdd;
    QHash<QString, quint64> lastGot;
    // The recorded delays follow the limiter: base · 2^(failures-1), capped at max.
    int rateLimited = 0;
    for (const QueueEvent &event : feed.entries) {
        switch (event.type) {
        case QueueEventType::Added:
        case QueueEventType::AddedWhileProcessing:
        case QueueEventType::Merged:
            lastAdd.insert(event.key, event.sequence);
            break;
        case QueueEventType::Got:
            QVERIFY2(!processingBy.contains(event.key), qPrintable(event.key));
            QVERIFY(event.worker >= 0 && event.worker < workers);
            processingBy.insert(event.key, event.worker);
            lastGot.insert(event.key, event.sequence);
            break;
        case QueueEventType::Done:
            QCOMPARE(processingBy.take(event.key), event.worker);
            break;
        case QueueEventType::RateLimited: {
            ++rateLimited;
            QVERIFY(event.requeues >= 1 && event.requeues <= maxRetries);
            const Duration expected = std::min<Duration>(std::chrono::milliseconds(baseMs) * (1LL << (event.requeues - 1)), std::chrono::milliseconds(maxMs));
            QCOMPARE(event.delay, expected);
            break;
        }
        default:
            break;
        }
    }
    QVERIFY(rateLimited > 0);
    for (auto it = lastAdd.cbegin(); it != lastAdd.cend(); ++it) {
        QVERIFY2(lastGot.value(it.key(), 0) > it.value(), qPrintable(it.key()));
    }
    // The informer's final cache was processed, key by key.
    for (const QString &key : cacheKeys(*informer)) {
        QVERIFY2(lastGot.contains(key), qPrintable(key));
    }

    // Forgotten after maxRetries: each give-up is the attempt numbered maxRetries, a Forgotten
    // follows it, and no attempt beyond it was made.
    const ProcessLog::Batch log = controller.processLog().since(0);
    QCOMPARE(log.missed, 0u);
    QCOMPARE(quint64(log.entries.size()), controller.counters().processed);
    int gaveUpRecords = 0;
    for (const ProcessRecord &record : log.entries) {
        QVERIFY(record.attempt <= maxRetries);
        if (record.outcome == ProcessOutcome::GaveUp) {
            ++gaveUpRecords;
            QCOMPARE(record.attempt, maxRetries);
        } else if (record.outcome == ProcessOutcome::Retrying) {
            QVERIFY(record.attempt < maxRetries);
        }
    }
    QCOMPARE(gaveUpRecords, gaveUp.size());
    QCOMPARE(quint64(gaveUpRecords), controller.counters().gaveUp);
    qInfo("processed %llu, retried %llu, gave up %llu, rate-limited events %d",
          static_cast<unsigned long long>(controller.counters().processed),
          static_cast<unsigned long long>(controller.counters().retried),
          static_cast<unsigned long long>(controller.counters().gaveUp),
          rateLimited);
}

void TestControllerSim::stopDrainsWhatTheInformerQueued()
{
    SimFixture cluster(simOptions(300, 0, 2));
    QVERIFY(cluster.start());
    auto informer = cluster.informer(QString(), u"pods"_s, u"Pod"_s);
    auto work = std::make_shared<OverlapRecorder>(std::make_shared<SimulatedWork>(SimulatedWork::Settings{1ms, 0.0, 1, true}));
    ControllerSettings settings;
    settings.workers = 2;
    Controller controller(informer.get(), work, settings);
    controller.start();
    informer->run();
    // The handler has returned from every initial add: each pod is queued (or processed).
    QTRY_VERIFY_WITH_TIMEOUT(controller.registration().hasSynced(), 30000);
    controller.stop();
    QCOMPARE(controller.state(), Controller::State::Stopped);
    informer->stop();

    QSet<QString> processed;
    for (const ProcessRecord &record : controller.processLog().since(0).entries) {
        processed.insert(record.key);
    }
    QCOMPARE(processed, cacheKeys(*informer));
    QCOMPARE(processed.size(), 300);
    QCOMPARE(work->overlaps(), 0);
}

void TestControllerSim::podHealthFindingsMatchTheCache()
{
    SimFixture cluster(simOptions(150, 200, 4));
    QVERIFY(cluster.start());
    auto informer = cluster.informer(QString(), u"pods"_s, u"Pod"_s);
    const PodHealthCheck::Settings checkSettings{1, std::chrono::seconds(3600)};
    ControllerSettings settings;
    settings.workers = 4;
    Controller controller(informer.get(), std::make_shared<PodHealthCheck>(checkSettings), settings);
    controller.start();
    QSignalSpy synced(informer.get(), &SharedIndexInformer::synced);
    informer->run();
    QVERIFY(synced.wait(30000));
    // Churn restarts pods and flips their readiness for a while, then stops.
    QTRY_VERIFY_WITH_TIMEOUT(controller.counters().processed >= 400, 60000);
    cluster.sim.setChurn(0);
    // Settling may wait for a relist (a watch that fell behind the server's history gets 410),
    // after a reflector backoff of up to 30 s on a busy machine.
    SteadilySettled steadilySettled;
    QTRY_VERIFY2_WITH_TIMEOUT(steadilySettled(*informer, cluster.sim, controller), qPrintable(settleReport(*informer, cluster.sim, controller)), 90000);
    informer->stop();
    controller.stop();

    // The table equals the check run once more over the final cache: findings of changed pods
    // were replaced, of fixed pods cleared, of deleted pods removed.
    PodHealthCheck check(checkSettings);
    QHash<QString, QStringList> expected;
    for (const KubeObject &pod : informer->indexer().list()) {
        QStringList reasons;
        for (const Finding &finding : check.process(metaNamespaceKey(pod), pod, {}).findings) {
            reasons.append(finding.reason);
        }
        if (!reasons.isEmpty()) {
            expected.insert(metaNamespaceKey(pod), reasons);
        }
    }
    QHash<QString, QStringList> actual;
    const auto all = controller.findings()->all();
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        for (const Finding &finding : it.value()) {
            actual[it.key()].append(finding.reason);
        }
    }
    QVERIFY2(!expected.isEmpty(), "the churn made no unhealthy pod: the test shows nothing");
    QCOMPARE(actual, expected);
}

void TestControllerSim::ownerReferencesFindOrphanedPods()
{
    SimFixture cluster(simOptions(40, 0, 9));
    QVERIFY(cluster.start());
    auto replicaSets = cluster.informer(u"apps"_s, u"replicasets"_s, u"ReplicaSet"_s);
    // The pods' informer resyncs so that the check sees a pod again when only its owner changed.
    auto pods = cluster.informer(QString(), u"pods"_s, u"Pod"_s, 200ms);
    QSignalSpy replicaSetsSynced(replicaSets.get(), &SharedIndexInformer::synced);
    replicaSets->run();
    QVERIFY(replicaSetsSynced.wait(30000));

    const OwnerLookup lookup = OwnerReferenceCheck::lookupIn({{u"ReplicaSet"_s, &replicaSets->indexer()}});
    ControllerSettings settings;
    settings.workers = 2;
    settings.resyncPeriod = 200ms;
    Controller controller(pods.get(), std::make_shared<OwnerReferenceCheck>(lookup), settings);
    controller.start();
    pods->run();
    QTRY_VERIFY_WITH_TIMEOUT(controller.registration().hasSynced(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(controller.counters().processed >= quint64(pods->indexer().size()), 30000);
    QCOMPARE(controller.findings()->keyCount(), 0); // every pod's ReplicaSet exists

    // Delete one ReplicaSet, orphaning its pods (no cascade).
    const KubeObject victim = replicaSets->indexer().list().constFirst();
    QSet<QString> orphans;
    for (const KubeObject &pod : pods->indexer().list()) {
        const auto owner = pod.controllerReference();
        if (owner && owner->uid == victim.uid()) {
            orphans.insert(metaNamespaceKey(pod));
        }
    }
    QVERIFY(!orphans.isEmpty());
    ApiRequest request;
    request.verb = "DELETE";
    request.path = u"/apis/apps/v1/namespaces/%1/replicasets/%2"_s.arg(victim.namespaceName(), victim.name());
    request.query.addQueryItem(u"propagationPolicy"_s, u"Orphan"_s);
    // The client lives on the cluster's worker thread: the request is made there.
    std::atomic<bool> deleted{false};
    ApiClient *client = cluster.cluster->client();
    QMetaObject::invokeMethod(
        client, [client, request, &deleted] { client->send(request, client, [&deleted](const ApiResponse &response) { deleted = response.isOk(); }); });
    QTRY_VERIFY_WITH_TIMEOUT(deleted.load(), 10000);

    QTRY_COMPARE_WITH_TIMEOUT(QSet<QString>(controller.findings()->all().keyBegin(), controller.findings()->all().keyEnd()), orphans, 30000);
    for (const QString &key : orphans) {
        const QList<Finding> findings = controller.findings()->findings(key);
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings.constFirst().reason, u"DanglingOwner"_s);
        QVERIFY2(findings.constFirst().message.contains(victim.name()), qPrintable(findings.constFirst().message));
    }
    controller.stop();
    pods->stop();
    replicaSets->stop();
}

CACHESCOPE_TEST_GUILESS_MAIN(TestControllerSim)
#include "tst_controllersim.moc"
