#include "core/sim/apiserver.h"

#include "core/kube/fieldselector.h"
#include "core/kube/labelselector.h"
#include "core/sim/apierror.h"
#include "core/sim/discovery.h"
#include "core/sim/httpexchange.h"
#include "core/sim/httpserver.h"
#include "core/sim/jsonpatch.h"
#include "core/sim/kubeprotobuf.h"
#include "core/sim/objectstore.h"
#include "core/sim/tableconverter.h"
#include "core/sim/watchsession.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

QByteArray toJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// Go's strconv.ParseBool, which the apiserver decodes boolean parameters with: the Python
// client sends "True".
bool isTrue(const QString &value)
{
    return value == u"true" || value == u"1" || value == u"t" || value == u"T" || value == u"TRUE" || value == u"True";
}

// The fields a field selector may name, per kind, as the apiserver registers them.
QStringList supportedFields(const ResourceType &type)
{
    QStringList fields{u"metadata.name"_s, u"metadata.namespace"_s};
    if (type.kind == u"Pod")
        fields << u"spec.nodeName"_s << u"status.phase"_s;
    return fields;
}

QString scaleSelector(const QJsonObject &object)
{
    const QJsonObject matchLabels = object.value(u"spec").toObject().value(u"selector").toObject().value(u"matchLabels").toObject();
    QStringList parts;
    for (auto it = matchLabels.begin(); it != matchLabels.end(); ++it)
        parts.append(it.key() + u'=' + it.value().toString());
    return parts.join(u',');
}

QJsonObject scaleOf(const QJsonObject &object)
{
    const QJsonObject metadata = object.value(u"metadata").toObject();
    return QJsonObject{
        {u"kind"_s, u"Scale"_s},
        {u"apiVersion"_s, u"autoscaling/v1"_s},
        {u"metadata"_s,
         QJsonObject{{u"name"_s, metadata.value(u"name")},
                     {u"namespace"_s, metadata.value(u"namespace")},
                     {u"uid"_s, metadata.value(u"uid")},
                     {u"resourceVersion"_s, metadata.value(u"resourceVersion")},
                     {u"creationTimestamp"_s, metadata.value(u"creationTimestamp")}}},
        {u"spec"_s, QJsonObject{{u"replicas"_s, object.value(u"spec").toObject().value(u"replicas").toInt(1)}}},
        {u"status"_s, QJsonObject{{u"replicas"_s, object.value(u"status").toObject().value(u"replicas").toInt()}, {u"selector"_s, scaleSelector(object)}}},
    };
}

HttpExchange::ConnectionFault connectionFaultOf(FaultPlan::Fault fault)
{
    switch (fault) {
    case FaultPlan::Fault::HalfOpen:
        return HttpExchange::ConnectionFault::HalfOpen;
    case FaultPlan::Fault::GoAway:
        return HttpExchange::ConnectionFault::GoAway;
    default:
        return HttpExchange::ConnectionFault::Reset;
    }
}

} // namespace

ApiServer::ApiServer(ObjectStore *store, const ResourceCatalog *catalog, FaultPlan *faults, const Settings &settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_catalog(catalog)
    , m_faults(faults)
    , m_settings(settings)
    , m_authenticator(settings.authentication)
    , m_paginator(settings.continueTtlMs)
{
    QPointer<ApiServer> guard(this);
    m_store->addListener([guard](const StoreEventPtr &event) {
        if (guard)
            guard->onStoreEvent(event);
    });
}

ApiServer::~ApiServer() = default;

void ApiServer::attach(HttpServer *server)
{
    connect(server, &HttpServer::requestReceived, this, &ApiServer::handle);
}

int ApiServer::watchCount() const
{
    int count = 0;
    for (const auto &sessions : m_watches)
        count += int(sessions.size());
    return count;
}

void ApiServer::simulateRestart()
{
    const auto watches = m_watches;
    for (const auto &sessions : watches) {
        for (WatchSession *session : sessions)
            session->abortConnection();
    }
    m_watches.clear();
    m_paginator.clear();
    m_store->compactHistory();
}

void ApiServer::onStoreEvent(const StoreEventPtr &event)
{
    const auto it = m_watches.constFind(event->resource);
    if (it == m_watches.cend())
        return;
    // A copy: delivering may end a session (slow reader, truncation), which edits the list.
    const QList<WatchSession *> sessions = *it;
    for (WatchSession *session : sessions)
        session->deliver(event);
}

void ApiServer::sendError(HttpExchange *connection, const ApiError &error, const HttpHeaders &extraHeaders)
{
    connection->sendResponse(error.code, "application/json", error.toStatus(), extraHeaders);
}

void ApiServer::sendJson(HttpExchange *connection, int status, const QJsonObject &object, const QByteArray &contentType)
{
    connection->sendResponse(status, contentType, toJson(object));
}

ApiServer::Negotiation ApiServer::negotiate(const HttpRequest &request, bool discovery) const
{
    const QList<QByteArray> ranges = request.header("accept").split(',');
    for (const QByteArray &range : ranges) {
        const QList<QByteArray> parts = range.split(';');
        const QByteArray mediaType = parts.value(0).trimmed().toLower();
        QHash<QByteArray, QByteArray> params;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QList<QByteArray> pair = parts.at(i).trimmed().split('=');
            if (pair.size() == 2)
                params.insert(pair.at(0).trimmed(), pair.at(1).trimmed());
        }
        if (mediaType != "application/json" && mediaType != "*/*" && mediaType != "application/*")
            continue; // protobuf, yaml: not spoken here, so the next choice is taken
        const QByteArray as = params.value("as");
        if (as.isEmpty())
            return {};
        const QByteArray group = params.value("g");
        const QByteArray version = params.value("v");
        if (discovery && as == "APIGroupDiscoveryList" && group == "apidiscovery.k8s.io" && (version == "v2" || version == "v2beta1"))
            return {Representation::Aggregated, QString::fromLatin1(version)};
        if (!discovery && group == "meta.k8s.io" && (version == "v1" || version == "v1beta1")) {
            if (as == "Table")
                return {Representation::Table, {}};
            if (as == "PartialObjectMetadata" || as == "PartialObjectMetadataList")
                return {Representation::Metadata, {}};
        }
    }
    return {};
}

