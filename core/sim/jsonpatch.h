#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Cachescope::Sim {

// JsonPatch applies the three patch formats `kubectl label/annotate/scale/patch` send:
// RFC 7386 JSON merge patch, Kubernetes strategic merge patch (merge patch plus lists of
// objects merged by their merge key — `name` for containers, ports, env, volumes; `type` for
// conditions — and the `$patch: delete`/`$patch: replace` and `$setElementOrder`/`$retainKeys`
// directives, the latter two accepted and ignored), and RFC 6902 JSON patch (add, remove,
// replace, test). Pure functions; on error they return nothing and set *error.
class JsonPatch
{
public:
    [[nodiscard]] static QJsonObject mergePatch(const QJsonObject &target, const QJsonObject &patch);
    [[nodiscard]] static QJsonObject strategicMergePatch(const QJsonObject &target, const QJsonObject &patch);
    [[nodiscard]] static std::optional<QJsonObject> jsonPatch(const QJsonObject &target, const QJsonArray &operations, QString *error);
};

} // namespace Cachescope::Sim
