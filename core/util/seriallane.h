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
#include <map>
#include <memory>
#include <vector>

namespace Cachescope {

// SerialLane takes work off a thread and gives its results back in order: items pushed on the
// receiver's thread are worked on by backgroundPool() threads in runs of up to MaxBatch, at most
// maxRuns runs at once (one by default: never two runs of a lane at once), and the results come
// back to the receiver's thread in batches, in the order the items were pushed, whichever run
// finished first. For a stream whose items are independent but whose order matters: a watch's
// events decoded into objects while the stream's thread reads and frames the next bytes (on one
// thread, framing and decoding took turns, and the other core idled; with one run at a time, the
// decoding of a list QNAM had already buffered kept one core of two).
//
// Ownership: create() returns the lane shared; its pool runs and its batches in flight hold it
// too. The receiver is not owned. Once close() has been called on the receiver's thread, or the
// receiver is destroyed, nothing more is delivered and pending items are dropped.
// Thread: push() and close() on the receiver's thread; work on pool threads (it must not throw,
// must be safe beside other lanes' work, and with maxRuns > 1 beside itself on other items);
// deliver on the receiver's thread.
// Cost: one pool task and one posted event per batch of up to MaxBatch items. Items wait in a
// queue while the work is behind: the lane holds what its producer outpaces unless the producer
// looks at pendingCount(). Results not yet delivered are bounded: no run starts while 2 x maxRuns
// batches are taken and not yet handed to the receiver (done out of order, or posted to a
// receiver that is busy), so the queue of items grows instead, where the producer sees it.
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

    static std::shared_ptr<SerialLane> create(QObject *receiver, Work work, Deliver deliver, int maxRuns = 1)
    {
        auto lane = std::make_shared<SerialLane>(Private{}, receiver, std::move(work), std::move(deliver), maxRuns);
        // Direct: ~QObject emits destroyed() before it drops the events posted to it, so a batch
        // posted meanwhile is dropped with them and none is posted after.
        QObject::connect(receiver, &QObject::destroyed, [weak = std::weak_ptr<SerialLane>(lane)] {
            if (const auto alive = weak.lock()) {
                alive->close();
            }
        });
        return lane;
    }

    SerialLane(Private, QObject *receiver, Work work, Deliver deliver, int maxRuns)
        : m_receiver(receiver)
        , m_maxRuns(std::max(1, maxRuns))
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
        scheduleWhileAllowed();
    }

    void close()
    {
        const QMutexLocker locker(&m_mutex);
        m_receiver = nullptr;
        m_pending.clear();
        m_done.clear();
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
    // Starts runs while items wait beyond what the runs already queued will take, fewer than
    // maxRuns are going, and the batches taken and not yet handed over, with one for each run
    // queued and not yet started, stay under 2 x maxRuns. Called with m_mutex held.
    void scheduleWhileAllowed()
    {
        while (m_receiver && qsizetype(m_pending.size()) > m_runs * MaxBatch && m_runs < m_maxRuns &&
               m_nextSequence - m_nextDelivery + quint64(m_queued) < quint64(2 * m_maxRuns)) {
            ++m_runs;
            ++m_queued;
            backgroundPool()->start([self = this->shared_from_this()] { self->run(); });
        }
    }

    void run()
    {
        std::vector<In> batch;
        quint64 sequence = 0;
        {
            const QMutexLocker locker(&m_mutex);
            --m_queued;
            if (m_pending.empty()) {
                --m_runs; // a run beside this one took the items
                return;
            }
            // The turn is taken with the items: runs queued together may start in any order.
            sequence = m_nextSequence++;
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
        --m_runs;
        if (!m_receiver) {
            return;
        }
        // Each run's results wait for the runs that took items before it.
        m_done.emplace(sequence, std::move(results));
        QMetaObject::invokeMethod(
            m_receiver, [self = this->shared_from_this()] { self->deliverDone(); }, Qt::QueuedConnection);
        // The next run is queued behind the pool's other work rather than looping here: a long
        // stream does not hold a pool thread that a sort on the GUI thread is waiting to share.
        scheduleWhileAllowed();
    }

    // On the receiver's thread: hands over, in order, every batch whose turn has come.
    void deliverDone()
    {
        QList<QList<Out>> ready;
        {
            const QMutexLocker locker(&m_mutex);
            while (m_receiver && !m_done.empty() && m_done.begin()->first == m_nextDelivery) {
                ready.append(std::move(m_done.begin()->second));
                m_done.erase(m_done.begin());
                ++m_nextDelivery;
            }
            scheduleWhileAllowed();
        }
        for (const QList<Out> &results : std::as_const(ready)) {
            // A receiver may close the lane as it reacts.
            if (isClosed()) {
                return;
            }
            m_deliver(results);
        }
    }

    mutable QMutex m_mutex;
    QObject *m_receiver; // not owned; null once closed (under m_mutex)
    const int m_maxRuns;
    std::deque<In> m_pending; // under m_mutex
    int m_runs = 0; // runs queued or going on (under m_mutex)
    int m_queued = 0; // runs queued that have not yet taken their items (under m_mutex)
    quint64 m_nextSequence = 0; // the turn of the next run to take items (under m_mutex)
    quint64 m_nextDelivery = 0; // the turn whose results are handed over next (under m_mutex)
    std::map<quint64, QList<Out>> m_done; // results waiting for their turn (under m_mutex)
    const Work m_work;
    const Deliver m_deliver;
};

} // namespace Cachescope
