#include "core/record/replaywatchsession_p.h"

#include "core/record/replayplayer_p.h"

#include <QPointer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// Enough to keep a fast replay from emitting one signal per event, small enough that the
// reflector's queue and the event loop keep up.
constexpr qsizetype MaxBatch = 500;

} // namespace

ReplayWatchSession::ReplayWatchSession(std::shared_ptr<ReplayPlayer> player)
    : m_player(std::move(player))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &ReplayWatchSession::deliver);
}

ReplayWatchSession::~ReplayWatchSession() = default;

void ReplayWatchSession::start()
{
    // Asynchronous, as a real watch: the reflector connects to the session after watch() returns.
    m_timer.start(0);
}

void ReplayWatchSession::endAt(const ApiError &error)
{
    m_timer.disconnect(this);
    connect(&m_timer, &QTimer::timeout, this, [this, error] { finish(error); });
    m_timer.start(0);
}

void ReplayWatchSession::stop()
{
    m_stopped = true;
    m_timer.stop();
}

void ReplayWatchSession::finish(const ApiError &error)
{
    if (m_stopped) {
        return;
    }
    m_stopped = true;
    Q_EMIT ended(error);
}

void ReplayWatchSession::deliver()
{
    if (m_stopped) {
        return;
    }
    using Kind = RecordedInput::Kind;
    // The reflector may delete this session from a slot of its signals (closeWatch() after an
    // ERROR event or an end): nothing of `this` is touched after an emit that deleted it.
    const QPointer<ReplayWatchSession> self(this);
    const std::shared_ptr<ReplayPlayer> player = m_player;
    QList<ObjectEvent> batch;
    const auto flush = [&] {
        if (!batch.isEmpty()) {
            Q_EMIT eventsReceived(std::exchange(batch, {}));
        }
        return self && !m_stopped;
    };
    while (const RecordedInput *input = player->peek()) {
        if (input->kind == Kind::WatchEnded) {
            if (!flush()) {
                return;
            }
            const RecordedInput &ended = player->consume();
            // STOPPED: the recorder's reflector stopped this watch for a reason the replaying
            // one did not meet (the recording's own end): a clean end lets it go on.
            finish(ended.eventType == u"STOPPED"_s ? ApiError() : ended.error);
            player->checkFinished();
            return;
        }
        if (input->kind == Kind::List || input->kind == Kind::WatchOpened || input->kind == Kind::ListPage || input->kind == Kind::ListError) {
            // The recorded watch ended without a record of it: what follows is a list or
            // another watch, which the reflector asks for once this one ends.
            if (!flush()) {
                return;
            }
            const bool listsNext = input->kind != Kind::WatchOpened;
            finish(listsNext ? ApiError(ApiError::Kind::Http, u"the recording lists again here"_s, 410, u"Expired"_s) : ApiError());
            return;
        }
        const qint64 due = player->dueInMs(*input);
        if (due > 0 || batch.size() >= MaxBatch) {
            if (!flush()) {
                return;
            }
            m_timer.start(std::chrono::milliseconds(due));
            return;
        }
        const RecordedInput &next = player->consume();
        ObjectEvent event;
        bool error = false;
        switch (next.kind) {
        case Kind::WatchEvent:
            event.type = next.eventType == u"ADDED"_s ? ObjectEvent::Type::Added
                : next.eventType == u"DELETED"_s      ? ObjectEvent::Type::Deleted
                                                      : ObjectEvent::Type::Modified;
            event.object = next.object;
            break;
        case Kind::Bookmark:
            event.type = ObjectEvent::Type::Bookmark;
            event.object = next.object;
            break;
        case Kind::WatchError:
            error = true;
            if (next.eventType == u"MALFORMED"_s) {
                event.type = ObjectEvent::Type::Malformed;
                event.decodeError = next.error.message();
            } else {
                event.type = ObjectEvent::Type::Error;
                event.error = next.error;
            }
            break;
        default:
            break;
        }
        batch.append(event);
        if (error) {
            if (!flush()) {
                return;
            }
        }
    }
    flush();
    // The end of the recording (or the stop instant): the watch stays open and quiet, as a
    // live one with nothing to say.
    player->checkFinished();
}

} // namespace Cachescope
