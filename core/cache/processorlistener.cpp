#include "core/cache/processorlistener.h"

namespace Cachescope {

ProcessorListener::ProcessorListener(std::shared_ptr<ResourceEventHandler> handler,
                                     std::chrono::milliseconds requestedResyncPeriod,
                                     std::chrono::milliseconds resyncPeriod)
    : m_handler(std::move(handler))
    , m_requestedResyncPeriod(requestedResyncPeriod)
    , m_resyncPeriod(resyncPeriod)
    , m_nextResync(std::chrono::steady_clock::now() + resyncPeriod)
{
    m_thread = std::thread([this] { run(); });
}

ProcessorListener::~ProcessorListener()
{
    stop();
}

void ProcessorListener::add(const Notification &notification)
{
    QMutexLocker locker(&m_mutex);
    if (m_stopping) {
        return;
    }
    if (notification.type == Notification::Type::Add && notification.isInInitialList) {
        ++m_pendingInitial;
    }
    m_buffer.push_back(notification);
    m_wake.wakeOne();
}

void ProcessorListener::stop()
{
    {
        QMutexLocker locker(&m_mutex);
        m_stopping = true;
        m_buffer.clear();
        m_wake.wakeAll();
    }
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

qsizetype ProcessorListener::backlog() const
{
    QMutexLocker locker(&m_mutex);
    return static_cast<qsizetype>(m_buffer.size());
}

quint64 ProcessorListener::delivered() const
{
    QMutexLocker locker(&m_mutex);
    return m_delivered;
}

qsizetype ProcessorListener::pendingInitial() const
{
    QMutexLocker locker(&m_mutex);
    return m_pendingInitial;
}

bool ProcessorListener::shouldResync(std::chrono::steady_clock::time_point now) const
{
    return m_resyncPeriod.count() > 0 && now >= m_nextResync;
}

void ProcessorListener::determineNextResync(std::chrono::steady_clock::time_point now)
{
    m_nextResync = now + m_resyncPeriod;
}

void ProcessorListener::run()
{
    QMutexLocker locker(&m_mutex);
    while (true) {
        while (m_buffer.empty() && !m_stopping) {
            m_wake.wait(&m_mutex);
        }
        if (m_stopping) {
            return;
        }
        const Notification notification = std::move(m_buffer.front());
        m_buffer.pop_front();
        locker.unlock();
        deliver(notification);
        locker.relock();
        ++m_delivered;
        // Counted down only after the handler returned: hasSynced() promises that the handler
        // has seen the whole initial list.
        if (notification.type == Notification::Type::Add && notification.isInInitialList) {
            --m_pendingInitial;
        }
    }
}

void ProcessorListener::deliver(const Notification &notification)
{
    switch (notification.type) {
    case Notification::Type::Add:
        m_handler->onAdd(notification.object, notification.isInInitialList);
        break;
    case Notification::Type::Update:
        m_handler->onUpdate(notification.oldObject, notification.object);
        break;
    case Notification::Type::Delete:
        if (notification.tombstone) {
            m_handler->onDelete(DeletedFinalStateUnknown{notification.key, notification.object});
        } else {
            m_handler->onDelete(notification.object);
        }
        break;
    }
}

} // namespace Cachescope
