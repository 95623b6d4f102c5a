#include "core/kube/execplugin.h"

#include "core/kube/loginshellpath.h"
#include "core/util/rfc3339.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QThread>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

const QString apiV1 = u"client.authentication.k8s.io/v1"_s;
const QString apiV1beta1 = u"client.authentication.k8s.io/v1beta1"_s;

} // namespace

ExecPlugin::ExecPlugin(ExecConfig config, ClusterConfig cluster, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_cluster(std::move(cluster))
{
}

ExecPlugin::~ExecPlugin()
{
    if (m_process) {
        // Do not leave a plugin running after the cluster is closed.
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QByteArray ExecPlugin::execInfo() const
{
    QJsonObject spec{{u"interactive"_s, false}};
    if (m_config.provideClusterInfo) {
        QJsonObject cluster{{u"server"_s, m_cluster.server.toString()}};
        if (!m_cluster.tlsServerName.isEmpty()) {
            cluster.insert(u"tls-server-name"_s, m_cluster.tlsServerName);
        }
        if (m_cluster.insecureSkipTlsVerify) {
            cluster.insert(u"insecure-skip-tls-verify"_s, true);
        }
        QByteArray ca = m_cluster.certificateAuthorityData;
        if (ca.isEmpty() && !m_cluster.certificateAuthority.isEmpty()) {
            QFile file(m_cluster.certificateAuthority);
            if (file.open(QIODevice::ReadOnly)) {
                ca = file.readAll();
            }
        }
        if (!ca.isEmpty()) {
            cluster.insert(u"certificate-authority-data"_s, QString::fromLatin1(ca.toBase64()));
        }
        if (m_cluster.proxyUrl.isValid()) {
            cluster.insert(u"proxy-url"_s, m_cluster.proxyUrl.toString());
        }
        if (m_cluster.disableCompression) {
            cluster.insert(u"disable-compression"_s, true);
        }
        spec.insert(u"cluster"_s, cluster);
    }
    const QJsonObject info{{u"apiVersion"_s, m_config.apiVersion}, {u"kind"_s, u"ExecCredential"_s}, {u"spec"_s, spec}};
    return QJsonDocument(info).toJson(QJsonDocument::Compact);
}

void ExecPlugin::start()
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_running) {
        return;
    }
    m_running = true;
    m_timedOut = false;
    if (m_config.apiVersion != apiV1 && m_config.apiVersion != apiV1beta1) {
        fail(m_config.apiVersion.isEmpty()
                 ? u"the exec plugin has no apiVersion; use client.authentication.k8s.io/v1"_s
                 : u"the exec plugin's apiVersion \"%1\" is not supported; use client.authentication.k8s.io/v1"_s.arg(m_config.apiVersion));
        return;
    }
    if (m_config.interactiveMode == ExecConfig::InteractiveMode::Always) {
        fail(u"the exec plugin \"%1\" needs a terminal (interactiveMode: Always), which Cachescope cannot offer; "
             "log in once from a terminal so the plugin caches its credentials, or set interactiveMode: IfAvailable"_s.arg(m_config.command));
        return;
    }
    LoginShellPath::directories(this, [this](const QStringList &dirs) { run(dirs); });
}

void ExecPlugin::run(const QStringList &searchPath)
{
    const QString program = LoginShellPath::findExecutable(m_config.command, searchPath);
    if (program.isEmpty() && m_config.command.contains(u'/') && QFileInfo(m_config.command).isFile()) {
        // There, but not to be run: say so rather than "not found", as kubectl's "permission denied".
        fail(u"the exec plugin \"%1\" is not executable (permission denied)"_s.arg(m_config.command));
        return;
    }
    if (program.isEmpty()) {
        QString message = u"the exec plugin \"%1\" was not found (searched the login shell's PATH and common install directories)"_s.arg(m_config.command);
        if (!m_config.installHint.isEmpty()) {
            message += u"\n"_s + m_config.installHint.trimmed();
        }
        fail(message);
        return;
    }

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : m_config.env) {
        env.insert(name, value.revealString());
    }
    env.insert(u"KUBERNETES_EXEC_INFO"_s, QString::fromUtf8(execInfo()));
    // The plugin inherits the login PATH too, as it would from a terminal: plugins often call
    // other tools (gcloud, az) by name.
    env.insert(u"PATH"_s, searchPath.join(u':'));

    m_process = new QProcess(this);
    m_process->setProcessEnvironment(env);
    m_process->setStandardInputFile(QProcess::nullDevice());
    auto *timer = new QTimer(m_process);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        m_process->kill();
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            fail(u"the exec plugin \"%1\" could not be started: %2"_s.arg(m_config.command, m_process->errorString()));
        }
    });
    connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        if (!m_running) {
            return;
        }
        if (m_timedOut) {
            fail(u"the exec plugin \"%1\" did not finish within %2 seconds"_s.arg(m_config.command).arg(m_timeout.count() / 1000.0) + stderrExcerpt());
            return;
        }
        if (status != QProcess::NormalExit || exitCode != 0) {
            fail((status == QProcess::NormalExit ? u"the exec plugin \"%1\" failed with exit code %2"_s.arg(m_config.command).arg(exitCode)
                                                 : u"the exec plugin \"%1\" crashed"_s.arg(m_config.command)) +
                 stderrExcerpt());
            return;
        }
        const auto result = parseOutput(m_process->readAllStandardOutput(), m_config.apiVersion);
        if (const QString *error = std::get_if<QString>(&result)) {
            fail(u"the exec plugin \"%1\" printed an unusable ExecCredential: %2"_s.arg(m_config.command, *error) + stderrExcerpt());
            return;
        }
        m_running = false;
        m_process->deleteLater();
        m_process = nullptr;
        Q_EMIT succeeded(std::get<Credentials>(result));
    });
    timer->start(m_timeout);
    m_process->start(program, m_config.args);
}

