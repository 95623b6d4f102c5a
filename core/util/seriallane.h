#pragma once

#include "core/util/backgroundpool.h"

#include <QList>
#include <QMetaObject>
#include <QMutex>
#include <QMutexLocker>
#include <QObject>
#include <QThreadPool>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace Cachescope {

// SerialLane takes work off a thread and gives its results back in order: items pushed on the
// receiver's thread are worked on by backgroundPool() threads, one run of them at a time (never
// two runs of a lane at once), and the results come back to the receiver's thread in batches,
// in the order the items were pushed. For a stream whose items are independent but whose order
// matters: a watch's events decoded into objects while the stream's thread reads and frames the
// next bytes (on one thread, framing and decoding took turns, and the other core idled).
//
// Ownership: create() returns the lane shared; its pool runs and its batches in flight hold it
// too. The receiver is not owned. Once close() has been called on the receiver's thread, or the
// receiver is destroyed, nothing more is delivered and pending items are dropped.
// Thread: push() and close() on the receiver's thread; work on pool threads (it must not throw
// and must be safe beside other lanes' work); deliver on the receiver's thread.
// Cost: one pool task and one posted event per batch of up to MaxBatch items. Items wait in a
// queue while the work is behind: the lane holds what its producer outpaces unless the producer
// looks at pendingCount().
template<typename In, typename Out>
class SerialLane final : public std::enable_shared_from_this<SerialLane<In, Out>>
{
    struct Private
    {
    };

public:
    using Work = std::function<Out(In &item)>;
    using Deliver = std::function<void(const QList<Out> &results)>;

    static constexpr qsizetype MaxBatch = 256;

    static std::shared_ptr<SerialLane> create(QObject *receiver, Work work, Deliver deliver)
    {
        auto lane = std::make_shared<SerialLane>(Private{}, receiver, std::move(work), std::move(deliver));
        // Direct: ~QObject emits destroyed() before it drops the events posted to it, so a batch
        // posted meanwhile is dropped with them and none is posted after.
        QObject::connect(receiver, &QObject::destroyed, [weak = std::weak_ptr<SerialLane>(lane)] {
            if (const auto alive = weak.lock()) {
                alive->close();
            }
        });
        return lane;
    }

    SerialLane(Private, QObject *receiver, Work work, Deliver deliver)
        : m_receiver(receiver)
        , m_work(std::move(work))
        , m_deliver(std::move(deliver))
    {
    }
    Q_DISABLE_COPY_MOVE(SerialLane)

    void push(In item)
    {
        const QMutexLocker locker(&m_mutex);
        if (!m_receiver) {
            return;
        }
        m_pending.push_back(std::move(item));
        if (!m_running) {
            m_running = true;
            schedule();
        }
    }

    void close()
    {
        const QMutexLocker locker(&m_mutex);
        m_receiver = nullptr;
        m_pending.clear();
    }

    // pendingCount() is how many pushed items no run has taken yet: a producer that outpaces the
    // work holds back above some count (a watch pauses reading its stream).
    [[nodiscard]] qsizetype pendingCount() const
    {
        const QMutexLocker locker(&m_mutex);
        return qsizetype(m_pending.size());
    }

    [[nodiscard]] bool isClosed() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_receiver == nullptr;
    }

private:
    // Called with m_mutex held.
    void schedule()
    {
        backgroundPool()->start([self = this->shared_from_this()] { self->run(); });
    }

    void run()
    {
        std::vector<In> batch;
        {
            const QMutexLocker locker(&m_mutex);
            const qsizetype count = std::min<qsizetype>(MaxBatch, qsizetype(m_pending.size()));
            batch.reserve(std::size_t(count));
            for (qsizetype i = 0; i < count; ++i) {
                batch.push_back(std::move(m_pending.front()));
                m_pending.pop_front();
            }
        }
        QList<Out> results;
        results.reserve(qsizetype(batch.size()));
        for (In &item : batch) {
            results.append(m_work(item));
        }
        const QMutexLocker locker(&m_mutex);
        if (!m_receiver) {
            m_running = false;
            return;
        }
        QMetaObject::invokeMethod(
            m_receiver,
            [self = this->shared_from_this(), results = std::move(results)] {
                if (!self->isClosed()) {
                    self->m_deliver(results);
                }
            },
            Qt::QueuedConnection);
        // The next run is queued behind the pool's other work rather than looping here: a long
        // stream does not hold a pool thread that a sort on the GUI thread is waiting to share.
        if (m_pending.empty()) {
            m_running = false;
        } else {
            schedule();
        }
    }

    mutable QMutex m_mutex;
    QObject *m_receiver; // not owned; null once closed (under m_mutex)
    std::deque<In> m_pending; // under m_mutex
    bool m_running = false; // a run is queued or going on (under m_mutex)
    const Work m_work;
    const Deliver m_deliver;
};

} // namespace Cachescope
