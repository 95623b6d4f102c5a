// Secrets never leak: with a known bearer token, client key and Secret value, everything the CLI
// and the app's window produce is searched for them: the CLI's stdout and stderr (with every Qt
// logging category on at debug level), its refusals, a recording made without
// --include-secret-values and what replaying it prints, and, in process, the window's labels,
// tooltips, status bar and event stream, the messages logged meanwhile, and the settings file.
// Controls show that each search can fail: the same probes are found where they belong (the
// kubeconfig, `get secrets -o yaml`, a recording that includes secret values).
#include "core/kube/apiclient.h"
#include "core/sim/simcluster.h"
#include "ui/models/eventstreammodel.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/workspace.h"

#include "clirun.h"
#include "simclusterfixture.h"
#include "testmain.h"

#include <QAbstractButton>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMutex>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CachescopeTest::runCli;

namespace {

const QString Token = u"probe-token-6c1e9a4f2b7d"_s;
const QString WrongToken = u"probe-wrong-token-93ad15e07c"_s;
// The simulator's Secrets hold password "s3cr3t-password"; the test patches a second value in.
const QString SecretValue = u"s3cr3t-password"_s;
const QString PatchedSecretValue = u"probe-patched-value-51f0"_s;

QString base64(const QString &text)
{
    return QString::fromLatin1(text.toUtf8().toBase64());
}

// The messages logged in this process while the window runs (every category at debug level).
QMutex logMutex;
QStringList logged;
QtMessageHandler previousHandler = nullptr;

void keepMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        const QMutexLocker lock(&logMutex);
        logged.append(message);
    }
    if (type != QtDebugMsg && previousHandler != nullptr) {
        previousHandler(type, context, message);
    }
}

} // namespace

class TestSecretsNeverLeak : public QObject
{
    Q_OBJECT

private:
    // probes() is what must never show: the token, a wrong token a kubeconfig was given, a piece
    // of the client key, and the Secret's values (as written and as base64).
    [[nodiscard]] QStringList probes() const
    {
        return {Token, WrongToken, m_keyPiece, SecretValue, base64(SecretValue), PatchedSecretValue, base64(PatchedSecretValue)};
    }
    // leaked() names the probes found in text (empty: none).
    [[nodiscard]] QStringList leaked(const QString &text) const
    {
        QStringList found;
        for (const QString &probe : probes()) {
            if (text.contains(probe)) {
                found.append(probe);
            }
        }
        return found;
    }
    [[nodiscard]] QStringList leaked(const QByteArray &bytes) const
    {
        QStringList found;
        for (const QString &probe : probes()) {
            if (bytes.contains(probe.toUtf8())) {
                found.append(probe);
            }
        }
        return found;
    }

    // patchSecret() writes value into the password of the first Secret, as a user would.
    void patchSecret(const QString &value)
    {
        ApiClient client(*CachescopeTest::simRestConfig(*m_sim));
        ApiRequest request;
        request.path = u"/api/v1/namespaces/%1/secrets/db-credentials"_s.arg(m_secretNamespace);
        request.verb = "PATCH";
        request.contentType = "application/merge-patch+json";
        request.body = QJsonDocument(QJsonObject{{u"data"_s, QJsonObject{{u"password"_s, base64(value)}}}}).toJson(QJsonDocument::Compact);
        int status = 0;
        client.send(request, this, [&status](const ApiResponse &response) { status = response.httpStatus; });
        QTRY_VERIFY_WITH_TIMEOUT(status != 0, 10000);
        QCOMPARE(status, 200);
    }

    QTemporaryDir m_dir;
    std::unique_ptr<Sim::SimCluster> m_sim;
    QString m_keyPiece;
    QString m_secretNamespace;
    QString m_wrongTokenKubeconfig;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        // Every process started from here logs at debug level, as a user asked to for a report.
        qputenv("QT_LOGGING_RULES", "*.debug=true");
        QVERIFY(m_dir.isValid());
        Sim::SimOptions options;
        options.pods = 20;
        options.namespaces = 2;
        options.churn = 0;
        options.token = Token;
        m_sim = std::make_unique<Sim::SimCluster>(options);
        QString error;
        QVERIFY2(m_sim->start(&error), qPrintable(error));

