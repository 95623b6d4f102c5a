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

QByteArray objectListJson(const QList<KubeObject> &objects)
{
    qsizetype size = 96;
    for (const KubeObject &object : objects) {
        size += object.json().size() + 1;
    }
    QByteArray out;
    out.reserve(size);
    out += R"({"apiVersion":"v1","items":[)";
    for (qsizetype i = 0; i < objects.size(); ++i) {
        if (i > 0) {
            out += ',';
        }
        out += objects.at(i).json();
    }
    out += R"(],"kind":"List","metadata":{"resourceVersion":""}})";
    return out;
}

} // namespace Cachescope
