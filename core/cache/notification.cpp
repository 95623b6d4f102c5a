#include "core/cache/notification.h"

namespace Cachescope {

Notification Notification::add(const QString &key, const KubeObject &object, bool isInInitialList)
{
    Notification n;
    n.type = Type::Add;
    n.key = key;
    n.object = object;
    n.isInInitialList = isInInitialList;
    return n;
}

Notification Notification::update(const QString &key, const KubeObject &oldObject, const KubeObject &newObject)
{
    Notification n;
    n.type = Type::Update;
    n.key = key;
    n.object = newObject;
    n.oldObject = oldObject;
    return n;
}

Notification Notification::remove(const QString &key, const DeltaObject &object)
{
    Notification n;
    n.type = Type::Delete;
    n.key = key;
    if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
        n.object = tombstone->object;
        n.tombstone = true;
    } else {
        n.object = std::get<KubeObject>(object);
    }
    return n;
}

} // namespace Cachescope
