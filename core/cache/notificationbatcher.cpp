#include "core/cache/notificationbatcher.h"

#include "core/cache/keys.h"

#include <QHash>
#include <QMetaObject>
#include <QMutex>
#include <QMutexLocker>

#include <deque>

namespace Cachescope {

// Shared is what the handler and the batcher both reach; `owner` is cleared (under the mutex)
// when the batcher is destroyed, so a late handler call never touches a dead object.
struct NotificationBatcher::Shared
{
    mutable QMutex mutex;
    NotificationBatcher *owner = nullptr;
    NotificationBatcher::Mode mode = NotificationBatcher::Mode::Coalesce;
    qsizetype capacity = 100000;
    bool scheduled = false; // a flush is already asked for on the receiver's thread
    quint64 received = 0;
    quint64 dropped = 0;
    // Coalesce: the pending notification of each key, in first-change order; a slot emptied by
    // Add+Delete stays as an invalid entry (key empty) so the indexes of the others hold.
    QList<Notification> pending;
    QHash<QString, qsizetype> slotOfKey;
    // Every: in order.
    std::deque<Notification> stream;

    void coalesce(const Notification &notification);
    void append(const Notification &notification);
};

namespace {

Notification merged(const Notification &earlier, const Notification &later, bool *cancelled)
{
    using Type = Notification::Type;
    *cancelled = false;
    switch (earlier.type) {
    case Type::Add:
        if (later.type == Type::Delete) {
            *cancelled = true; // the receiver never saw it
            return {};
        }
        return Notification::add(later.key, later.object, earlier.isInInitialList);
    case Type::Update:
        if (later.type == Type::Update) {
            return Notification::update(later.key, earlier.oldObject, later.object);
        }
        if (later.type == Type::Delete) {
            return later;
        }
        // Update then Add cannot come from one informer; the Add wins as the newest state.
        return Notification::update(later.key, earlier.oldObject, later.object);
    case Type::Delete:
        if (later.type == Type::Delete) {
            return later;
        }
        // The receiver still has the object it knew before the delete: for it, a change.
        return Notification::update(later.key, earlier.object, later.object);
    }
    return later;
}

} // namespace

void NotificationBatcher::Shared::coalesce(const Notification &notification)
{
    const auto it = slotOfKey.constFind(notification.key);
    if (it == slotOfKey.cend()) {
        slotOfKey.insert(notification.key, pending.size());
        pending.append(notification);
        return;
    }
    bool cancelled = false;
    Notification &slot = pending[*it];
    slot = merged(slot, notification, &cancelled);
    if (cancelled) {
        slot = Notification();
        slotOfKey.erase(it);
    }
}

void NotificationBatcher::Shared::append(const Notification &notification)
{
    stream.push_back(notification);
    while (qsizetype(stream.size()) > capacity) {
        stream.pop_front();
        ++dropped;
    }
}

class NotificationBatcher::Handler final : public ResourceEventHandler
{
public:
    explicit Handler(std::shared_ptr<Shared> shared)
        : m_shared(std::move(shared))
    {
    }

    void onAdd(const KubeObject &object, bool isInInitialList) override { deliver(Notification::add(metaNamespaceKey(object), object, isInInitialList)); }
    void onUpdate(const KubeObject &oldObject, const KubeObject &newObject) override
    {
        deliver(Notification::update(metaNamespaceKey(newObject), oldObject, newObject));
    }
    void onDelete(const DeltaObject &object) override { deliver(Notification::remove(deletionHandlingMetaNamespaceKey(object), object)); }

private:
    void deliver(const Notification &notification)
    {
        QMutexLocker lock(&m_shared->mutex);
        if (m_shared->owner == nullptr) {
            return;
        }
        ++m_shared->received;
        if (m_shared->mode == Mode::Coalesce) {
            m_shared->coalesce(notification);
        } else {
            m_shared->append(notification);
        }
        if (!m_shared->scheduled) {
            m_shared->scheduled = true;
            // Queued to the batcher's thread; safe while the mutex keeps `owner` alive, and Qt
            // discards the call if the batcher is deleted before it runs.
            QMetaObject::invokeMethod(m_shared->owner, &NotificationBatcher::schedule, Qt::QueuedConnection);
        }
    }

    std::shared_ptr<Shared> m_shared;
};

NotificationBatcher::NotificationBatcher(Mode mode, QObject *parent)
    : QObject(parent)
    , m_mode(mode)
    , m_shared(std::make_shared<Shared>())
{
    m_shared->owner = this;
    m_shared->mode = mode;
    m_handler = std::make_shared<Handler>(m_shared);
    m_timer.setSingleShot(true);
    m_timer.setInterval(std::chrono::milliseconds(33));
    connect(&m_timer, &QTimer::timeout, this, &NotificationBatcher::flush);
}

NotificationBatcher::~NotificationBatcher()
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->owner = nullptr;
}

std::shared_ptr<ResourceEventHandler> NotificationBatcher::handler() const
{
    return m_handler;
}

std::chrono::milliseconds NotificationBatcher::interval() const
{
    return m_timer.intervalAsDuration();
}

void NotificationBatcher::setInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
}

qsizetype NotificationBatcher::capacity() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->capacity;
}

void NotificationBatcher::setCapacity(qsizetype capacity)
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->capacity = std::max<qsizetype>(1, capacity);
}

quint64 NotificationBatcher::received() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->received;
}

quint64 NotificationBatcher::dropped() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->dropped;
}

qsizetype NotificationBatcher::pending() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_mode == Mode::Coalesce ? m_shared->slotOfKey.size() : qsizetype(m_shared->stream.size());
}

void NotificationBatcher::schedule()
{
    // The first notification after a flush starts the timer; later ones join that batch, so
    // flushes are at least one interval apart however fast the informer goes.
    if (!m_timer.isActive()) {
        m_timer.start();
    }
}

void NotificationBatcher::flush()
{
    QList<Notification> batch;
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->scheduled = false;
        if (m_mode == Mode::Coalesce) {
            batch.reserve(m_shared->slotOfKey.size());
            for (Notification &notification : m_shared->pending) {
                if (!notification.key.isEmpty()) {
                    batch.append(std::move(notification));
                }
            }
            m_shared->pending.clear();
            m_shared->slotOfKey.clear();
        } else {
            batch.reserve(qsizetype(m_shared->stream.size()));
            for (Notification &notification : m_shared->stream) {
                batch.append(std::move(notification));
            }
            m_shared->stream.clear();
        }
    }
    m_timer.stop();
    if (!batch.isEmpty()) {
        Q_EMIT notificationsReady(batch);
    }
}

} // namespace Cachescope
