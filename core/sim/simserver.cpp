#include "core/sim/simserver.h"

#include "core/sim/apiserver.h"
#include "core/sim/certificateauthority.h"
#include "core/sim/faultplan.h"
#include "core/sim/httpserver.h"
#include "core/sim/objectstore.h"
#include "core/sim/recordingfeed.h"
#include "core/sim/workloadgenerator.h"

#include <QDateTime>
#include <QSslKey>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

SimServer::SimServer(const SimOptions &options, const ResourceCatalog *catalog, const CertificateAuthority *authority, FaultPlan *faults, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_catalog(catalog)
    , m_authority(authority)
    , m_faults(faults)
{
}

SimServer::~SimServer()
{
    stop();
}

bool SimServer::start(QString *error)
{
    m_store = std::make_unique<ObjectStore>(m_options.history);
    m_store->setHistoryWindow(std::chrono::milliseconds(m_options.historyWindowMs));
    m_http = new HttpServer(this);
    m_http->setHttp1Only(m_options.http1Only);
    if (m_options.tls && m_authority) {
        HttpServer::TlsSettings tls;
        tls.certificate = QSslCertificate(m_authority->serverCertificatePem());
        tls.privateKey = QSslKey(m_authority->serverKeyPem(), QSsl::Ec);
        tls.caCertificates = {QSslCertificate(m_authority->caCertificatePem())};
        const CertificateAuthority authority = *m_authority;
        tls.clientCertificateVerifier = [authority](const QSslCertificate &certificate) {
            return authority.isIssuedBy(certificate);
        };
        m_http->setTls(tls);
    }
    ApiServer::Settings settings;
    settings.authentication.bearerToken = m_options.token;
    settings.authentication.restrictedToken = m_options.token + u"-restricted"_s;
    settings.bookmarkIntervalMs = m_options.bookmarkIntervalMs;
    settings.continueTtlMs = m_options.continueTtlMs;
    settings.watchBufferLimit = m_options.watchBufferLimit;
    settings.logSeed = m_options.seed;
    settings.logLinePeriodMs = m_options.logLinesPerSecond > 0 ? qMax<qint64>(2, qRound64(1000.0 / m_options.logLinesPerSecond)) : 0;
    settings.readOnly = !m_options.replay.isEmpty();
    settings.tooLargeRetryAfterSeconds = m_options.replay.isEmpty() ? 1 : 0;
    m_api = new ApiServer(m_store.get(), m_catalog, m_faults, settings, this);
    m_api->attach(m_http);

    if (!m_options.replay.isEmpty()) {
        m_feed = new RecordingFeed(m_store.get(), m_catalog, {m_options.replay, m_options.replayAt, m_options.replaySpeed}, this);
        QString feedError;
        if (!m_feed->load(&feedError)) {
            if (error)
                *error = u"--replay %1: %2"_s.arg(m_options.replay, feedError);
            return false;
        }
    } else {
        WorkloadGenerator::Settings workload;
        workload.namespaces = m_options.namespaces;
        workload.nodes = m_options.nodes;
        workload.pods = m_options.pods;
        workload.seed = m_options.seed;
        m_workload = new WorkloadGenerator(m_store.get(), m_catalog, workload, this);
        m_workload->populate();
    }

    if (!m_http->listen(m_options.address, m_options.port)) {
        if (error)
            *error = u"cannot listen on %1:%2: %3"_s.arg(m_options.address.toString()).arg(m_options.port).arg(m_http->errorString());
        return false;
    }
    m_api->setServerAddress(m_options.address.toString() + u':' + QString::number(m_http->port()));
    if (m_workload)
        m_workload->setChurn(m_options.churn);
    if (m_feed && !m_options.replayPaused)
        m_feed->start();

    // The restart interval may be changed through the fault plan at any time, so it is polled
    // rather than armed once; a tenth of a second is finer than any useful interval.
    m_restartTimer = new QTimer(this);
    m_restartTimer->setInterval(100);
    m_lastRestartMs = QDateTime::currentMSecsSinceEpoch();
    connect(m_restartTimer, &QTimer::timeout, this, [this] {
        const int interval = m_faults->restartIntervalMs();
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        if (interval <= 0) {
            m_lastRestartMs = nowMs;
            return;
        }
        if (nowMs - m_lastRestartMs >= interval)
            restart();
    });
    m_restartTimer->start();
    return true;
}

void SimServer::restart()
{
    m_lastRestartMs = QDateTime::currentMSecsSinceEpoch();
    if (!m_api)
        return;
    m_faults->recordInjected(FaultPlan::Fault::Restart);
    m_api->simulateRestart();
    m_http->dropAllConnections();
}

void SimServer::setChurn(double eventsPerSecond)
{
    if (m_workload)
        m_workload->setChurn(eventsPerSecond);
}

void SimServer::stop()
{
    if (m_restartTimer)
        m_restartTimer->stop();
    if (m_workload)
        m_workload->setChurn(0);
    if (m_http)
        m_http->close();
    // Children first (they reference the store), then the store.
    delete m_workload;
    m_workload = nullptr;
    delete m_feed;
    m_feed = nullptr;
    delete m_api;
    m_api = nullptr;
    delete m_http;
    m_http = nullptr;
    m_store.reset();
}

quint16 SimServer::port() const
{
    return m_http ? m_http->port() : 0;
}

} // namespace Cachescope::Sim
