#pragma once

#include "core/cache/delta.h"
#include "core/cache/kubeobject.h"

#include <QMetaType>
#include <QString>

namespace Cachescope {

// Notification is one call an informer makes on a ResourceEventHandler, as a value: what the
// handler buffers hold and what NotificationBatcher hands to a receiver. For Delete, `object` is
// the last known state (invalid when a tombstone knew nothing) and `tombstone` says the final
// state is unknown (DeletedFinalStateUnknown). Cheap to copy.
struct Notification
{
    enum class Type { Add, Update, Delete };

    Type type = Type::Add;
    QString key;
    KubeObject object;
    KubeObject oldObject; // Update only
    bool isInInitialList = false; // Add only
    bool tombstone = false; // Delete only

    static Notification add(const QString &key, const KubeObject &object, bool isInInitialList);
    static Notification update(const QString &key, const KubeObject &oldObject, const KubeObject &newObject);
    static Notification remove(const QString &key, const DeltaObject &object);
};

} // namespace Cachescope

Q_DECLARE_METATYPE(Cachescope::Notification)
