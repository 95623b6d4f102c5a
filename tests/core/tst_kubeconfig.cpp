#include "core/kube/kubeconfig.h"

#include "testmain.h"
#include "testpaths.h"

#include <QDebug>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

class TestKubeconfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyField();
    void errors_data();
    void errors();
    void sourceFiles_data();
    void sourceFiles();
    void mergeFirstWins_data();
    void mergeFirstWins();
    void shadowedContextsKeptWithTheirFile();
    void relativePathsResolvedAgainstTheirFile();
    void missingFiles_data();
    void missingFiles();
    void malformedFileReportedOthersStillLoad();
    void commandRestConfigRefusesAnyError();
    void resolveErrors_data();
    void resolveErrors();
    void secretsNeverInMessagesOrDebug();

private:
    static QString data(const QString &name) { return QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/") + name; }
};

void TestKubeconfig::everyField()
{
    const Kubeconfig config = Kubeconfig::loadFiles({data(u"full.yaml"_s)}, true);
    QVERIFY2(!config.hasErrors(), qPrintable(config.errors().value(0).toString()));
    QCOMPARE(config.currentContext(), u"everything"_s);

    const auto resolved = config.restConfig();
    QVERIFY(std::holds_alternative<RestConfig>(resolved));
    const RestConfig rest = std::get<RestConfig>(resolved);
    const QString dir = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig");

    QCOMPARE(rest.context.ns, u"work"_s);
    QCOMPARE(rest.defaultNamespace(), u"work"_s);
    QCOMPARE(rest.cluster.server, QUrl(u"https://api.example.com:6443/prefix"_s));
    QCOMPARE(rest.cluster.certificateAuthorityData, QByteArray("-----BEGIN CERTIFICATE-----\n"));
    QCOMPARE(rest.cluster.insecureSkipTlsVerify, false);
    QCOMPARE(rest.cluster.tlsServerName, u"kubernetes.default.svc"_s);
    QCOMPARE(rest.cluster.proxyUrl, QUrl(u"socks5://proxy.example:1080"_s));
    QCOMPARE(rest.cluster.disableCompression, true);

    const UserConfig &user = rest.user;
    QCOMPARE(user.clientCertificate, dir + u"/certs/client.crt"_s);
    QCOMPARE(user.clientKey, u"/abs/client.key"_s);
    QCOMPARE(user.clientKeyData.reveal(), QByteArray("secret-key-bytes"));
    QCOMPARE(user.token.reveal(), QByteArray("full-token-value"));
    QCOMPARE(user.tokenFile, dir + u"/token"_s);
    QCOMPARE(user.username, u"jane"_s);
    QCOMPARE(user.password.reveal(), QByteArray("full-password-value"));
    QCOMPARE(user.impersonate, u"impersonated"_s);
    QCOMPARE(user.impersonateUid, u"uid-1"_s);
    QCOMPARE(user.impersonateGroups, QStringList({u"devs"_s, u"ops"_s}));
    QCOMPARE(user.impersonateUserExtra.value(u"scopes"_s), QStringList({u"view"_s, u"edit"_s}));
    QVERIFY(user.exec.has_value());
    QCOMPARE(user.exec->apiVersion, u"client.authentication.k8s.io/v1"_s);
    QCOMPARE(user.exec->command, dir + u"/bin/plugin"_s);
    QCOMPARE(user.exec->args, QStringList({u"--flag"_s, u"value"_s}));
    QCOMPARE(user.exec->env.size(), 1);
    QCOMPARE(user.exec->env.at(0).first, u"PLUGIN_KEY"_s);
    QCOMPARE(user.exec->env.at(0).second.reveal(), QByteArray("env-secret-value"));
    QCOMPARE(user.exec->installHint, u"install the plugin"_s);
    QCOMPARE(user.exec->provideClusterInfo, true);
    QCOMPARE(user.exec->interactiveMode, ExecConfig::InteractiveMode::Never);

    const UserConfig legacy = config.users().at(1);
    QCOMPARE(legacy.name, u"legacy"_s);
    QCOMPARE(legacy.authProvider, u"gcp"_s);
}

