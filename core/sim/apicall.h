#pragma once

#include "core/sim/httprequest.h"
#include "core/sim/resourceroute.h"
#include "core/sim/storedobject.h"

#include <QJsonObject>

#include <optional>

namespace Cachescope::Sim {

class HttpExchange;
struct ApiError;

// ApiCall is one API request on its way through ApiServer and its verb handlers: the exchange
// to answer it on, the request and the route of its path (empty for discovery); and the answers
// every verb gives alike — an ApiError as its Status, a JSON object, a stored object in the
// representation Accept asks for (ContentNegotiation: the object, PartialObjectMetadata or a
// one-row Table) — and the body a write reads, JSON or the protobuf of kubectl's typed commands.
//
// A value, cheap to copy; the exchange is not owned (HttpExchange says how long it lives).
// Thread: the server thread.
struct ApiCall
{
    HttpExchange *exchange = nullptr; // not owned
    HttpRequest request;
    ResourceRoute route;

    // A boolean query parameter as the apiserver decodes it (Go's strconv.ParseBool: the Python
    // client sends "True").
    [[nodiscard]] bool queryFlag(const QString &key) const;
    // A /watch/ path or ?watch=true.
    [[nodiscard]] bool isWatch() const { return route.watchPath || queryFlag(QStringLiteral("watch")); }

    // sendError() answers with the error's Status, and its retryAfterSeconds, if it names one, as
    // Retry-After.
    void sendError(const ApiError &error) const;
    void sendJson(int status, const QJsonObject &object, const QByteArray &contentType = QByteArrayLiteral("application/json")) const;
    void sendObject(int status, const ObjectPtr &object) const;
    // The request body as a JSON object, or nothing once a 400 (not an object, a protobuf body
    // that does not decode) or a 415 (CBOR, a protobuf this server does not read) was sent.
    [[nodiscard]] std::optional<QJsonObject> readBody() const;
};

} // namespace Cachescope::Sim
