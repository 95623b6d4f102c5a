#include "core/kube/discoveryresult.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QStringList toStringList(const QJsonValue &value)
{
    QStringList list;
    const QJsonArray array = value.toArray();
    for (const QJsonValue &item : array) {
        list.append(item.toString());
    }
    return list;
}

std::variant<QJsonObject, QString> parseObject(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        return u"not valid JSON: "_s + error.errorString();
    }
    if (!document.isObject()) {
        return u"not a JSON object"_s;
    }
    return document.object();
}

} // namespace

bool DiscoveryResult::isAggregated(const QByteArray &body)
{
    const auto parsed = parseObject(body);
    return std::holds_alternative<QJsonObject>(parsed) && std::get<QJsonObject>(parsed).value(u"kind"_s).toString() == u"APIGroupDiscoveryList"_s;
}

std::variant<QList<ApiResource>, QString> DiscoveryResult::parseAggregated(const QByteArray &body)
{
    auto parsed = parseObject(body);
    if (auto *error = std::get_if<QString>(&parsed)) {
        return *error;
    }
    const QJsonObject root = std::get<QJsonObject>(parsed);
    if (root.value(u"kind"_s).toString() != u"APIGroupDiscoveryList"_s) {
        return u"not an APIGroupDiscoveryList"_s;
    }
    QList<ApiResource> resources;
    const QJsonArray groups = root.value(u"items"_s).toArray();
    for (const QJsonValue &groupValue : groups) {
        const QJsonObject group = groupValue.toObject();
        const QString groupName = group.value(u"metadata"_s).toObject().value(u"name"_s).toString();
        const QJsonArray versions = group.value(u"versions"_s).toArray();
        bool first = true; // the server lists the preferred version first
        for (const QJsonValue &versionValue : versions) {
            const QJsonObject version = versionValue.toObject();
            const QString versionName = version.value(u"version"_s).toString();
            const QJsonArray list = version.value(u"resources"_s).toArray();
            for (const QJsonValue &resourceValue : list) {
                const QJsonObject resource = resourceValue.toObject();
                ApiResource entry;
                entry.gvr = GroupVersionResource(groupName, versionName, resource.value(u"resource"_s).toString());
                entry.kind = resource.value(u"responseKind"_s).toObject().value(u"kind"_s).toString();
                entry.singularName = resource.value(u"singularResource"_s).toString();
                entry.namespaced = resource.value(u"scope"_s).toString() == u"Namespaced"_s;
                entry.verbs = toStringList(resource.value(u"verbs"_s));
                entry.shortNames = toStringList(resource.value(u"shortNames"_s));
                entry.categories = toStringList(resource.value(u"categories"_s));
                entry.preferredVersion = first;
                if (entry.gvr.isValid()) {
                    resources.append(entry);
                }
            }
            first = false;
        }
    }
    return resources;
}

std::variant<QList<DiscoveryResult::GroupVersions>, QString> DiscoveryResult::parseLegacyGroups(const QByteArray &body, bool coreApiVersions)
{
    auto parsed = parseObject(body);
    if (auto *error = std::get_if<QString>(&parsed)) {
        return *error;
    }
    const QJsonObject root = std::get<QJsonObject>(parsed);
    QList<GroupVersions> result;
    if (coreApiVersions) {
        // /api answers APIVersions: {"versions":["v1"]}.
        const QStringList versions = toStringList(root.value(u"versions"_s));
        if (versions.isEmpty()) {
            return u"APIVersions lists no versions"_s;
        }
        result.append({QString(), versions});
        return result;
    }
    if (root.value(u"kind"_s).toString() != u"APIGroupList"_s) {
        return u"not an APIGroupList"_s;
    }
    const QJsonArray groups = root.value(u"groups"_s).toArray();
    for (const QJsonValue &groupValue : groups) {
        const QJsonObject group = groupValue.toObject();
        GroupVersions entry;
        entry.group = group.value(u"name"_s).toString();
        const QString preferred = group.value(u"preferredVersion"_s).toObject().value(u"version"_s).toString();
        if (!preferred.isEmpty()) {
            entry.versions.append(preferred);
        }
        const QJsonArray versions = group.value(u"versions"_s).toArray();
        for (const QJsonValue &version : versions) {
            const QString name = version.toObject().value(u"version"_s).toString();
            if (!name.isEmpty() && !entry.versions.contains(name)) {
                entry.versions.append(name);
            }
        }
        result.append(entry);
    }
    return result;
}

