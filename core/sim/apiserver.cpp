#include "core/sim/apiserver.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/contentnegotiation.h"
#include "core/sim/discovery.h"
#include "core/sim/httpexchange.h"
#include "core/sim/httpserver.h"
#include "core/sim/loghandler.h"
#include "core/sim/objectstore.h"
#include "core/sim/pendingfault.h"
#include "core/sim/resourceselector.h"
#include "core/sim/watchhandler.h"

#include <QPointer>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

ApiServer::ApiServer(ObjectStore *store, const ResourceCatalog *catalog, FaultPlan *faults, const Settings &settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_catalog(catalog)
    , m_faults(faults)
    , m_settings(settings)
    , m_authenticator(settings.authentication)
    , m_list(store, settings.continueTtlMs, settings.tooLargeRetryAfterSeconds)
    , m_watch(new WatchHandler(store, {settings.bookmarkIntervalMs, settings.watchBufferLimit, settings.tooLargeRetryAfterSeconds}, this))
    , m_get(store)
    , m_write(store, catalog)
    , m_patch(store)
    , m_delete(store, catalog)
    , m_scale(store)
    , m_logs(new LogHandler(store, settings.logSeed, settings.logLinePeriodMs, this))
{
    QPointer<WatchHandler> guard(m_watch);
    QPointer<LogHandler> logs(m_logs);
    m_store->addListener([guard, logs](const StoreEventPtr &event) {
        if (guard)
            guard->deliver(event);
        if (logs)
            logs->deliver(event);
    });
}

ApiServer::~ApiServer() = default;

void ApiServer::attach(HttpServer *server)
{
    connect(server, &HttpServer::requestReceived, this, &ApiServer::handle);
}

int ApiServer::watchCount() const
{
    return m_watch->watchCount();
}

int ApiServer::slowWatchersDropped() const
{
    return m_watch->slowWatchersDropped();
}

void ApiServer::simulateRestart()
{
    m_watch->abortAll();
    m_list.forgetContinueTokens();
    m_store->compactHistory();
}

void ApiServer::handle(HttpExchange *connection, const HttpRequest &request)
{
    const QStringList segments = request.path.split(u'/', Qt::SkipEmptyParts);
    const QString first = segments.value(0);
    if (first == u"healthz" || first == u"livez" || first == u"readyz") {
        connection->sendResponse(200, "text/plain; charset=utf-8", "ok");
        return;
    }
    ApiCall call{connection, request, {}};
    const auto authenticated = m_authenticator.authenticate(request, connection->hasVerifiedClientCertificate());
    if (const auto *error = std::get_if<ApiError>(&authenticated)) {
        call.sendError(*error);
        return;
    }
    if (handleDiscovery(call, segments))
        return;
    const std::optional<ResourceRoute> route = ResourceRoute::resolve(segments, *m_catalog);
    if (!route) {
        call.sendError(ApiError::notFoundPath(request.path));
        return;
    }
    call.route = *route;
    const QString verb = Authenticator::verbOf(request, route->watchPath, !route->isCollection());
    if (const std::optional<ApiError> denied =
            m_authenticator.authorize(std::get<Authenticator::Caller>(authenticated), verb, route->type, route->name, route->namespaceName)) {
        call.sendError(*denied);
        return;
    }
    handleResource(call);
}

bool ApiServer::handleDiscovery(const ApiCall &call, const QStringList &segments)
{
    const HttpRequest &request = call.request;
    if (request.method != "GET")
        return false;
    const QString first = segments.value(0);
    if (first == u"version" && segments.size() == 1) {
        call.sendJson(200, Discovery::version());
        return true;
    }
    if (first == u"openapi") {
        // Only the v3 index and the per-group-version documents that tell kubectl it may leave
        // validation to the server; v2 (full schemas, `kubectl explain`) is not served.
        if (segments.value(1) == u"v3" && segments.size() == 2) {
            call.sendJson(200, Discovery::openApiV3Root(*m_catalog));
            return true;
        }
        if (segments.value(1) == u"v3") {
            const QJsonObject document = Discovery::openApiV3Document(*m_catalog, segments.mid(2).join(u'/'));
            if (!document.isEmpty()) {
                call.sendJson(200, document);
                return true;
            }
        }
        call.sendError(ApiError::notFoundPath(request.path));
        return true;
    }
    const bool api = first == u"api";
    const bool apis = first == u"apis";
    if ((api || apis) && segments.size() == 1) {
        const ContentNegotiation negotiation = ContentNegotiation::of(request, true);
        if (negotiation.representation == ContentNegotiation::Representation::Aggregated) {
            call.sendJson(
                200, Discovery::aggregated(*m_catalog, api, negotiation.aggregatedVersion), Discovery::aggregatedContentType(negotiation.aggregatedVersion));
        } else {
            call.sendJson(200, api ? Discovery::apiVersions(m_settings.serverAddress) : Discovery::apiGroupList(*m_catalog));
        }
        return true;
    }
    if (apis && segments.size() == 2) {
        const QJsonObject group = Discovery::apiGroup(*m_catalog, segments.at(1));
        if (group.isEmpty())
            call.sendError(ApiError::notFoundPath(request.path));
        else
            call.sendJson(200, group);
        return true;
    }
    if ((api && segments.size() == 2) || (apis && segments.size() == 3)) {
        const QJsonObject resources =
            api ? Discovery::apiResourceList(*m_catalog, QString(), segments.at(1)) : Discovery::apiResourceList(*m_catalog, segments.at(1), segments.at(2));
        if (resources.isEmpty())
            call.sendError(ApiError::notFoundPath(request.path));
        else
            call.sendJson(200, resources);
        return true;
    }
    return false;
}

void ApiServer::handleResource(const ApiCall &call)
{
    const QByteArray &method = call.request.method;
    const bool collection = call.route.isCollection();
    if (m_settings.readOnly && method != "GET") {
        // What the apiserver answers for a verb a resource does not support: a served
        // recording is history, and no write can change it.
        call.sendError(ApiError::methodNotAllowed());
        return;
    }
    if (call.route.subresource == u"scale") {
        m_scale.serve(call);
        return;
    }
    if (call.route.subresource == u"log") {
        // Only GET: a PATCH of pods/log must not reach the pod.
        if (method == "GET")
            m_logs->serve(call);
        else
            call.sendError(ApiError::methodNotAllowed());
        return;
    }
    if (method == "GET") {
        const FaultPlan::RequestKind kind = call.isWatch() ? FaultPlan::RequestKind::Watch
            : collection                                   ? FaultPlan::RequestKind::List
                                                           : FaultPlan::RequestKind::Get;
        const FaultPlan::Decision decision = m_faults->decide(kind, call.request.path + u'?' + call.request.query.toString(QUrl::FullyDecoded));
        if (decision.latencyMs > 0) {
            m_faults->recordInjected(FaultPlan::Fault::Latency);
            QPointer<HttpExchange> guard(call.exchange);
            QTimer::singleShot(decision.latencyMs, this, [this, guard, call, decision] {
                if (guard && guard->isOpen())
                    serveRead(call, decision);
                else
                    m_faults->release(decision, u"the client left during the added latency"_s);
            });
            return;
        }
        serveRead(call, decision);
        return;
    }
    if (method == "POST" && collection) {
        m_write.create(call);
    } else if (method == "PUT" && !collection) {
        m_write.replace(call);
    } else if (method == "PATCH" && !collection) {
        m_patch.serve(call);
    } else if (method == "DELETE" && !collection) {
        m_delete.serve(call);
    } else {
        call.sendError(ApiError::methodNotAllowed());
    }
}

void ApiServer::serveRead(const ApiCall &call, const FaultPlan::Decision &decision)
{
    const bool watching = call.isWatch();
    if (!watching && !call.route.isCollection()) {
        PendingFault fault(m_faults, decision, u"the get was answered without it"_s);
        if (!fault.answerInstead(call))
            m_get.serve(call);
        return;
    }
    // A truncation, 410 or stall drawn for a list or watch goes back to the plan when the
    // request is answered without it (a bad request, a table, a resume from a version already
    // too old, answered with its own 410): a forced fault must happen, not be spent on a request
    // it cannot touch.
    PendingFault fault(m_faults, decision, watching ? u"the watch was answered without it"_s : u"the list was answered without it"_s);
    if (fault.answerInstead(call))
        return;
    const std::variant<ResourceSelector, ApiError> selector = ResourceSelector::parse(call.request, call.route.type);
    if (const auto *error = std::get_if<ApiError>(&selector)) {
        call.sendError(*error);
        return;
    }
    if (watching)
        m_watch->serve(call, std::get<ResourceSelector>(selector), fault);
    else
        m_list.serve(call, std::get<ResourceSelector>(selector), fault);
}

} // namespace Cachescope::Sim
