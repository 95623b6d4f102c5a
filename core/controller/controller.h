#pragma once

#include "core/cache/sharedindexinformer.h"
#include "core/controller/controllersettings.h"
#include "core/controller/processfunction.h"
#include "core/workqueue/queuemetrics.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace Cachescope {

class FindingsStore;
class Indexer;
class ProcessLog;
class QueueEventLog;
class RateLimitingQueue;

// Controller is the seed's custom controller, runnable on any informer: a ResourceEventHandler
// that queues the key (`ns/name`) of every added, updated, deleted and resynced object into a
// RateLimitingQueue, and N worker threads that loop get → process → done, calling a
// ProcessFunction with the object the informer's indexer holds for the key (invalid when it is
// gone). On success the key is forgotten and its findings go to findings() (no findings, or a
// deleted object, clears them); on a retryable error it is addRateLimited() while its
// numRequeues() is below maxRetries, then forgotten and given up on (gaveUp()); a non-retryable
// error forgets it at once. Always done(). The queue guarantees that no key is processed by two
// workers at once.
//
// Lifecycle: start() registers the handler (with the settings' resync period) and starts the
// workers; pause() stops processing while the handler keeps queueing: each worker takes at most
// one more key and holds it, unprocessed (the queue counts it as processing), until resume();
// stop() removes the handler, shuts the queue down with drain and joins the
// workers: every key queued before stop() is processed, keys waiting in rate-limit backoff are
// dropped (as client-go's ShutDownWithDrain does). stopAsync() does the same without blocking
// its caller (the GUI): the state is Draining while a helper thread drains and joins, then
// Stopped. A stopped controller stays stopped, its findings, logs and metrics still readable.
// Observability: metrics() and eventLog() are the queue's (Got and Done carry the worker id,
// 0 … workers-1), processLog() the attempts with their errors, counters() the totals. (This
// header does not include the queue's: core/workqueue's RateLimiter and core/kube's share a
// name, so a file that includes the kube client can still use a Controller.)
//
// Threads: the Controller lives on the thread that made it (start/pause/resume/stop are called
// there; stateChanged() is emitted there). Workers are std::threads; gaveUp() is emitted on a
// worker thread (connect with a context object to receive it queued). stop() (and so the
// destructor, also of a controller still Draining) blocks until the keys in flight are
// processed: as long as the slowest process() call in progress.
// Ownership: the informer (or indexer) is not owned and must outlive the controller; the process
// function is shared; the queue and the findings store are owned, the queue shared with the
// informer's handler so that a notification delivered during stop() stays harmless.
class Controller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Controller)

public:
    enum class State : quint8 {
        Idle,
        Running,
        Paused,
        Draining, // stopAsync() was called; queued keys are still being processed
        Stopped,
    };
    Q_ENUM(State)

    struct Counters
    {
        quint64 processed = 0; // attempts finished
        quint64 succeeded = 0;
        quint64 retried = 0; // failures sent back through the rate limiter
        quint64 gaveUp = 0; // failures at maxRetries
        quint64 dropped = 0; // non-retryable failures
    };

    // A controller on an informer: its handler is registered at start().
    Controller(SharedIndexInformer *informer,
               std::shared_ptr<ProcessFunction> function,
               const ControllerSettings &settings,
               std::shared_ptr<Clock> clock = {},
               QObject *parent = nullptr);
    // A controller on a bare indexer: no handler, keys come from enqueue() only (tests, replay).
    Controller(const Indexer *indexer,
               std::shared_ptr<ProcessFunction> function,
               const ControllerSettings &settings,
               std::shared_ptr<Clock> clock = {},
               QObject *parent = nullptr);
    // Stops (and so blocks like stop()) when still running.
    ~Controller() override;

    void start();
    void pause();
    void resume();
    void stop();
    void stopAsync();

    // enqueue() adds a key by hand, as the handler does (e.g. a "process again" action).
    void enqueue(const QString &key);

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] QString name() const { return m_function->name(); }
    [[nodiscard]] const ControllerSettings &settings() const { return m_settings; }
    [[nodiscard]] RateLimitingQueue &queue() const { return *m_queue; }
    // sharedQueue() is the same queue, for observers that hold it weakly (the pipeline view).
    [[nodiscard]] std::shared_ptr<RateLimitingQueue> sharedQueue() const { return m_queue; }
    [[nodiscard]] QueueMetrics metrics() const;
    [[nodiscard]] std::shared_ptr<QueueEventLog> eventLog() const;
    [[nodiscard]] FindingsStore *findings() const { return m_findings; }
    [[nodiscard]] ProcessLog &processLog() const { return *m_log; }
    [[nodiscard]] Counters counters() const;
    // The handler's registration, for its hasSynced(); invalid before start() and without informer.
    [[nodiscard]] const SharedIndexInformer::Registration &registration() const { return m_registration; }

Q_SIGNALS:
    void stateChanged(Cachescope::Controller::State state);
    // gaveUp() is emitted on the worker's thread when a key failed maxRetries times.
    void gaveUp(const QString &key, const QString &message);

private:
    Controller(SharedIndexInformer *informer,
               const Indexer *indexer,
               std::shared_ptr<ProcessFunction> function,
               const ControllerSettings &settings,
               std::shared_ptr<Clock> clock,
               QObject *parent);

    void workerLoop(int worker);
    void waitWhilePaused();
    void processKey(const QString &key, int worker);
    void setState(State state);
    // beginStop() removes the handler and opens the pause gate for good; drainAndJoin() shuts the
    // queue down with drain and joins the workers (blocking).
    void beginStop();
    void drainAndJoin();

    SharedIndexInformer *const m_informer; // not owned, may be null
    const Indexer *const m_indexer; // not owned
    const std::shared_ptr<ProcessFunction> m_function;
    const ControllerSettings m_settings;
    const std::shared_ptr<RateLimitingQueue> m_queue;
    const std::unique_ptr<ProcessLog> m_log;
    FindingsStore *const m_findings; // owned (child)
    std::shared_ptr<ResourceEventHandler> m_handler;
    SharedIndexInformer::Registration m_registration;
    State m_state = State::Idle;

    std::mutex m_gateMutex;
    std::condition_variable m_gate; // workers wait on it while paused
    bool m_paused = false; // guarded by m_gateMutex
    bool m_stopping = false; // guarded by m_gateMutex

    std::atomic<quint64> m_processed{0};
    std::atomic<quint64> m_succeeded{0};
    std::atomic<quint64> m_retried{0};
    std::atomic<quint64> m_gaveUp{0};
    std::atomic<quint64> m_dropped{0};

    std::vector<std::thread> m_workers;
    std::thread m_drainer; // stopAsync()'s: runs drainAndJoin()
};

} // namespace Cachescope
