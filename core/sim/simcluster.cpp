#include "core/sim/simcluster.h"

#include "core/kube/jsontoyaml.h"
#include "core/sim/apiserver.h"
#include "core/sim/certificateauthority.h"
#include "core/sim/objectstore.h"
#include "core/sim/resourcecatalog.h"
#include "core/sim/simserver.h"
#include "core/sim/workloadgenerator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonValue>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

SimCluster::SimCluster(const SimOptions &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_faults(options.seed)
    , m_catalog(std::make_unique<ResourceCatalog>())
{
    if (m_options.token.isEmpty()) {
        QByteArray random(24, Qt::Uninitialized);
        QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(random.data()), random.size() / 4);
        m_options.token = QString::fromLatin1(random.toHex());
    }
    // The spec was checked by SimOptions::fromParser; a bad one from the API leaves no faults.
    (void)m_faults.setSpec(m_options.faults);
}

SimCluster::~SimCluster()
{
    stop();
}

QByteArray SimCluster::caCertificatePem() const
{
    return m_authority ? m_authority->caCertificatePem() : QByteArray();
}

QByteArray SimCluster::clientCertificatePem() const
{
    return m_authority ? m_authority->clientCertificatePem() : QByteArray();
}

QByteArray SimCluster::clientKeyPem() const
{
    return m_authority ? m_authority->clientKeyPem() : QByteArray();
}

bool SimCluster::prepare(QString *error)
{
    if (m_running || m_thread) {
        if (error)
            *error = u"the simulated cluster is already started"_s;
        return false;
    }
    if (m_options.tls) {
        const auto name = m_options.servingCertificate == SimOptions::ServingCertificate::WrongName ? CertificateAuthority::ServingName::Other
                                                                                                    : CertificateAuthority::ServingName::Loopback;
        const auto validity = m_options.servingCertificate == SimOptions::ServingCertificate::Expired ? CertificateAuthority::ServingValidity::Expired
                                                                                                      : CertificateAuthority::ServingValidity::Valid;
        std::optional<CertificateAuthority> authority = CertificateAuthority::generate(error, name, validity);
        if (!authority)
            return false;
        m_authority = std::make_unique<CertificateAuthority>(*authority);
    }
    m_thread = new QThread(this);
    m_thread->setObjectName(u"cachescope-sim"_s);
    m_server = new SimServer(m_options, m_catalog.get(), m_authority.get(), &m_faults);
    m_server->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_server, &QObject::deleteLater);
    m_thread->start();
    return true;
}

bool SimCluster::finishStart(const QString &serverError, QString *error)
{
    if (!serverError.isEmpty()) {
        if (error)
            *error = serverError;
        stop();
        return false;
    }
    QString host = m_options.address.toString();
    if (m_options.address.protocol() == QAbstractSocket::IPv6Protocol)
        host = u'[' + host + u']';
    // The serving certificate names 127.0.0.1, ::1 and localhost; a wildcard listen address is
    // reached through loopback.
    if (m_options.address == QHostAddress::Any || m_options.address == QHostAddress::AnyIPv4)
        host = u"127.0.0.1"_s;
    m_url = QUrl((m_options.tls ? u"https://"_s : u"http://"_s) + host + u':' + QString::number(m_server->port()));
    if (!writeKubeconfig(error)) {
        stop();
        return false;
    }
    m_running = true;
    return true;
}

bool SimCluster::start(QString *error)
{
    if (!prepare(error))
        return false;
    QString serverError;
    // Blocking here is the documented contract of start(); startAsync() is the GUI's way.
    QMetaObject::invokeMethod(
        m_server,
        [this, &serverError] {
            if (!m_server->start(&serverError) && serverError.isEmpty())
                serverError = u"cannot start the server"_s;
        },
        Qt::BlockingQueuedConnection);
    return finishStart(serverError, error);
}

void SimCluster::startAsync()
{
    QString error;
    if (!prepare(&error)) {
        Q_EMIT started(false, error);
        return;
    }
    SimServer *server = m_server;
    QMetaObject::invokeMethod(server, [this, server] {
        QString serverError;
        if (!server->start(&serverError) && serverError.isEmpty())
            serverError = u"cannot start the server"_s;
        QMetaObject::invokeMethod(
            this,
            [this, serverError] {
                QString startError;
                const bool ok = finishStart(serverError, &startError);
                Q_EMIT started(ok, startError);
            },
            Qt::QueuedConnection);
    });
}

void SimCluster::stop()
{
    if (!m_thread)
        return;
    if (m_server) {
        SimServer *server = m_server;
        QMetaObject::invokeMethod(
            server, [server] { server->stop(); }, Qt::BlockingQueuedConnection);
    }
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_server = nullptr; // deleted on its thread by QThread::finished
    m_running = false;
    if (m_tempDir) {
        m_tempDir.reset();
        m_kubeconfigPath.clear();
    }
}

QHash<QString, quint64> SimCluster::truth(const QString &resourceId) const
{
    if (!m_running || !m_server)
        return {};
    return m_server->store()->truth(resourceId);
}

