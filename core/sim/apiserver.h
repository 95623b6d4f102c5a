#pragma once

#include "core/sim/authenticator.h"
#include "core/sim/faultplan.h"
#include "core/sim/httprequest.h"
#include "core/sim/listpaginator.h"
#include "core/sim/resourcecatalog.h"
#include "core/sim/storedobject.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>

namespace Cachescope::Sim {

class HttpExchange;
class HttpServer;
class ObjectStore;
class WatchSession;
struct ApiError;

// ApiServer is the Kubernetes API on top of an ObjectStore: it routes each HttpRequest to
// discovery, LIST (resourceVersion semantics, label and field selectors; limit/continue with
// expiring tokens and remainingItemCount through its ListPaginator), GET, WATCH (WatchSession: resume from a
// version, bookmarks, timeoutSeconds, 410 for versions older than the history, streaming lists
// with sendInitialEvents), and the writes (create, replace, delete with owner cascade, JSON /
// merge / strategic merge patch, the scale and status subresources); renders Table and
// PartialObjectMetadata when Accept asks; lets its Authenticator say who may ask (bearer token
// or a client certificate of our CA, else 401; the restricted user's 403); and applies the
// FaultPlan to lists, gets and watches.
//
// Thread: server thread (the one of the HttpServer it serves). Not owning: the store, catalog
// and fault plan outlive it (SimServer owns them all).
class ApiServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)
public:
    struct Settings
    {
        Authenticator::Settings authentication;
        int bookmarkIntervalMs = 5000;
        int continueTtlMs = 5 * 60 * 1000; // etcd's default compaction period
        qint64 watchBufferLimit = 64 * 1024 * 1024;
        QString serverAddress; // "127.0.0.1:PORT", for /api's serverAddressByClientCIDRs
    };

    ApiServer(ObjectStore *store, const ResourceCatalog *catalog, FaultPlan *faults, const Settings &settings, QObject *parent = nullptr);
    ~ApiServer() override;

    void attach(HttpServer *server);
    void setServerAddress(const QString &address) { m_settings.serverAddress = address; }
    void handle(HttpExchange *connection, const HttpRequest &request);

    [[nodiscard]] int watchCount() const;
    [[nodiscard]] int slowWatchersDropped() const { return m_slowWatchersDropped; }
    // A restart: every watch is cut, continue tokens and the watch history are forgotten.
    void simulateRestart();

private:
    struct Route
    {
        ResourceType type;
        QString namespaceName;
        QString name;
        QString subresource;
        bool watchPath = false;
    };
    enum class Representation { Object, Table, Metadata, Aggregated };
    struct Negotiation
    {
        Representation representation = Representation::Object;
        QString aggregatedVersion;
    };

    bool handleDiscovery(HttpExchange *connection, const HttpRequest &request, const QStringList &segments);
    void handleResource(HttpExchange *connection, const HttpRequest &request, const Route &route);
    void serveRead(HttpExchange *connection, const HttpRequest &request, const Route &route, const FaultPlan::Decision &decision);
    void list(HttpExchange *connection, const HttpRequest &request, const Route &route, const FaultPlan::Decision &decision);
    void watch(HttpExchange *connection, const HttpRequest &request, const Route &route, const FaultPlan::Decision &decision);
    void get(HttpExchange *connection, const HttpRequest &request, const Route &route);
    void create(HttpExchange *connection, const HttpRequest &request, const Route &route);
    void replace(HttpExchange *connection, const HttpRequest &request, const Route &route);
    void patch(HttpExchange *connection, const HttpRequest &request, const Route &route);
    void remove(HttpExchange *connection, const HttpRequest &request, const Route &route);
    void scale(HttpExchange *connection, const HttpRequest &request, const Route &route);

    void cascadeDelete(const ResourceType &ownerType, const ObjectPtr &owner);
    bool applyFault(HttpExchange *connection, const FaultPlan::Decision &decision, FaultPlan::RequestKind kind);
    void sendError(HttpExchange *connection, const ApiError &error, const HttpHeaders &extraHeaders = {});
    void sendJson(HttpExchange *connection, int status, const QJsonObject &object, const QByteArray &contentType = "application/json");
    void sendObject(HttpExchange *connection, int status, const HttpRequest &request, const ResourceType &type, const ObjectPtr &object);
    [[nodiscard]] Negotiation negotiate(const HttpRequest &request, bool discovery) const;
    [[nodiscard]] std::optional<QJsonObject> parseBody(HttpExchange *connection, const HttpRequest &request);
    [[nodiscard]] bool namespaceExists(const QString &name) const;
    void onStoreEvent(const StoreEventPtr &event);

    ObjectStore *m_store; // not owned
    const ResourceCatalog *m_catalog; // not owned
    FaultPlan *m_faults; // not owned
    Settings m_settings;
    Authenticator m_authenticator;
    ListPaginator m_paginator;
    QHash<QString, QList<WatchSession *>> m_watches; // by resource id; sessions are children
    int m_slowWatchersDropped = 0;
};

} // namespace Cachescope::Sim
