#include "core/relations/objectref.h"

namespace Cachescope {

ObjectRef ObjectRef::of(const KubeObject &object, const QString &kind, const QString &apiVersion)
{
    ObjectRef ref;
    ref.apiVersion = apiVersion.isEmpty() ? object.apiVersion() : apiVersion;
    ref.kind = kind.isEmpty() ? object.kind() : kind;
    ref.namespaceName = object.namespaceName();
    ref.name = object.name();
    ref.uid = object.uid();
    ref.object = object;
    ref.resolution = object.isValid() ? Resolution::Found : Resolution::Unresolved;
    return ref;
}

} // namespace Cachescope
