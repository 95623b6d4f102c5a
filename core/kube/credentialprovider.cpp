#include "core/kube/credentialprovider.h"

#include "core/kube/execplugin.h"

#include <QFile>
#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// client-go re-reads a tokenFile at most once a minute (cachingTokenSource); projected
// service-account tokens rotate well before that matters.
constexpr qint64 tokenFileMaxAgeSecs = 60;

// Refresh exec credentials a little before they expire, so a request does not race the
// expiry on its way to the server.
constexpr qint64 expirySkewSecs = 10;

std::variant<QByteArray, QString> readFile(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return u"cannot read the %1 file %2: %3"_s.arg(what, path, file.errorString());
    }
    return file.readAll();
}

} // namespace

CredentialProvider::CredentialProvider(RestConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

CredentialProvider::~CredentialProvider() = default;

QString CredentialProvider::authProviderMessage(const QString &userName, const QString &provider)
{
    QString hint;
    if (provider == u"gcp"_s) {
        hint = u"install gke-gcloud-auth-plugin and run `gcloud container clusters get-credentials` again"_s;
    } else if (provider == u"azure"_s) {
        hint = u"install kubelogin and run `kubelogin convert-kubeconfig`"_s;
    } else if (provider == u"oidc"_s) {
        hint = u"use an exec plugin such as kubelogin (kubectl oidc-login)"_s;
    } else {
        hint = u"use an exec credential plugin instead"_s;
    }
    return u"user \"%1\" authenticates with the auth-provider \"%2\", which Kubernetes removed from its clients; %3"_s.arg(userName, provider, hint);
}

bool CredentialProvider::canRefresh() const
{
    return m_config.user.exec.has_value() || !m_config.user.tokenFile.isEmpty();
}

void CredentialProvider::invalidate()
{
    m_execCached.reset();
    m_fileTokenReadAt = {};
}

ApiError CredentialProvider::loadStatic()
{
    const UserConfig &user = m_config.user;
    Credentials result;
    if (!user.authProvider.isEmpty()) {
        return ApiError(ApiError::Kind::Credentials, authProviderMessage(user.name, user.authProvider));
    }
    result.bearerToken = user.token;
    result.username = user.username;
    result.password = user.password;

    QByteArray certPem = user.clientCertificateData;
    if (certPem.isEmpty() && !user.clientCertificate.isEmpty()) {
        auto read = readFile(user.clientCertificate, u"client certificate"_s);
        if (auto *error = std::get_if<QString>(&read)) {
            return ApiError(ApiError::Kind::Credentials, *error);
        }
        certPem = std::get<QByteArray>(read);
    }
    Secret keyPem = user.clientKeyData;
    if (keyPem.isEmpty() && !user.clientKey.isEmpty()) {
        auto read = readFile(user.clientKey, u"client key"_s);
        if (auto *error = std::get_if<QString>(&read)) {
            return ApiError(ApiError::Kind::Credentials, *error);
        }
        keyPem = Secret(std::get<QByteArray>(read));
    }
    if (certPem.isEmpty() != keyPem.isEmpty()) {
        return ApiError(ApiError::Kind::Credentials, u"user \"%1\" has a client certificate without a key, or a key without a certificate"_s.arg(user.name));
    }
    if (!certPem.isEmpty()) {
        const QList<QSslCertificate> chain = QSslCertificate::fromData(certPem, QSsl::Pem);
        if (chain.isEmpty()) {
            return ApiError(ApiError::Kind::Credentials, u"user \"%1\": the client certificate is not a PEM certificate"_s.arg(user.name));
        }
        result.clientCertificate = chain.constFirst();
        result.clientCertificateChain = chain.mid(1);
        // PEM headers say the algorithm; trying RSA then EC covers PKCS#1, SEC1 and PKCS#8.
        QSslKey key(keyPem.reveal(), QSsl::Rsa);
        if (key.isNull()) {
            key = QSslKey(keyPem.reveal(), QSsl::Ec);
        }
        if (key.isNull()) {
            return ApiError(ApiError::Kind::Credentials, u"user \"%1\": the client key is not a PEM RSA or EC private key"_s.arg(user.name));
        }
        result.clientKey = key;
    }
    m_static = result;
    return {};
}

void CredentialProvider::credentials(QObject *context, Callback callback)
{
    Q_ASSERT(thread() == QThread::currentThread());
    m_waiters.append({context, std::move(callback)});
    if (m_plugin && m_plugin->isRunning()) {
        return; // the running plugin answers everyone
    }
    if (!m_staticLoaded) {
        m_staticLoaded = true;
        m_staticError = loadStatic();
    }
    if (m_staticError.isError()) {
        deliver(Credentials(), m_staticError);
        return;
    }
    Credentials result = m_static;
    const UserConfig &user = m_config.user;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (!user.tokenFile.isEmpty() && user.token.isEmpty()) {
        if (!m_fileTokenReadAt.isValid() || m_fileTokenReadAt.secsTo(now) >= tokenFileMaxAgeSecs) {
            auto read = readFile(user.tokenFile, u"token"_s);
            if (auto *error = std::get_if<QString>(&read)) {
                deliver(Credentials(), ApiError(ApiError::Kind::Credentials, *error));
                return;
            }
            m_fileToken = Secret(std::get<QByteArray>(read).trimmed());
            m_fileTokenReadAt = now;
        }
        result.bearerToken = m_fileToken;
    }
    if (!user.exec) {
        deliver(result, {});
        return;
    }
    if (m_execCached && !m_execCached->isExpiredAt(now.addSecs(expirySkewSecs))) {
        deliver(*m_execCached, {});
        return;
    }
    m_execCached.reset();
    if (!m_plugin) {
        m_plugin = new ExecPlugin(*user.exec, m_config.cluster, this);
        connect(m_plugin, &ExecPlugin::succeeded, this, [this](const Credentials &fromPlugin) {
            Credentials merged = m_static;
            // What the plugin returns takes precedence, field by field (client-go does the same).
            if (!fromPlugin.bearerToken.isEmpty()) {
                merged.bearerToken = fromPlugin.bearerToken;
            }
            if (fromPlugin.hasClientCertificate()) {
                merged.clientCertificate = fromPlugin.clientCertificate;
                merged.clientCertificateChain = fromPlugin.clientCertificateChain;
                merged.clientKey = fromPlugin.clientKey;
            }
            merged.expiry = fromPlugin.expiry;
            m_execCached = merged;
            deliver(merged, {});
        });
        connect(m_plugin, &ExecPlugin::failed, this, [this](const ApiError &error) { deliver(Credentials(), error); });
    }
    m_plugin->setTimeout(m_execTimeout);
    ++m_execRuns;
    m_plugin->start();
}

void CredentialProvider::deliver(const Credentials &credentials, const ApiError &error)
{
    const QList<Waiter> waiters = std::exchange(m_waiters, {});
    // Always through the event loop: a caller must never be re-entered from credentials().
    QMetaObject::invokeMethod(
        this,
        [waiters, credentials, error] {
            for (const Waiter &waiter : waiters) {
                if (waiter.context) {
                    waiter.callback(credentials, error);
                }
            }
        },
        Qt::QueuedConnection);
}

} // namespace Cachescope
