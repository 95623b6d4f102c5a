#include "core/util/backgroundpool.h"

#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace Cachescope {

QThreadPool *backgroundPool()
{
    static QThreadPool pool;
    return &pool;
}

namespace {

// Pieces is the work of one inParallel() call, shared with the pool threads that join it late.
struct Pieces
{
    qsizetype count = 0;
    qsizetype piece = 0;
    qsizetype total = 0; // pieces
    std::function<void(qsizetype, qsizetype)> work;
    std::atomic<qsizetype> next{0}; // the next piece to claim
    std::mutex mutex;
    std::condition_variable allDone;
    qsizetype done = 0; // under mutex

    // runPieces() claims and does pieces until none is left.
    void runPieces()
    {
        for (qsizetype index = next.fetch_add(1); index < total; index = next.fetch_add(1)) {
            const qsizetype begin = index * piece;
            work(begin, std::min(count, begin + piece));
            const std::lock_guard lock(mutex);
            if (++done == total) {
                allDone.notify_all();
            }
        }
    }
};

} // namespace

void inParallel(qsizetype count, qsizetype piece, const std::function<void(qsizetype begin, qsizetype end)> &work)
{
    if (count <= 0) {
        return;
    }
    piece = std::max<qsizetype>(1, piece);
    auto pieces = std::make_shared<Pieces>();
    pieces->count = count;
    pieces->piece = piece;
    pieces->total = (count + piece - 1) / piece;
    pieces->work = work;
    QThreadPool *pool = backgroundPool();
    const qsizetype helpers = std::min<qsizetype>(pieces->total - 1, pool->maxThreadCount());
    for (qsizetype i = 0; i < helpers; ++i) {
        // A helper that starts after the last piece was claimed finds nothing to do.
        if (!pool->tryStart([pieces] { pieces->runPieces(); })) {
            break;
        }
    }
    pieces->runPieces();
    std::unique_lock lock(pieces->mutex);
    pieces->allDone.wait(lock, [&pieces] { return pieces->done == pieces->total; });
}

} // namespace Cachescope
