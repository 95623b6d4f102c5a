#include "core/cache/keys.h"

#include <QStringBuilder>

namespace Cachescope {

QString metaNamespaceKey(const KubeObject &object)
{
    if (!object.isValid()) {
        return {};
    }
    const QString ns = object.namespaceName();
    if (ns.isEmpty()) {
        return object.name();
    }
    return ns % QLatin1Char('/') % object.name();
}

QString deletionHandlingMetaNamespaceKey(const DeltaObject &object)
{
    if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
        return tombstone->key;
    }
    return metaNamespaceKey(std::get<KubeObject>(object));
}

std::optional<NamespacedName> splitMetaNamespaceKey(QStringView key)
{
    const qsizetype slash = key.indexOf(QLatin1Char('/'));
    if (slash < 0) {
        return NamespacedName{QString(), key.toString()};
    }
    if (key.indexOf(QLatin1Char('/'), slash + 1) >= 0) {
        return std::nullopt;
    }
    return NamespacedName{key.left(slash).toString(), key.mid(slash + 1).toString()};
}

} // namespace Cachescope
