#pragma once

#include "core/sim/faultplan.h"
#include "core/sim/httpserver.h"
#include "core/sim/simoptions.h"

#include <QHash>
#include <QObject>
#include <QUrl>

#include <memory>

class QThread;
class QTemporaryDir;

namespace Cachescope::Sim {

class CertificateAuthority;
class ResourceCatalog;
class SimServer;

// SimCluster is a simulated Kubernetes cluster in-process: the in-process face of
// `cachescope-sim`, for the app's --demo and for tests. Configure it with SimOptions (the same
// as the command line), start() it, then point any client at url() through the kubeconfig at
// kubeconfigPath(): context `sim-token` (current; bearer token), `sim-cert` (client
// certificate) or `sim-restricted` (a token whom the server forbids pods and secrets: 403),
// cluster `cachescope-sim` with the generated CA.
//
// Thread: the server runs on a QThread of its own, never on the caller's; the caller's thread
// only generates the certificates and writes the kubeconfig. start() blocks until the server
// listens (population costs about 60 µs of CPU per pod, its deployment's objects included:
// instant for a demo, seconds for 100k pods, a minute for a million); startAsync() does not block and reports through started(). faults() may be
// changed from any thread at any time; truth() and resourceVersion() are thread-safe
// snapshots. restart(), setChurn() and churn() are forwarded to the server thread (setChurn()
// and churn() wait for it: after setChurn(0) and churn() the truth stays as it is; serving a
// recording, SimOptions::replay, they change nothing). Everything stops in stop() or the
// destructor.
class SimCluster final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SimCluster)
public:
    explicit SimCluster(const SimOptions &options = {}, QObject *parent = nullptr);
    ~SimCluster() override;

    [[nodiscard]] bool start(QString *error = nullptr);
    void startAsync();
    void stop();
    [[nodiscard]] bool isRunning() const { return m_running; }

    [[nodiscard]] QUrl url() const { return m_url; }
    [[nodiscard]] QString kubeconfigPath() const { return m_kubeconfigPath; }
    [[nodiscard]] QString token() const { return m_options.token; }
    [[nodiscard]] const SimOptions &options() const { return m_options; }
    // PEM of the CA and of the client certificate user (empty in plain mode).
    [[nodiscard]] QByteArray caCertificatePem() const;
    [[nodiscard]] QByteArray clientCertificatePem() const;
    [[nodiscard]] QByteArray clientKeyPem() const;

    [[nodiscard]] FaultPlan &faults() { return m_faults; }

    // key ("namespace/name") -> resourceVersion of every object of resourceId ("pods",
    // "deployments.apps", "widgets.demo.cachescope.io"): what a client's cache must converge to.
    [[nodiscard]] QHash<QString, quint64> truth(const QString &resourceId) const;
    [[nodiscard]] quint64 resourceVersion() const;
    // The server's connections by protocol and its HTTP/2 streams (asks the server thread and
    // waits for it).
    [[nodiscard]] HttpServer::Stats transportStats() const;
    // The watches the server is serving now (asks the server thread and waits for it).
    [[nodiscard]] int watchCount() const;

    // Drops every connection and forgets the watch history, as a restarted apiserver.
    void restart();
    void setChurn(double eventsPerSecond);
    // Makes `changes` random changes now, on the server thread, and returns when they are done.
    void churn(int changes);

Q_SIGNALS:
    void started(bool ok, const QString &error);

private:
    [[nodiscard]] bool prepare(QString *error);
    [[nodiscard]] bool finishStart(const QString &serverError, QString *error);
    [[nodiscard]] bool writeKubeconfig(QString *error);

    SimOptions m_options;
    FaultPlan m_faults;
    std::unique_ptr<ResourceCatalog> m_catalog;
    std::unique_ptr<CertificateAuthority> m_authority;
    std::unique_ptr<QTemporaryDir> m_tempDir;
    QThread *m_thread = nullptr; // owned (child); runs the server
    SimServer *m_server = nullptr; // owned; lives on m_thread, deleted there
    QUrl m_url;
    QString m_kubeconfigPath;
    bool m_running = false;
};

} // namespace Cachescope::Sim
