#include "core/controller/controller.h"

#include "core/cache/indexer.h"
#include "core/cache/keys.h"
#include "core/controller/findingsstore.h"
#include "core/controller/processlog.h"
#include "core/workqueue/defaultcontrollerratelimiter.h"
#include "core/workqueue/ratelimitingqueue.h"

#include <QThread>

#include <exception>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
// The controller's informer handler: every notification becomes its object's key in the queue.
// It holds the queue, not the controller, so a notification that arrives while the controller
// is being destroyed only meets a queue that rejects it.
class EnqueueingHandler final : public ResourceEventHandler
{
public:
    explicit EnqueueingHandler(std::shared_ptr<RateLimitingQueue> queue)
        : m_queue(std::move(queue))
    {
    }

    void onAdd(const KubeObject &object, bool isInInitialList) override
    {
        Q_UNUSED(isInInitialList)
        m_queue->add(metaNamespaceKey(object));
    }
    // A resync delivers the same object twice; queueing it anyway is the point of a resync.
    void onUpdate(const KubeObject &oldObject, const KubeObject &newObject) override
    {
        Q_UNUSED(oldObject)
        m_queue->add(metaNamespaceKey(newObject));
    }
    // A tombstone gives the key the object was known under, as client-go's
    // DeletionHandlingMetaNamespaceKeyFunc does.
    void onDelete(const DeltaObject &object) override { m_queue->add(deletionHandlingMetaNamespaceKey(object)); }

private:
    const std::shared_ptr<RateLimitingQueue> m_queue;
};
} // namespace

Controller::Controller(
    SharedIndexInformer *informer, std::shared_ptr<ProcessFunction> function, const ControllerSettings &settings, std::shared_ptr<Clock> clock, QObject *parent)
    : Controller(informer, &informer->indexer(), std::move(function), settings, std::move(clock), parent)
{
}

Controller::Controller(
    const Indexer *indexer, std::shared_ptr<ProcessFunction> function, const ControllerSettings &settings, std::shared_ptr<Clock> clock, QObject *parent)
    : Controller(nullptr, indexer, std::move(function), settings, std::move(clock), parent)
{
}

Controller::Controller(SharedIndexInformer *informer,
                       const Indexer *indexer,
                       std::shared_ptr<ProcessFunction> function,
                       const ControllerSettings &settings,
                       std::shared_ptr<Clock> clock,
                       QObject *parent)
    : QObject(parent)
    , m_informer(informer)
    , m_indexer(indexer)
    , m_function(std::move(function))
    , m_settings(settings)
    , m_queue(std::make_shared<RateLimitingQueue>(defaultControllerRateLimiter(clock, settings.baseDelay, settings.maxDelay, settings.qps, settings.burst),
                                                  clock,
                                                  m_function->name(),
                                                  settings.eventCapacity))
    , m_log(std::make_unique<ProcessLog>(settings.eventCapacity))
    , m_findings(new FindingsStore(this))
    , m_handler(std::make_shared<EnqueueingHandler>(m_queue))
{
    Q_ASSERT(m_indexer);
    Q_ASSERT(m_function);
}

Controller::~Controller()
{
    stop();
}

void Controller::start()
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_state != State::Idle) {
        return;
    }
    const int workers = std::max(1, m_settings.workers);
    m_workers.reserve(static_cast<size_t>(workers));
    for (int worker = 0; worker < workers; ++worker) {
        m_workers.emplace_back([this, worker] { workerLoop(worker); });
    }
    // Workers first: the initial adds a handler gets on registration are processed at once.
    if (m_informer) {
        const std::chrono::milliseconds resync = m_settings.resyncPeriod;
        m_registration = m_informer->addEventHandler(m_handler, resync);
    }
    setState(State::Running);
}

void Controller::pause()
{
    if (m_state != State::Running) {
        return;
    }
    {
        const std::lock_guard lock(m_gateMutex);
        m_paused = true;
    }
    setState(State::Paused);
}

void Controller::resume()
{
    if (m_state != State::Paused) {
        return;
    }
    {
        const std::lock_guard lock(m_gateMutex);
        m_paused = false;
    }
    m_gate.notify_all();
    setState(State::Running);
}

void Controller::stop()
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_state == State::Stopped) {
        return;
    }
    beginStop();
    if (m_drainer.joinable()) {
        m_drainer.join();
    } else {
        drainAndJoin();
    }
    setState(State::Stopped);
}

