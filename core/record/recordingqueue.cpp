#include "core/record/recordingqueue.h"

#include <QDateTime>

namespace Cachescope {

RecordingQueue::RecordingQueue()
    : m_startedWallMs(QDateTime::currentMSecsSinceEpoch())
{
    m_clock.start();
}

qint64 RecordingQueue::addInformer(RecordedInformer informer)
{
    QMutexLocker locker(&m_mutex);
    informer.id = m_nextInformer++;
    m_informers.append(informer);
    return informer.id;
}

void RecordingQueue::append(RecordedInput input)
{
    if (m_closed.load()) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    const qint64 seq = m_appended.load() + 1;
    input.seq = seq;
    input.monoNs = m_clock.nsecsElapsed();
    input.wallMs = QDateTime::currentMSecsSinceEpoch();
    m_inputs.append(std::move(input));
    m_appended.store(seq);
}

void RecordingQueue::take(QList<RecordedInformer> *informers, QList<RecordedInput> *inputs)
{
    // Out of the lock: destroying the inputs of the last batch is the writer's time, not the
    // informers' wait.
    inputs->clear();
    QMutexLocker locker(&m_mutex);
    *informers = std::exchange(m_informers, {});
    inputs->swap(m_inputs);
}

} // namespace Cachescope
