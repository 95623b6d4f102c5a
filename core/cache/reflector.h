#pragma once

#include "core/cache/backoff.h"
#include "core/cache/listerwatcher.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Cachescope {

class DeltaQueue;

// Reflector is client-go's Reflector (1.36): it keeps a DeltaQueue in step with the server by
// listing (a streaming list by default, or a paged list) and then watching from the last
// resourceVersion it saw.
//
// - Streaming list (useWatchList, on by default as client-go's WatchListClient since 1.35): a
//   watch with sendInitialEvents whose events up to the k8s.io/initial-events-end bookmark fill a
//   keyed temporary store (ADDED and MODIFIED put, DELETED removes), which then becomes one
//   DeltaQueue::replace(); the same stream goes on as the watch. A 429 or a connection error backs
//   off and streams again; an expired or too large resourceVersion streams again at once from ""
//   (the newest state); a stream the server closes before the bookmark streams again at once;
//   silence alone is no reason to give up (the watch's idle watchdog ends dead connections). Any
//   other error (the server refuses sendInitialEvents with 400/403/422/501…, an undecodable
//   object, a watch that ended in under 1 s with nothing) falls back to a paged list this round.
// - Paged list: resourceVersion "0" the first time (any, served from the server's cache), then
//   the last synced version, and "" (a consistent read) once the server said that version is too
//   old (410 Expired) or not there yet (504 ResourceVersionTooLarge, e.g. after an etcd restore).
//   Only "" and "0" lists are paged (limit = pageSize): a list at a specific version is asked for
//   whole so that the watch cache can answer it, unless the "0" list came back paged (no watch
//   cache). A continue token that expires mid-list falls back to one unpaged list. An item that
//   does not decode fails the whole list. A complete list becomes one DeltaQueue::replace().
// - The watch resumes from the last resourceVersion seen (events and bookmarks advance it),
//   asks for bookmarks, and ends after a random timeout in [minWatchTimeout, 2×minWatchTimeout].
//   A stream the server closes is reopened at once, unless it lasted under 1 s and delivered
//   nothing ("very short watch"): that is an error, and the reflector backs off and relists.
//   A broken connection or a 429 reopens it after a backoff; an undecodable object, a 410 Expired
//   or any other error relists after a backoff.
// - Backoff is client-go's: 800 ms doubling to 30 s with jitter, starting over every 2 minutes;
//   a server's Retry-After is honoured when longer.
// - Every resyncPeriod it calls DeltaQueue::resync() when shouldResync() agrees.
// - Status counts every list (relists: all but the first), every watch reopened (reconnects)
//   and every error, whatever path it took.
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
        bool useWatchList = true; // client-go's WatchListClient, on by default since 1.35
        std::chrono::milliseconds minWatchTimeout{5 * 60 * 1000};
        // A watch that ends cleanly sooner than this with nothing delivered is an error (client-go's
        // fixed second; tests on a loaded machine raise it).
        std::chrono::milliseconds veryShortWatch{1000};
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
        quint64 reconnects = 0; // watches (and streaming lists) reopened without a list before them
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
    // retryNow() ends a backoff at once: what was to be tried after it (a list, a watch) starts
    // now, and the backoff starts over at its initial delay. For whoever knows the server is
    // back (the user, a recording served again); client-go has no such call, and nothing else
    // here uses it. Nothing happens unless the reflector is backing off. Reflector's thread.
    void retryNow();

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
    // What follows a backoff: a new round (streaming or paged list), a watch, or the streaming list again.
    enum class Next { List, Watch, WatchList };

    void startRound();
    void startList();
    void requestPage(const ListOptions &options, bool fullListFallback);
    void onPage(const ListOptions &options, bool fullListFallback, const ObjectListPage &page);
    void finishList(const QList<KubeObject> &items, const QString &resourceVersion);
    void startWatchList();
    // watchListFailed() decides what a streaming list that ended with error does next.
    void watchListFailed(const ApiError &error);
    void fallBackToList(const ApiError &error);
    void startWatch();
    // openWatch() opens m_watch with a randomised timeout and counts it (and a reconnect unless a
    // list came just before).
    void openWatch(WatchOptions options);
    void onEvents(const QList<ObjectEvent> &events);
    void onWatchEnded(const ApiError &error);
    void closeWatch();
    // veryShortWatchError() is client-go's "very short watch": the watch just ended lasted under
    // a second and delivered nothing.
    std::optional<ApiError> veryShortWatchError() const;
    void reportError(const ApiError &error);
    void fail(const ApiError &error, Next next);
    void scheduleAfterBackoff(Next next, std::optional<std::chrono::seconds> retryAfter);
    void setState(State state);
    QString relistResourceVersion() const;
    bool isInitialEventsEnd(const KubeObject &bookmark) const;
    void applyToInitialStore(const ObjectEvent &event);

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
    std::unique_ptr<WatchSession> m_watch;
    QElapsedTimer m_watchStarted; // when m_watch was requested
    quint64 m_watchEvents = 0; // events (bookmarks included) m_watch delivered
    bool m_listedBeforeWatch = false; // the next watch follows a list: not a reconnect
    bool m_roundStarting = false; // the next watch (a streaming list) starts a round: not a reconnect
    bool m_running = false;
    bool m_lastSyncUnavailable = false;
    // The "0" list came back paged: the server has no watch cache, so every list is paged.
    bool m_paginatedResult = false;
    // Streaming list in progress: client-go's temporaryStore, keyed, in first-seen order. A
    // key's place in m_initialItems is kept when it is deleted (the item made invalid), for it
    // may be sent again.
    bool m_inWatchList = false;
    QHash<QString, qsizetype> m_initialIndex; // key -> 1 + its index in m_initialItems
    QList<KubeObject> m_initialItems;
    qsizetype m_initialCount = 0; // valid items in m_initialItems
    QList<KubeObject> m_pageItems;
    // Lists in flight carry this generation; answers of an older one are dropped.
    quint64 m_generation = 0;

    mutable QMutex m_statusMutex;
    Status m_status; // guarded by m_statusMutex
};

} // namespace Cachescope
