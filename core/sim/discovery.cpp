#include "core/sim/discovery.h"

#include <QJsonArray>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
QJsonArray verbs()
{
    // deletecollection is not served, so it is not announced: discovery must not promise more
    // than the server does.
    return QJsonArray{u"create"_s, u"delete"_s, u"get"_s, u"list"_s, u"patch"_s, u"update"_s, u"watch"_s};
}

QJsonArray subresourceVerbs(const QString &subresource)
{
    // pods/log is read-only, as the apiserver announces it.
    if (subresource == u"log")
        return QJsonArray{u"get"_s};
    return QJsonArray{u"get"_s, u"patch"_s, u"update"_s};
}

QJsonObject groupVersionEntry(const QString &group, const QString &version)
{
    return QJsonObject{{u"groupVersion"_s, QString(group + u'/' + version)}, {u"version"_s, version}};
}
} // namespace

QJsonObject Discovery::version()
{
    return QJsonObject{
        {u"major"_s, u"1"_s},
        {u"minor"_s, u"32"_s},
        {u"gitVersion"_s, u"v1.32.0-cachescope-sim"_s},
        {u"gitCommit"_s, u"0000000000000000000000000000000000000000"_s},
        {u"gitTreeState"_s, u"clean"_s},
        {u"buildDate"_s, u"2024-12-11T00:00:00Z"_s},
        {u"goVersion"_s, u"go1.23.4"_s},
        {u"compiler"_s, u"gc"_s},
        {u"platform"_s, u"linux/amd64"_s},
    };
}

QJsonObject Discovery::apiVersions(const QString &serverAddress)
{
    return QJsonObject{
        {u"kind"_s, u"APIVersions"_s},
        {u"versions"_s, QJsonArray{u"v1"_s}},
        {u"serverAddressByClientCIDRs"_s, QJsonArray{QJsonObject{{u"clientCIDR"_s, u"0.0.0.0/0"_s}, {u"serverAddress"_s, serverAddress}}}},
    };
}

QJsonObject Discovery::apiGroup(const ResourceCatalog &catalog, const QString &group)
{
    QJsonArray versions;
    QString preferred;
    for (const ResourceType &type : catalog.resources()) {
        if (type.group == group && preferred.isEmpty()) {
            preferred = type.version;
            versions.append(groupVersionEntry(group, type.version));
        }
    }
    if (preferred.isEmpty())
        return {};
    return QJsonObject{
        {u"kind"_s, u"APIGroup"_s},
        {u"apiVersion"_s, u"v1"_s},
        {u"name"_s, group},
        {u"versions"_s, versions},
        {u"preferredVersion"_s, groupVersionEntry(group, preferred)},
    };
}

QJsonObject Discovery::apiGroupList(const ResourceCatalog &catalog)
{
    QJsonArray groups;
    for (const QString &group : catalog.groups()) {
        QJsonObject entry = apiGroup(catalog, group);
        entry.remove(u"kind"_s);
        entry.remove(u"apiVersion"_s);
        groups.append(entry);
    }
    return QJsonObject{{u"kind"_s, u"APIGroupList"_s}, {u"apiVersion"_s, u"v1"_s}, {u"groups"_s, groups}};
}

QJsonObject Discovery::apiResourceList(const ResourceCatalog &catalog, const QString &group, const QString &version)
{
    const QList<ResourceType> types = catalog.resourcesOf(group, version);
    if (types.isEmpty())
        return {};
    QJsonArray resources;
    for (const ResourceType &type : types) {
        QJsonObject entry{
            {u"name"_s, type.plural},
            {u"singularName"_s, type.singular},
            {u"namespaced"_s, type.namespaced},
            {u"kind"_s, type.kind},
            {u"verbs"_s, verbs()},
        };
        if (!type.shortNames.isEmpty())
            entry.insert(u"shortNames"_s, QJsonArray::fromStringList(type.shortNames));
        if (!type.categories.isEmpty())
            entry.insert(u"categories"_s, QJsonArray::fromStringList(type.categories));
        resources.append(entry);
        for (const QString &subresource : type.subresources) {
            QJsonObject sub{
                {u"name"_s, QString(type.plural + u'/' + subresource)},
                {u"singularName"_s, QString()},
                {u"namespaced"_s, type.namespaced},
                {u"kind"_s, subresource == u"scale" ? u"Scale"_s : type.kind},
                {u"verbs"_s, subresourceVerbs(subresource)},
            };
            if (subresource == u"scale") {
                sub.insert(u"group"_s, u"autoscaling"_s);
                sub.insert(u"version"_s, u"v1"_s);
            }
            resources.append(sub);
        }
    }
    return QJsonObject{
        {u"kind"_s, u"APIResourceList"_s},
        {u"apiVersion"_s, u"v1"_s},
        {u"groupVersion"_s, group.isEmpty() ? version : QString(group + u'/' + version)},
        {u"resources"_s, resources},
    };
}

