#pragma once

#include "core/sim/simoptions.h"

#include <QObject>

#include <memory>

class QTimer;

namespace Cachescope::Sim {

class ApiServer;
class CertificateAuthority;
class FaultPlan;
class HttpServer;
class ObjectStore;
class RecordingFeed;
class ResourceCatalog;
class WorkloadGenerator;

// SimServer assembles one simulated cluster on the thread it lives on: the ObjectStore filled
// by the WorkloadGenerator (or by a RecordingFeed, read-only, when it serves a recording), the ApiServer, the HttpServer it listens with, and the timer that
// plays the fault plan's restarts. SimCluster creates it on its own thread; cachescope-sim's
// tests may also run it on the current thread.
//
// Thread: every method on the thread the object lives on. Owns everything it creates; the
// catalog, CA and fault plan belong to the caller and must outlive it.
class SimServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SimServer)
public:
    SimServer(const SimOptions &options, const ResourceCatalog *catalog, const CertificateAuthority *authority, FaultPlan *faults, QObject *parent = nullptr);
    ~SimServer() override;

    // Populates the store and starts listening; false and *error if the address is taken.
    [[nodiscard]] bool start(QString *error);
    void stop();
    void restart();
    void setChurn(double eventsPerSecond);

    [[nodiscard]] quint16 port() const;
    [[nodiscard]] ObjectStore *store() const { return m_store.get(); }
    // Null when a recording is served (SimOptions::replay), which has a feed() instead.
    [[nodiscard]] WorkloadGenerator *workload() const { return m_workload; }
    [[nodiscard]] RecordingFeed *feed() const { return m_feed; }
    [[nodiscard]] ApiServer *api() const { return m_api; }
    [[nodiscard]] HttpServer *http() const { return m_http; }

private:
    SimOptions m_options;
    const ResourceCatalog *m_catalog; // not owned
    const CertificateAuthority *m_authority; // not owned; null for plain HTTP
    FaultPlan *m_faults; // not owned
    std::unique_ptr<ObjectStore> m_store;
    HttpServer *m_http = nullptr; // owned (child)
    ApiServer *m_api = nullptr; // owned (child)
    WorkloadGenerator *m_workload = nullptr; // owned (child)
    RecordingFeed *m_feed = nullptr; // owned (child)
    QTimer *m_restartTimer = nullptr; // owned (child)
    qint64 m_lastRestartMs = 0;
};

} // namespace Cachescope::Sim