void TestKubeconfig::errors_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");

    QTest::newRow("bad indentation names the line") << QByteArray("clusters:\n- name: a\n  cluster:\n    server: https://a\n   bad: x\n") << 5
                                                    << u"not valid YAML"_s;
    QTest::newRow("top level not a map") << QByteArray("- a\n- b\n") << 1 << u"expected a kubeconfig"_s;
    QTest::newRow("wrong kind") << QByteArray("kind: Pod\n") << 1 << u"kind: expected Config"_s;
    QTest::newRow("clusters not a list") << QByteArray("clusters:\n  a: b\n") << 2 << u"clusters: expected a list"_s;
    QTest::newRow("entry without name") << QByteArray("users:\n- user:\n    token: x\n") << 2 << u"users[0]: has no name"_s;
    QTest::newRow("entry without body") << QByteArray("contexts:\n- name: c\n") << 2 << u"contexts \"c\": has no context"_s;
    QTest::newRow("name twice in one file") << QByteArray("clusters:\n- name: a\n  cluster: {server: https://a}\n- name: a\n  cluster: {server: https://b}\n")
                                            << 4 << u"clusters \"a\": defined twice in this file"_s;
    QTest::newRow("boolean field not boolean") << QByteArray("clusters:\n- name: a\n  cluster:\n    server: https://a\n    insecure-skip-tls-verify: maybe\n")
                                               << 5 << u"clusters \"a\".cluster.insecure-skip-tls-verify: expected true or false"_s;
    QTest::newRow("data field not base64") << QByteArray("clusters:\n- name: a\n  cluster:\n    server: https://a\n    certificate-authority-data: '@@@'\n")
                                           << 5 << u"certificate-authority-data: not valid base64"_s;
    QTest::newRow("server not a URL") << QByteArray("clusters:\n- name: a\n  cluster:\n    server: not a url\n") << 4 << u"server: not a URL"_s;
    QTest::newRow("proxy scheme unsupported") << QByteArray("clusters:\n- name: a\n  cluster:\n    server: https://a\n    proxy-url: ftp://p:21\n") << 5
                                              << u"proxy-url: scheme must be http, https or socks5"_s;
    QTest::newRow("string field is a map") << QByteArray("users:\n- name: u\n  user:\n    token:\n      nested: 1\n") << 5
                                           << u"users \"u\".user.token: expected a string"_s;
    QTest::newRow("exec without command") << QByteArray("users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n") << 5
                                          << u"users \"u\".user.exec: has no command"_s;
    QTest::newRow("exec interactive mode unknown") << QByteArray("users:\n- name: u\n  user:\n    exec:\n      command: x\n      interactiveMode: Sometimes\n")
                                                   << 6 << u"interactiveMode: expected Never"_s;
    QTest::newRow("groups not a list") << QByteArray("users:\n- name: u\n  user:\n    as-groups: {a: b}\n") << 4 << u"as-groups: expected a list"_s;
}

void TestKubeconfig::errors()
{
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(QString, message);

    const Kubeconfig config = Kubeconfig::fromYaml(yaml, u"/tmp/bad.yaml"_s);
    QVERIFY(config.hasErrors());
    const KubeconfigError error = config.errors().constFirst();
    QCOMPARE(error.file, u"/tmp/bad.yaml"_s);
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
    QCOMPARE(error.line, line);
    QVERIFY(error.toString().startsWith(u"/tmp/bad.yaml:"_s + QString::number(line) + u':'));
}