QJsonObject Discovery::aggregated(const ResourceCatalog &catalog, bool legacyCore, const QString &apiVersion)
{
    QStringList groups;
    if (legacyCore)
        groups.append(QString());
    else
        groups = catalog.groups();
    QJsonArray items;
    for (const QString &group : groups) {
        QJsonArray resources;
        QString version;
        for (const ResourceType &type : catalog.resources()) {
            if (type.group != group)
                continue;
            version = type.version;
            QJsonObject entry{
                {u"resource"_s, type.plural},
                {u"responseKind"_s, QJsonObject{{u"group"_s, type.group}, {u"version"_s, type.version}, {u"kind"_s, type.kind}}},
                {u"scope"_s, type.namespaced ? u"Namespaced"_s : u"Cluster"_s},
                {u"singularResource"_s, type.singular},
                {u"verbs"_s, verbs()},
            };
            if (!type.shortNames.isEmpty())
                entry.insert(u"shortNames"_s, QJsonArray::fromStringList(type.shortNames));
            if (!type.categories.isEmpty())
                entry.insert(u"categories"_s, QJsonArray::fromStringList(type.categories));
            QJsonArray subresources;
            for (const QString &subresource : type.subresources) {
                const bool scale = subresource == u"scale";
                subresources.append(QJsonObject{
                    {u"subresource"_s, subresource},
                    {u"responseKind"_s,
                     QJsonObject{{u"group"_s, scale ? u"autoscaling"_s : type.group}, {u"version"_s, u"v1"_s}, {u"kind"_s, scale ? u"Scale"_s : type.kind}}},
                    {u"verbs"_s, subresourceVerbs(subresource)},
                });
            }
            if (!subresources.isEmpty())
                entry.insert(u"subresources"_s, subresources);
            resources.append(entry);
        }
        QJsonObject metadata{{u"creationTimestamp"_s, QJsonValue::Null}};
        if (!group.isEmpty())
            metadata.insert(u"name"_s, group);
        items.append(QJsonObject{
            {u"metadata"_s, metadata},
            {u"versions"_s, QJsonArray{QJsonObject{{u"version"_s, version}, {u"resources"_s, resources}, {u"freshness"_s, u"Current"_s}}}},
        });
    }
    return QJsonObject{
        {u"kind"_s, u"APIGroupDiscoveryList"_s},
        {u"apiVersion"_s, QString(u"apidiscovery.k8s.io/"_s + apiVersion)},
        {u"metadata"_s, QJsonObject()},
        {u"items"_s, items},
    };
}

QJsonObject Discovery::openApiV3Root(const ResourceCatalog &catalog)
{
    QJsonObject paths;
    QStringList seen;
    for (const ResourceType &type : catalog.resources()) {
        const QString path = type.group.isEmpty() ? QString(u"api/"_s + type.version) : QString(u"apis/"_s + type.group + u'/' + type.version);
        if (seen.contains(path))
            continue;
        seen.append(path);
        // The hash only has to change when the document does; ours never does.
        paths.insert(path, QJsonObject{{u"serverRelativeURL"_s, QString(u'/' + u"openapi/v3/"_s + path + u"?hash=0"_s)}});
    }
    return QJsonObject{{u"paths"_s, paths}};
}

QJsonObject Discovery::openApiV3Document(const ResourceCatalog &catalog, const QString &gvPath)
{
    QJsonObject paths;
    for (const ResourceType &type : catalog.resources()) {
        const QString path = type.group.isEmpty() ? QString(u"api/"_s + type.version) : QString(u"apis/"_s + type.group + u'/' + type.version);
        if (path != gvPath)
            continue;
        const QString itemPath = u'/' + path + (type.namespaced ? u"/namespaces/{namespace}/"_s : u"/"_s) + type.plural + u"/{name}"_s;
        const QJsonObject gvk{{u"group"_s, type.group}, {u"version"_s, type.version}, {u"kind"_s, type.kind}};
        const QJsonArray parameters{
            QJsonObject{{u"name"_s, u"fieldValidation"_s}, {u"in"_s, u"query"_s}, {u"schema"_s, QJsonObject{{u"type"_s, u"string"_s}}}},
            QJsonObject{{u"name"_s, u"fieldManager"_s}, {u"in"_s, u"query"_s}, {u"schema"_s, QJsonObject{{u"type"_s, u"string"_s}}}},
        };
        paths.insert(itemPath,
                     QJsonObject{{u"patch"_s,
                                  QJsonObject{{u"operationId"_s, QString(u"patch"_s + type.kind)},
                                              {u"x-kubernetes-group-version-kind"_s, gvk},
                                              {u"x-kubernetes-action"_s, u"patch"_s},
                                              {u"parameters"_s, parameters},
                                              {u"responses"_s, QJsonObject{{u"200"_s, QJsonObject{{u"description"_s, u"OK"_s}}}}}}}});
    }
    if (paths.isEmpty())
        return {};
    return QJsonObject{
        {u"openapi"_s, u"3.0.0"_s},
        {u"info"_s, QJsonObject{{u"title"_s, u"Kubernetes"_s}, {u"version"_s, u"v1.32.0"_s}}},
        {u"paths"_s, paths},
    };
}

QByteArray Discovery::aggregatedContentType(const QString &apiVersion)
{
    return "application/json;g=apidiscovery.k8s.io;v=" + apiVersion.toLatin1() + ";as=APIGroupDiscoveryList";
}

} // namespace Cachescope::Sim
