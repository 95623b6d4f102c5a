#pragma once

#include "core/record/recordedinformer.h"
#include "core/record/recordedinput.h"

#include <QElapsedTimer>
#include <QList>
#include <QMutex>

#include <atomic>

namespace Cachescope {

// RecordingQueue is where recording ListerWatchers put what their reflectors see, for a
// RecordingWriter to take and write: append() stamps each input with the next seq, the
// monotonic time since the queue was made and the wall clock, under one lock, so seq order is
// the order the inputs happened in (each informer's inputs come from its one network thread).
// It never blocks on the disk, so recording does not slow the live informers; once closed
// (the writer stopped, or failed), appends are dropped at the cost of one atomic load.
//
// Thread-safe. Shared (std::shared_ptr) by the writer and every RecordingListerWatcher, so
// that either may go first.
class RecordingQueue
{
    Q_DISABLE_COPY_MOVE(RecordingQueue)

public:
    RecordingQueue();

    // addInformer() registers an informer and returns its id (from 1); the writer writes it
    // before any of its inputs.
    qint64 addInformer(RecordedInformer informer);
    void append(RecordedInput input);
    // take() hands over everything appended since the last take(), informers first. The list
    // `inputs` held before, emptied, is what append() fills next: its capacity is kept, so the
    // list does not grow again from nothing in every commit interval (moving every input at each
    // doubling, on the informers' threads). Memory: two lists of the largest batch taken so far.
    void take(QList<RecordedInformer> *informers, QList<RecordedInput> *inputs);

    void close() { m_closed.store(true); }
    bool isClosed() const { return m_closed.load(); }
    // appended() is the seq of the last input appended.
    qint64 appended() const { return m_appended.load(); }
    qint64 startedWallMs() const { return m_startedWallMs; }

private:
    mutable QMutex m_mutex;
    QElapsedTimer m_clock;
    qint64 m_startedWallMs = 0;
    qint64 m_nextInformer = 1;
    QList<RecordedInformer> m_informers; // guarded by m_mutex
    QList<RecordedInput> m_inputs; // guarded by m_mutex
    std::atomic<qint64> m_appended{0};
    std::atomic<bool> m_closed{false};
};

} // namespace Cachescope
