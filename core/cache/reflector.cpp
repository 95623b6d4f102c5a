#include "core/cache/reflector.h"

#include "core/cache/deltaqueue.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

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
    m_initialEventsTimer.setSingleShot(true);
    connect(&m_initialEventsTimer, &QTimer::timeout, this, [this] {
        // The server sent nothing for a while inside a streaming list: it most likely ignores
        // sendInitialEvents (older than 1.27), so this round lists the classic way.
        closeWatch();
        m_inWatchList = false;
        m_initialEvents.clear();
        startList();
    });
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
    m_initialEventsTimer.stop();
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
    options.limit = m_options.pageSize;
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
    if (page.error.isError()) {
        if (page.error.isExpired() && !options.continueToken.isEmpty() && !fullListFallback) {
            // The continue token expired between pages (client-go's pager): the pages so far
            // belong to a snapshot that is gone, so take the whole list in one request.
            m_pageItems.clear();
            ListOptions full;
            full.resourceVersion = relistResourceVersion();
            requestPage(full, true);
            return;
        }
        if (page.error.isExpired() && !m_lastSyncUnavailable) {
            // Our resourceVersion is older than the server keeps: list the current state.
            m_lastSyncUnavailable = true;
            reportError(page.error);
            startList();
            return;
        }
        fail(page.error, Next::List);
        return;
    }
    m_pageItems.append(page.items);
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.itemsListed = m_pageItems.size();
        m_status.remainingItemCount = page.remainingItemCount;
        m_status.errors += static_cast<quint64>(page.malformedItems);
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
    m_initialEvents.clear();
    {
        QMutexLocker locker(&m_statusMutex);
        m_status.itemsListed = 0;
        m_status.remainingItemCount.reset();
        m_status.usingWatchList = true;
    }
    WatchOptions options;
    options.sendInitialEvents = true;
    options.allowWatchBookmarks = true;
    options.resourceVersion = m_lastSyncUnavailable ? QString() : status().lastSyncResourceVersion;
    openWatch(options);
    m_initialEventsTimer.start(m_options.initialEventsTimeout);
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
    m_watch = m_listerWatcher->watch(options);
    connect(m_watch.get(), &WatchSession::eventsReceived, this, &Reflector::onEvents);
    connect(m_watch.get(), &WatchSession::ended, this, &Reflector::onWatchEnded);
    QMutexLocker locker(&m_statusMutex);
    ++m_status.watchesOpened;
}

bool Reflector::isInitialEventsEnd(const KubeObject &bookmark) const
{
    const QJsonObject annotations = QJsonDocument::fromJson(bookmark.json()).object().value(u"metadata"_s).toObject().value(u"annotations"_s).toObject();
    return annotations.value(u"k8s.io/initial-events-end"_s).toString() == u"true"_s;
}

void Reflector::onEvents(const QList<ObjectEvent> &events)
{
    if (!m_running) {
        return;
    }
    if (m_inWatchList) {
        m_initialEventsTimer.start(m_options.initialEventsTimeout);
    }
    quint64 applied = 0;
    quint64 bookmarks = 0;
    QString resourceVersion;
    for (const ObjectEvent &event : events) {
        switch (event.type) {
        case ObjectEvent::Type::Added:
        case ObjectEvent::Type::Modified:
        case ObjectEvent::Type::Deleted:
            if (m_inWatchList) {
                // Before the initial-events-end bookmark only the current state arrives.
                if (event.type != ObjectEvent::Type::Deleted) {
                    m_initialEvents.append(event.object);
                }
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
            if (m_inWatchList && isInitialEventsEnd(event.object)) {
                m_initialEventsTimer.stop();
                m_inWatchList = false;
                finishList(std::exchange(m_initialEvents, {}), event.object.resourceVersion());
                setState(State::Watching);
                continue;
            }
            if (!m_inWatchList) {
                resourceVersion = event.object.resourceVersion();
            }
            break;
        case ObjectEvent::Type::Error:
        case ObjectEvent::Type::Malformed: {
            {
                QMutexLocker locker(&m_statusMutex);
                m_status.events += applied;
                m_status.bookmarks += bookmarks;
                if (!resourceVersion.isEmpty()) {
                    m_status.lastSyncResourceVersion = resourceVersion;
                }
            }
            const bool watchList = m_inWatchList;
            closeWatch();
            if (event.type == ObjectEvent::Type::Malformed) {
                // A frame we could not read may have been an event we now lack: resume from the
                // last version we applied, so the server sends it again.
                fail(ApiError(ApiError::Kind::Decode, event.decodeError), watchList ? Next::List : Next::Watch);
            } else if (watchList) {
                reportError(event.error);
                m_inWatchList = false;
                m_initialEvents.clear();
                if (event.error.isExpired()) {
                    m_lastSyncUnavailable = true;
                }
                startList();
            } else if (event.error.code() == 429) {
                fail(event.error, Next::Watch);
            } else {
                fail(event.error, Next::List);
            }
            return;
        }
        }
    }
    QMutexLocker locker(&m_statusMutex);
    m_status.events += applied;
    m_status.bookmarks += bookmarks;
    if (m_inWatchList) {
        m_status.itemsListed = m_initialEvents.size();
    }
    if (!resourceVersion.isEmpty()) {
        m_status.lastSyncResourceVersion = resourceVersion;
    }
}

void Reflector::onWatchEnded(const ApiError &error)
{
    if (!m_running) {
        return;
    }
    const bool watchList = m_inWatchList;
    closeWatch();
    if (watchList) {
        m_initialEventsTimer.stop();
        m_inWatchList = false;
        m_initialEvents.clear();
        if (error.isError()) {
            reportError(error);
        }
        // The streaming list did not complete: list the classic way this round.
        startList();
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
    // A streaming list lives and dies with its watch. Its initial-events timer must go with it:
    // left armed after an error or a malformed frame, it fired later and tore down the healthy
    // watch that followed (or listed in the middle of a backoff) for a needless relist.
    m_initialEventsTimer.stop();
    m_inWatchList = false;
    m_initialEvents.clear();
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
            {
                QMutexLocker locker(&m_statusMutex);
                ++m_status.reconnects;
            }
            startWatch();
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
