#pragma once

#include <QByteArray>
#include <QString>
#include <QUrlQuery>

namespace Cachescope {

// ApiRequest is one request to the apiserver, relative to the cluster's server URL (a path such
// as "/api/v1/pods", its query, and the Accept header). Plain value type.
struct ApiRequest
{
    // Accept headers for the representations Cachescope asks for. The plain JSON fallback after
    // the comma is what the apiserver uses when it does not know the richer form (kubectl does
    // the same).
    static constexpr const char *acceptJson = "application/json";
    static constexpr const char *acceptTable = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    static constexpr const char *acceptMetadataList = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json";
    static constexpr const char *acceptMetadata = "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io,application/json";

    QString path;
    QUrlQuery query;
    QByteArray accept = acceptJson;
    QByteArray verb = "GET";
    QByteArray body;
    QByteArray contentType;
    // A stream that may stay silent for long (a followed log): no transfer timeout ends it, and
    // it is sent on a watch QNAM, as it holds its connection as long as a watch does.
    bool longRunning = false;
};

} // namespace Cachescope
