#pragma once

#include "core/cache/notification.h"
#include "core/cache/resourceeventhandler.h"

#include <QMutex>
#include <QWaitCondition>

#include <chrono>
#include <deque>
#include <memory>
#include <thread>

namespace Cachescope {

// ProcessorListener is client-go's processorListener: one registered handler with its own
// unbounded buffer and its own delivery thread, so that a slow handler never blocks the
// informer, its store or the other handlers. add() never blocks (beyond a short lock);
// notifications reach the handler in the order they were added.
//
// It tracks the notifications that belong to the initial list so that hasSynced() of its
// registration becomes true only once the handler has *returned* from all of them.
// Thread: add() from the informer's processing thread; the handler runs on the listener's
// thread; counters from any thread. stop() joins the thread (what is still buffered is dropped).
class ProcessorListener
{
public:
    // requestedResyncPeriod is what the handler asked for (after the 1 s floor); resyncPeriod is
    // what applies (0 when the informer does not resync), as client-go's processorListener keeps.
    ProcessorListener(std::shared_ptr<ResourceEventHandler> handler, std::chrono::milliseconds requestedResyncPeriod, std::chrono::milliseconds resyncPeriod);
    ~ProcessorListener();
    Q_DISABLE_COPY_MOVE(ProcessorListener)

    void add(const Notification &notification);
    void stop();

    // backlog() is the number of notifications buffered and not yet delivered.
    qsizetype backlog() const;
    quint64 delivered() const;
    // pendingInitial() counts initial-list notifications not yet delivered.
    qsizetype pendingInitial() const;
    const ResourceEventHandler *handler() const { return m_handler.get(); }

    // Resync bookkeeping, used by the informer on its resync check and under its lock.
    std::chrono::milliseconds requestedResyncPeriod() const { return m_requestedResyncPeriod; }
    std::chrono::milliseconds resyncPeriod() const { return m_resyncPeriod; }
    void setResyncPeriod(std::chrono::milliseconds resyncPeriod) { m_resyncPeriod = resyncPeriod; }
    bool shouldResync(std::chrono::steady_clock::time_point now) const;
    void determineNextResync(std::chrono::steady_clock::time_point now);

private:
    void run();
    void deliver(const Notification &notification);

    std::shared_ptr<ResourceEventHandler> m_handler;
    const std::chrono::milliseconds m_requestedResyncPeriod;
    std::chrono::milliseconds m_resyncPeriod;
    std::chrono::steady_clock::time_point m_nextResync;

    mutable QMutex m_mutex;
    QWaitCondition m_wake;
    std::deque<Notification> m_buffer; // guarded by m_mutex
    qsizetype m_pendingInitial = 0; // guarded by m_mutex
    quint64 m_delivered = 0; // guarded by m_mutex
    bool m_stopping = false; // guarded by m_mutex
    std::thread m_thread;
};

} // namespace Cachescope
