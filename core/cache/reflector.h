#pragma once

#include "core/cache/backoff.h"
#include "core/cache/listerwatcher.h"

#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Cachescope {

class DeltaQueue;

// Reflector is client-go's Reflector: it keeps a DeltaQueue in step with the server by listing
// (paged, or as a streaming list) and then watching from the last resourceVersion it saw.
//
// - The list asks for resourceVersion "0" the first time (any, served from the server's
//   cache), then the last synced version, and "" (a consistent read) once the server said that
//   version is too old. A continue token that expires mid-list falls back to one unpaged list.
//   A complete list becomes one DeltaQueue::replace().
// - The watch resumes from the last resourceVersion seen (events and bookmarks advance it),
//   asks for bookmarks, and ends after a random timeout in [minWatchTimeout, 2×minWatchTimeout].
//   A stream the server closes is reopened at once; a broken connection, a 429 or a malformed
//   frame reopens it after a backoff; a 410 Expired (or any other error) relists after a backoff.
// - Backoff is client-go's: 800 ms doubling to 30 s with jitter, reset after 2 healthy minutes;
//   a server's Retry-After is honoured when longer.
// - With useWatchList, the list is a streaming list (sendInitialEvents) whose stream then goes
//   on as the watch; when the server does not support it (an error, or no initial-events-end
//   bookmark within initialEventsTimeout of silence), that round falls back to a plain list.
// - Every resyncPeriod it calls DeltaQueue::resync() when shouldResync() agrees.
//
// Thread: lives on the thread of its ListerWatcher (the cluster's network thread); start() and
// stop() are called there. status() may be read from any thread. Ownership: the ListerWatcher
// and the DeltaQueue are not owned and must outlive it, unless handed over with adopt().
class Reflector final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Reflector)

public:
    enum class State { Stopped, Listing, Watching, BackingOff };
    Q_ENUM(State)

    struct Options
    {
        QString name; // what it reflects, for the UI ("pods", "deployments.apps")
        qint64 pageSize = 500;
        std::chrono::milliseconds resyncPeriod{0}; // 0 = no resync
        std::function<bool()> shouldResync; // empty = always
        bool useWatchList = false;
        std::chrono::milliseconds initialEventsTimeout{10000};
        std::chrono::milliseconds minWatchTimeout{5 * 60 * 1000};
        Backoff::Parameters backoff;
        quint32 seed = 0; // 0 = random; tests fix it
    };

    // Status is a snapshot for the pipeline view and the CLI's summary.
    struct Status
    {
        State state = State::Stopped;
        QString lastSyncResourceVersion;
        bool synced = false; // the first list has been handed to the queue
        quint64 lists = 0; // complete lists (the first one and every relist)
        quint64 relists = 0; // lists after the first
        quint64 watchesOpened = 0;
        quint64 reconnects = 0; // watches reopened after a broken stream or a retriable error
        quint64 events = 0; // watch events applied (bookmarks excluded)
        quint64 bookmarks = 0;
        quint64 errors = 0; // list and watch errors, malformed frames included
        qint64 itemsListed = 0; // items of the list in progress so far
        std::optional<qint64> remainingItemCount; // as the server last said
        bool usingWatchList = false;
        ApiError lastError;
        // While BackingOff: when the next attempt is due (ms since the epoch), so a view can say
        // "retrying in N s"; 0 otherwise.
        qint64 retryAtMs = 0;
    };

    Reflector(ListerWatcher *listerWatcher, DeltaQueue *queue, const Options &options, QObject *parent = nullptr);
    ~Reflector() override;

    void start();
    void stop();

    // adopt() makes the reflector own its ListerWatcher and keep `keepAlive` (what owns its
    // DeltaQueue) until it is deleted, so it can be deleted later on its own thread.
    void adopt(std::unique_ptr<ListerWatcher> listerWatcher, std::shared_ptr<void> keepAlive);

    [[nodiscard]] Status status() const;
    QString name() const { return m_options.name; }

Q_SIGNALS:
    void stateChanged(Cachescope::Reflector::State state);
    // listProgress() reports items received so far and what the server says remains (-1 unknown).
    void listProgress(qint64 itemsSoFar, qint64 remaining);
    // synced() is emitted once, when the first complete list has been queued.
    void synced();
    // errorOccurred() reports every list or watch error (client-go's WatchErrorHandler).
    void errorOccurred(const Cachescope::ApiError &error);

private:
    enum class Next { List, Watch };

    void startRound();
    void startList();
    void requestPage(const ListOptions &options, bool fullListFallback);
    void onPage(const ListOptions &options, bool fullListFallback, const ObjectListPage &page);
    void finishList(const QList<KubeObject> &items, const QString &resourceVersion);
    void startWatchList();
    void startWatch();
    // openWatch() opens m_watch with a randomised timeout and counts it.
    void openWatch(WatchOptions options);
    void onEvents(const QList<ObjectEvent> &events);
    void onWatchEnded(const ApiError &error);
    void closeWatch();
    void reportError(const ApiError &error);
    void fail(const ApiError &error, Next next);
    void scheduleAfterBackoff(Next next, std::optional<std::chrono::seconds> retryAfter);
    void setState(State state);
    QString relistResourceVersion() const;
    bool isInitialEventsEnd(const KubeObject &bookmark) const;

    // Declared first so they are destroyed last, after the watch session they made.
    std::shared_ptr<void> m_keepAlive;
    std::unique_ptr<ListerWatcher> m_ownedListerWatcher;
    ListerWatcher *m_listerWatcher; // not owned, unless adopted
    DeltaQueue *m_queue; // not owned
    Options m_options;
    Backoff m_backoff;
    QRandomGenerator m_random;
    // Children of the reflector, so they follow it to the network thread when it is
    // moveToThread()'d (SharedIndexInformer makes it on its own thread): a timer left behind on
    // the old thread never fires there ("Timers cannot be started from another thread"), and a
    // reflector waiting out a backoff would wait forever.
    QTimer m_retryTimer{this};
    QTimer m_resyncTimer{this};
    QTimer m_initialEventsTimer{this};
    std::unique_ptr<WatchSession> m_watch;
    bool m_running = false;
    bool m_lastSyncUnavailable = false;
    // Streaming list in progress: the initial events gathered so far.
    bool m_inWatchList = false;
    QList<KubeObject> m_initialEvents;
    QList<KubeObject> m_pageItems;
    // Lists in flight carry this generation; answers of an older one are dropped.
    quint64 m_generation = 0;

    mutable QMutex m_statusMutex;
    Status m_status; // guarded by m_statusMutex
};

} // namespace Cachescope
