#include "core/kube/credentialprovider.h"
#include "core/kube/execplugin.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/loginshellpath.h"

#include "testmain.h"
#include "testpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

const QString certDir = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/certs/");
const QString execDir = QStringLiteral(CACHESCOPE_TEST_DATA "/exec/");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

struct Result
{
    Credentials credentials;
    ApiError error;
};

Result fetch(CredentialProvider &provider)
{
    bool done = false;
    Result result;
    QObject context;
    provider.credentials(&context, [&](const Credentials &credentials, const ApiError &error) {
        result = {credentials, error};
        done = true;
    });
    // The callback is never re-entrant: it must not have run yet.
    if (done) {
        qFatal("credentials() called back synchronously");
    }
    if (!QTest::qWaitFor([&] { return done; }, 20000)) {
        result.error = ApiError(ApiError::Kind::Timeout, u"test gave up waiting"_s);
    }
    return result;
}

RestConfig execConfig(const QStringList &args, const QList<QPair<QString, Secret>> &env, const QString &command = execDir + u"plugin.sh"_s)
{
    RestConfig config;
    config.cluster.name = u"c"_s;
    config.cluster.server = QUrl(u"https://127.0.0.1:6443"_s);
    config.user.name = u"exec-user"_s;
    ExecConfig exec;
    exec.apiVersion = u"client.authentication.k8s.io/v1"_s;
    exec.command = command;
    exec.args = args;
    exec.env = env;
    exec.interactiveMode = ExecConfig::InteractiveMode::IfAvailable;
    config.user.exec = exec;
    return config;
}

} // namespace

class TestCredentials : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void staticCredentials_data();
    void staticCredentials();
    void tokenFileReReadAfterInvalidate();
    void execToken_data();
    void execToken();
    void execCachedUntilExpiry_data();
    void execCachedUntilExpiry();
    void execClientCertificate();
    void execInfo_data();
    void execInfo();
    void execFailures_data();
    void execFailures();
    void execExpiry_data();
    void execExpiry();
    void execFoundThroughLoginShellPath();
    void concurrentRequestsShareOneRun();

private:
    QTemporaryDir m_tmp;
};

void TestCredentials::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    // The fake login shell adds tests/data/exec/bin to PATH, which this process lacks.
    qputenv("SHELL", QFile::encodeName(execDir + u"fake-login-shell"_s));
}

void TestCredentials::staticCredentials_data()
{
    QTest::addColumn<QString>("userYaml");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("username");
    QTest::addColumn<QString>("certificateCn");
    QTest::addColumn<int>("keyAlgorithm");
    QTest::addColumn<QString>("error");

    const QString rsaCertData = QString::fromLatin1(readAll(certDir + u"client-rsa.crt"_s).toBase64());
    const QString ecKeyData = QString::fromLatin1(readAll(certDir + u"client-ec.key"_s).toBase64());
    const QString ecCertData = QString::fromLatin1(readAll(certDir + u"client-ec.crt"_s).toBase64());

    QTest::newRow("static token") << u"{token: static-token}"_s << u"static-token"_s << QString() << QString() << -1 << QString();
    QTest::newRow("basic auth") << u"{username: admin, password: pw}"_s << QString() << u"admin"_s << QString() << -1 << QString();
    QTest::newRow("RSA client certificate from files") << u"{client-certificate: certs/client-rsa.crt, client-key: certs/client-rsa.key}"_s << QString()
                                                       << QString() << u"test-rsa"_s << int(QSsl::Rsa) << QString();
    QTest::newRow("EC client certificate from data") << u"{client-certificate-data: %1, client-key-data: %2}"_s.arg(ecCertData, ecKeyData) << QString()
                                                     << QString() << u"test-ec"_s << int(QSsl::Ec) << QString();
    QTest::newRow("certificate without key") << u"{client-certificate-data: %1}"_s.arg(rsaCertData) << QString() << QString() << QString() << -1
                                             << u"client certificate without a key"_s;
    QTest::newRow("key file missing") << u"{client-certificate: certs/client-rsa.crt, client-key: certs/nope.key}"_s << QString() << QString() << QString()
                                      << -1 << u"cannot read the client key file"_s;
    QTest::newRow("key not PEM") << u"{client-certificate: certs/client-rsa.crt, client-key: certs/client-ec.crt}"_s << QString() << QString() << QString()
                                 << -1 << u"not a PEM RSA or EC private key"_s;
    QTest::newRow("auth-provider gcp explained") << u"{auth-provider: {name: gcp}}"_s << QString() << QString() << QString() << -1
                                                 << u"auth-provider \"gcp\", which Kubernetes removed from its clients; install gke-gcloud-auth-plugin"_s;
}