void TestKubeconfig::sourceFiles_data()
{
    QTest::addColumn<QString>("explicitFile");
    QTest::addColumn<QByteArray>("env");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("explicit file wins over KUBECONFIG") << u"/x/explicit"_s << QByteArray("/a:/b") << QStringList{u"/x/explicit"_s};
    QTest::newRow("KUBECONFIG split on colons in order") << QString() << QByteArray("/a:/b:/c") << QStringList{u"/a"_s, u"/b"_s, u"/c"_s};
    QTest::newRow("empty entries and repeats skipped") << QString() << QByteArray(":/a::/b:/a:") << QStringList{u"/a"_s, u"/b"_s};
    QTest::newRow("home config when KUBECONFIG unset") << QString() << QByteArray() << QStringList{u"/home/u/.kube/config"_s};
    QTest::newRow("home config when KUBECONFIG only colons") << QString() << QByteArray("::") << QStringList{u"/home/u/.kube/config"_s};
}

void TestKubeconfig::sourceFiles()
{
    QFETCH(QString, explicitFile);
    QFETCH(QByteArray, env);
    QFETCH(QStringList, expected);
    QCOMPARE(Kubeconfig::sourceFiles(explicitFile, env, u"/home/u"_s), expected);
}

void TestKubeconfig::mergeFirstWins_data()
{
    QTest::addColumn<bool>("firstFirst");
    QTest::addColumn<QString>("currentContext");
    QTest::addColumn<QString>("sharedServer");
    QTest::addColumn<bool>("sharedUserHasToken");

    QTest::newRow("first file's entries and current-context win") << true << u"alpha"_s << u"https://first.example:6443"_s << true;
    QTest::newRow("reversed order reverses the winners") << false << u"beta"_s << u"https://second.example:6443"_s << false;
}

void TestKubeconfig::mergeFirstWins()
{
    QFETCH(bool, firstFirst);
    QFETCH(QString, currentContext);
    QFETCH(QString, sharedServer);
    QFETCH(bool, sharedUserHasToken);

    QStringList files{data(u"first.yaml"_s), data(u"sub/second.yaml"_s)};
    if (!firstFirst) {
        std::reverse(files.begin(), files.end());
    }
    const Kubeconfig config = Kubeconfig::loadFiles(files, false);
    QVERIFY(!config.hasErrors());
    QCOMPARE(config.currentContext(), currentContext);
    QCOMPARE(config.clusters().size(), 3);
    QCOMPARE(config.users().size(), 2);
    for (const ClusterConfig &cluster : config.clusters()) {
        if (cluster.name == u"shared"_s) {
            QCOMPARE(cluster.server.toString(), sharedServer);
        }
    }
    const auto rest = config.restConfig(u"common"_s);
    QVERIFY(std::holds_alternative<RestConfig>(rest));
    QCOMPARE(std::get<RestConfig>(rest).cluster.server.toString(), sharedServer);
    QCOMPARE(!std::get<RestConfig>(rest).user.token.isEmpty(), sharedUserHasToken);
}

void TestKubeconfig::shadowedContextsKeptWithTheirFile()
{
    const Kubeconfig config = Kubeconfig::loadFiles({data(u"first.yaml"_s), data(u"sub/second.yaml"_s)}, false);
    QStringList names;
    for (const ContextConfig &context : config.contexts()) {
        names.append(context.name + (context.shadowed ? u"*"_s : QString()));
    }
    QCOMPARE(names, QStringList({u"alpha"_s, u"common"_s, u"beta"_s, u"common*"_s}));

    // The kubectl winner: first file's context.
    auto rest = config.restConfig(u"common"_s);
    QVERIFY(std::holds_alternative<RestConfig>(rest));
    QCOMPARE(std::get<RestConfig>(rest).context.file, data(u"first.yaml"_s));
    QCOMPARE(std::get<RestConfig>(rest).context.ns, QString());

    // The one kubectl drops, chosen by its file, resolving cluster and user from its own file.
    rest = config.restConfig(u"common"_s, data(u"sub/second.yaml"_s));
    QVERIFY(std::holds_alternative<RestConfig>(rest));
    const RestConfig second = std::get<RestConfig>(rest);
    QCOMPARE(second.context.ns, u"from-second"_s);
    QCOMPARE(second.cluster.server, QUrl(u"https://second.example:6443"_s));
    QVERIFY(second.user.token.isEmpty());
    QVERIFY(second.user.tokenFile.endsWith(u"/sub/token.txt"_s));
}

