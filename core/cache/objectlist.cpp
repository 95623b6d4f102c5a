#include "core/cache/objectlist.h"

#include <algorithm>

namespace Cachescope {

QList<KubeObject> sortedForListing(QList<KubeObject> objects)
{
    std::sort(objects.begin(), objects.end(), [](const KubeObject &a, const KubeObject &b) {
        const int byNamespace = QString::compare(a.namespaceName(), b.namespaceName());
        return byNamespace != 0 ? byNamespace < 0 : a.name() < b.name();
    });
    return objects;
}

} // namespace Cachescope
