#pragma once

#include "core/cache/listerwatcher.h"

#include <QTimer>

#include <memory>

namespace Cachescope {

class ReplayPlayer;

// ReplayWatchSession is a watch of a ReplayListerWatcher: it hands the player's events,
// bookmarks and errors over as they fall due, in batches of what is due at once, and ends where
// the recorded watch ended (with the recorded error, or none). A batch ends after an error
// event, since the reflector stops the watch there. Lives on the replay's thread.
class ReplayWatchSession final : public WatchSession
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReplayWatchSession)

public:
    explicit ReplayWatchSession(std::shared_ptr<ReplayPlayer> player);
    ~ReplayWatchSession() override;

    void stop() override;
    // endAt() ends the session with `error` as soon as the event loop runs.
    void endAt(const ApiError &error);
    void start();

private:
    void deliver();
    void finish(const ApiError &error);

    std::shared_ptr<ReplayPlayer> m_player;
    QTimer m_timer{this};
    bool m_stopped = false;
};

} // namespace Cachescope
