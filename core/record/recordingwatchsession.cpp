#include "core/record/recordingwatchsession_p.h"

#include "core/record/recordingqueue.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

RecordingWatchSession::RecordingWatchSession(std::unique_ptr<WatchSession> live, std::shared_ptr<RecordingQueue> queue, qint64 informerId)
    : m_live(std::move(live))
    , m_queue(std::move(queue))
    , m_informerId(informerId)
{
    connect(m_live.get(), &WatchSession::eventsReceived, this, &RecordingWatchSession::onEvents);
    connect(m_live.get(), &WatchSession::ended, this, &RecordingWatchSession::onEnded);
}

RecordingWatchSession::~RecordingWatchSession() = default;

void RecordingWatchSession::onEvents(const QList<ObjectEvent> &events)
{
    for (const ObjectEvent &event : events) {
        RecordedInput input;
        input.informerId = m_informerId;
        switch (event.type) {
        case ObjectEvent::Type::Added:
        case ObjectEvent::Type::Modified:
        case ObjectEvent::Type::Deleted:
            input.kind = RecordedInput::Kind::WatchEvent;
            input.eventType = event.type == ObjectEvent::Type::Added ? u"ADDED"_s : event.type == ObjectEvent::Type::Modified ? u"MODIFIED"_s : u"DELETED"_s;
            input.object = event.object;
            input.resourceVersion = event.object.resourceVersion();
            break;
        case ObjectEvent::Type::Bookmark:
            input.kind = RecordedInput::Kind::Bookmark;
            input.object = event.object;
            input.resourceVersion = event.object.resourceVersion();
            break;
        case ObjectEvent::Type::Error:
            input.kind = RecordedInput::Kind::WatchError;
            input.eventType = u"ERROR"_s;
            input.error = event.error;
            break;
        case ObjectEvent::Type::Malformed:
            input.kind = RecordedInput::Kind::WatchError;
            input.eventType = u"MALFORMED"_s;
            input.error = ApiError(ApiError::Kind::Decode, event.decodeError);
            break;
        }
        m_queue->append(std::move(input));
        if (event.type == ObjectEvent::Type::Error || event.type == ObjectEvent::Type::Malformed) {
            // The reflector stops the watch at an error and applies nothing after it in the
            // batch: neither does the recording.
            break;
        }
    }
    Q_EMIT eventsReceived(events);
}

void RecordingWatchSession::onEnded(const ApiError &error)
{
    m_ended = true;
    RecordedInput input;
    input.informerId = m_informerId;
    input.kind = RecordedInput::Kind::WatchEnded;
    input.error = error;
    m_queue->append(std::move(input));
    Q_EMIT ended(error);
}

void RecordingWatchSession::stop()
{
    if (!m_ended) {
        m_ended = true;
        RecordedInput input;
        input.informerId = m_informerId;
        input.kind = RecordedInput::Kind::WatchEnded;
        input.eventType = u"STOPPED"_s;
        m_queue->append(std::move(input));
    }
    m_live->disconnect(this);
    m_live->stop();
}

} // namespace Cachescope
