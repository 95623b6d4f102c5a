#include "core/cache/reflector.h"

#include "core/cache/deltaqueue.h"
#include "core/cache/keys.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Reflector::Reflector(ListerWatcher *listerWatcher, DeltaQueue *queue, const Options &options, QObject *parent)
    : QObject(parent)
    , m_listerWatcher(listerWatcher)
    , m_queue(queue)
    , m_options(options)
    , m_backoff(options.backoff, {}, options.seed)
    , m_random(options.seed ? options.seed + 1 : QRandomGenerator::global()->generate())
{
    m_retryTimer.setSingleShot(true);
    // A coarse timer may fire 5 % early, which would break a server's Retry-After.
    m_retryTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_resyncTimer, &QTimer::timeout, this, [this] {
        if (!m_options.shouldResync || m_options.shouldResync()) {
            m_queue->resync();
        }
    });
}

Reflector::~Reflector()
{
    stop();
}

void Reflector::adopt(std::unique_ptr<ListerWatcher> listerWatcher, std::shared_ptr<void> keepAlive)
{
    Q_ASSERT(!listerWatcher || listerWatcher.get() == m_listerWatcher);
    m_ownedListerWatcher = std::move(listerWatcher);
    m_keepAlive = std::move(keepAlive);
}

void Reflector::start()
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_running) {
        return;
    }
    m_running = true;
    if (m_options.resyncPeriod.count() > 0) {
        m_resyncTimer.start(m_options.resyncPeriod);
    }
    startRound();
}

void Reflector::stop()
{
    Q_ASSERT(thread() == QThread::currentThread());
    m_running = false;
    ++m_generation;
    m_retryTimer.stop();
    m_retryTimer.disconnect(this);
    m_resyncTimer.stop();
    closeWatch();
    setState(State::Stopped);
}

Reflector::Status Reflector::status() const
{
    QMutexLocker locker(&m_statusMutex);
    return m_status;
}

void Reflector::startRound()
{
    m_roundStarting = true;
    if (m_options.useWatchList) {
        startWatchList();
    } else {
        startList();
    }
}

QString Reflector::relistResourceVersion() const
{
    // client-go's relistResourceVersion(): "" after the server said our version is too old,
    // "0" before anything was synced (any version will do, the server may answer from its
    // cache), else the last version seen so the list is not older than what we had.
    if (m_lastSyncUnavailable) {
        return {};
    }
    const QString last = status().lastSyncResourceVersion;
    return last.isEmpty() ? u"0"_s : last;
}

void Reflector::startList()
{
    setState(State::Listing);
    m_pageItems.clear();
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.itemsListed = 0;
        m_status.remainingItemCount.reset();
        m_status.usingWatchList = false;
    }
    ListOptions options;
    options.resourceVersion = relistResourceVersion();
    // client-go's reflector.list(): a list at a specific version is not paged, so that the
    // apiserver's watch cache can answer it (paged lists go to etcd, and a relisting fleet would
    // stampede it); "" is a consistent read and "0" is served whole by the watch cache anyway.
    // Once the "0" list came back paged there is no watch cache, and paging stays on.
    const bool specificVersion = !options.resourceVersion.isEmpty() && options.resourceVersion != u"0"_s;
    options.limit = specificVersion && !m_paginatedResult ? 0 : m_options.pageSize;
    requestPage(options, false);
}

void Reflector::requestPage(const ListOptions &options, bool fullListFallback)
{
    const quint64 generation = ++m_generation;
    m_listerWatcher->list(options, this, [this, options, fullListFallback, generation](const ObjectListPage &page) {
        if (generation != m_generation || !m_running) {
            return;
        }
        onPage(options, fullListFallback, page);
    });
}

