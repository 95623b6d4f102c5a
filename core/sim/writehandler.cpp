#include "core/sim/writehandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/objectstore.h"

#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

WriteHandler::WriteHandler(ObjectStore *store, const ResourceCatalog *catalog)
    : m_store(store)
    , m_catalog(catalog)
{
}

void WriteHandler::create(const ApiCall &call)
{
    const ResourceRoute &route = call.route;
    std::optional<QJsonObject> body = call.readBody();
    if (!body)
        return;
    QJsonObject metadata = body->value(u"metadata").toObject();
    if (route.type.namespaced) {
        const QString bodyNamespace = metadata.value(u"namespace").toString();
        if (route.namespaceName.isEmpty()) {
            call.sendError(ApiError::methodNotAllowed());
            return;
        }
        if (!bodyNamespace.isEmpty() && bodyNamespace != route.namespaceName) {
            call.sendError(ApiError::badRequest(u"the namespace of the provided object does not match the namespace sent on the request"_s));
            return;
        }
        const ResourceType namespaces = m_catalog->find(QString(), u"v1"_s, u"namespaces"_s);
        if (!m_store->get(namespaces, QString(), route.namespaceName)) {
            call.sendError(ApiError::notFound(namespaces, route.namespaceName));
            return;
        }
        metadata.insert(u"namespace"_s, route.namespaceName);
        body->insert(u"metadata"_s, metadata);
    }
    if (route.type.kind == u"Pod" && !body->value(u"status").toObject().contains(u"phase")) {
        // No kubelet will pick it up; it stays where the scheduler would first leave it.
        body->insert(u"status"_s, QJsonObject{{u"phase"_s, u"Pending"_s}, {u"qosClass"_s, u"BestEffort"_s}});
    }
    if (call.request.queryValue(u"dryRun"_s) == u"All") {
        call.sendJson(201, *body);
        return;
    }
    const ObjectStore::WriteResult result = m_store->create(route.type, *body);
    if (!result.ok()) {
        call.sendError(*result.error);
        return;
    }
    call.sendObject(201, result.object);
}

void WriteHandler::replace(const ApiCall &call)
{
    const ResourceRoute &route = call.route;
    std::optional<QJsonObject> body = call.readBody();
    if (!body)
        return;
    QJsonObject metadata = body->value(u"metadata").toObject();
    if (metadata.value(u"name").toString() != route.name) {
        call.sendError(
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
            call.sendError(ApiError::notFound(route.type, route.name));
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
        call.sendError(*result.error);
        return;
    }
    call.sendObject(200, result.object);
}

} // namespace Cachescope::Sim
