#pragma once

#include "core/cache/kubeobject.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Cachescope {

// OwnerLookup finds the owner an ownerReference names, for the owner-references check: the
// object the owners' informer holds under the owner's key (`namespaceName` is the dependent's
// namespace: owners of a namespaced object live in the same namespace or are cluster-scoped),
// an invalid KubeObject when that informer has no such object, or std::nullopt when no informer
// of the owner's kind is available (the reference cannot be judged). Called from worker threads.
using OwnerLookup = std::function<std::optional<KubeObject>(const QString &namespaceName, const KubeObject::OwnerReference &owner)>;

// ProcessFunctionParameters is how a caller configures a built-in process function: named
// string values (from the CLI's `--param name=value` or the UI's settings) and, for the
// owner-references check, the owner lookup. The typed readers parse a value, fall back to the
// default when the name is absent and say what is wrong otherwise. A plain value.
struct ProcessFunctionParameters
{
    QHash<QString, QString> values;
    OwnerLookup ownerLookup;

    // fromAssignments() reads `name=value` strings; std::nullopt and *error for one without '='
    // or with an empty name.
    [[nodiscard]] static std::optional<ProcessFunctionParameters> fromAssignments(const QStringList &assignments, QString *error = nullptr);

    [[nodiscard]] std::optional<qint64> integer(const QString &name, qint64 defaultValue, qint64 minimum, qint64 maximum, QString *error) const;
    [[nodiscard]] std::optional<double> number(const QString &name, double defaultValue, double minimum, double maximum, QString *error) const;
    [[nodiscard]] std::optional<bool> boolean(const QString &name, bool defaultValue, QString *error) const;
    // list() splits a comma-separated value, trimming items and dropping empty ones.
    [[nodiscard]] QStringList list(const QString &name, const QStringList &defaultValue) const;
};

} // namespace Cachescope