void Reflector::onPage(const ListOptions &options, bool fullListFallback, const ObjectListPage &page)
{
    ApiError error = page.error;
    if (!error.isError() && page.malformedItems > 0) {
        // client-go cannot decode such a list at all and fails it. Skipping the item instead
        // would make the replace() report it deleted.
        error = ApiError(ApiError::Kind::Decode, u"%1 item(s) of the list could not be decoded"_s.arg(page.malformedItems));
    }
    if (error.isError()) {
        if (error.isExpired() && !options.continueToken.isEmpty() && !fullListFallback) {
            // The continue token expired between pages (client-go's pager): the pages so far
            // belong to a snapshot that is gone, so take the whole list in one request.
            m_pageItems.clear();
            ListOptions full;
            full.resourceVersion = relistResourceVersion();
            requestPage(full, true);
            return;
        }
        if ((error.isExpired() || error.isTooLargeResourceVersion()) && !m_lastSyncUnavailable) {
            // Our resourceVersion is older than the server keeps, or newer than it has (etcd
            // restored from a backup): list the current state, at once.
            m_lastSyncUnavailable = true;
            reportError(error);
            startList();
            return;
        }
        fail(error, Next::List);
        return;
    }
    if (options.resourceVersion == u"0"_s && !page.continueToken.isEmpty()) {
        m_paginatedResult = true;
    }
    m_pageItems.append(page.items);
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.itemsListed = m_pageItems.size();
        m_status.remainingItemCount = page.remainingItemCount;
    }
    Q_EMIT listProgress(m_pageItems.size(), page.remainingItemCount.value_or(-1));
    if (!page.continueToken.isEmpty()) {
        ListOptions nextPage = options;
        nextPage.resourceVersion.clear();
        nextPage.resourceVersionMatch.clear();
        nextPage.continueToken = page.continueToken;
        requestPage(nextPage, fullListFallback);
        return;
    }
    const QList<KubeObject> items = std::exchange(m_pageItems, {});
    finishList(items, page.resourceVersion);
    startWatch();
}

void Reflector::finishList(const QList<KubeObject> &items, const QString &resourceVersion)
{
    m_queue->replace(items, resourceVersion);
    m_lastSyncUnavailable = false;
    m_listedBeforeWatch = true;
    bool first = false;
    {
        QMutexLocker locker(&m_statusMutex);
        first = !m_status.synced;
        m_status.synced = true;
        ++m_status.lists;
        if (!first) {
            ++m_status.relists;
        }
        m_status.lastSyncResourceVersion = resourceVersion;
        m_status.itemsListed = items.size();
        m_status.remainingItemCount = 0;
    }
    if (first) {
        Q_EMIT synced();
    }
}

void Reflector::startWatchList()
{
    setState(State::Listing);
    closeWatch();
    m_inWatchList = true;
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.itemsListed = 0;
        m_status.remainingItemCount.reset();
        m_status.usingWatchList = true;
    }
    WatchOptions options;
    options.sendInitialEvents = true;
    options.allowWatchBookmarks = true;
    // client-go's rewatchResourceVersion(): "" (the newest state, consistent) the first time and
    // once the last version is unavailable, else not older than what we had.
    options.resourceVersion = m_lastSyncUnavailable ? QString() : status().lastSyncResourceVersion;
    openWatch(options);
}

void Reflector::watchListFailed(const ApiError &error)
{
    closeWatch();
    reportError(error);
    if (error.isExpired() || error.isTooLargeResourceVersion()) {
        // client-go streams again at once from "": the newest state, which cannot be too old.
        m_lastSyncUnavailable = true;
        startWatchList();
        return;
    }
    if (error.code() == 429 || error.kind() == ApiError::Kind::Network || error.kind() == ApiError::Kind::Timeout) {
        // The server is busy or out of reach, not refusing streaming lists: stream again later.
        scheduleAfterBackoff(Next::WatchList, error.retryAfter());
        return;
    }
    fallBackToList(error);
}

void Reflector::fallBackToList(const ApiError &error)
{
    // client-go: "making progress is better than deadlocking": anything else (the server refuses
    // sendInitialEvents, an object that does not decode, a very short watch) lists the classic
    // way this round; the next round streams again.
    Q_UNUSED(error)
    closeWatch();
    startList();
}

void Reflector::startWatch()
{
    closeWatch();
    m_inWatchList = false;
    WatchOptions options;
    options.resourceVersion = status().lastSyncResourceVersion;
    options.allowWatchBookmarks = true;
    openWatch(options);
    setState(State::Watching);
}

