#include "core/sim/resourceroute.h"

namespace Cachescope::Sim {

std::optional<ResourceRoute> ResourceRoute::resolve(const QStringList &segments, const ResourceCatalog &catalog)
{
    ResourceRoute route;
    QString group;
    QString version;
    QStringList rest;
    const QString first = segments.value(0);
    if (first == u"api" && segments.size() >= 3) {
        version = segments.at(1);
        rest = segments.mid(2);
    } else if (first == u"apis" && segments.size() >= 4) {
        group = segments.at(1);
        version = segments.at(2);
        rest = segments.mid(3);
    } else {
        return std::nullopt;
    }
    if (rest.value(0) == u"watch") {
        route.watchPath = true;
        rest.removeFirst();
    }
    if (rest.value(0) == u"namespaces" && rest.size() >= 3 && catalog.find(group, version, rest.at(2)).namespaced) {
        route.namespaceName = rest.at(1);
        rest = rest.mid(2);
    }
    route.type = catalog.find(group, version, rest.value(0));
    route.name = rest.value(1);
    route.subresource = rest.value(2);
    if (!route.type.isValid() || rest.size() > 3 || (!route.type.namespaced && !route.namespaceName.isEmpty()) ||
        (!route.subresource.isEmpty() && !route.type.subresources.contains(route.subresource))) {
        return std::nullopt;
    }
    return route;
}

} // namespace Cachescope::Sim
