#pragma once

#include "core/cache/notification.h"
#include "core/cache/resourceeventhandler.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <memory>

namespace Cachescope {

// NotificationBatcher is the Qt adaptor between an informer and a receiver on another thread
// (an item model on the GUI thread): register handler() with SharedIndexInformer::
// addEventHandler(), connect to notificationsReady(). Instead of one queued signal per event,
// notifications are gathered on the handler's delivery thread and handed over in batches, at
// most once per interval() (33 ms by default: about 30 flushes a second, below what a user can
// tell from live and far below what would keep a 100k-row view repainting).
//
// Two modes:
// - Coalesce (for tables): per key, only the net change since the last flush is delivered, in
//   the order keys first changed. Add+Update → Add of the newest; Add+Delete → nothing;
//   Update+Update → one Update from the first old to the last new; Update+Delete → Delete;
//   Delete+Add → Update from the deleted object to the new one. Memory is bounded by the number
//   of keys that changed within one interval.
// - Every (for the event stream): every notification in order, bounded by capacity(): when the
//   receiver falls behind, the oldest pending notifications are dropped and counted (dropped()).
//
// Threads: the batcher lives on the receiver's thread and emits there. The handler may be called
// from any thread (one at a time, as informers do) and may outlive the batcher: once the batcher
// is gone, it drops what it is given. Ownership: the batcher is a QObject owned by its parent;
// the handler is shared with the informer.
class NotificationBatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NotificationBatcher)

public:
    enum class Mode { Coalesce, Every };

    explicit NotificationBatcher(Mode mode, QObject *parent = nullptr);
    ~NotificationBatcher() override;

    Mode mode() const { return m_mode; }
    std::shared_ptr<ResourceEventHandler> handler() const;

    std::chrono::milliseconds interval() const;
    void setInterval(std::chrono::milliseconds interval);
    // capacity() bounds the pending notifications in Every mode (default 100000).
    qsizetype capacity() const;
    void setCapacity(qsizetype capacity);

    // received() counts notifications given to the handler; dropped() those lost to the capacity.
    [[nodiscard]] quint64 received() const;
    [[nodiscard]] quint64 dropped() const;
    // pending() is how many notifications wait for the next flush (after coalescing).
    qsizetype pending() const;

    // flush() delivers what is pending now (nothing is emitted when nothing is pending).
    void flush();

Q_SIGNALS:
    void notificationsReady(const QList<Cachescope::Notification> &batch);

private:
    class Handler;
    struct Shared;

    void schedule();

    Mode m_mode;
    std::shared_ptr<Shared> m_shared;
    std::shared_ptr<Handler> m_handler;
    QTimer m_timer;
};

} // namespace Cachescope