quint64 SimCluster::resourceVersion() const
{
    if (!m_running || !m_server)
        return 0;
    return m_server->store()->resourceVersion();
}

HttpServer::Stats SimCluster::transportStats() const
{
    HttpServer::Stats stats;
    if (!m_running || !m_server)
        return stats;
    SimServer *server = m_server;
    QMetaObject::invokeMethod(
        server,
        [server, &stats] {
            if (server->http())
                stats = server->http()->stats();
        },
        Qt::BlockingQueuedConnection);
    return stats;
}

int SimCluster::watchCount() const
{
    int count = 0;
    if (!m_running || !m_server)
        return count;
    SimServer *server = m_server;
    QMetaObject::invokeMethod(
        server,
        [server, &count] {
            if (server->api())
                count = server->api()->watchCount();
        },
        Qt::BlockingQueuedConnection);
    return count;
}

void SimCluster::restart()
{
    if (!m_server)
        return;
    SimServer *server = m_server;
    QMetaObject::invokeMethod(server, [server] { server->restart(); });
}

void SimCluster::setChurn(double eventsPerSecond)
{
    if (!m_server)
        return;
    SimServer *server = m_server;
    // Blocking, and a stop settles what the churn left pending (the deployments' reconcile):
    // once setChurn(0) returns, the truth no longer changes.
    QMetaObject::invokeMethod(
        server,
        [server, eventsPerSecond] {
            server->setChurn(eventsPerSecond);
            if (eventsPerSecond <= 0 && server->workload())
                server->workload()->settle();
        },
        Qt::BlockingQueuedConnection);
}

void SimCluster::churn(int changes)
{
    if (!m_server)
        return;
    SimServer *server = m_server;
    QMetaObject::invokeMethod(
        server,
        [server, changes] {
            if (!server->workload())
                return;
            for (int i = 0; i < changes; ++i)
                server->workload()->churnOnce();
            server->workload()->settle();
        },
        Qt::BlockingQueuedConnection);
}

bool SimCluster::writeKubeconfig(QString *error)
{
    QString path = m_options.kubeconfigOut;
    if (path.isEmpty()) {
        m_tempDir = std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/cachescope-sim-XXXXXX"_s);
        if (!m_tempDir->isValid()) {
            if (error)
                *error = u"cannot create a temporary directory: "_s + m_tempDir->errorString();
            return false;
        }
        path = m_tempDir->filePath(u"kubeconfig"_s);
    }
    const QByteArray server = m_url.toString().toUtf8();
    const QByteArray token = m_options.token.toUtf8();
    QByteArray yaml;
    yaml += "apiVersion: v1\nkind: Config\npreferences: {}\nclusters:\n- name: cachescope-sim\n  cluster:\n    server: " + server + "\n";
    if (m_authority)
        yaml += "    certificate-authority-data: " + m_authority->caCertificatePem().toBase64() + "\n";
    yaml += "users:\n- name: sim-token\n  user:\n    token: " + token + "\n";
    yaml += "- name: sim-cert\n  user:\n";
    if (m_authority) {
        yaml += "    client-certificate-data: " + m_authority->clientCertificatePem().toBase64() + "\n";
        yaml += "    client-key-data: " + m_authority->clientKeyPem().toBase64() + "\n";
    } else {
        // Plain HTTP carries no client certificate; the user still exists so that scripts can
        // name it, and authenticates with the token.
        yaml += "    token: " + token + "\n";
    }
    // A user whom the server's RBAC denies pods and secrets (Authenticator::Settings::restrictedToken).
    yaml += "- name: sim-restricted\n  user:\n    token: " + token + "-restricted\n";
    // QByteArray, not auto: a QStringBuilder would outlive the arguments it refers to.
    const auto context = [](const QByteArray &name, const QByteArray &user) -> QByteArray {
        return "- name: " + name + "\n  context:\n    cluster: cachescope-sim\n    user: " + user + "\n    namespace: default\n";
    };
    yaml += "contexts:\n";
    if (!m_options.contextName.isEmpty()) {
        // One context; its name quoted where YAML would read it otherwise.
        const QByteArray name = jsonToYaml(QJsonValue(m_options.contextName)).trimmed();
        yaml += context(name, "sim-token") + "current-context: " + name + "\n";
    } else {
        yaml += context("sim-token", "sim-token") + context("sim-cert", "sim-cert") + context("sim-restricted", "sim-restricted");
        yaml += "current-context: sim-token\n";
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = u"cannot write %1: %2"_s.arg(path, file.errorString());
        return false;
    }
    // The file holds credentials: readable by its owner only, as kubectl writes its own.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(yaml);
    if (!file.commit()) {
        if (error)
            *error = u"cannot write %1: %2"_s.arg(path, file.errorString());
        return false;
    }
    m_kubeconfigPath = QFileInfo(path).absoluteFilePath();
    return true;
}

} // namespace Cachescope::Sim
