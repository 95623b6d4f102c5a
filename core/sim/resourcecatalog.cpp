#include "core/sim/resourcecatalog.h"

#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

ResourceCatalog::ResourceCatalog()
{
    auto add = [this](const QString &group,
                      const QString &kind,
                      const QString &plural,
                      bool namespaced,
                      const QStringList &shortNames,
                      const QStringList &subresources,
                      bool inAll) {
        ResourceType type;
        type.group = group;
        type.version = u"v1"_s;
        type.kind = kind;
        type.plural = plural;
        type.singular = kind.toLower();
        type.namespaced = namespaced;
        type.shortNames = shortNames;
        type.subresources = subresources;
        if (inAll)
            type.categories = {u"all"_s};
        m_resources.append(type);
    };
    const QString core;
    add(core, u"Namespace"_s, u"namespaces"_s, false, {u"ns"_s}, {u"status"_s}, false);
    add(core, u"Node"_s, u"nodes"_s, false, {u"no"_s}, {u"status"_s}, false);
    add(core, u"Pod"_s, u"pods"_s, true, {u"po"_s}, {u"status"_s, u"log"_s}, true);
    add(core, u"Service"_s, u"services"_s, true, {u"svc"_s}, {u"status"_s}, true);
    add(core, u"Endpoints"_s, u"endpoints"_s, true, {u"ep"_s}, {}, false);
    add(core, u"ConfigMap"_s, u"configmaps"_s, true, {u"cm"_s}, {}, false);
    add(core, u"Secret"_s, u"secrets"_s, true, {}, {}, false);
    add(core, u"Event"_s, u"events"_s, true, {u"ev"_s}, {}, false);
    add(core, u"ServiceAccount"_s, u"serviceaccounts"_s, true, {u"sa"_s}, {}, false);
    add(u"apps"_s, u"Deployment"_s, u"deployments"_s, true, {u"deploy"_s}, {u"status"_s, u"scale"_s}, true);
    add(u"apps"_s, u"ReplicaSet"_s, u"replicasets"_s, true, {u"rs"_s}, {u"status"_s, u"scale"_s}, true);
    add(u"apps"_s, u"StatefulSet"_s, u"statefulsets"_s, true, {u"sts"_s}, {u"status"_s, u"scale"_s}, true);
    add(u"apps"_s, u"DaemonSet"_s, u"daemonsets"_s, true, {u"ds"_s}, {u"status"_s}, true);
    add(u"batch"_s, u"Job"_s, u"jobs"_s, true, {}, {u"status"_s}, true);
    add(u"apiextensions.k8s.io"_s, u"CustomResourceDefinition"_s, u"customresourcedefinitions"_s, false, {u"crd"_s, u"crds"_s}, {u"status"_s}, false);
    add(customGroup(), u"Widget"_s, u"widgets"_s, true, {u"wdg"_s}, {}, false);
    m_resources.last().custom = true;
    m_resources.last().categories = {u"all"_s};
    const auto printerColumn = [](const QString &name, const QString &type, const QString &jsonPath, const QString &description) {
        return QJsonObject{{u"name"_s, name}, {u"type"_s, type}, {u"jsonPath"_s, jsonPath}, {u"description"_s, description}};
    };
    m_resources.last().printerColumns = {
        printerColumn(u"Color"_s, u"string"_s, u".spec.color"_s, u"The widget's color."_s),
        printerColumn(u"Size"_s, u"integer"_s, u".spec.size"_s, u"How big the widget is."_s),
        printerColumn(u"Age"_s, u"date"_s, u".metadata.creationTimestamp"_s, {}),
    };
}

ResourceType ResourceCatalog::find(const QString &group, const QString &version, const QString &plural) const
{
    for (const ResourceType &type : m_resources) {
        if (type.group == group && type.version == version && type.plural == plural)
            return type;
    }
    return {};
}

ResourceType ResourceCatalog::findById(const QString &id) const
{
    for (const ResourceType &type : m_resources) {
        if (type.id() == id)
            return type;
    }
    return {};
}

QStringList ResourceCatalog::groups() const
{
    QStringList result;
    for (const ResourceType &type : m_resources) {
        if (!type.group.isEmpty() && !result.contains(type.group))
            result.append(type.group);
    }
    return result;
}

QList<ResourceType> ResourceCatalog::resourcesOf(const QString &group, const QString &version) const
{
    QList<ResourceType> result;
    for (const ResourceType &type : m_resources) {
        if (type.group == group && type.version == version)
            result.append(type);
    }
    return result;
}

} // namespace Cachescope::Sim