void Reflector::openWatch(WatchOptions options)
{
    // A random timeout in [min, 2×min] spreads the watches of many clients, as client-go does.
    options.timeoutSeconds =
        static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(m_options.minWatchTimeout).count() * (1.0 + m_random.generateDouble()));
    // A reconnect is a watch opened again within a round: not the first of a round, and not the
    // one that follows a list.
    const bool roundStarting = std::exchange(m_roundStarting, false);
    const bool listedBefore = std::exchange(m_listedBeforeWatch, false);
    const bool reconnect = !roundStarting && !listedBefore;
    m_watchEvents = 0;
    m_watchStarted.start();
    m_watch = m_listerWatcher->watch(options);
    connect(m_watch.get(), &WatchSession::eventsReceived, this, &Reflector::onEvents);
    connect(m_watch.get(), &WatchSession::ended, this, &Reflector::onWatchEnded);
    QMutexLocker locker(&m_statusMutex);
    ++m_status.watchesOpened;
    if (reconnect) {
        ++m_status.reconnects;
    }
}

bool Reflector::isInitialEventsEnd(const KubeObject &bookmark) const
{
    const QJsonObject annotations = QJsonDocument::fromJson(bookmark.json()).object().value(u"metadata"_s).toObject().value(u"annotations"_s).toObject();
    return annotations.value(u"k8s.io/initial-events-end"_s).toString() == u"true"_s;
}

void Reflector::applyToInitialStore(const ObjectEvent &event)
{
    // client-go's temporaryStore: the state as of the stream so far, by key. Before the bookmark
    // the server may already send changes (a MODIFIED or DELETED of an object it streamed).
    // One lookup per event: a key's place is that of its first arrival, kept for a key
    // deleted and sent again (a set of seen keys, a list of them and a hash of the objects were
    // three lookups and two more copies of each key).
    const QString key = metaNamespaceKey(event.object);
    if (event.type == ObjectEvent::Type::Deleted) {
        const qsizetype place = m_initialIndex.value(key);
        if (place > 0 && m_initialItems[place - 1].isValid()) {
            m_initialItems[place - 1] = KubeObject();
            --m_initialCount;
        }
        return;
    }
    qsizetype &place = m_initialIndex[key];
    if (place == 0) {
        m_initialItems.append(event.object);
        place = m_initialItems.size();
        ++m_initialCount;
        return;
    }
    KubeObject &item = m_initialItems[place - 1];
    m_initialCount += item.isValid() ? 0 : 1;
    item = event.object;
}

void Reflector::onEvents(const QList<ObjectEvent> &events)
{
    if (!m_running) {
        return;
    }
    quint64 applied = 0;
    quint64 bookmarks = 0;
    QString resourceVersion;
    const auto commitCounts = [&] {
        QMutexLocker locker(&m_statusMutex);
        m_status.events += applied;
        m_status.bookmarks += bookmarks;
        if (m_inWatchList) {
            m_status.itemsListed = m_initialCount;
        }
        if (!resourceVersion.isEmpty()) {
            m_status.lastSyncResourceVersion = resourceVersion;
        }
        applied = 0;
        bookmarks = 0;
        resourceVersion.clear();
    };
    for (const ObjectEvent &event : events) {
        ++m_watchEvents;
        switch (event.type) {
        case ObjectEvent::Type::Added:
        case ObjectEvent::Type::Modified:
        case ObjectEvent::Type::Deleted:
            if (m_inWatchList) {
                applyToInitialStore(event);
                ++applied;
                break;
            }
            if (event.type == ObjectEvent::Type::Added) {
                m_queue->add(event.object);
            } else if (event.type == ObjectEvent::Type::Modified) {
                m_queue->update(event.object);
            } else {
                m_queue->remove(event.object);
            }
            ++applied;
            resourceVersion = event.object.resourceVersion();
            break;
        case ObjectEvent::Type::Bookmark:
            ++bookmarks;
            if (m_inWatchList) {
                if (isInitialEventsEnd(event.object)) {
                    commitCounts();
                    m_inWatchList = false;
                    QList<KubeObject> initial = std::exchange(m_initialItems, {});
                    if (m_initialCount != initial.size()) {
                        initial.removeIf([](const KubeObject &object) { return !object.isValid(); });
                    }
                    m_initialIndex.clear();
                    m_initialCount = 0;
                    finishList(initial, event.object.resourceVersion());
                    // The stream goes on as the watch: what follows is not a reconnect.
                    m_listedBeforeWatch = false;
                    setState(State::Watching);
                }
                break;
            }
            resourceVersion = event.object.resourceVersion();
            break;
        case ObjectEvent::Type::Error:
        case ObjectEvent::Type::Malformed: {
            commitCounts();
            // An object that does not decode is an error of the watch (client-go's StreamWatcher
            // turns it into an ERROR event): resuming at the same resourceVersion would meet
            // it again forever, so the reflector relists.
            const ApiError error = event.type == ObjectEvent::Type::Malformed
                ? ApiError(ApiError::Kind::Decode, u"an event of the watch could not be decoded: "_s + event.decodeError)
                : event.error;
            if (m_inWatchList) {
                watchListFailed(error);
                return;
            }
            closeWatch();
            fail(error, error.code() == 429 ? Next::Watch : Next::List);
            return;
        }
        }
    }
    commitCounts();
}