void ApiServer::handle(HttpExchange *connection, const HttpRequest &request)
{
    const QStringList segments = request.path.split(u'/', Qt::SkipEmptyParts);
    const QString first = segments.value(0);
    if (first == u"healthz" || first == u"livez" || first == u"readyz") {
        connection->sendResponse(200, "text/plain; charset=utf-8", "ok");
        return;
    }
    const auto authenticated = m_authenticator.authenticate(request, connection->hasVerifiedClientCertificate());
    if (const auto *error = std::get_if<ApiError>(&authenticated)) {
        sendError(connection, *error);
        return;
    }
    const Authenticator::Caller caller = std::get<Authenticator::Caller>(authenticated);
    if (handleDiscovery(connection, request, segments))
        return;

    // /api/v1/... or /apis/GROUP/VERSION/...
    Route route;
    QString group;
    QString version;
    QStringList rest;
    if (first == u"api" && segments.size() >= 3) {
        version = segments.at(1);
        rest = segments.mid(2);
    } else if (first == u"apis" && segments.size() >= 4) {
        group = segments.at(1);
        version = segments.at(2);
        rest = segments.mid(3);
    } else {
        sendError(connection, ApiError::notFoundPath(request.path));
        return;
    }
    if (rest.value(0) == u"watch") {
        route.watchPath = true;
        rest.removeFirst();
    }
    if (rest.value(0) == u"namespaces" && rest.size() >= 3 && m_catalog->find(group, version, rest.at(2)).namespaced) {
        route.namespaceName = rest.at(1);
        rest = rest.mid(2);
    }
    route.type = m_catalog->find(group, version, rest.value(0));
    route.name = rest.value(1);
    route.subresource = rest.value(2);
    if (!route.type.isValid() || rest.size() > 3 || (!route.type.namespaced && !route.namespaceName.isEmpty()) ||
        (!route.subresource.isEmpty() && !route.type.subresources.contains(route.subresource))) {
        sendError(connection, ApiError::notFoundPath(request.path));
        return;
    }
    const QString verb = Authenticator::verbOf(request, route.watchPath, !route.name.isEmpty());
    if (const std::optional<ApiError> denied = m_authenticator.authorize(caller, verb, route.type, route.name, route.namespaceName)) {
        sendError(connection, *denied);
        return;
    }
    handleResource(connection, request, route);
}

bool ApiServer::handleDiscovery(HttpExchange *connection, const HttpRequest &request, const QStringList &segments)
{
    if (request.method != "GET")
        return false;
    const QString first = segments.value(0);
    if (first == u"version" && segments.size() == 1) {
        sendJson(connection, 200, Discovery::version());
        return true;
    }
    if (first == u"openapi") {
        // Only the v3 index and the per-group-version documents that tell kubectl it may leave
        // validation to the server; v2 (full schemas, `kubectl explain`) is not served.
        if (segments.value(1) == u"v3" && segments.size() == 2) {
            sendJson(connection, 200, Discovery::openApiV3Root(*m_catalog));
            return true;
        }
        if (segments.value(1) == u"v3") {
            const QJsonObject document = Discovery::openApiV3Document(*m_catalog, segments.mid(2).join(u'/'));
            if (!document.isEmpty()) {
                sendJson(connection, 200, document);
                return true;
            }
        }
        sendError(connection, ApiError::notFoundPath(request.path));
        return true;
    }
    const bool api = first == u"api";
    const bool apis = first == u"apis";
    if ((api || apis) && segments.size() == 1) {
        const Negotiation negotiation = negotiate(request, true);
        if (negotiation.representation == Representation::Aggregated) {
            sendJson(connection,
                     200,
                     Discovery::aggregated(*m_catalog, api, negotiation.aggregatedVersion),
                     Discovery::aggregatedContentType(negotiation.aggregatedVersion));
        } else {
            sendJson(connection, 200, api ? Discovery::apiVersions(m_settings.serverAddress) : Discovery::apiGroupList(*m_catalog));
        }
        return true;
    }
    if (apis && segments.size() == 2) {
        const QJsonObject group = Discovery::apiGroup(*m_catalog, segments.at(1));
        if (group.isEmpty())
            sendError(connection, ApiError::notFoundPath(request.path));
        else
            sendJson(connection, 200, group);
        return true;
    }
    if ((api && segments.size() == 2) || (apis && segments.size() == 3)) {
        const QJsonObject resources =
            api ? Discovery::apiResourceList(*m_catalog, QString(), segments.at(1)) : Discovery::apiResourceList(*m_catalog, segments.at(1), segments.at(2));
        if (resources.isEmpty())
            sendError(connection, ApiError::notFoundPath(request.path));
        else
            sendJson(connection, 200, resources);
        return true;
    }
    return false;
}