QString ExecPlugin::stderrExcerpt() const
{
    if (!m_process) {
        return {};
    }
    QString text = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
    if (text.isEmpty()) {
        return {};
    }
    if (text.size() > 2000) {
        text = u"…"_s + text.right(2000);
    }
    // Env values are what plugins get secrets through; never repeat them back.
    QList<Secret> secrets;
    for (const auto &pair : m_config.env) {
        secrets.append(pair.second);
    }
    return u"\n"_s + Secret::redactAll(text, secrets);
}

void ExecPlugin::fail(const QString &message)
{
    if (!m_running) {
        return;
    }
    m_running = false;
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->deleteLater();
        m_process = nullptr;
    }
    const ApiError error(ApiError::Kind::Credentials, message);
    // Reported from the event loop, never from inside start(): callers must not be re-entered.
    QMetaObject::invokeMethod(
        this, [this, error] { Q_EMIT failed(error); }, Qt::QueuedConnection);
}

std::variant<Credentials, QString> ExecPlugin::parseOutput(const QByteArray &stdoutBytes, const QString &expectedApiVersion)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(stdoutBytes, &parseError);
    if (!document.isObject()) {
        return u"stdout is not a JSON object"_s;
    }
    const QJsonObject root = document.object();
    if (root.value(u"kind"_s).toString() != u"ExecCredential"_s) {
        return u"kind is not ExecCredential"_s;
    }
    const QString apiVersion = root.value(u"apiVersion"_s).toString();
    if (apiVersion != expectedApiVersion) {
        return u"apiVersion \"%1\" does not match the kubeconfig's \"%2\""_s.arg(apiVersion, expectedApiVersion);
    }
    const QJsonObject status = root.value(u"status"_s).toObject();
    if (status.isEmpty()) {
        return u"it has no status"_s;
    }
    Credentials credentials;
    credentials.bearerToken = Secret::fromString(status.value(u"token"_s).toString());
    const QByteArray certPem = status.value(u"clientCertificateData"_s).toString().toUtf8();
    const QByteArray keyPem = status.value(u"clientKeyData"_s).toString().toUtf8();
    if (certPem.isEmpty() != keyPem.isEmpty()) {
        return u"it has a client certificate without a key, or a key without a certificate"_s;
    }
    if (!certPem.isEmpty()) {
        const QList<QSslCertificate> chain = QSslCertificate::fromData(certPem, QSsl::Pem);
        if (chain.isEmpty()) {
            return u"clientCertificateData is not a PEM certificate"_s;
        }
        credentials.clientCertificate = chain.constFirst();
        credentials.clientCertificateChain = chain.mid(1);
        QSslKey key(keyPem, QSsl::Rsa);
        if (key.isNull()) {
            key = QSslKey(keyPem, QSsl::Ec);
        }
        if (key.isNull()) {
            return u"clientKeyData is not a PEM RSA or EC private key"_s;
        }
        credentials.clientKey = key;
    }
    if (credentials.bearerToken.isEmpty() && certPem.isEmpty()) {
        return u"it has neither a token nor a client certificate"_s;
    }
    const QString expiry = status.value(u"expirationTimestamp"_s).toString();
    if (!expiry.isEmpty()) {
        credentials.expiry = dateTimeFromRfc3339(expiry);
        if (!credentials.expiry.isValid()) {
            return u"expirationTimestamp is not an RFC 3339 time"_s;
        }
    }
    return credentials;
}

} // namespace Cachescope
