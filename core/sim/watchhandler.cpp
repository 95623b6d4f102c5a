#include "core/sim/watchhandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/contentnegotiation.h"
#include "core/sim/objectstore.h"
#include "core/sim/pendingfault.h"
#include "core/sim/resourceselector.h"
#include "core/sim/watchsession.h"

#include <QRandomGenerator>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

WatchHandler::WatchHandler(ObjectStore *store, const Settings &settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
{
}

WatchHandler::~WatchHandler() = default;

int WatchHandler::watchCount() const
{
    int count = 0;
    for (const auto &sessions : m_watches)
        count += int(sessions.size());
    return count;
}

void WatchHandler::abortAll()
{
    const auto watches = m_watches;
    for (const auto &sessions : watches) {
        for (WatchSession *session : sessions)
            session->abortConnection();
    }
    m_watches.clear();
}

void WatchHandler::deliver(const StoreEventPtr &event)
{
    const auto it = m_watches.constFind(event->resource);
    if (it == m_watches.cend())
        return;
    // A copy: delivering may end a session (slow reader, truncation), which edits the list.
    const QList<WatchSession *> sessions = *it;
    for (WatchSession *session : sessions)
        session->deliver(event);
}

void WatchHandler::serve(const ApiCall &call, const ResourceSelector &selector, PendingFault &fault)
{
    const HttpRequest &request = call.request;
    const ResourceRoute &route = call.route;
    WatchSession::Options options;
    options.labels = selector.labels;
    options.fields = selector.fields;
    if (!route.name.isEmpty()) {
        // GET .../pods/NAME?watch=true is the old form of a single-object watch.
        options.fields = std::get<FieldSelector>(FieldSelector::parse(u"metadata.name="_s + route.name));
    }
    options.namespaceName = route.namespaceName;
    options.bookmarks = call.queryFlag(u"allowWatchBookmarks"_s);
    options.bookmarkIntervalMs = m_settings.bookmarkIntervalMs;
    options.bufferLimit = m_settings.bufferLimit;
    const ContentNegotiation::Representation representation = ContentNegotiation::of(request).representation;
    options.format = representation == ContentNegotiation::Representation::Table ? WatchSession::Format::Table
        : representation == ContentNegotiation::Representation::Metadata         ? WatchSession::Format::Metadata
                                                                                 : WatchSession::Format::Object;
    options.includeObject = ContentNegotiation::includeObject(request);
    const QString timeout = request.queryValue(u"timeoutSeconds"_s);
    if (!timeout.isEmpty()) {
        options.timeoutMs = int(qMin<qint64>(timeout.toLongLong(), 24 * 3600) * 1000);
    } else {
        // Without timeoutSeconds the apiserver picks minRequestTimeout (30 min) times a random
        // factor in [1, 2), so that watches of many clients do not all end at once.
        options.timeoutMs = 1800 * 1000 + int(QRandomGenerator::global()->bounded(1800 * 1000));
    }

    const QString rvParam = request.queryValue(u"resourceVersion"_s);
    const QString rvMatch = request.queryValue(u"resourceVersionMatch"_s);
    const bool sendInitialEvents = call.queryFlag(u"sendInitialEvents"_s);
    if (request.hasQuery(u"sendInitialEvents"_s)) {
        if (rvMatch != u"NotOlderThan") {
            call.sendError(ApiError::invalid(
                route.type, QString(), u"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"_s));
            return;
        }
        if (sendInitialEvents && !options.bookmarks) {
            call.sendError(ApiError::invalid(route.type, QString(), u"allowWatchBookmarks: Forbidden: sendInitialEvents requires allowWatchBookmarks=true"_s));
            return;
        }
    }

    auto *session = new WatchSession(
        call.exchange, route.type, options, [store = m_store] { return store->resourceVersion(); }, this);
    const QString resource = route.type.id();
    connect(session, &WatchSession::finished, this, [this, resource](WatchSession *finished) {
        if (finished->droppedForSlowness())
            ++m_slowWatchersDropped;
        m_watches[resource].removeOne(finished);
    });

    if (fault.take(FaultPlan::Fault::Gone)) {
        session->start({}, {}, false);
        session->fail(ApiError::expired(u"too old resource version: %1 (%2)"_s.arg(rvParam, QString::number(m_store->resourceVersion()))));
        return;
    }

    QList<ObjectPtr> initial;
    QList<StoreEventPtr> replay;
    const bool fromState = sendInitialEvents || rvParam.isEmpty() || rvParam == u"0";
    if (fromState) {
        // "Get state and start at most recent": synthetic ADDED events for what exists now.
        if (sendInitialEvents || !request.hasQuery(u"sendInitialEvents"_s))
            initial = m_store->list(route.type, route.namespaceName);
    } else {
        bool ok = false;
        const quint64 from = rvParam.toULongLong(&ok);
        if (!ok) {
            session->deleteLater();
            call.sendError(ApiError::badRequest(u"resourceVersion: Invalid value: \"%1\""_s.arg(rvParam)));
            return;
        }
        if (from > m_store->resourceVersion()) {
            // A version the store has not reached: a store rebuilt from a recording at an
            // earlier instant, or a restored etcd. The apiserver's watch cache waits 3 s for it,
            // then refuses it, asking to retry after 1 s (client-go retries ten times, then
            // relists from ""); the simulator's store only moves forward by its own writes, so it
            // refuses at once, and a recording asks for no retry (ApiServer::Settings).
            session->deleteLater();
            call.sendError(ApiError::tooLargeResourceVersion(from, m_store->resourceVersion(), m_settings.tooLargeRetryAfterSeconds));
            return;
        }
        const std::optional<QList<StoreEventPtr>> events = m_store->eventsAfter(from);
        if (!events) {
            // The 410 of a watch arrives as an ERROR event inside a 200 stream, as the
            // apiserver's watch cache sends it.
            session->start({}, {}, false);
            session->fail(ApiError::expired(u"too old resource version: %1 (%2)"_s.arg(from).arg(m_store->oldestResumableVersion() + 1)));
            return;
        }
        // The history holds every resource's events; a watch replays only its own.
        for (const StoreEventPtr &event : *events) {
            if (event->resource == resource) {
                replay.append(event);
            }
        }
    }
    m_watches[resource].append(session);
    if (fault.take(FaultPlan::Fault::Truncate))
        session->truncateNextFrame();
    session->start(initial, replay, sendInitialEvents, m_store->resourceVersion());
    if (!session->isFinished() && fault.take(FaultPlan::Fault::Stall))
        session->stall();
}

} // namespace Cachescope::Sim