void TestCredentials::staticCredentials()
{
    QFETCH(QString, userYaml);
    QFETCH(QString, token);
    QFETCH(QString, username);
    QFETCH(QString, certificateCn);
    QFETCH(int, keyAlgorithm);
    QFETCH(QString, error);

    const QByteArray yaml = "clusters: [{name: c, cluster: {server: 'https://h'}}]\nusers: [{name: u, user: " + userYaml.toUtf8() +
        "}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n";
    const Kubeconfig config = Kubeconfig::fromYaml(yaml, QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/inline.yaml"));
    QVERIFY2(!config.hasErrors(), qPrintable(config.errors().value(0).toString()));
    CredentialProvider provider(std::get<RestConfig>(config.restConfig()));
    const Result result = fetch(provider);
    if (!error.isEmpty()) {
        QVERIFY(result.error.isError());
        QCOMPARE(result.error.kind(), ApiError::Kind::Credentials);
        QVERIFY2(result.error.message().contains(error), qPrintable(result.error.message()));
        return;
    }
    QVERIFY2(!result.error.isError(), qPrintable(result.error.toString()));
    QCOMPARE(result.credentials.bearerToken.revealString(), token);
    QCOMPARE(result.credentials.username, username);
    QCOMPARE(result.credentials.hasClientCertificate(), !certificateCn.isEmpty());
    if (!certificateCn.isEmpty()) {
        QCOMPARE(result.credentials.clientCertificate.subjectInfo(QSslCertificate::CommonName).value(0), certificateCn);
        QCOMPARE(int(result.credentials.clientKey.algorithm()), keyAlgorithm);
        QCOMPARE(result.credentials.clientKey.type(), QSsl::PrivateKey);
    }
    QVERIFY(!provider.canRefresh());
}

void TestCredentials::tokenFileReReadAfterInvalidate()
{
    const QString tokenPath = m_tmp.filePath(u"token"_s);
    const auto writeToken = [&](const QByteArray &token) {
        QFile file(tokenPath);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(token + "\n");
    };
    writeToken("first-token");
    RestConfig config;
    config.user.name = u"u"_s;
    config.user.tokenFile = tokenPath;
    CredentialProvider provider(config);
    QVERIFY(provider.canRefresh());
    QCOMPARE(fetch(provider).credentials.bearerToken.reveal(), QByteArray("first-token"));
    writeToken("second-token");
    // Within a minute the cached token is used, as in client-go.
    QCOMPARE(fetch(provider).credentials.bearerToken.reveal(), QByteArray("first-token"));
    provider.invalidate();
    QCOMPARE(fetch(provider).credentials.bearerToken.reveal(), QByteArray("second-token"));
}

void TestCredentials::execToken_data()
{
    QTest::addColumn<QString>("apiVersion");
    QTest::newRow("client.authentication.k8s.io/v1") << u"client.authentication.k8s.io/v1"_s;
    QTest::newRow("client.authentication.k8s.io/v1beta1") << u"client.authentication.k8s.io/v1beta1"_s;
}

void TestCredentials::execToken()
{
    QFETCH(QString, apiVersion);
    RestConfig config = execConfig({}, {{u"PLUGIN_TOKEN"_s, Secret("exec-token")}, {u"PLUGIN_API_VERSION"_s, Secret::fromString(apiVersion)}});
    config.user.exec->apiVersion = apiVersion;
    CredentialProvider provider(config);
    const Result result = fetch(provider);
    QVERIFY2(!result.error.isError(), qPrintable(result.error.toString()));
    QCOMPARE(result.credentials.bearerToken.reveal(), QByteArray("exec-token"));
    QVERIFY(!result.credentials.expiry.isValid());
    QCOMPARE(provider.execRuns(), 1);
}

void TestCredentials::execCachedUntilExpiry_data()
{
    QTest::addColumn<int>("expiresInSecs");
    QTest::addColumn<bool>("invalidate");
    QTest::addColumn<int>("runs");

    QTest::newRow("valid credentials are cached") << 3600 << false << 1;
    QTest::newRow("expired credentials run the plugin again") << -10 << false << 2;
    QTest::newRow("credentials about to expire run it again") << 5 << false << 2;
    QTest::newRow("invalidate after 401 runs it again") << 3600 << true << 2;
}

void TestCredentials::execCachedUntilExpiry()
{
    QFETCH(int, expiresInSecs);
    QFETCH(bool, invalidate);
    QFETCH(int, runs);

    const QString countFile = m_tmp.filePath(u"count-"_s + QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-'));
    const QString expiry = QDateTime::currentDateTimeUtc().addSecs(expiresInSecs).toString(Qt::ISODate);
    CredentialProvider provider(execConfig(
        {}, {{u"PLUGIN_TOKEN"_s, Secret("t")}, {u"PLUGIN_EXPIRY"_s, Secret::fromString(expiry)}, {u"PLUGIN_COUNT_FILE"_s, Secret::fromString(countFile)}}));
    const Result first = fetch(provider);
    QVERIFY2(!first.error.isError(), qPrintable(first.error.toString()));
    QCOMPARE(first.credentials.expiry.toString(Qt::ISODate), expiry);
    if (invalidate) {
        provider.invalidate();
    }
    const Result second = fetch(provider);
    QVERIFY(!second.error.isError());
    QCOMPARE(provider.execRuns(), runs);
    QCOMPARE(readAll(countFile).count("run"), runs);
}

void TestCredentials::execClientCertificate()
{
    CredentialProvider provider(execConfig(
        {u"cert"_s},
        {{u"PLUGIN_CERT"_s, Secret::fromString(certDir + u"client-ec.crt"_s)}, {u"PLUGIN_KEY"_s, Secret::fromString(certDir + u"client-ec.key"_s)}}));
    const Result result = fetch(provider);
    QVERIFY2(!result.error.isError(), qPrintable(result.error.toString()));
    QVERIFY(result.credentials.hasClientCertificate());
    QVERIFY(result.credentials.bearerToken.isEmpty());
    QCOMPARE(result.credentials.clientCertificate.subjectInfo(QSslCertificate::CommonName).value(0), u"test-ec"_s);
    QCOMPARE(result.credentials.clientKey.algorithm(), QSsl::Ec);
}

void TestCredentials::execInfo_data()
{
    QTest::addColumn<bool>("provideClusterInfo");
    QTest::newRow("without cluster info") << false;
    QTest::newRow("with cluster info when provideClusterInfo") << true;
}

void TestCredentials::execInfo()
{
    QFETCH(bool, provideClusterInfo);
    const QString infoFile = m_tmp.filePath(u"info-%1.json"_s.arg(provideClusterInfo));
    RestConfig config = execConfig({}, {{u"PLUGIN_TOKEN"_s, Secret("t")}, {u"PLUGIN_INFO_FILE"_s, Secret::fromString(infoFile)}});
    config.user.exec->provideClusterInfo = provideClusterInfo;
    config.cluster.tlsServerName = u"kubernetes"_s;
    config.cluster.certificateAuthorityData = "-----BEGIN CERTIFICATE-----\n";
    CredentialProvider provider(config);
    QVERIFY(!fetch(provider).error.isError());
    const QJsonObject info = QJsonDocument::fromJson(readAll(infoFile)).object();
    QCOMPARE(info.value(u"kind"_s).toString(), u"ExecCredential"_s);
    QCOMPARE(info.value(u"apiVersion"_s).toString(), u"client.authentication.k8s.io/v1"_s);
    const QJsonObject spec = info.value(u"spec"_s).toObject();
    QCOMPARE(spec.value(u"interactive"_s), QJsonValue(false));
    QCOMPARE(spec.contains(u"cluster"_s), provideClusterInfo);
    if (provideClusterInfo) {
        const QJsonObject cluster = spec.value(u"cluster"_s).toObject();
        QCOMPARE(cluster.value(u"server"_s).toString(), u"https://127.0.0.1:6443"_s);
        QCOMPARE(cluster.value(u"tls-server-name"_s).toString(), u"kubernetes"_s);
        QCOMPARE(QByteArray::fromBase64(cluster.value(u"certificate-authority-data"_s).toString().toLatin1()), QByteArray("-----BEGIN CERTIFICATE-----\n"));
    }
}

void TestCredentials::execFailures_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("apiVersion");
    QTest::addColumn<int>("interactiveMode");
    QTest::addColumn<QStringList>("expected");

    const QString plugin = execDir + u"plugin.sh"_s;
    const int ifAvailable = int(ExecConfig::InteractiveMode::IfAvailable);
    const QString v1 = u"client.authentication.k8s.io/v1"_s;
    QTest::newRow("exit code and stderr shown, secret redacted")
        << QStringList{u"fail"_s} << plugin << v1 << ifAvailable
        << QStringList{u"failed with exit code 3"_s, u"could not reach the identity provider (key <redacted>)"_s};
    QTest::newRow("missing command shows install hint") << QStringList() << u"cachescope-no-such-plugin"_s << v1 << ifAvailable
                                                        << QStringList{u"\"cachescope-no-such-plugin\" was not found"_s, u"Install it with: apt install it"_s};
    QTest::newRow("timeout") << QStringList{u"sleep"_s} << plugin << v1 << ifAvailable << QStringList{u"did not finish within 0.5 seconds"_s};
    QTest::newRow("output not JSON") << QStringList{u"garbage"_s} << plugin << v1 << ifAvailable << QStringList{u"stdout is not a JSON object"_s};
    QTest::newRow("output apiVersion differs") << QStringList() << plugin << u"client.authentication.k8s.io/v1beta1"_s << ifAvailable
                                               << QStringList{u"does not match the kubeconfig's"_s};
    QTest::newRow("unsupported apiVersion") << QStringList() << plugin << u"client.authentication.k8s.io/v1alpha1"_s << ifAvailable
                                            << QStringList{u"is not supported"_s};
    QTest::newRow("interactiveMode Always refused") << QStringList() << plugin << v1 << int(ExecConfig::InteractiveMode::Always)
                                                    << QStringList{u"needs a terminal"_s};
}

void TestCredentials::execFailures()
{
    QFETCH(QStringList, args);
    QFETCH(QString, command);
    QFETCH(QString, apiVersion);
    QFETCH(int, interactiveMode);
    QFETCH(QStringList, expected);

    RestConfig config = execConfig(args, {{u"PLUGIN_TOKEN"_s, Secret("tok")}, {u"PLUGIN_SECRET"_s, Secret("hunter2-secret")}}, command);
    config.user.exec->apiVersion = apiVersion;
    config.user.exec->interactiveMode = ExecConfig::InteractiveMode(interactiveMode);
    config.user.exec->installHint = u"Install it with: apt install it"_s;
    CredentialProvider provider(config);
    provider.setExecTimeout(std::chrono::milliseconds(500));
    const Result result = fetch(provider);
    QVERIFY(result.error.isError());
    QCOMPARE(result.error.kind(), ApiError::Kind::Credentials);
    for (const QString &part : expected) {
        QVERIFY2(result.error.message().contains(part), qPrintable(result.error.message()));
    }
    QVERIFY(!result.error.toString().contains(u"hunter2-secret"_s));
}

void TestCredentials::execExpiry_data()
{
    QTest::addColumn<QString>("expiry");
    QTest::addColumn<qint64>("msecs"); // -1: refused as not RFC 3339
    QTest::newRow("UTC") << u"2099-01-01T00:00:00Z"_s << qint64(4070908800000);
    QTest::newRow("offset and fraction") << u"2099-01-01T02:00:00.5+02:00"_s << qint64(4070908800500);
    QTest::newRow("no zone refused (not read as local time)") << u"2099-01-01T00:00:00"_s << qint64(-1);
    QTest::newRow("date alone refused") << u"2099-01-01"_s << qint64(-1);
    QTest::newRow("offset without a colon refused") << u"2099-01-01T02:00:00+0200"_s << qint64(-1);
}

// The plugin's expirationTimestamp is read as client-go reads it (metav1.Time, RFC 3339).
void TestCredentials::execExpiry()
{
    QFETCH(QString, expiry);
    QFETCH(qint64, msecs);
    CredentialProvider provider(execConfig({}, {{u"PLUGIN_TOKEN"_s, Secret("t")}, {u"PLUGIN_EXPIRY"_s, Secret::fromString(expiry)}}));
    const Result result = fetch(provider);
    if (msecs < 0) {
        QVERIFY(result.error.isError());
        QVERIFY2(result.error.message().contains(u"expirationTimestamp is not an RFC 3339 time"_s), qPrintable(result.error.message()));
    } else {
        QVERIFY2(!result.error.isError(), qPrintable(result.error.toString()));
        QCOMPARE(result.credentials.expiry.toMSecsSinceEpoch(), msecs);
    }
}

void TestCredentials::execFoundThroughLoginShellPath()
{
    // Not on this process's PATH: only the login shell knows the directory.
    QVERIFY(QStandardPaths::findExecutable(u"cachescope-test-plugin"_s).isEmpty());
    CredentialProvider provider(execConfig({}, {{u"PLUGIN_TOKEN"_s, Secret("via-login-path")}}, u"cachescope-test-plugin"_s));
    const Result result = fetch(provider);
    QVERIFY2(!result.error.isError(), qPrintable(result.error.toString()));
    QCOMPARE(result.credentials.bearerToken.reveal(), QByteArray("via-login-path"));

    bool done = false;
    QStringList dirs;
    QObject context;
    LoginShellPath::directories(&context, [&](const QStringList &d) {
        dirs = d;
        done = true;
    });
    QVERIFY(QTest::qWaitFor([&] { return done; }));
    QCOMPARE(dirs.value(0), QDir::cleanPath(execDir + u"bin"_s));
}

void TestCredentials::concurrentRequestsShareOneRun()
{
    CredentialProvider provider(execConfig({}, {{u"PLUGIN_TOKEN"_s, Secret("shared")}}));
    int answered = 0;
    QObject context;
    for (int i = 0; i < 5; ++i) {
        provider.credentials(&context, [&](const Credentials &credentials, const ApiError &error) {
            QVERIFY(!error.isError());
            QCOMPARE(credentials.bearerToken.reveal(), QByteArray("shared"));
            ++answered;
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, 5, 20000);
    QCOMPARE(provider.execRuns(), 1);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestCredentials)
#include "tst_credentials.moc"
