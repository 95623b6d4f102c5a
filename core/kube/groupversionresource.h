#pragma once

#include <QHashFunctions>
#include <QMetaType>
#include <QString>

namespace Cachescope {

// GroupVersionResource names a collection of the Kubernetes API (client-go's
// schema.GroupVersionResource): group ("" for the core group), version and plural resource.
// Value type; isValid() when version and resource are set.
class GroupVersionResource
{
public:
    GroupVersionResource() = default;
    GroupVersionResource(QString group, QString version, QString resource);

    QString group() const { return m_group; }
    QString version() const { return m_version; }
    QString resource() const { return m_resource; }
    bool isValid() const { return !m_version.isEmpty() && !m_resource.isEmpty(); }

    // groupVersion() is "v1" for the core group, "apps/v1" otherwise (an apiVersion).
    QString groupVersion() const;
    // toString() is kubectl's fully qualified form: "pods.v1." is written "pods.v1",
    // "deployments.v1.apps".
    QString toString() const;
    // collectionPath() is the URL path of the collection, in a namespace when ns is not empty:
    // "/api/v1/namespaces/ns/pods", "/apis/apps/v1/deployments".
    QString collectionPath(const QString &ns = {}) const;

    friend bool operator==(const GroupVersionResource &a, const GroupVersionResource &b)
    {
        return a.m_group == b.m_group && a.m_version == b.m_version && a.m_resource == b.m_resource;
    }
    friend size_t qHash(const GroupVersionResource &gvr, size_t seed = 0) { return qHashMulti(seed, gvr.m_group, gvr.m_version, gvr.m_resource); }

private:
    QString m_group;
    QString m_version;
    QString m_resource;
};

} // namespace Cachescope

Q_DECLARE_METATYPE(Cachescope::GroupVersionResource)
