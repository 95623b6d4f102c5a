#pragma once

#include "core/cache/listerwatcher.h"

#include <memory>

namespace Cachescope {

class RecordingQueue;

// RecordingListerWatcher is a ListerWatcher that records: it passes every call to the live
// ListerWatcher it wraps and every answer back unchanged, and on the way appends what the
// reflector asked for and got to a RecordingQueue, in the order the reflector sees it: a
// `list` for each list that starts (a request without a continue token), each page or list
// error before the reflector gets it, `watch_opened`, then each event, bookmark and error of
// the stream before the reflector gets the batch, and `watch_ended` when the stream ends or
// the reflector stops it. Relists and reconnects are not guessed here: they are what the
// sequence shows (a list after a watch, a watch after a watch).
//
// Thread: called on the thread of the live ListerWatcher (the cluster's worker thread), as
// any ListerWatcher. Ownership: owns the live ListerWatcher; shares the queue with the writer,
// so recording stops quietly (appends dropped) when the writer closes it.
class RecordingListerWatcher final : public ListerWatcher
{
public:
    RecordingListerWatcher(std::unique_ptr<ListerWatcher> live, std::shared_ptr<RecordingQueue> queue, qint64 informerId);
    ~RecordingListerWatcher() override;

    void list(const ListOptions &options, QObject *context, ListCallback done) override;
    [[nodiscard]] std::unique_ptr<WatchSession> watch(const WatchOptions &options) override;

    qint64 informerId() const { return m_informerId; }

private:
    std::unique_ptr<ListerWatcher> m_live;
    std::shared_ptr<RecordingQueue> m_queue;
    qint64 m_informerId;
};

} // namespace Cachescope