void ApiServer::handleResource(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    const QByteArray &method = request.method;
    const bool collection = route.name.isEmpty();
    if (!route.subresource.isEmpty() && route.subresource == u"scale") {
        scale(connection, request, route);
        return;
    }
    if (method == "GET") {
        const bool watching = route.watchPath || isTrue(request.queryValue(u"watch"_s));
        const FaultPlan::RequestKind kind = watching ? FaultPlan::RequestKind::Watch : collection ? FaultPlan::RequestKind::List : FaultPlan::RequestKind::Get;
        const FaultPlan::Decision decision = m_faults->decide(kind, request.path + u'?' + request.query.toString(QUrl::FullyDecoded));
        if (decision.latencyMs > 0) {
            m_faults->recordInjected(FaultPlan::Fault::Latency);
            QPointer<HttpExchange> guard(connection);
            QTimer::singleShot(decision.latencyMs, this, [this, guard, request, route, decision] {
                if (guard && guard->isOpen())
                    serveRead(guard, request, route, decision);
                else
                    m_faults->release(decision, u"the client left during the added latency"_s);
            });
            return;
        }
        serveRead(connection, request, route, decision);
        return;
    }
    if (method == "POST" && collection) {
        create(connection, request, route);
    } else if (method == "PUT" && !collection) {
        replace(connection, request, route);
    } else if (method == "PATCH" && !collection) {
        patch(connection, request, route);
    } else if (method == "DELETE" && !collection) {
        remove(connection, request, route);
    } else {
        sendError(connection, ApiError::methodNotAllowed());
    }
}

void ApiServer::serveRead(HttpExchange *connection, const HttpRequest &request, const Route &route, const FaultPlan::Decision &decision)
{
    const bool watching = route.watchPath || isTrue(request.queryValue(u"watch"_s));
    if (watching) {
        watch(connection, request, route, decision);
        return;
    }
    if (route.name.isEmpty()) {
        list(connection, request, route, decision);
        return;
    }
    if (applyFault(connection, decision, FaultPlan::RequestKind::Get))
        return;
    get(connection, request, route);
}

bool ApiServer::applyFault(HttpExchange *connection, const FaultPlan::Decision &decision, FaultPlan::RequestKind kind)
{
    if (decision.connectionFault) {
        // The request is served; the connection under it is what the fault acts on.
        m_faults->recordInjected(*decision.connectionFault);
        connection->injectConnectionFault(connectionFaultOf(*decision.connectionFault), decision.goAwayGraceMs);
    }
    if (!decision.fault)
        return false;
    switch (*decision.fault) {
    case FaultPlan::Fault::Drop:
        m_faults->recordInjected(FaultPlan::Fault::Drop);
        connection->abort();
        return true;
    case FaultPlan::Fault::Throttle:
        m_faults->recordInjected(FaultPlan::Fault::Throttle);
        sendError(connection, ApiError::tooManyRequests(decision.retryAfterSeconds), {{"Retry-After", QByteArray::number(decision.retryAfterSeconds)}});
        return true;
    case FaultPlan::Fault::ServerError:
        m_faults->recordInjected(FaultPlan::Fault::ServerError);
        if (decision.errorCode == 503)
            sendError(connection, ApiError::unavailable(u"the server is currently unable to handle the request (injected fault)"_s));
        else {
            ApiError error = ApiError::internal(u"an error on the server (\"injected fault\") has prevented the request from succeeding"_s);
            error.code = decision.errorCode >= 500 && decision.errorCode < 600 ? decision.errorCode : 500;
            sendError(connection, error);
        }
        return true;
    case FaultPlan::Fault::Truncate:
    case FaultPlan::Fault::Gone:
    case FaultPlan::Fault::Stall:
        // Handled where the response is written (list body, watch stream).
        Q_UNUSED(kind)
        return false;
    case FaultPlan::Fault::Latency:
    case FaultPlan::Fault::Restart:
    case FaultPlan::Fault::Reset:
    case FaultPlan::Fault::HalfOpen:
    case FaultPlan::Fault::GoAway:
        return false;
    }
    return false;
}

