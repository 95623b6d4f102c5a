#include "core/sim/storedobject.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

QString StoredObject::fieldValue(const QString &field) const
{
    if (field == u"metadata.name")
        return name;
    if (field == u"metadata.namespace")
        return namespaceName;
    if (field == u"spec.nodeName")
        return nodeName;
    if (field == u"status.phase")
        return phase;
    return selectableFields.value(field);
}

QByteArray StoreEvent::typeName(StoreEventType eventType)
{
    switch (eventType) {
    case StoreEventType::Added:
        return "ADDED";
    case StoreEventType::Modified:
        return "MODIFIED";
    case StoreEventType::Deleted:
        return "DELETED";
    }
    return "ERROR";
}

const QByteArray &StoreEvent::frame() const
{
    if (m_frame.isEmpty()) {
        m_frame.reserve(object->json.size() + 32);
        m_frame += "{\"type\":\"" + typeName(type) + "\",\"object\":";
        m_frame += object->json;
        m_frame += "}\n";
    }
    return m_frame;
}

} // namespace Cachescope::Sim
