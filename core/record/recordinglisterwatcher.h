#pragma once

#include "core/cache/informerfactory.h"
#include "core/cache/listerwatcher.h"
#include "core/cache/sharedindexinformer.h"

#include <functional>
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
// wrapper() is how a cluster is recorded, by `cachescope-cli record` and by the app alike: the
// InformerFactory wrapper that registers each informer the factory makes with the queue (its
// key, and the queue kind and streaming lists of the options the factory gives it) and tees its
// ListerWatcher into it. It applies to informers made after it was set, and a recording must
// begin with each informer's list (or streaming list), so a cluster is recorded from the start
// of its informers on.
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

    // wrapper() records into `queue` every informer made after it is set; `defaults` returns the
    // options the factory gives a new informer (InformerFactory::defaultOptions()), asked on the
    // factory's thread as each informer is made.
    [[nodiscard]] static InformerFactory::ListerWatcherWrapper wrapper(std::shared_ptr<RecordingQueue> queue,
                                                                       std::function<SharedIndexInformer::Options()> defaults);

private:
    std::unique_ptr<ListerWatcher> m_live;
    std::shared_ptr<RecordingQueue> m_queue;
    qint64 m_informerId;
};

} // namespace Cachescope