void ApiServer::list(HttpExchange *connection, const HttpRequest &request, const Route &route, const FaultPlan::Decision &decision)
{
    if (applyFault(connection, decision, FaultPlan::RequestKind::List))
        return;
    // A truncation drawn for this list goes back to the plan when the list is answered without
    // it (an error, a table): a forced fault must happen, not be spent on a request it cannot
    // touch.
    bool faultApplied = false;
    const auto handBack = qScopeGuard([&] {
        if (!faultApplied)
            m_faults->release(decision, u"the list was answered without it"_s);
    });
    const auto parsedLabels = LabelSelector::parse(request.queryValue(u"labelSelector"_s));
    if (const auto *error = std::get_if<SelectorError>(&parsedLabels)) {
        sendError(connection, ApiError::badRequest(error->message));
        return;
    }
    const auto parsedFields = FieldSelector::parse(request.queryValue(u"fieldSelector"_s), supportedFields(route.type));
    if (const auto *error = std::get_if<SelectorError>(&parsedFields)) {
        sendError(connection, ApiError::badRequest(error->message));
        return;
    }
    const LabelSelector *labels = &std::get<LabelSelector>(parsedLabels);
    const FieldSelector *fields = &std::get<FieldSelector>(parsedFields);
    const QString rvParam = request.queryValue(u"resourceVersion"_s);
    const QString rvMatch = request.queryValue(u"resourceVersionMatch"_s);
    const QString continueParam = request.queryValue(u"continue"_s);
    qsizetype limit = request.queryValue(u"limit"_s).toLongLong();
    if (limit < 0)
        limit = 0;
    if (!rvMatch.isEmpty() && rvMatch != u"NotOlderThan" && rvMatch != u"Exact") {
        sendError(connection, ApiError::badRequest(u"resourceVersionMatch: Unsupported value: \"%1\""_s.arg(rvMatch)));
        return;
    }
    if (!rvMatch.isEmpty() && rvParam.isEmpty()) {
        sendError(connection, ApiError::badRequest(u"resourceVersionMatch is forbidden unless resourceVersion is provided"_s));
        return;
    }
    if (!continueParam.isEmpty() && !rvParam.isEmpty()) {
        sendError(connection, ApiError::badRequest(u"specifying resource version is not allowed when using continue"_s));
        return;
    }

    const bool selective = !labels->isEmpty() || !fields->isEmpty();
    ListPaginator::Page paged;
    if (!continueParam.isEmpty()) {
        std::variant<ListPaginator::Page, ApiError> next = m_paginator.nextPage(continueParam, limit, !selective);
        if (const auto *error = std::get_if<ApiError>(&next)) {
            sendError(connection, *error);
            return;
        }
        paged = std::get<ListPaginator::Page>(std::move(next));
    } else {
        const quint64 current = m_store->resourceVersion();
        bool rvOk = true;
        const quint64 requested = rvParam.isEmpty() ? 0 : rvParam.toULongLong(&rvOk);
        if (!rvOk) {
            sendError(connection, ApiError::badRequest(u"resourceVersion: Invalid value: \"%1\": must be a non-negative integer"_s.arg(rvParam)));
            return;
        }
        // resourceVersion="0" is "any version" and is served from the watch cache, which
        // ignores limit: the whole list comes back in one page.
        if (rvParam == u"0" && rvMatch != u"Exact")
            limit = 0;
        if (requested > current) {
            ApiError tooLarge;
            tooLarge.code = 504;
            tooLarge.reason = u"Timeout"_s;
            tooLarge.message = u"Too large resource version: %1, current: %2"_s.arg(requested).arg(current);
            tooLarge.details = QJsonObject{{u"retryAfterSeconds"_s, 1}};
            sendError(connection, tooLarge);
            return;
        }
        // An exact older version would need etcd's history; we keep none for lists, so it is
        // treated as compacted, which the apiserver also answers with 410.
        const bool exact = rvMatch == u"Exact" || (rvMatch.isEmpty() && limit > 0 && requested != 0);
        if (exact && requested != 0 && requested != current) {
            sendError(connection, ApiError::expired(u"too old resource version: %1 (%2)"_s.arg(requested).arg(current)));
            return;
        }
        QList<ObjectPtr> matching = m_store->list(route.type, route.namespaceName);
        if (selective) {
            matching.removeIf([labels, fields](const ObjectPtr &object) {
                return !labels->matches(object->labels) || !fields->matches([&object](const QString &field) { return object->fieldValue(field); });
            });
        }
        paged = m_paginator.firstPage(matching, current, limit, !selective);
    }
    QJsonObject metadata{{u"resourceVersion"_s, QString::number(paged.resourceVersion)}};
    if (!paged.continueToken.isEmpty())
        metadata.insert(u"continue"_s, paged.continueToken);
    if (paged.remainingItemCount)
        metadata.insert(u"remainingItemCount"_s, *paged.remainingItemCount);
    const QList<ObjectPtr> page = paged.items;

    const Negotiation negotiation = negotiate(request, false);
    if (negotiation.representation == Representation::Table) {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const QString include = request.queryValue(u"includeObject"_s);
        const TableConverter::IncludeObject includeObject = include == u"None" ? TableConverter::IncludeObject::None
            : include == u"Object"                                             ? TableConverter::IncludeObject::Object
                                                                               : TableConverter::IncludeObject::Metadata;
        QJsonArray rows;
        for (const ObjectPtr &object : page)
            rows.append(TableConverter::row(route.type, QJsonDocument::fromJson(object->json).object(), includeObject, now));
        sendJson(connection, 200, TableConverter::table(route.type, rows, true, metadata), "application/json;as=Table;v=v1;g=meta.k8s.io");
        return;
    }

    QByteArray head;
    QByteArray contentType = "application/json";
    if (negotiation.representation == Representation::Metadata) {
        head = "{\"kind\":\"PartialObjectMetadataList\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":" + toJson(metadata) + ",\"items\":[";
        contentType = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io";
    } else {
        head = "{\"kind\":\"" + route.type.listKind().toLatin1() + "\",\"apiVersion\":\"" + route.type.groupVersion().toLatin1() +
            "\",\"metadata\":" + toJson(metadata) + ",\"items\":[";
    }
    const bool metadataOnly = negotiation.representation == Representation::Metadata;
    auto render = [metadataOnly](const ObjectPtr &object) -> QByteArray {
        if (!metadataOnly)
            return object->json;
        return toJson(TableConverter::partialObjectMetadata(QJsonDocument::fromJson(object->json).object()));
    };

    if (decision.fault == FaultPlan::Fault::Truncate) {
        // The head promises the whole body; about half of it arrives, then EOF.
        m_faults->recordInjected(FaultPlan::Fault::Truncate);
        faultApplied = true;
        QByteArray body = head;
        for (qsizetype i = 0; i < page.size(); ++i)
            body += (i ? "," : "") + render(page.at(i));
        body += "]}";
        const QByteArray response = "HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
        connection->writeRawAndAbort(response + body.left(body.size() / 2));
        return;
    }

    // Small pages are one buffer; big ones (a 100k-pod list) are streamed as the socket drains,
    // so the server never holds a second copy of the whole list.
    constexpr qsizetype StreamThreshold = 2000;
    if (page.size() <= StreamThreshold) {
        qsizetype size = head.size() + 2;
        for (const ObjectPtr &object : page)
            size += object->json.size() + 1;
        QByteArray body;
        body.reserve(size);
        body += head;
        for (qsizetype i = 0; i < page.size(); ++i) {
            if (i)
                body += ',';
            body += render(page.at(i));
        }
        body += "]}";
        connection->sendResponse(200, contentType, body);
        return;
    }
    auto position = std::make_shared<qsizetype>(-1);
    connection->streamResponse(200, contentType, [page, head, position, render]() -> QByteArray {
        if (*position < 0) {
            *position = 0;
            return head;
        }
        if (*position > page.size())
            return {};
        if (*position == page.size()) {
            ++*position;
            return QByteArrayLiteral("]}");
        }
        // Batches stay below glibc's mmap threshold (128 KiB): bigger buffers are mapped and
        // unmapped each time, and the page faults cost more than the copying.
        constexpr qsizetype BatchBytes = 96 * 1024;
        QByteArray batch;
        batch.reserve(BatchBytes + 16 * 1024);
        while (*position < page.size() && batch.size() < BatchBytes) {
            if (*position > 0)
                batch += ',';
            batch += render(page.at(*position));
            ++*position;
        }
        return batch;
    });
}

