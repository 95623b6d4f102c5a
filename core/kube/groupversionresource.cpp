#include "core/kube/groupversionresource.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

GroupVersionResource::GroupVersionResource(QString group, QString version, QString resource)
    : m_group(std::move(group))
    , m_version(std::move(version))
    , m_resource(std::move(resource))
{
}

QString GroupVersionResource::groupVersion() const
{
    return m_group.isEmpty() ? m_version : m_group + u'/' + m_version;
}

QString GroupVersionResource::toString() const
{
    QString text = m_resource + u'.' + m_version;
    if (!m_group.isEmpty()) {
        text += u'.' + m_group;
    }
    return text;
}

QString GroupVersionResource::collectionPath(const QString &ns) const
{
    QString path = m_group.isEmpty() ? QString(u"/api/"_s + m_version) : QString(u"/apis/"_s + m_group + u'/' + m_version);
    if (!ns.isEmpty()) {
        path += u"/namespaces/"_s + ns;
    }
    return path + u'/' + m_resource;
}

} // namespace Cachescope
