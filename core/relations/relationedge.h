#pragma once

#include "core/relations/objectref.h"

#include <QList>
#include <QString>

namespace Cachescope {

// RelationEdge is one relation between two objects and where it came from. `from` is the object
// that names the other: a dependent names its owner (OwnerReference), a Pod names its Node,
// volumes and ServiceAccount, a Service or PodDisruptionBudget selects Pods (Selector), an HPA
// names its scale target, an Ingress its backend Services. `detail` says where in `from` the
// relation is written ("volume config", "env DB_PASSWORD", "app=web"), for a person to read.
// Plain value type.
struct RelationEdge
{
    enum class Source {
        OwnerReference,
        Selector,
        Volume,
        EnvFrom,
        Env,
        ServiceAccount,
        ImagePullSecret,
        NodeName,
        ScaleTarget,
        IngressBackend,
    };

    ObjectRef from;
    ObjectRef to;
    Source source = Source::OwnerReference;
    QString detail;

    // sourceName() is the source as the CLI and the UI write it ("ownerReference", "volume",
    // "envFrom", "env", "selector", "serviceAccount", "imagePullSecret", "nodeName",
    // "scaleTarget", "ingressBackend").
    [[nodiscard]] static QString sourceName(Source source);

    friend bool operator==(const RelationEdge &a, const RelationEdge &b)
    {
        return a.from == b.from && a.to == b.to && a.source == b.source && a.detail == b.detail;
    }
};

using RelationEdges = QList<RelationEdge>;

} // namespace Cachescope
