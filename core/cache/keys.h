#pragma once

#include "core/cache/delta.h"
#include "core/cache/kubeobject.h"

#include <QString>
#include <QStringView>

#include <functional>
#include <optional>

namespace Cachescope {

// KeyFunction maps an object to the key it is stored and queued under. Every key function must
// be deterministic; the default one is metaNamespaceKey().
using KeyFunction = std::function<QString(const KubeObject &)>;

// metaNamespaceKey() is client-go's MetaNamespaceKeyFunc: `namespace/name`, or `name` for a
// cluster-scoped object. Empty for an invalid object.
QString metaNamespaceKey(const KubeObject &object);

// deletionHandlingMetaNamespaceKey() is client-go's DeletionHandlingMetaNamespaceKeyFunc: a
// tombstone gives the key it was queued under, anything else metaNamespaceKey().
QString deletionHandlingMetaNamespaceKey(const DeltaObject &object);

// NamespacedName is a key split into its parts; `namespaceName` is empty for cluster scope.
struct NamespacedName
{
    QString namespaceName;
    QString name;

    friend bool operator==(const NamespacedName &, const NamespacedName &) = default;
};

// splitMetaNamespaceKey() is client-go's SplitMetaNamespaceKey: `ns/name` or `name`; a key with
// more than one slash is malformed and yields std::nullopt.
[[nodiscard]] std::optional<NamespacedName> splitMetaNamespaceKey(QStringView key);

} // namespace Cachescope
