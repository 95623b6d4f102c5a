#pragma once

#include "core/sim/authenticator.h"
#include "core/sim/deletehandler.h"
#include "core/sim/faultplan.h"
#include "core/sim/gethandler.h"
#include "core/sim/httprequest.h"
#include "core/sim/listhandler.h"
#include "core/sim/patchhandler.h"
#include "core/sim/scalehandler.h"
#include "core/sim/storedobject.h"
#include "core/sim/writehandler.h"

#include <QObject>

namespace Cachescope::Sim {

class HttpExchange;
class HttpServer;
class LogHandler;
class ObjectStore;
class ResourceCatalog;
class WatchHandler;
struct ApiCall;

// ApiServer is the Kubernetes API on top of an ObjectStore. It answers health checks and
// discovery itself; for a resource it asks its Authenticator who the caller is (bearer token or
// a client certificate of our CA, else 401) and whether RBAC lets them (the restricted user's
// 403), resolves the ResourceRoute of the path, and hands the request to the handler of its
// verb: ListHandler (resourceVersion semantics, selectors, limit/continue through a
// ListPaginator), WatchHandler (WatchSession: resume from a version, bookmarks, timeoutSeconds,
// 410 for versions older than the history, streaming lists), GetHandler, WriteHandler (create,
// replace, the status subresource), PatchHandler (JSON / merge / strategic merge), DeleteHandler
// (with the owner cascade), ScaleHandler (the scale subresource) and LogHandler (a pod's
// containers' logs, followed or not). Each answers through an
// ApiCall, in the representation Accept asks (ContentNegotiation: Table, PartialObjectMetadata).
//
// With Settings::readOnly (a recording served, RecordingFeed) every method but GET is answered
// 405 MethodNotAllowed before any handler sees it, subresources included.
//
// Reads (list, get, watch) meet the FaultPlan here, in one place: the decision is drawn, an
// added latency waited out, and a PendingFault either answers instead of the handler (drop,
// throttle, 5xx) or travels with the request to the handler that applies it where it writes.
//
// Thread: server thread (the one of the HttpServer it serves). Not owning: the store, catalog
// and fault plan outlive it (SimServer owns them all); the handlers are its own.
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
        quint64 logSeed = 1; // of the containers' generated logs (LogHandler)
        qint64 logLinePeriodMs = 0; // between a container's steady lines; 0: its image's pace
        bool readOnly = false; // a recording is served: every write gets 405 MethodNotAllowed
        // What a list or watch from a version the store has not reached is told to wait before
        // trying again: the apiserver's 1 s, or 0 (no Retry-After) for a recording served from
        // an earlier instant than the client saw, which reaches that version only by playing
        // to it: client-go would retry ten times a second for nothing, then relist.
        int tooLargeRetryAfterSeconds = 1;
    };

    ApiServer(ObjectStore *store, const ResourceCatalog *catalog, FaultPlan *faults, const Settings &settings, QObject *parent = nullptr);
    ~ApiServer() override;

    void attach(HttpServer *server);
    void setServerAddress(const QString &address) { m_settings.serverAddress = address; }
    void handle(HttpExchange *connection, const HttpRequest &request);

    [[nodiscard]] int watchCount() const;
    [[nodiscard]] int slowWatchersDropped() const;
    // A restart: every watch is cut, continue tokens and the watch history are forgotten.
    void simulateRestart();

private:
    bool handleDiscovery(const ApiCall &call, const QStringList &segments);
    void handleResource(const ApiCall &call);
    // A list, get or watch once its fault decision's latency has passed.
    void serveRead(const ApiCall &call, const FaultPlan::Decision &decision);

    ObjectStore *m_store; // not owned
    const ResourceCatalog *m_catalog; // not owned
    FaultPlan *m_faults; // not owned
    Settings m_settings;
    Authenticator m_authenticator;
    ListHandler m_list;
    WatchHandler *m_watch; // child
    GetHandler m_get;
    WriteHandler m_write;
    PatchHandler m_patch;
    DeleteHandler m_delete;
    ScaleHandler m_scale;
    LogHandler *m_logs; // child
};

} // namespace Cachescope::Sim
