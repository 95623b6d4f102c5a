#include "core/sim/deletehandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/objectstore.h"
#include "core/sim/resourcecatalog.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

DeleteHandler::DeleteHandler(ObjectStore *store, const ResourceCatalog *catalog)
    : m_store(store)
    , m_catalog(catalog)
{
}

void DeleteHandler::serve(const ApiCall &call)
{
    const ResourceRoute &route = call.route;
    QString precondition;
    QString propagation = call.request.queryValue(u"propagationPolicy"_s);
    if (!call.request.body.trimmed().isEmpty()) {
        // DeleteOptions, in JSON or (from typed clients) protobuf.
        const std::optional<QJsonObject> parsed = call.readBody();
        if (!parsed)
            return;
        const QJsonObject &options = *parsed;
        precondition = options.value(u"preconditions").toObject().value(u"resourceVersion").toString();
        const QString uid = options.value(u"preconditions").toObject().value(u"uid").toString();
        const ObjectPtr current = m_store->get(route.type, route.namespaceName, route.name);
        if (current && !uid.isEmpty() && uid != current->uid) {
            call.sendError(ApiError::conflict(route.type, route.name));
            return;
        }
        if (options.contains(u"propagationPolicy"))
            propagation = options.value(u"propagationPolicy").toString();
    }
    const ObjectStore::WriteResult result = m_store->remove(route.type, route.namespaceName, route.name, precondition);
    if (!result.ok()) {
        call.sendError(*result.error);
        return;
    }
    if (propagation != u"Orphan")
        cascadeDelete(route.type, result.object);
    call.sendObject(200, result.object);
}

void DeleteHandler::cascadeDelete(const ResourceType &ownerType, const ObjectPtr &owner)
{
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
            // Most objects do not mention the uid at all; only those that do are parsed.
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

} // namespace Cachescope::Sim
