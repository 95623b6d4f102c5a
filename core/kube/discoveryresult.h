#pragma once

#include "core/kube/apiresource.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <variant>

namespace Cachescope {

// DiscoveryResult is what discovery found on a server: its version, every resource of every
// group-version in the server's priority order (core group first), and the group-versions that
// could not be read (an aggregated API whose backend is down must not hide everything else;
// kubectl warns the same way). resolve() maps a name as typed at kubectl — "po", "pods", "pod",
// "Deployment", "deployments.apps", "deployments.v1.apps" — to one resource, with kubectl's
// preferences: the preferred version of a group, the earlier group in discovery order.
//
// The static parse functions decode the wire formats: aggregated discovery
// (apidiscovery.k8s.io v2 and v2beta1 APIGroupDiscoveryList), and the legacy APIVersions,
// APIGroupList and APIResourceList. Value type; parsing is linear in the document.
class DiscoveryResult
{
public:
    struct GroupVersions
    {
        QString group;
        QStringList versions; // preferred first
    };

    QString gitVersion;
    QList<ApiResource> resources;
    QStringList failedGroupVersions;

    // preferredResources() is one entry per group and resource, in its preferred version.
    QList<ApiResource> preferredResources() const;
    [[nodiscard]] std::variant<ApiResource, QString> resolve(const QString &name) const;

    // isAggregated() says whether a /api or /apis answer is an aggregated discovery document.
    [[nodiscard]] static bool isAggregated(const QByteArray &body);
    [[nodiscard]] static std::variant<QList<ApiResource>, QString> parseAggregated(const QByteArray &body);
    [[nodiscard]] static std::variant<QList<GroupVersions>, QString> parseLegacyGroups(const QByteArray &body, bool coreApiVersions);
    [[nodiscard]] static std::variant<QList<ApiResource>, QString> parseLegacyResources(const QByteArray &body, bool preferred);
};

} // namespace Cachescope
Q_DECLARE_METATYPE(Cachescope::DiscoveryResult)