std::variant<QList<ApiResource>, QString> DiscoveryResult::parseLegacyResources(const QByteArray &body, bool preferred)
{
    auto parsed = parseObject(body);
    if (auto *error = std::get_if<QString>(&parsed)) {
        return *error;
    }
    const QJsonObject root = std::get<QJsonObject>(parsed);
    const QString groupVersion = root.value(u"groupVersion"_s).toString();
    if (groupVersion.isEmpty()) {
        return u"not an APIResourceList"_s;
    }
    const qsizetype slash = groupVersion.indexOf(u'/');
    const QString group = slash < 0 ? QString() : groupVersion.left(slash);
    const QString version = groupVersion.mid(slash + 1);
    QList<ApiResource> resources;
    const QJsonArray list = root.value(u"resources"_s).toArray();
    for (const QJsonValue &value : list) {
        const QJsonObject resource = value.toObject();
        const QString name = resource.value(u"name"_s).toString();
        if (name.isEmpty() || name.contains(u'/')) {
            continue; // subresources (pods/log) are not collections
        }
        ApiResource entry;
        // A resource may live in another group-version than the list's (rare, but legal).
        const QString ownGroup = resource.contains(u"group"_s) ? resource.value(u"group"_s).toString() : group;
        const QString ownVersion = resource.contains(u"version"_s) ? resource.value(u"version"_s).toString() : version;
        entry.gvr = GroupVersionResource(ownGroup, ownVersion, name);
        entry.kind = resource.value(u"kind"_s).toString();
        entry.singularName = resource.value(u"singularName"_s).toString();
        entry.namespaced = resource.value(u"namespaced"_s).toBool();
        entry.verbs = toStringList(resource.value(u"verbs"_s));
        entry.shortNames = toStringList(resource.value(u"shortNames"_s));
        entry.categories = toStringList(resource.value(u"categories"_s));
        entry.preferredVersion = preferred;
        resources.append(entry);
    }
    return resources;
}

QList<ApiResource> DiscoveryResult::preferredResources() const
{
    QList<ApiResource> result;
    for (const ApiResource &resource : resources) {
        if (resource.preferredVersion) {
            result.append(resource);
        }
    }
    return result;
}

std::variant<ApiResource, QString> DiscoveryResult::resolve(const QString &name) const
{
    const QString wanted = name.trimmed();
    if (wanted.isEmpty()) {
        return u"no resource type given"_s;
    }
    const QString lower = wanted.toLower();
    const auto matchesName = [](const ApiResource &resource, const QString &text, const QString &textLower) {
        // Kinds are matched as typed or case-insensitively ("Deployment", "deployment").
        return resource.gvr.resource() == textLower || resource.singularName == textLower || resource.shortNames.contains(textLower) ||
            resource.kind.toLower() == textLower || resource.kind == text;
    };

    // "resource.version.group" (kubectl's fully specified form) first…
    const QStringList parts = wanted.split(u'.');
    if (parts.size() >= 3) {
        const QString group = parts.mid(2).join(u'.');
        for (const ApiResource &resource : resources) {
            if (resource.gvr.group() == group && resource.gvr.version() == parts.at(1) && matchesName(resource, parts.at(0), parts.at(0).toLower())) {
                return resource;
            }
        }
    }
    // …then "resource.group" in the group's preferred version…
    if (parts.size() >= 2) {
        const QString group = parts.mid(1).join(u'.');
        const ApiResource *fallback = nullptr;
        for (const ApiResource &resource : resources) {
            if (resource.gvr.group() == group && matchesName(resource, parts.at(0), parts.at(0).toLower())) {
                if (resource.preferredVersion) {
                    return resource;
                }
                if (!fallback) {
                    fallback = &resource;
                }
            }
        }
        if (fallback) {
            return *fallback;
        }
    }
    // …then a bare name, kind or short name: first preferred match in discovery order, which
    // puts the core group first (so "events" is v1 events, not events.k8s.io).
    const ApiResource *fallback = nullptr;
    for (const ApiResource &resource : resources) {
        if (matchesName(resource, wanted, lower)) {
            if (resource.preferredVersion) {
                return resource;
            }
            if (!fallback) {
                fallback = &resource;
            }
        }
    }
    if (fallback) {
        return *fallback;
    }
    return u"the server doesn't have a resource type \"%1\""_s.arg(wanted);
}

} // namespace Cachescope
