#pragma once

#include "core/cache/listerwatcher.h"

#include <functional>
#include <memory>
#include <optional>

namespace Cachescope {

class RecordingReader;
class ReplayPlayer;

// ReplayListerWatcher is a ListerWatcher over a recording: one recorded informer's inputs,
// handed to a reflector again so that the same Reflector → queue → SharedIndexInformer stack
// rebuilds the cache as it was, with its relists and reconnects. Replayed lists answer with the
// recorded pages (a recorded streaming list answers as one list: its initial events, in order),
// watches stream the recorded events, bookmarks and errors and end where the recorded ones
// ended, so the reflector relists or resumes as it did. It keeps its own RecordedCache of what
// it handed over: when the reflector asks for something the recording does not hold at that
// point (a list where a watch follows, after a decision that depended on time) the answer is
// that state in one page, so the cache stays what the recording says. A list asked for after
// the recording's end (or past stopSeq) is not answered.
//
// Options: startSeq replays from the state after that input (the first list answers with it,
// rebuilt from the nearest checkpoint; a list in progress then is replayed from its start);
// without it, from the beginning. stopSeq holds everything after that input back. speed is the
// recorded pace times N (0: as fast as the reflector takes it; a reflector that backs off still
// waits its backoff). The replaying informer must use plain lists (Reflector::Options::
// useWatchList false).
//
// Thread: made on any thread (it reads the recording, on that thread, in the constructor; its
// inputs are then in memory) and called on one thread, like any ListerWatcher. position() and
// isFinished() may be read from any thread. Cost: the informer's inputs and their objects are
// held in memory for the replay's life.
class ReplayListerWatcher final : public ListerWatcher
{
public:
    struct Options
    {
        std::optional<qint64> startSeq;
        qint64 stopSeq = -1; // -1: none
        double speed = 1.0;
    };

    ReplayListerWatcher(const RecordingReader &reader, qint64 informerId, const Options &options);
    ~ReplayListerWatcher() override;

    void list(const ListOptions &options, QObject *context, ListCallback done) override;
    [[nodiscard]] std::unique_ptr<WatchSession> watch(const WatchOptions &options) override;

    // position() is the seq of the last input handed to the reflector (0: none yet).
    qint64 position() const;
    // isFinished() is true once every input up to stopSeq (or the recording's end) was handed over.
    bool isFinished() const;
    // setFinishedCallback() is called once, on the replay's thread, when isFinished() turns true.
    void setFinishedCallback(std::function<void()> callback);
    // inputCount() is how many inputs the replay holds (from its start on).
    qsizetype inputCount() const;

private:
    std::shared_ptr<ReplayPlayer> m_player;
};

} // namespace Cachescope
