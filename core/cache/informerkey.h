#pragma once

#include "core/kube/apiresource.h"

#include <QHashFunctions>
#include <QString>

namespace Cachescope {

// InformerKey says which informer of a cluster is meant: a resource, one namespace (empty = all,
// or the resource is cluster-scoped), the selectors sent to the server, and whether only
// metadata is listed. Two requests with equal canonical() keys share one informer
// (InformerFactory), so `-l a=b,c=d` and `-l c=d,a=b` are one informer. Plain value type.
struct InformerKey
{
    ApiResource resource;
    QString namespaceName;
    QString labelSelector;
    QString fieldSelector;
    bool metadataOnly = false;

    // name() is how the UI and the CLI name the informer: "pods", "deployments.apps",
    // "pods -n shop -l app=web", "pods (metadata)".
    QString name() const;
    // canonical() is the key with its selectors in LabelSelector's and FieldSelector's canonical
    // form. A selector that does not parse stays as written: the server answers for it.
    [[nodiscard]] InformerKey canonical() const;

    friend bool operator==(const InformerKey &a, const InformerKey &b)
    {
        return a.resource.gvr == b.resource.gvr && a.namespaceName == b.namespaceName && a.labelSelector == b.labelSelector &&
            a.fieldSelector == b.fieldSelector && a.metadataOnly == b.metadataOnly;
    }
};

size_t qHash(const InformerKey &key, size_t seed = 0) noexcept;

} // namespace Cachescope