void TestKubeconfig::relativePathsResolvedAgainstTheirFile()
{
    const Kubeconfig config = Kubeconfig::loadFiles({data(u"sub/second.yaml"_s), data(u"first.yaml"_s)}, false);
    const QString dir = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig");
    for (const ClusterConfig &cluster : config.clusters()) {
        if (cluster.name == u"shared"_s) {
            QCOMPARE(cluster.certificateAuthority, dir + u"/certs/second-ca.crt"_s);
        }
    }
    const auto rest = config.restConfig(u"alpha"_s);
    QVERIFY(std::holds_alternative<RestConfig>(rest));
    // alpha lives in first.yaml but its cluster "shared" comes from second.yaml (first wins),
    // whose relative path is resolved against second.yaml's directory.
    QCOMPARE(std::get<RestConfig>(rest).cluster.certificateAuthority, dir + u"/certs/second-ca.crt"_s);
    QCOMPARE(std::get<RestConfig>(rest).user.tokenFile, dir + u"/sub/token.txt"_s);
}

void TestKubeconfig::missingFiles_data()
{
    QTest::addColumn<bool>("explicitFile");
    QTest::addColumn<int>("errorCount");

    QTest::newRow("missing explicit file is an error") << true << 1;
    QTest::newRow("missing file from KUBECONFIG is ignored") << false << 0;
}

void TestKubeconfig::missingFiles()
{
    QFETCH(bool, explicitFile);
    QFETCH(int, errorCount);
    QTemporaryDir dir;
    const QString missing = dir.filePath(u"nope.yaml"_s);
    const QStringList files = explicitFile ? QStringList{missing} : QStringList{missing, data(u"first.yaml"_s)};
    const Kubeconfig config = Kubeconfig::loadFiles(files, explicitFile);
    QCOMPARE(config.errors().size(), errorCount);
    if (errorCount) {
        QCOMPARE(config.errors().constFirst().file, missing);
        QVERIFY(config.errors().constFirst().message.contains(u"does not exist"_s));
    } else {
        QCOMPARE(config.currentContext(), u"alpha"_s);
    }
}

void TestKubeconfig::malformedFileReportedOthersStillLoad()
{
    const Kubeconfig config = Kubeconfig::loadFiles({data(u"malformed.yaml"_s), data(u"first.yaml"_s)}, false);
    QCOMPARE(config.errors().size(), 1);
    QCOMPARE(config.errors().constFirst().file, data(u"malformed.yaml"_s));
    QCOMPARE(config.errors().constFirst().line, 7);
    QCOMPARE(config.currentContext(), u"alpha"_s);
    QVERIFY(std::holds_alternative<RestConfig>(config.restConfig()));
}

// A command refuses to run with any error in the merged files, as kubectl does, even when the
// context it uses resolves; every error is reported, the file's own first.
void TestKubeconfig::commandRestConfigRefusesAnyError()
{
    const Kubeconfig merged = Kubeconfig::loadFiles({data(u"malformed.yaml"_s), data(u"first.yaml"_s)}, false);
    const auto refused = merged.commandRestConfig();
    QVERIFY(std::holds_alternative<QList<KubeconfigError>>(refused));
    QCOMPARE(std::get<QList<KubeconfigError>>(refused).size(), 1);
    QCOMPARE(std::get<QList<KubeconfigError>>(refused).constFirst().line, 7);

    const Kubeconfig clean = Kubeconfig::loadFiles({data(u"first.yaml"_s)}, true);
    const auto resolved = clean.commandRestConfig();
    QVERIFY(std::holds_alternative<RestConfig>(resolved));
    QCOMPARE(std::get<RestConfig>(resolved).contextName(), u"alpha"_s);

    const auto missing = clean.commandRestConfig(u"missing"_s);
    QVERIFY(std::holds_alternative<QList<KubeconfigError>>(missing));
    QCOMPARE(std::get<QList<KubeconfigError>>(missing).constFirst().message, u"context \"missing\" is not defined"_s);
}

