#pragma once

#include "core/kube/apierror.h"
#include "core/kube/discoveryresult.h"

#include <QObject>
#include <QPointer>

namespace Cachescope {

class ApiClient;

// Discovery asks a server what it offers: /version, then aggregated discovery (one request for
// /api and one for /apis, accepting apidiscovery.k8s.io v2 and v2beta1), falling back to the
// legacy walk (/api, /apis, then one request per group-version) when the server answers with
// plain APIVersions/APIGroupList. Group-versions that fail in the legacy walk are listed in
// the result rather than failing everything (aggregated APIs go down on their own).
// Ends with one finished() or failed(). Lives on the client's thread; owned by its parent.
class Discovery final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Discovery)

public:
    static constexpr const char *acceptAggregated =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
        "application/json";

    explicit Discovery(ApiClient *client, QObject *parent = nullptr);
    void start();
    bool usedAggregated() const { return m_aggregated; }

Q_SIGNALS:
    void finished(const Cachescope::DiscoveryResult &result);
    void failed(const Cachescope::ApiError &error);

private:
    void fetchRoot(const QString &path, bool core);
    void rootDone();
    void fetchGroupVersion(const QString &group, const QString &version, bool preferred, int order);
    void fail(const ApiError &error);
    void maybeFinish();

    QPointer<ApiClient> m_client;
    DiscoveryResult m_result;
    bool m_aggregated = true;
    bool m_failed = false;
    int m_pending = 0;
    QByteArray m_coreBody;
    QByteArray m_groupsBody;
    QList<QList<ApiResource>> m_ordered; // legacy walk results by discovery order
};

} // namespace Cachescope