void ApiServer::watch(HttpExchange *connection, const HttpRequest &request, const Route &route, const FaultPlan::Decision &decision)
{
    if (applyFault(connection, decision, FaultPlan::RequestKind::Watch))
        return;
    // As for lists: a truncation, 410 or stall drawn for this watch goes back to the plan when
    // the watch ends before it could be applied (a bad request, or a resume from a version
    // that is already too old, answered with its own 410).
    bool faultApplied = false;
    const auto handBack = qScopeGuard([&] {
        if (!faultApplied)
            m_faults->release(decision, u"the watch was answered without it"_s);
    });
    WatchSession::Options options;
    const auto labels = LabelSelector::parse(request.queryValue(u"labelSelector"_s));
    if (const auto *error = std::get_if<SelectorError>(&labels)) {
        sendError(connection, ApiError::badRequest(error->message));
        return;
    }
    const auto fields = FieldSelector::parse(request.queryValue(u"fieldSelector"_s), supportedFields(route.type));
    if (const auto *error = std::get_if<SelectorError>(&fields)) {
        sendError(connection, ApiError::badRequest(error->message));
        return;
    }
    options.labels = std::get<LabelSelector>(labels);
    options.fields = std::get<FieldSelector>(fields);
    if (!route.name.isEmpty()) {
        // GET .../pods/NAME?watch=true is the old form of a single-object watch.
        options.fields = std::get<FieldSelector>(FieldSelector::parse(u"metadata.name="_s + route.name));
    }
    options.namespaceName = route.namespaceName;
    options.bookmarks = isTrue(request.queryValue(u"allowWatchBookmarks"_s));
    options.bookmarkIntervalMs = m_settings.bookmarkIntervalMs;
    options.bufferLimit = m_settings.watchBufferLimit;
    const Negotiation negotiation = negotiate(request, false);
    options.format = negotiation.representation == Representation::Table ? WatchSession::Format::Table
        : negotiation.representation == Representation::Metadata         ? WatchSession::Format::Metadata
                                                                         : WatchSession::Format::Object;
    const QString include = request.queryValue(u"includeObject"_s);
    options.includeObject = include == u"None" ? TableConverter::IncludeObject::None
        : include == u"Object"                 ? TableConverter::IncludeObject::Object
                                               : TableConverter::IncludeObject::Metadata;
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
    const bool sendInitialEvents = isTrue(request.queryValue(u"sendInitialEvents"_s));
    if (request.hasQuery(u"sendInitialEvents"_s)) {
        if (rvMatch != u"NotOlderThan") {
            sendError(connection,
                      ApiError::invalid(route.type,
                                        QString(),
                                        u"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"_s));
            return;
        }
        if (sendInitialEvents && !options.bookmarks) {
            sendError(connection,
                      ApiError::invalid(route.type, QString(), u"allowWatchBookmarks: Forbidden: sendInitialEvents requires allowWatchBookmarks=true"_s));
            return;
        }
    }

    auto *session = new WatchSession(
        connection, route.type, options, [store = m_store] { return store->resourceVersion(); }, this);
    const QString resource = route.type.id();
    connect(session, &WatchSession::finished, this, [this, resource](WatchSession *finished) {
        if (finished->droppedForSlowness())
            ++m_slowWatchersDropped;
        m_watches[resource].removeOne(finished);
    });

    if (decision.fault == FaultPlan::Fault::Gone) {
        m_faults->recordInjected(FaultPlan::Fault::Gone);
        faultApplied = true;
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
            sendError(connection, ApiError::badRequest(u"resourceVersion: Invalid value: \"%1\""_s.arg(rvParam)));
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
    if (decision.fault == FaultPlan::Fault::Truncate) {
        m_faults->recordInjected(FaultPlan::Fault::Truncate);
        faultApplied = true;
        session->truncateNextFrame();
    }
    session->start(initial, replay, sendInitialEvents, m_store->resourceVersion());
    if (decision.fault == FaultPlan::Fault::Stall && !session->isFinished()) {
        m_faults->recordInjected(FaultPlan::Fault::Stall);
        faultApplied = true;
        session->stall();
    }
}

void ApiServer::sendObject(HttpExchange *connection, int status, const HttpRequest &request, const ResourceType &type, const ObjectPtr &object)
{
    const Negotiation negotiation = negotiate(request, false);
    if (negotiation.representation == Representation::Object) {
        connection->sendResponse(status, "application/json", object->json);
        return;
    }
    const QJsonObject parsed = QJsonDocument::fromJson(object->json).object();
    if (negotiation.representation == Representation::Metadata) {
        sendJson(connection, status, TableConverter::partialObjectMetadata(parsed), "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io");
        return;
    }
    const QJsonObject row = TableConverter::row(type, parsed, TableConverter::IncludeObject::Metadata, QDateTime::currentDateTimeUtc());
    sendJson(connection,
             status,
             TableConverter::table(type, QJsonArray{row}, true, QJsonObject{{u"resourceVersion"_s, QString::number(object->resourceVersion)}}),
             "application/json;as=Table;v=v1;g=meta.k8s.io");
}

void ApiServer::get(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    const ObjectPtr object = m_store->get(route.type, route.namespaceName, route.name);
    if (!object) {
        sendError(connection, ApiError::notFound(route.type, route.name));
        return;
    }
    sendObject(connection, 200, request, route.type, object);
}

std::optional<QJsonObject> ApiServer::parseBody(HttpExchange *connection, const HttpRequest &request)
{
    const QByteArray contentType = request.header("content-type");
    if (contentType.split(';').value(0).trimmed().toLower() == KubeProtobuf::MediaType) {
        // kubectl's typed commands (create namespace/configmap/deployment/secret) write
        // protobuf; it is stored as the JSON the apiserver would have made of it.
        QString error;
        std::optional<QJsonObject> object = KubeProtobuf::decode(request.body, &error);
        if (!object)
            sendError(connection, ApiError::badRequest(u"the protobuf body could not be decoded: "_s + error));
        return object;
    }
    if (contentType.contains("protobuf") || contentType.contains("cbor")) {
        // Told so instead of getting a parse error.
        sendError(connection, ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        sendError(connection, ApiError::badRequest(u"the request body is not a JSON object: %1"_s.arg(parseError.errorString())));
        return std::nullopt;
    }
    return document.object();
}

bool ApiServer::namespaceExists(const QString &name) const
{
    return m_store->get(m_catalog->find(QString(), u"v1"_s, u"namespaces"_s), QString(), name) != nullptr;
}

void ApiServer::create(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    std::optional<QJsonObject> body = parseBody(connection, request);
    if (!body)
        return;
    QJsonObject metadata = body->value(u"metadata").toObject();
    if (route.type.namespaced) {
        const QString bodyNamespace = metadata.value(u"namespace").toString();
        if (route.namespaceName.isEmpty()) {
            sendError(connection, ApiError::methodNotAllowed());
            return;
        }
        if (!bodyNamespace.isEmpty() && bodyNamespace != route.namespaceName) {
            sendError(connection, ApiError::badRequest(u"the namespace of the provided object does not match the namespace sent on the request"_s));
            return;
        }
        if (!namespaceExists(route.namespaceName)) {
            sendError(connection, ApiError::notFound(m_catalog->find(QString(), u"v1"_s, u"namespaces"_s), route.namespaceName));
            return;
        }
        metadata.insert(u"namespace"_s, route.namespaceName);
        body->insert(u"metadata"_s, metadata);
    }
    if (route.type.kind == u"Pod" && !body->value(u"status").toObject().contains(u"phase")) {
        // No kubelet will pick it up; it stays where the scheduler would first leave it.
        body->insert(u"status"_s, QJsonObject{{u"phase"_s, u"Pending"_s}, {u"qosClass"_s, u"BestEffort"_s}});
    }
    if (request.queryValue(u"dryRun"_s) == u"All") {
        sendJson(connection, 201, *body);
        return;
    }
    const ObjectStore::WriteResult result = m_store->create(route.type, *body);
    if (!result.ok()) {
        sendError(connection, *result.error);
        return;
    }
    sendObject(connection, 201, request, route.type, result.object);
}

void ApiServer::replace(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    std::optional<QJsonObject> body = parseBody(connection, request);
    if (!body)
        return;
    QJsonObject metadata = body->value(u"metadata").toObject();
    if (metadata.value(u"name").toString() != route.name) {
        sendError(
            connection,
            ApiError::badRequest(u"the name of the object (%1) does not match the name on the URL (%2)"_s.arg(metadata.value(u"name").toString(), route.name)));
        return;
    }
    if (route.type.namespaced) {
        metadata.insert(u"namespace"_s, route.namespaceName);
        body->insert(u"metadata"_s, metadata);
    }
    if (route.subresource == u"status") {
        // The status subresource changes status only; the rest stays as stored.
        const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
        if (!current) {
            sendError(connection, ApiError::notFound(route.type, route.name));
            return;
        }
        QJsonObject merged = QJsonDocument::fromJson(current->json).object();
        merged.insert(u"status"_s, body->value(u"status"));
        QJsonObject mergedMetadata = merged.value(u"metadata").toObject();
        mergedMetadata.insert(u"resourceVersion"_s, metadata.value(u"resourceVersion"));
        merged.insert(u"metadata"_s, mergedMetadata);
        *body = merged;
    }
    const ObjectStore::WriteResult result = m_store->update(route.type, *body);
    if (!result.ok()) {
        sendError(connection, *result.error);
        return;
    }
    sendObject(connection, 200, request, route.type, result.object);
}

void ApiServer::patch(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
    if (!current) {
        sendError(connection, ApiError::notFound(route.type, route.name));
        return;
    }
    const QByteArray contentType = request.header("content-type").split(';').value(0).trimmed().toLower();
    const QJsonObject original = QJsonDocument::fromJson(current->json).object();
    QJsonObject patched;
    QJsonParseError parseError;
    const QJsonDocument patchDocument = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        sendError(connection, ApiError::badRequest(u"the patch is not valid JSON: %1"_s.arg(parseError.errorString())));
        return;
    }
    if (contentType == "application/merge-patch+json") {
        patched = JsonPatch::mergePatch(original, patchDocument.object());
    } else if (contentType == "application/strategic-merge-patch+json") {
        if (route.type.custom) {
            sendError(connection, ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
            return;
        }
        patched = JsonPatch::strategicMergePatch(original, patchDocument.object());
    } else if (contentType == "application/json-patch+json") {
        QString error;
        const std::optional<QJsonObject> result = JsonPatch::jsonPatch(original, patchDocument.array(), &error);
        if (!result) {
            ApiError invalid = ApiError::invalid(route.type, route.name, error);
            sendError(connection, invalid);
            return;
        }
        patched = *result;
    } else {
        sendError(connection, ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
        return;
    }
    // A patch is optimistic-locked only when it names a resourceVersion itself.
    QJsonObject metadata = patched.value(u"metadata").toObject();
    const bool patchNamesVersion = patchDocument.object().value(u"metadata").toObject().contains(u"resourceVersion");
    if (!patchNamesVersion)
        metadata.insert(u"resourceVersion"_s, QString::number(current->resourceVersion));
    metadata.insert(u"name"_s, route.name);
    if (route.type.namespaced)
        metadata.insert(u"namespace"_s, route.namespaceName);
    patched.insert(u"metadata"_s, metadata);
    if (route.subresource == u"status") {
        QJsonObject onlyStatus = original;
        onlyStatus.insert(u"status"_s, patched.value(u"status"));
        onlyStatus.insert(u"metadata"_s, metadata);
        patched = onlyStatus;
    }
    const ObjectStore::WriteResult result = m_store->update(route.type, patched);
    if (!result.ok()) {
        sendError(connection, *result.error);
        return;
    }
    sendObject(connection, 200, request, route.type, result.object);
}

void ApiServer::remove(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    QString precondition;
    QString propagation = request.queryValue(u"propagationPolicy"_s);
    if (!request.body.trimmed().isEmpty()) {
        // DeleteOptions, in JSON or (from typed clients) protobuf.
        const std::optional<QJsonObject> parsed = parseBody(connection, request);
        if (!parsed)
            return;
        const QJsonObject &options = *parsed;
        precondition = options.value(u"preconditions").toObject().value(u"resourceVersion").toString();
        const QString uid = options.value(u"preconditions").toObject().value(u"uid").toString();
        const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
        if (current && !uid.isEmpty() && uid != current->uid) {
            sendError(connection, ApiError::conflict(route.type, route.name));
            return;
        }
        if (options.contains(u"propagationPolicy"))
            propagation = options.value(u"propagationPolicy").toString();
    }
    const ObjectStore::WriteResult result = m_store->remove(route.type, route.namespaceName, route.name, precondition);
    if (!result.ok()) {
        sendError(connection, *result.error);
        return;
    }
    if (propagation != u"Orphan")
        cascadeDelete(route.type, result.object);
    sendObject(connection, 200, request, route.type, result.object);
}

void ApiServer::cascadeDelete(const ResourceType &ownerType, const ObjectPtr &owner)
{
    // What the garbage collector and the namespace controller do in a real cluster, done at
    // once: a deleted namespace takes its objects with it, a deleted owner its dependents.
    if (ownerType.kind == u"Namespace") {
        for (const ResourceType &type : m_catalog->resources()) {
            if (!type.namespaced)
                continue;
            for (const ObjectPtr &object : m_store->list(type, owner->name))
                (void)m_store->remove(type, object->namespaceName, object->name);
        }
        return;
    }
    if (!ownerType.namespaced)
        return;
    const QByteArray uid = owner->uid.toLatin1();
    for (const ResourceType &type : m_catalog->resources()) {
        if (!type.namespaced)
            continue;
        for (const ObjectPtr &object : m_store->list(type, owner->namespaceName)) {
            if (!object->json.contains(uid))
                continue;
            const QJsonArray owners = QJsonDocument::fromJson(object->json).object().value(u"metadata").toObject().value(u"ownerReferences").toArray();
            for (const QJsonValue &reference : owners) {
                if (reference.toObject().value(u"uid").toString() == owner->uid) {
                    const ObjectStore::WriteResult removed = m_store->remove(type, object->namespaceName, object->name);
                    if (removed.ok())
                        cascadeDelete(type, removed.object);
                    break;
                }
            }
        }
    }
}

void ApiServer::scale(HttpExchange *connection, const HttpRequest &request, const Route &route)
{
    const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
    if (!current) {
        sendError(connection, ApiError::notFound(route.type, route.name));
        return;
    }
    QJsonObject object = QJsonDocument::fromJson(current->json).object();
    const QJsonObject currentScale = scaleOf(object);
    if (request.method == "GET") {
        sendJson(connection, 200, currentScale);
        return;
    }
    QJsonObject wanted;
    if (request.method == "PUT") {
        std::optional<QJsonObject> body = parseBody(connection, request);
        if (!body)
            return;
        wanted = *body;
    } else if (request.method == "PATCH") {
        const QByteArray contentType = request.header("content-type").split(';').value(0).trimmed().toLower();
        const QJsonDocument patchDocument = QJsonDocument::fromJson(request.body);
        if (contentType == "application/json-patch+json") {
            QString error;
            const std::optional<QJsonObject> result = JsonPatch::jsonPatch(currentScale, patchDocument.array(), &error);
            if (!result) {
                sendError(connection, ApiError::invalid(route.type, route.name, error));
                return;
            }
            wanted = *result;
        } else {
            wanted = JsonPatch::mergePatch(currentScale, patchDocument.object());
        }
    } else {
        sendError(connection, ApiError::methodNotAllowed());
        return;
    }
    const int replicas = wanted.value(u"spec").toObject().value(u"replicas").toInt(-1);
    if (replicas < 0) {
        sendError(connection, ApiError::invalid(route.type, route.name, u"spec.replicas: Invalid value: must be greater than or equal to 0"_s));
        return;
    }
    QJsonObject spec = object.value(u"spec").toObject();
    spec.insert(u"replicas"_s, replicas);
    object.insert(u"spec"_s, spec);
    QJsonObject metadata = object.value(u"metadata").toObject();
    metadata.insert(u"resourceVersion"_s, wanted.value(u"metadata").toObject().value(u"resourceVersion").toString(QString::number(current->resourceVersion)));
    object.insert(u"metadata"_s, metadata);
    const ObjectStore::WriteResult result = m_store->update(route.type, object);
    if (!result.ok()) {
        sendError(connection, *result.error);
        return;
    }
    sendJson(connection, 200, scaleOf(QJsonDocument::fromJson(result.object->json).object()));
}

} // namespace Cachescope::Sim
