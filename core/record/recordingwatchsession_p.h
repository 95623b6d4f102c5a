#pragma once

#include "core/cache/listerwatcher.h"

#include <memory>

namespace Cachescope {

class RecordingQueue;

// RecordingWatchSession is the WatchSession a RecordingListerWatcher hands out: it owns the
// live session, appends each of its events and its end to the queue, then re-emits them
// unchanged. stop() records a `watch_ended` STOPPED (the reflector's decision, e.g. after an
// ERROR event) unless the stream had already ended. Lives on the live session's thread.
class RecordingWatchSession final : public WatchSession
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingWatchSession)

public:
    RecordingWatchSession(std::unique_ptr<WatchSession> live, std::shared_ptr<RecordingQueue> queue, qint64 informerId);
    ~RecordingWatchSession() override;

    void stop() override;

private:
    void onEvents(const QList<ObjectEvent> &events);
    void onEnded(const ApiError &error);

    std::unique_ptr<WatchSession> m_live;
    std::shared_ptr<RecordingQueue> m_queue;
    qint64 m_informerId;
    bool m_ended = false;
};

} // namespace Cachescope
