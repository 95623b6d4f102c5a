#include "core/sim/scalehandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/jsonpatch.h"
#include "core/sim/objectstore.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

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

} // namespace

ScaleHandler::ScaleHandler(ObjectStore *store)
    : m_store(store)
{
}

void ScaleHandler::serve(const ApiCall &call)
{
    const ResourceRoute &route = call.route;
    const HttpRequest &request = call.request;
    const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
    if (!current) {
        call.sendError(ApiError::notFound(route.type, route.name));
        return;
    }
    QJsonObject object = QJsonDocument::fromJson(current->json).object();
    const QJsonObject currentScale = scaleOf(object);
    if (request.method == "GET") {
        call.sendJson(200, currentScale);
        return;
    }
    QJsonObject wanted;
    if (request.method == "PUT") {
        std::optional<QJsonObject> body = call.readBody();
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
                call.sendError(ApiError::invalid(route.type, route.name, error));
                return;
            }
            wanted = *result;
        } else {
            wanted = JsonPatch::mergePatch(currentScale, patchDocument.object());
        }
    } else {
        call.sendError(ApiError::methodNotAllowed());
        return;
    }
    const int replicas = wanted.value(u"spec").toObject().value(u"replicas").toInt(-1);
    if (replicas < 0) {
        call.sendError(ApiError::invalid(route.type, route.name, u"spec.replicas: Invalid value: must be greater than or equal to 0"_s));
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
        call.sendError(*result.error);
        return;
    }
    call.sendJson(200, scaleOf(QJsonDocument::fromJson(result.object->json).object()));
}

} // namespace Cachescope::Sim
