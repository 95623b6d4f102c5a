#include "core/kube/discovery.h"

#include "core/kube/apiclient.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Discovery::Discovery(ApiClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
}

void Discovery::start()
{
    if (!m_client) {
        fail(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    m_pending = 3;
    m_client->get(u"/version"_s, this, [this](const ApiResponse &response) {
        if (!response.isOk()) {
            fail(response.error);
            return;
        }
        m_result.gitVersion = QJsonDocument::fromJson(response.body).object().value(u"gitVersion"_s).toString();
        --m_pending;
        maybeFinish();
    });
    fetchRoot(u"/api"_s, true);
    fetchRoot(u"/apis"_s, false);
}

void Discovery::fetchRoot(const QString &path, bool core)
{
    ApiRequest request;
    request.path = path;
    request.accept = acceptAggregated;
    m_client->send(request, this, [this, core](const ApiResponse &response) {
        if (!response.isOk()) {
            fail(response.error);
            return;
        }
        (core ? m_coreBody : m_groupsBody) = response.body;
        --m_pending;
        if (!m_coreBody.isNull() && !m_groupsBody.isNull()) {
            rootDone();
        }
    });
}

void Discovery::rootDone()
{
    if (m_failed) {
        return;
    }
    if (DiscoveryResult::isAggregated(m_coreBody) && DiscoveryResult::isAggregated(m_groupsBody)) {
        for (const QByteArray *body : {&m_coreBody, &m_groupsBody}) {
            auto parsed = DiscoveryResult::parseAggregated(*body);
            if (auto *error = std::get_if<QString>(&parsed)) {
                fail(ApiError(ApiError::Kind::Decode, u"aggregated discovery could not be read: "_s + *error));
                return;
            }
            m_result.resources += std::get<QList<ApiResource>>(parsed);
        }
        maybeFinish();
        return;
    }

    // The legacy walk: one request per group-version, results kept in discovery order.
    m_aggregated = false;
    auto core = DiscoveryResult::parseLegacyGroups(m_coreBody, true);
    auto groups = DiscoveryResult::parseLegacyGroups(m_groupsBody, false);
    if (auto *error = std::get_if<QString>(&core)) {
        fail(ApiError(ApiError::Kind::Decode, u"/api could not be read: "_s + *error));
        return;
    }
    if (auto *error = std::get_if<QString>(&groups)) {
        fail(ApiError(ApiError::Kind::Decode, u"/apis could not be read: "_s + *error));
        return;
    }
    const QList<DiscoveryResult::GroupVersions> all = std::get<0>(core) + std::get<0>(groups);
    int order = 0;
    for (const auto &group : all) {
        for (qsizetype i = 0; i < group.versions.size(); ++i) {
            m_ordered.append(QList<ApiResource>());
            fetchGroupVersion(group.group, group.versions.at(i), i == 0, order++);
        }
    }
    maybeFinish();
}

void Discovery::fetchGroupVersion(const QString &group, const QString &version, bool preferred, int order)
{
    ++m_pending;
    const QString path = GroupVersionResource(group, version, u"x"_s).collectionPath().chopped(2);
    m_client->get(path, this, [this, group, version, preferred, order](const ApiResponse &response) {
        --m_pending;
        const QString groupVersion = GroupVersionResource(group, version, {}).groupVersion();
        if (!response.isOk()) {
            m_result.failedGroupVersions.append(groupVersion + u": "_s + response.error.toString());
        } else {
            auto parsed = DiscoveryResult::parseLegacyResources(response.body, preferred);
            if (auto *error = std::get_if<QString>(&parsed)) {
                m_result.failedGroupVersions.append(groupVersion + u": "_s + *error);
            } else {
                m_ordered[order] = std::get<QList<ApiResource>>(parsed);
            }
        }
        maybeFinish();
    });
}

void Discovery::maybeFinish()
{
    if (m_failed || m_pending > 0 || m_coreBody.isNull() || m_groupsBody.isNull()) {
        return;
    }
    for (const QList<ApiResource> &list : std::as_const(m_ordered)) {
        m_result.resources += list;
    }
    m_ordered.clear();
    m_pending = -1; // done; ignore anything late
    Q_EMIT finished(m_result);
}

void Discovery::fail(const ApiError &error)
{
    if (m_failed) {
        return;
    }
    m_failed = true;
    Q_EMIT failed(error);
}

} // namespace Cachescope
