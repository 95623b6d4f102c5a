#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Cachescope::Sim {

// ResourceType describes one served resource as discovery announces it.
struct ResourceType
{
    QString group; // empty for the core group
    QString version;
    QString kind;
    QString plural;
    QString singular;
    bool namespaced = true;
    QStringList shortNames;
    QStringList categories;
    QStringList subresources; // "status", "scale", "log"
    bool custom = false; // served because of a CustomResourceDefinition
    // A custom resource's `additionalPrinterColumns` (name, type, jsonPath, description,
    // priority), as its CustomResourceDefinition declares them; what `kubectl get` shows.
    QJsonArray printerColumns;

    // "pods", "deployments.apps": the name the store, truth() and `kubectl get` use.
    [[nodiscard]] QString id() const { return group.isEmpty() ? plural : plural + u'.' + group; }
    [[nodiscard]] QString groupVersion() const { return group.isEmpty() ? version : group + u'/' + version; }
    [[nodiscard]] QString listKind() const { return kind + QStringLiteral("List"); }
    [[nodiscard]] bool isValid() const { return !plural.isEmpty(); }
};

// ResourceCatalog is the fixed set of resources the simulator serves: the built-in kinds
// issue 3 lists (core/v1, apps/v1, batch/v1, apiextensions.k8s.io/v1) and one custom resource,
// `widgets.demo.cachescope.io`, whose CustomResourceDefinition is also an object in the store.
// Immutable after construction; safe to share between threads.
class ResourceCatalog
{
public:
    ResourceCatalog();

    [[nodiscard]] const QList<ResourceType> &resources() const { return m_resources; }
    // Lookup by group, version and plural, as a request path names a resource.
    [[nodiscard]] ResourceType find(const QString &group, const QString &version, const QString &plural) const;
    [[nodiscard]] ResourceType findById(const QString &id) const;
    // Groups other than core, in discovery order, each with its one version.
    [[nodiscard]] QStringList groups() const;
    [[nodiscard]] QList<ResourceType> resourcesOf(const QString &group, const QString &version) const;

    static QString customGroup() { return QStringLiteral("demo.cachescope.io"); }

private:
    QList<ResourceType> m_resources;
};

} // namespace Cachescope::Sim
