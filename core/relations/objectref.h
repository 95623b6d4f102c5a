#pragma once

#include "core/cache/kubeobject.h"

#include <QString>

namespace Cachescope {

// ObjectRef names one end of a relation: the object's apiVersion, kind, namespace, name and uid,
// and the cached object when a relation service found it. resolution() tells a found object from
// one that exists nowhere (Dangling: the owners' informer has synced and holds no object with
// that name and uid) and from one that cannot be judged yet (Unresolved: its kind is not served,
// or its informer has not synced). References read from an object's spec (a volume's ConfigMap)
// carry no uid. Plain value type, cheap to copy.
struct ObjectRef
{
    enum class Resolution { Found, Dangling, Unresolved };

    QString apiVersion;
    QString kind;
    QString namespaceName;
    QString name;
    QString uid;
    KubeObject object; // invalid unless Found
    Resolution resolution = Resolution::Unresolved;

    [[nodiscard]] bool isFound() const { return resolution == Resolution::Found; }
    [[nodiscard]] bool isDangling() const { return resolution == Resolution::Dangling; }
    // displayName() is "Kind/name", as kubectl-tree writes it.
    [[nodiscard]] QString displayName() const { return kind + u'/' + name; }

    // of() is a found object's reference; `kind` and `apiVersion` override the object's (a
    // metadata-only informer's objects say PartialObjectMetadata).
    [[nodiscard]] static ObjectRef of(const KubeObject &object, const QString &kind = {}, const QString &apiVersion = {});

    friend bool operator==(const ObjectRef &a, const ObjectRef &b)
    {
        return a.apiVersion == b.apiVersion && a.kind == b.kind && a.namespaceName == b.namespaceName && a.name == b.name && a.uid == b.uid &&
            a.resolution == b.resolution;
    }
};

} // namespace Cachescope
