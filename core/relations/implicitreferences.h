#pragma once

#include "core/relations/relationedge.h"

#include <QJsonObject>

namespace Cachescope {

// ImplicitReferences reads the relations an object writes in its spec, other than
// ownerReferences: what a Pod mounts and references (volumes: configMap, secret,
// persistentVolumeClaim and the configMap and secret sources of a projected volume; envFrom and
// env valueFrom configMapKeyRef/secretKeyRef of its containers, init and ephemeral containers
// included; serviceAccountName; imagePullSecrets; nodeName), a HorizontalPodAutoscaler's
// scaleTargetRef and an Ingress's backend Services (default backend and every rule's paths).
// Each edge goes from the object to a reference by kind, namespace and name, Unresolved (a
// RelationService looks the target up). Selector edges need the selected objects and are the
// service's. Edges come in the order the spec lists them; the same target named twice in the
// same way appears once. Pure functions; cost linear in the object's JSON.
class ImplicitReferences
{
public:
    // of() reads the found object of `from`, whose kind says what to read (items of a list carry
    // no kind of their own); fromJson() reads a parsed object (its kind when `from` has none).
    [[nodiscard]] static RelationEdges of(const ObjectRef &from);
    [[nodiscard]] static RelationEdges fromJson(const QJsonObject &object, const ObjectRef &from);
};

} // namespace Cachescope