std::optional<ApiError> Reflector::veryShortWatchError() const
{
    if (m_watchEvents == 0 && m_watchStarted.isValid() && m_watchStarted.elapsed() < m_options.veryShortWatch.count()) {
        return ApiError(ApiError::Kind::Network, u"very short watch: the watch closed after less than a second with no items received"_s);
    }
    return std::nullopt;
}

void Reflector::onWatchEnded(const ApiError &error)
{
    if (!m_running) {
        return;
    }
    const std::optional<ApiError> veryShort = error.isError() ? std::nullopt : veryShortWatchError();
    if (m_inWatchList) {
        if (error.isError()) {
            watchListFailed(error);
        } else if (veryShort) {
            closeWatch();
            reportError(*veryShort);
            fallBackToList(*veryShort);
        } else {
            // The server closed the stream before the bookmark (its timeout): stream again.
            startWatchList();
        }
        return;
    }
    closeWatch();
    if (veryShort) {
        // client-go: a watch that closes at once with nothing is an error, not a reason to
        // reconnect in a hot loop; back off and relist.
        fail(*veryShort, Next::List);
        return;
    }
    if (!error.isError()) {
        // The server closed the stream (its timeout): resume at once.
        startWatch();
        return;
    }
    if (error.isExpired()) {
        fail(error, Next::List);
        return;
    }
    const bool retriable = error.kind() == ApiError::Kind::Network || error.kind() == ApiError::Kind::Timeout || error.code() == 429;
    fail(error, retriable ? Next::Watch : Next::List);
}

void Reflector::closeWatch()
{
    // A streaming list lives and dies with its watch.
    m_inWatchList = false;
    m_initialIndex.clear();
    m_initialItems.clear();
    m_initialCount = 0;
    if (m_watch) {
        m_watch->disconnect(this);
        m_watch->stop();
        m_watch.reset();
    }
}

void Reflector::reportError(const ApiError &error)
{
    {
        QMutexLocker locker(&m_statusMutex);
        ++m_status.errors;
        m_status.lastError = error;
    }
    Q_EMIT errorOccurred(error);
}

void Reflector::fail(const ApiError &error, Next next)
{
    reportError(error);
    scheduleAfterBackoff(next, error.retryAfter());
}

void Reflector::retryNow()
{
    if (!m_running || !m_retryTimer.isActive()) {
        return;
    }
    m_backoff.reset();
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.retryAtMs = QDateTime::currentMSecsSinceEpoch();
    }
    m_retryTimer.start(0); // what the timer was to do, now
}

void Reflector::scheduleAfterBackoff(Next next, std::optional<std::chrono::seconds> retryAfter)
{
    auto delay = m_backoff.next();
    if (retryAfter && *retryAfter > delay) {
        delay = std::chrono::duration_cast<std::chrono::milliseconds>(*retryAfter);
    }
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.retryAtMs = QDateTime::currentMSecsSinceEpoch() + delay.count();
    }
    setState(State::BackingOff);
    m_retryTimer.disconnect(this);
    connect(&m_retryTimer, &QTimer::timeout, this, [this, next] {
        if (!m_running) {
            return;
        }
        if (next == Next::Watch) {
            startWatch();
        } else if (next == Next::WatchList) {
            startWatchList();
        } else {
            startRound();
        }
    });
    m_retryTimer.start(delay);
}

void Reflector::setState(State state)
{
    {
        QMutexLocker locker(&m_statusMutex);
        if (m_status.state == state) {
            return;
        }
        m_status.state = state;
        if (state != State::BackingOff) {
            m_status.retryAtMs = 0;
        }
    }
    Q_EMIT stateChanged(state);
}

} // namespace Cachescope