void Controller::stopAsync()
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_state == State::Stopped || m_state == State::Draining) {
        return;
    }
    beginStop();
    setState(State::Draining);
    m_drainer = std::thread([this] {
        drainAndJoin();
        // Back on the controller's thread; dropped if the controller is destroyed first (its
        // destructor joins this thread through stop()).
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_state == State::Draining) {
                    m_drainer.join();
                    setState(State::Stopped);
                }
            },
            Qt::QueuedConnection);
    });
}

void Controller::beginStop()
{
    if (m_informer && m_registration.isValid()) {
        m_informer->removeEventHandler(m_registration);
        m_registration = {};
    }
    {
        const std::lock_guard lock(m_gateMutex);
        m_stopping = true;
        m_paused = false;
    }
    // A paused controller drains too: held and queued keys are processed before the workers end.
    m_gate.notify_all();
}

void Controller::drainAndJoin()
{
    m_queue->shutDownWithDrain();
    for (std::thread &worker : m_workers) {
        worker.join();
    }
    m_workers.clear();
}

void Controller::enqueue(const QString &key)
{
    m_queue->add(key);
}

QueueMetrics Controller::metrics() const
{
    return m_queue->metrics();
}

std::shared_ptr<QueueEventLog> Controller::eventLog() const
{
    return m_queue->eventLog();
}

Controller::Counters Controller::counters() const
{
    Counters counters;
    counters.processed = m_processed.load();
    counters.succeeded = m_succeeded.load();
    counters.retried = m_retried.load();
    counters.gaveUp = m_gaveUp.load();
    counters.dropped = m_dropped.load();
    return counters;
}

void Controller::setState(State state)
{
    if (m_state != state) {
        m_state = state;
        Q_EMIT stateChanged(state);
    }
}

void Controller::waitWhilePaused()
{
    std::unique_lock lock(m_gateMutex);
    m_gate.wait(lock, [this] { return !m_paused || m_stopping; });
}

void Controller::workerLoop(int worker)
{
    for (;;) {
        const std::optional<QString> key = m_queue->get(worker);
        if (!key) {
            return;
        }
        // get() cannot be interrupted, so pausing happens here, with the key taken: it stays
        // "processing" for the queue (no other worker can take it) until resume(). Waiting
        // before get() as well would not spare this (an idle worker is already inside get())
        // and would make the number of keys held while paused depend on timing.
        waitWhilePaused();
        processKey(*key, worker);
    }
}

void Controller::processKey(const QString &key, int worker)
{
    ProcessRecord record;
    record.key = key;
    record.worker = worker;
    record.attempt = m_queue->numRequeues(key);
    const KubeObject object = m_indexer->getByKey(key);
    const Clock &clock = *m_queue->clock();
    record.started = clock.now();
    ProcessResult result;
    // A process function must not throw; if one does anyway, the worker survives and the key is
    // dropped rather than retried forever.
    try {
        result = m_function->process(key, object, ProcessContext{worker, record.attempt});
    } catch (const std::exception &e) {
        result = ProcessResult::error(u"process function threw: %1"_s.arg(QString::fromLocal8Bit(e.what())), false);
    } catch (...) {
        result = ProcessResult::error(u"process function threw"_s, false);
    }
    record.finished = clock.now();

    if (!result.isError()) {
        if (object.isValid()) {
            m_findings->setFindings(key, result.findings);
        } else {
            m_findings->remove(key);
        }
        m_queue->forget(key);
        record.outcome = ProcessOutcome::Succeeded;
        record.findings = static_cast<int>(result.findings.size());
        ++m_succeeded;
    } else {
        if (!object.isValid()) {
            m_findings->remove(key);
        }
        record.message = result.message;
        if (!result.retryable) {
            m_queue->forget(key);
            record.outcome = ProcessOutcome::Dropped;
            ++m_dropped;
        } else if (record.attempt < m_settings.maxRetries) {
            m_queue->addRateLimited(key);
            record.outcome = ProcessOutcome::Retrying;
            ++m_retried;
        } else {
            m_queue->forget(key);
            record.outcome = ProcessOutcome::GaveUp;
            ++m_gaveUp;
            Q_EMIT gaveUp(key, result.message);
        }
    }
    m_log->append(record);
    ++m_processed;
    m_queue->done(key);
}

} // namespace Cachescope
