#pragma once

#include "core/sim/resourcecatalog.h"

#include <QJsonObject>

namespace Cachescope::Sim {

// Discovery renders the simulator's discovery documents from its ResourceCatalog: /version,
// the legacy /api, /apis, /apis/GROUP and /api[s]/.../VERSION documents, and the aggregated
// APIGroupDiscoveryList (apidiscovery.k8s.io/v2) that kubectl ≥ 1.30 asks for first and falls
// back from when it is not offered. Pure functions; cheap (a few dozen resources).
class Discovery
{
public:
    [[nodiscard]] static QJsonObject version();
    [[nodiscard]] static QJsonObject apiVersions(const QString &serverAddress);
    [[nodiscard]] static QJsonObject apiGroupList(const ResourceCatalog &catalog);
    [[nodiscard]] static QJsonObject apiGroup(const ResourceCatalog &catalog, const QString &group);
    [[nodiscard]] static QJsonObject apiResourceList(const ResourceCatalog &catalog, const QString &group, const QString &version);
    // legacyCore: the /api document (the core group) or the /apis one (every named group).
    [[nodiscard]] static QJsonObject aggregated(const ResourceCatalog &catalog, bool legacyCore, const QString &apiVersion);

    // A minimal OpenAPI v3: the root lists one document per group-version, and each document
    // declares, per kind, the PATCH operation with its `fieldValidation` parameter. That is what
    // kubectl looks for to choose server-side field validation for `create -f`; no schemas.
    [[nodiscard]] static QJsonObject openApiV3Root(const ResourceCatalog &catalog);
    // gvPath: "api/v1" or "apis/GROUP/VERSION"; empty when unknown.
    [[nodiscard]] static QJsonObject openApiV3Document(const ResourceCatalog &catalog, const QString &gvPath);

    // The Content-Type that marks an aggregated document; client-go checks it before decoding.
    [[nodiscard]] static QByteArray aggregatedContentType(const QString &apiVersion);
};

} // namespace Cachescope::Sim