        // A piece from the middle of the client key's PEM body: unique to that key.
        const QByteArrayList keyLines = m_sim->clientKeyPem().split('\n');
        QVERIFY(keyLines.size() > 4);
        m_keyPiece = QString::fromLatin1(keyLines.at(keyLines.size() / 2).left(40));
        QCOMPARE(m_keyPiece.size(), 40);

        // Control: the kubeconfig holds the token and the key (as base64 of the PEM, or a file).
        QFile kubeconfig(m_sim->kubeconfigPath());
        QVERIFY(kubeconfig.open(QIODevice::ReadOnly));
        const QByteArray kubeconfigBytes = kubeconfig.readAll();
        QVERIFY(kubeconfigBytes.contains(Token.toUtf8()));
        QByteArray wrong = kubeconfigBytes;
        wrong.replace(Token.toUtf8(), WrongToken.toUtf8());
        m_wrongTokenKubeconfig = m_dir.filePath(u"wrong-token.yaml"_s);
        QFile wrongFile(m_wrongTokenKubeconfig);
        QVERIFY(wrongFile.open(QIODevice::WriteOnly));
        wrongFile.write(wrong);
        wrongFile.close();

        // Where the Secrets live.
        const CachescopeTest::CliRun secrets = runCli(m_sim->kubeconfigPath(), {u"get"_s, u"secrets"_s, u"-A"_s, u"-o"_s, u"json"_s});
        QCOMPARE(secrets.exitCode, 0);
        const QJsonArray items = QJsonDocument::fromJson(secrets.out.toUtf8()).object().value(u"items"_s).toArray();
        for (const QJsonValue &item : items) {
            if (item[u"metadata"_s][u"name"_s].toString() == u"db-credentials"_s) {
                m_secretNamespace = item[u"metadata"_s][u"namespace"_s].toString();
                break;
            }
        }
        QVERIFY(!m_secretNamespace.isEmpty());
        // Control: `get secrets -o json` shows the values, as kubectl does; so the probe finds them.
        QVERIFY(secrets.out.contains(base64(SecretValue)));
    }

    void cleanupTestCase() { qunsetenv("QT_LOGGING_RULES"); }

    // The CLI, successful or refused, prints neither credentials nor Secret values.
    void cliPrintsNoSecret_data()
    {
        QTest::addColumn<QString>("kubeconfig"); // "sim" or "wrong-token"
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("succeeds");
        const QString objectArgument = u"secret/db-credentials"_s;
        QTest::newRow("get pods with the token") << u"sim"_s << QStringList{u"get"_s, u"pods"_s, u"-A"_s} << true;
        QTest::newRow("get pods with the client certificate") << u"sim"_s << QStringList{u"--context"_s, u"sim-cert"_s, u"get"_s, u"pods"_s, u"-A"_s} << true;
        QTest::newRow("get secrets as a table") << u"sim"_s << QStringList{u"get"_s, u"secrets"_s, u"-A"_s} << true;
        QTest::newRow("get secrets -o wide") << u"sim"_s << QStringList{u"get"_s, u"secrets"_s, u"-A"_s, u"-o"_s, u"wide"_s} << true;
        QTest::newRow("get secrets -o name") << u"sim"_s << QStringList{u"get"_s, u"secrets"_s, u"-A"_s, u"-o"_s, u"name"_s} << true;
        QTest::newRow("get secrets --metadata-only -o yaml")
            << u"sim"_s << QStringList{u"get"_s, u"secrets"_s, u"-A"_s, u"--metadata-only"_s, u"-o"_s, u"yaml"_s} << true;
        QTest::newRow("events of a Secret") << u"sim"_s << QStringList{u"events"_s, objectArgument, u"-n"_s, u"@ns"_s} << true;
        QTest::newRow("tree of a Secret") << u"sim"_s << QStringList{u"tree"_s, objectArgument, u"-n"_s, u"@ns"_s} << true;
        QTest::newRow("contexts") << u"sim"_s << QStringList{u"contexts"_s} << true;
        QTest::newRow("api-resources") << u"sim"_s << QStringList{u"api-resources"_s} << true;
        QTest::newRow("refused token") << u"wrong-token"_s << QStringList{u"get"_s, u"pods"_s, u"-A"_s} << false;
        QTest::newRow("user forbidden to list secrets")
            << u"sim"_s << QStringList{u"--context"_s, u"sim-restricted"_s, u"get"_s, u"secrets"_s, u"-A"_s} << false;
        QTest::newRow("logs of a missing pod") << u"sim"_s << QStringList{u"logs"_s, u"no-such-pod"_s, u"-n"_s, u"@ns"_s} << false;
    }

    void cliPrintsNoSecret()
    {
        QFETCH(QString, kubeconfig);
        QFETCH(QStringList, arguments);
        QFETCH(bool, succeeds);
        arguments.replaceInStrings(u"@ns"_s, m_secretNamespace);
        const CachescopeTest::CliRun run = runCli(kubeconfig == u"sim"_s ? m_sim->kubeconfigPath() : m_wrongTokenKubeconfig, arguments, 60000);
        QVERIFY2(run.exitCode >= 0, "cachescope-cli crashed or hung");
        QCOMPARE(run.exitCode == 0, succeeds);
        if (!succeeds) {
            QVERIFY2(run.err.contains(u"error: "_s), qPrintable(run.err));
        }
        QVERIFY2(leaked(run.out).isEmpty(), qPrintable(u"stdout shows "_s + leaked(run.out).join(u", "_s)));
        QVERIFY2(leaked(run.err).isEmpty(), qPrintable(u"stderr shows "_s + leaked(run.err).join(u", "_s)));
    }

    // A recording without --include-secret-values holds no Secret value, in its database, its
    // write-ahead log or what replaying it prints; with the option, it does (the control).
    void recordingsKeepSecretValuesOut_data()
    {
        QTest::addColumn<bool>("includeSecretValues");
        QTest::newRow("redacted by default") << false;
        QTest::newRow("--include-secret-values (control)") << true;
    }

    void recordingsKeepSecretValuesOut()
    {
        QFETCH(bool, includeSecretValues);
        const QString file = m_dir.filePath(includeSecretValues ? u"with-values.db"_s : u"redacted.db"_s);
        QStringList arguments{u"record"_s, u"secrets,pods"_s, u"-A"_s, u"-o"_s, file, u"--for"_s, u"4s"_s};
        if (includeSecretValues) {
            arguments << u"--include-secret-values"_s;
        }
        QProcess recorder;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"KUBECONFIG"_s, m_sim->kubeconfigPath());
        recorder.setProcessEnvironment(env);
        recorder.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), arguments);
        QVERIFY(recorder.waitForStarted());
        // A change while recording reaches it as a watch event, not only in the first list.
        QTest::qWait(1500);
        patchSecret(includeSecretValues ? SecretValue : PatchedSecretValue);
        QVERIFY(recorder.waitForFinished(60000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(recorder.exitCode() == 0, qPrintable(err));
        QVERIFY2(leaked(err).isEmpty(), qPrintable(err));

        QByteArray bytes;
        for (const QString &path : QStringList{file, file + u"-wal"_s}) {
            QFile part(path);
            if (part.open(QIODevice::ReadOnly)) {
                bytes += part.readAll();
            }
        }
        QVERIFY(!bytes.isEmpty());
        const CachescopeTest::CliRun replay = runCli(m_sim->kubeconfigPath(), {u"replay"_s, file, u"get"_s, u"secrets"_s, u"-A"_s, u"-o"_s, u"yaml"_s}, 60000);
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
        QVERIFY(replay.out.contains(u"db-credentials"_s));
        if (includeSecretValues) {
            QVERIFY(bytes.contains(base64(SecretValue).toUtf8()));
            QVERIFY(replay.out.contains(base64(SecretValue)));
            return;
        }
        QVERIFY2(leaked(bytes).isEmpty(), qPrintable(u"the recording holds "_s + leaked(bytes).join(u", "_s)));
        QVERIFY2(leaked(replay.out).isEmpty(), qPrintable(u"replay prints "_s + leaked(replay.out).join(u", "_s)));
        QVERIFY2(leaked(replay.err).isEmpty(), qPrintable(replay.err));
    }

    // The window, with Secrets shown and changed, a refused context and debug logging, shows and
    // keeps none of the probes.
    void windowShowsNoSecret()
    {
        {
            const QMutexLocker lock(&logMutex);
            logged.clear();
        }
        previousHandler = qInstallMessageHandler(keepMessage);
        QStringList texts;
        {
            MainWindow window;
            Workspace workspace;
            Explorer explorer(&window, &workspace);
            window.show();
            explorer.openKubeconfig(m_sim->kubeconfigPath());
            QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer() != nullptr && explorer.currentInformer()->hasSynced(), 30000);
            Cluster *cluster = explorer.contextsView()->currentCluster();
            explorer.showResource(std::get<ApiResource>(cluster->discovery().resolve(u"secrets"_s)));
            QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer()->name() == u"secrets"_s && explorer.currentInformer()->hasSynced(), 30000);
            const int rowsBefore = explorer.eventStream()->rowCount();
            patchSecret(PatchedSecretValue);
            QTRY_VERIFY_WITH_TIMEOUT(explorer.eventStream()->rowCount() > rowsBefore, 10000);
            // A user refused the Secrets: the refusal is shown, its token is not.
            QVERIFY(explorer.contextsView()->connectContext(u"sim-restricted"_s));
            QTRY_VERIFY_WITH_TIMEOUT(
                explorer.contextsView()->currentCluster() != nullptr && explorer.contextsView()->currentCluster()->name() == u"sim-restricted"_s, 30000);
            QTRY_VERIFY_WITH_TIMEOUT(explorer.currentInformer() != nullptr, 30000);
            explorer.showResource(std::get<ApiResource>(explorer.contextsView()->currentCluster()->discovery().resolve(u"secrets"_s)));
            QTest::qWait(2000);

            const EventStreamModel *stream = explorer.eventStream();
            bool secretUpdateShown = false;
            for (int row = 0; row < stream->rowCount(); ++row) {
                for (int column = 0; column < stream->columnCount(); ++column) {
                    const QModelIndex index = stream->index(row, column);
                    texts << index.data(Qt::DisplayRole).toString() << index.data(Qt::ToolTipRole).toString();
                }
                secretUpdateShown =
                    secretUpdateShown || stream->index(row, EventStreamModel::KeyColumn).data().toString() == m_secretNamespace + u"/db-credentials"_s;
            }
            QVERIFY(secretUpdateShown);
            for (const QWidget *widget : window.findChildren<QWidget *>()) {
                texts << widget->toolTip() << widget->windowTitle();
            }
            for (const QLabel *label : window.findChildren<QLabel *>()) {
                texts << label->text();
            }
            for (const QAbstractButton *button : window.findChildren<QAbstractButton *>()) {
                texts << button->text();
            }
            texts << window.statusBar()->currentMessage() << window.windowTitle();
        }
        qInstallMessageHandler(previousHandler);
        QSettings().sync();
        QFile settings(QSettings().fileName());
        QVERIFY2(settings.open(QIODevice::ReadOnly), qPrintable(QSettings().fileName()));
        const QByteArray settingsBytes = settings.readAll();
        QVERIFY(!settingsBytes.isEmpty());

        QStringList messages;
        {
            const QMutexLocker lock(&logMutex);
            messages = logged;
        }
        QVERIFY(!messages.isEmpty());
        QVERIFY2(leaked(texts.join(u'\n')).isEmpty(), qPrintable(u"the window shows "_s + leaked(texts.join(u'\n')).join(u", "_s)));
        QVERIFY2(leaked(messages.join(u'\n')).isEmpty(), qPrintable(u"the log holds "_s + leaked(messages.join(u'\n')).join(u", "_s)));
        QVERIFY2(leaked(settingsBytes).isEmpty(), qPrintable(u"the settings hold "_s + leaked(settingsBytes).join(u", "_s)));
    }
};

CACHESCOPE_TEST_MAIN(TestSecretsNeverLeak)
#include "tst_secretsneverleak.moc"
