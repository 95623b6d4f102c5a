#include "core/sim/patchhandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/jsonpatch.h"
#include "core/sim/objectstore.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

PatchHandler::PatchHandler(ObjectStore *store)
    : m_store(store)
{
}

void PatchHandler::serve(const ApiCall &call)
{
    const ResourceRoute &route = call.route;
    const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
    if (!current) {
        call.sendError(ApiError::notFound(route.type, route.name));
        return;
    }
    const QByteArray contentType = call.request.header("content-type").split(';').value(0).trimmed().toLower();
    const QJsonObject original = QJsonDocument::fromJson(current->json).object();
    QJsonObject patched;
    QJsonParseError parseError;
    const QJsonDocument patchDocument = QJsonDocument::fromJson(call.request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        call.sendError(ApiError::badRequest(u"the patch is not valid JSON: %1"_s.arg(parseError.errorString())));
        return;
    }
    if (contentType == "application/merge-patch+json") {
        patched = JsonPatch::mergePatch(original, patchDocument.object());
    } else if (contentType == "application/strategic-merge-patch+json") {
        if (route.type.custom) {
            call.sendError(ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
            return;
        }
        patched = JsonPatch::strategicMergePatch(original, patchDocument.object());
    } else if (contentType == "application/json-patch+json") {
        QString error;
        const std::optional<QJsonObject> result = JsonPatch::jsonPatch(original, patchDocument.array(), &error);
        if (!result) {
            call.sendError(ApiError::invalid(route.type, route.name, error));
            return;
        }
        patched = *result;
    } else {
        call.sendError(ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
        return;
    }
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
        call.sendError(*result.error);
        return;
    }
    call.sendObject(200, result.object);
}

} // namespace Cachescope::Sim