void TestKubeconfig::resolveErrors_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line");

    const QByteArray base =
        "clusters:\n- name: c\n  cluster: {server: https://c}\n- name: noserver\n  cluster: {tls-server-name: x}\nusers:\n- name: u\n  user: {token: t}\n";
    QTest::newRow("context names a missing cluster") << base + "contexts:\n- name: x\n  context: {cluster: gone, user: u}\n"
                                                     << u"x"_s << u"context \"x\" names cluster \"gone\", which is not defined"_s << 10;
    QTest::newRow("context names a missing user") << base + "contexts:\n- name: x\n  context: {cluster: c, user: nobody}\n"
                                                  << u"x"_s << u"context \"x\" names user \"nobody\", which is not defined"_s << 10;
    QTest::newRow("context without cluster") << base + "contexts:\n- name: x\n  context: {user: u}\n" << u"x"_s << u"context \"x\" names no cluster"_s << 10;
    QTest::newRow("cluster without server") << base + "contexts:\n- name: x\n  context: {cluster: noserver}\n"
                                            << u"x"_s << u"cluster \"noserver\" has no server"_s << 4;
    QTest::newRow("unknown context") << base << u"missing"_s << u"context \"missing\" is not defined"_s << 0;
    QTest::newRow("current-context names a missing context: the file and line that chose it")
        << base + "contexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: missing\n"
        << QString() << u"current-context \"missing\" is not defined in /k.yaml"_s << 12;
    QTest::newRow("no current context") << base + "contexts:\n- name: x\n  context: {cluster: c}\n" << QString() << u"no current context"_s << 0;
    QTest::newRow("no contexts at all") << base << QString() << u"no contexts are defined"_s << 0;
}

void TestKubeconfig::resolveErrors()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, context);
    QFETCH(QString, message);
    QFETCH(int, line);
    const Kubeconfig config = Kubeconfig::fromYaml(yaml, u"/k.yaml"_s);
    QVERIFY2(!config.hasErrors(), qPrintable(config.errors().value(0).toString()));
    const auto result = config.restConfig(context);
    QVERIFY(std::holds_alternative<KubeconfigError>(result));
    const KubeconfigError error = std::get<KubeconfigError>(result);
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
    QCOMPARE(error.line, line);
}

void TestKubeconfig::secretsNeverInMessagesOrDebug()
{
    // A token that is not a string and a key that is not base64: the errors name the field,
    // never the value.
    const QByteArray yaml = "users:\n- name: u\n  user:\n    client-key-data: 'sup3r-s3cret-k3y!'\n    password: [sup3r-s3cret-pw]\n";
    const Kubeconfig config = Kubeconfig::fromYaml(yaml, u"/k.yaml"_s);
    QCOMPARE(config.errors().size(), 2);
    for (const KubeconfigError &error : config.errors()) {
        QVERIFY2(!error.toString().contains(u"sup3r"_s), qPrintable(error.toString()));
    }

    const Kubeconfig full = Kubeconfig::loadFiles({data(u"full.yaml"_s)}, true);
    const RestConfig rest = std::get<RestConfig>(full.restConfig());
    QString debugText;
    QDebug(&debugText) << rest.user.token << rest.user.password << rest.user.clientKeyData << rest.user.exec->env.at(0).second;
    QVERIFY(!debugText.contains(u"full-token-value"_s));
    QVERIFY(!debugText.contains(u"full-password-value"_s));
    QVERIFY(!debugText.contains(u"env-secret-value"_s));
    QVERIFY(debugText.contains(u"<redacted>"_s));
    QCOMPARE(rest.user.token.redactIn(u"echo full-token-value!"_s), u"echo <redacted>!"_s);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestKubeconfig)
#include "tst_kubeconfig.moc"
