#pragma once

#include "core/sim/resourcecatalog.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace Cachescope::Sim {

// ResourceRoute is what the path of a resource request names: /api/v1/... or
// /apis/GROUP/VERSION/..., an optional /watch/ (the old watch form), /namespaces/NAMESPACE/ for
// a namespaced resource, then the plural, a name and a subresource. A value type.
struct ResourceRoute
{
    ResourceType type;
    QString namespaceName; // empty: every namespace, or a cluster-scoped resource
    QString name; // empty: the collection
    QString subresource; // "status", "scale", "log" or empty
    bool watchPath = false;

    [[nodiscard]] bool isCollection() const { return name.isEmpty(); }

    // The route of a path split at '/' (empty parts skipped), or nothing when it names no
    // resource of catalog, no subresource the resource has, or a namespace for a cluster-scoped
    // resource: the apiserver's 404 for a path.
    [[nodiscard]] static std::optional<ResourceRoute> resolve(const QStringList &segments, const ResourceCatalog &catalog);
};

} // namespace Cachescope::Sim
