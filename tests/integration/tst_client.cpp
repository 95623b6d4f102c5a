// Integration tests of the kube client core against cachescope-sim over HTTPS on loopback:
// token, client-certificate and exec-plugin users, TLS failures, paged lists, watch resumption,
// 50 concurrent watches over the sim's HTTP/1.1, and the sim's faults.
#include "core/kube/apiclient.h"
#include "core/kube/discovery.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/listdecoder.h"
#include "core/kube/listpager.h"
#include "core/kube/watchstream.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

// SimProcess runs one cachescope-sim for a test and stops it afterwards.
class SimProcess
{
public:
    ~SimProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    bool start(const QStringList &extraArgs)
    {
        if (!m_dir.isValid()) {
            return false;
        }
        m_kubeconfig = m_dir.filePath(u"sim.yaml"_s);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-sim"),
                        QStringList{u"--kubeconfig-out"_s, m_kubeconfig, u"--seed"_s, u"7"_s, u"--pods"_s, u"40"_s} + extraArgs);
        QByteArray out;
        const bool ready = QTest::qWaitFor(
            [&] {
                out += m_process.readAllStandardOutput();
                return out.contains("ready\n") || m_process.state() == QProcess::NotRunning;
            },
            30000);
        return ready && out.contains("ready\n");
    }

    QString kubeconfig() const { return m_kubeconfig; }
    QString dir() const { return m_dir.path(); }

private:
    QProcess m_process;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
};

// withExecUser() writes a second kubeconfig with an exec-plugin user that prints the sim's
// token, and returns both files merged.
Kubeconfig withExecUser(const SimProcess &sim)
{
    const Kubeconfig simConfig = Kubeconfig::loadFiles({sim.kubeconfig()}, true);
    QString token;
    for (const UserConfig &user : simConfig.users()) {
        if (user.name == u"sim-token"_s) {
            token = user.token.revealString();
        }
    }
    const QString execFile = sim.dir() + u"/exec.yaml"_s;
    QFile file(execFile);
    if (file.open(QIODevice::WriteOnly)) {
        file.write("users:\n- name: sim-exec\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: " CACHESCOPE_TEST_DATA
                   "/exec/plugin.sh\n      interactiveMode: Never\n      provideClusterInfo: true\n      env:\n      - name: PLUGIN_TOKEN\n        value: '" +
                   token.toUtf8() + "'\ncontexts:\n- name: sim-exec\n  context: {cluster: cachescope-sim, user: sim-exec, namespace: default}\n");
        file.close();
    }
    return Kubeconfig::loadFiles({sim.kubeconfig(), execFile}, false);
}

RestConfig restConfig(const Kubeconfig &config, const QString &context)
{
    const auto resolved = config.restConfig(context);
    if (const auto *error = std::get_if<KubeconfigError>(&resolved)) {
        qWarning() << error->toString();
        return {};
    }
    return std::get<RestConfig>(resolved);
}

ApiResponse fetch(ApiClient &client, const ApiRequest &request)
{
    ApiResponse result;
    bool done = false;
    QObject context;
    client.send(request, &context, [&](const ApiResponse &response) {
        result = response;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 30000)) {
        result.error = ApiError(ApiError::Kind::Timeout, u"test gave up waiting"_s);
    }
    return result;
}

ApiRequest podsRequest(const QString &rv = {}, bool watch = false)
{
    ApiRequest request;
    request.path = u"/api/v1/pods"_s;
    if (watch) {
        request.query.addQueryItem(u"watch"_s, u"true"_s);
        request.query.addQueryItem(u"allowWatchBookmarks"_s, u"true"_s);
    }
    if (!rv.isNull()) {
        request.query.addQueryItem(u"resourceVersion"_s, rv);
    }
    return request;
}

qint64 resourceVersionOf(const QByteArray &object)
{
    return QJsonDocument::fromJson(object).object().value(u"metadata"_s).toObject().value(u"resourceVersion"_s).toString().toLongLong();
}

} // namespace

class TestClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void discoveryAndPagedList_data();
    void discoveryAndPagedList();
    void wrongCaIsTlsErrorWithoutData();
    void aCallerThatGoesAwayGetsNoAnswer();
    void watchResumesFromLastResourceVersion();
    void fiftyConcurrentWatches_data();
    void fiftyConcurrentWatches();
    void faults_data();
    void faults();
    void cli_data();
    void cli();
    void configurationErrorsFailAtOnce_data();
    void configurationErrorsFailAtOnce();
};

void TestClient::discoveryAndPagedList_data()
{
    QTest::addColumn<QString>("context");
    QTest::newRow("HTTPS with a bearer token") << u"sim-token"_s;
    QTest::newRow("HTTPS with a client certificate") << u"sim-cert"_s;
    QTest::newRow("HTTPS with an exec plugin user") << u"sim-exec"_s;
}

void TestClient::discoveryAndPagedList()
{
    QFETCH(QString, context);
    SimProcess sim;
    QVERIFY(sim.start({}));
    const Kubeconfig config = withExecUser(sim);
    QVERIFY2(!config.hasErrors(), qPrintable(config.errors().value(0).toString()));
    ApiClient client(restConfig(config, context));

    Discovery discovery(&client);
    QSignalSpy discovered(&discovery, &Discovery::finished);
    QSignalSpy discoveryFailed(&discovery, &Discovery::failed);
    discovery.start();
    QVERIFY(QTest::qWaitFor([&] { return !discovered.isEmpty() || !discoveryFailed.isEmpty(); }, 30000));
    QVERIFY2(discoveryFailed.isEmpty(), qPrintable(discoveryFailed.value(0).value(0).value<ApiError>().toString()));
    const DiscoveryResult result = discovered.at(0).at(0).value<DiscoveryResult>();
    const auto pods = result.resolve(u"po"_s);
    QVERIFY(std::holds_alternative<ApiResource>(pods));
    QCOMPARE(std::get<ApiResource>(pods).gvr.collectionPath(), u"/api/v1/pods"_s);
    QCOMPARE(std::get<ApiResource>(result.resolve(u"deployments.apps"_s)).kind, u"Deployment"_s);

    const ApiResponse full = fetch(client, podsRequest());
    QVERIFY2(full.isOk(), qPrintable(full.error.toString()));
    const qsizetype total = std::get<ListPage>(ListDecoder::decode(full.body)).items.size();
    QVERIFY(total >= 40);

    ListPager pager(&client, podsRequest(), 7);
    QSignalSpy finished(&pager, &ListPager::finished);
    QSignalSpy failed(&pager, &ListPager::failed);
    QSignalSpy progress(&pager, &ListPager::progress);
    pager.start();
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 30000));
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).value<ApiError>().toString()));
    QCOMPARE(pager.itemsSoFar(), total);
    QCOMPARE(pager.pages(), int((total + 6) / 7));
    // remainingItemCount counts down to zero.
    QCOMPARE(progress.at(0).at(1).toLongLong(), total - 7);
    QCOMPARE(progress.constLast().at(1).toLongLong(), 0);
}

void TestClient::wrongCaIsTlsErrorWithoutData()
{
    SimProcess sim;
    QVERIFY(sim.start({}));
    RestConfig config = restConfig(Kubeconfig::loadFiles({sim.kubeconfig()}, true), u"sim-token"_s);
    config.cluster.certificateAuthorityData.clear();
    config.cluster.certificateAuthority = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/certs/other-ca.crt");
    ApiClient client(config);
    const ApiResponse response = fetch(client, podsRequest());
    QCOMPARE(response.error.kind(), ApiError::Kind::Tls);
    QVERIFY2(response.error.message().contains(u"certificate-authority"_s), qPrintable(response.error.message()));
    QVERIFY(response.body.isEmpty());
    QVERIFY(!response.error.message().contains(config.user.token.revealString()));
}

// Deleting a request's context object cancels the request; the answer (an abort) must not
// reach the context while it is being destroyed, which QObject's destroyed() would allow.
void TestClient::aCallerThatGoesAwayGetsNoAnswer()
{
    SimProcess sim;
    QVERIFY(sim.start({u"--faults"_s, u"latency=1:800"_s}));
    ApiClient client(restConfig(Kubeconfig::loadFiles({sim.kubeconfig()}, true), u"sim-token"_s));
    auto *context = new QObject;
    bool answered = false;
    client.send(podsRequest(), context, [&answered](const ApiResponse &) { answered = true; });
    QTest::qWait(100); // the list is on the wire, its answer 800 ms away
    QVERIFY(!answered);
    delete context;
    QTest::qWait(1500);
    QVERIFY(!answered);
    // The client still serves other callers.
    const ApiResponse list = fetch(client, podsRequest());
    QVERIFY2(list.isOk(), qPrintable(list.error.toString()));
}

void TestClient::watchResumesFromLastResourceVersion()
{
    SimProcess sim;
    QVERIFY(sim.start({u"--churn"_s, u"40"_s}));
    ApiClient client(restConfig(Kubeconfig::loadFiles({sim.kubeconfig()}, true), u"sim-token"_s));
    const ApiResponse list = fetch(client, podsRequest());
    QVERIFY(list.isOk());
    const QString listRv = std::get<ListPage>(ListDecoder::decode(list.body)).resourceVersion;
    QVERIFY(!listRv.isEmpty());

    qint64 lastRv = listRv.toLongLong();
    for (int round = 0; round < 2; ++round) {
        std::unique_ptr<WatchStream> watch(client.watch(podsRequest(QString::number(lastRv), true), nullptr));
        QList<WatchEvent> events;
        connect(watch.get(), &WatchStream::eventReceived, this, [&events](const WatchEvent &event) {
            if (event.type != WatchEvent::Type::Bookmark) {
                events.append(event);
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(events.size() >= 5, 30000);
        watch->stop();
        for (const WatchEvent &event : std::as_const(events)) {
            QVERIFY2(event.type != WatchEvent::Type::Error && event.type != WatchEvent::Type::Malformed, qPrintable(event.decodeError));
            const qint64 rv = resourceVersionOf(event.object);
            // Resumed exactly after the last version seen: nothing replayed, in order.
            QVERIFY2(rv > lastRv, qPrintable(u"%1 after %2"_s.arg(rv).arg(lastRv)));
            lastRv = rv;
        }
    }
}

void TestClient::fiftyConcurrentWatches_data()
{
    QTest::addColumn<QString>("httpVersion");
    // Over HTTP/1.1 Qt 6.4 keeps 6 connections per host and QNAM: the client spreads the watches
    // over QNAMs. Over HTTP/2 they share one connection.
    QTest::newRow("HTTP/1.1 (--http1-only): spread over QNAMs") << u"1.1"_s;
    QTest::newRow("HTTP/2: streams of one connection") << u"2"_s;
}

void TestClient::fiftyConcurrentWatches()
{
    QFETCH(QString, httpVersion);
    SimProcess sim;
    QStringList arguments{u"--churn"_s, u"20"_s};
    if (httpVersion == u"1.1"_s) {
        arguments << u"--http1-only"_s;
    }
    QVERIFY(sim.start(arguments));
    ApiClient client(restConfig(Kubeconfig::loadFiles({sim.kubeconfig()}, true), u"sim-token"_s));
    const int count = 50;
    std::vector<std::unique_ptr<WatchStream>> watches;
    QList<int> events(count, 0);
    int opened = 0;
    for (int i = 0; i < count; ++i) {
        // resourceVersion "0": each watch starts with the current pods as ADDED events.
        watches.emplace_back(client.watch(podsRequest(u"0"_s, true), nullptr));
        watches.back()->setParent(nullptr);
        connect(watches.back().get(), &WatchStream::opened, this, [&opened] { ++opened; });
        connect(watches.back().get(), &WatchStream::eventReceived, this, [&events, i] { ++events[i]; });
    }
    QTRY_COMPARE_WITH_TIMEOUT(opened, count, 60000);
    QCOMPARE(client.activeWatchCount(), count);
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(events.cbegin(), events.cend(), [](int n) { return n >= 40; }), 60000);
    // Ordinary requests still get through while 50 watches hold their connections.
    QVERIFY(fetch(client, podsRequest()).isOk());
    for (const auto &watch : watches) {
        QCOMPARE(watch->state(), WatchStream::State::Open);
        QCOMPARE(watch->httpVersion(), httpVersion);
    }
}

void TestClient::faults_data()
{
    QTest::addColumn<QString>("faults");
    QTest::addColumn<QString>("expect");

    QTest::newRow("throttled lists are retried after Retry-After") << u"throttle=0.5:0"_s << u"list-ok"_s;
    QTest::newRow("a stalled watch is caught by the idle watchdog") << u"stall=1"_s << u"watch-stalled"_s;
    QTest::newRow("a 410 ERROR event decodes as expired") << u"gone=1"_s << u"watch-gone"_s;
    QTest::newRow("a truncated watch ends cleanly") << u"truncate=1"_s << u"watch-ends"_s;
    QTest::newRow("a dropped connection is a network error") << u"drop=1"_s << u"list-network-error"_s;
}

void TestClient::faults()
{
    QFETCH(QString, faults);
    QFETCH(QString, expect);
    SimProcess sim;
    QVERIFY(sim.start({u"--faults"_s, faults, u"--churn"_s, u"20"_s}));
    ApiClient client(restConfig(Kubeconfig::loadFiles({sim.kubeconfig()}, true), u"sim-token"_s));

    if (expect.startsWith(u"list"_s)) {
        ListPager pager(&client, podsRequest(), 5);
        QSignalSpy finished(&pager, &ListPager::finished);
        QSignalSpy failed(&pager, &ListPager::failed);
        pager.start();
        QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 60000));
        if (expect == u"list-ok"_s) {
            QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).value<ApiError>().toString()));
            QVERIFY(pager.itemsSoFar() >= 40);
        } else {
            QCOMPARE(failed.size(), 1);
            const ApiError error = failed.at(0).at(0).value<ApiError>();
            QVERIFY2(error.kind() == ApiError::Kind::Network, qPrintable(error.toString()));
        }
        return;
    }

    std::unique_ptr<WatchStream> watch(client.watch(podsRequest(u"0"_s, true), nullptr));
    watch->setIdleTimeout(std::chrono::milliseconds(1500));
    QList<WatchEvent> events;
    connect(watch.get(), &WatchStream::eventReceived, this, [&events](const WatchEvent &event) { events.append(event); });
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    QVERIFY(finished.wait(60000));
    const ApiError error = finished.at(0).at(0).value<ApiError>();
    if (expect == u"watch-stalled"_s) {
        QCOMPARE(error.kind(), ApiError::Kind::Timeout);
    } else if (expect == u"watch-gone"_s) {
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.constLast().type, WatchEvent::Type::Error);
        QVERIFY(ApiError::fromStatus(events.constLast().object).isExpired());
    } else {
        // Cut mid-frame: the partial frame is reported, never delivered as an object.
        for (const WatchEvent &event : std::as_const(events)) {
            if (event.type != WatchEvent::Type::Malformed) {
                QVERIFY(QJsonDocument::fromJson(event.object).isObject());
            }
        }
        QVERIFY(events.isEmpty() || events.constLast().type == WatchEvent::Type::Malformed || error.isError());
    }
}

void TestClient::cli_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stdoutLine");
    QTest::addColumn<QString>("stderrText");

    QTest::newRow("api-resources like kubectl") << QStringList{u"api-resources"_s} << 0 << u"pods                        po           v1"_s << QString();
    QTest::newRow("api-resources with the client-certificate context")
        << QStringList{u"--context"_s, u"sim-cert"_s, u"api-resources"_s} << 0 << u"deployments                 deploy       apps/v1"_s << QString();
    QTest::newRow("contexts with current marked") << QStringList{u"contexts"_s} << 0 << u"*         sim-token        cachescope-sim   sim-token"_s << QString();
    QTest::newRow("unknown context is an error on stderr")
        << QStringList{u"--context"_s, u"nope"_s, u"api-resources"_s} << 1 << QString() << u"error: context \"nope\" is not defined"_s;
    QTest::newRow("unknown command") << QStringList{u"frobnicate"_s} << 1 << QString() << u"error: unknown command \"frobnicate\""_s;
}

void TestClient::cli()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutLine);
    QFETCH(QString, stderrText);
    SimProcess sim;
    QVERIFY(sim.start({}));
    QProcess cli;
    cli.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), QStringList{u"--kubeconfig"_s, sim.kubeconfig()} + args);
    QVERIFY(cli.waitForFinished(60000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    QVERIFY2(cli.exitCode() == exitCode, qPrintable(u"exit code %1, stderr: %2"_s.arg(cli.exitCode()).arg(err)));
    if (!stdoutLine.isEmpty()) {
        QVERIFY2(out.contains(stdoutLine), qPrintable(out));
    } else {
        QVERIFY(out.isEmpty());
    }
    QVERIFY2(stderrText.isEmpty() ? err.isEmpty() : err.startsWith(stderrText), qPrintable(err));
}

// A kubeconfig that cannot work is not a server that is down: retrying does not bring a CA file
// or an exec plugin into being. The CLI fails at once, as kubectl does, naming the file, the line
// of the entry at fault and the context it breaks; it never retries.
void TestClient::configurationErrorsFailAtOnce_data()
{
    QTest::addColumn<QByteArray>("kubeconfig");
    QTest::addColumn<QString>("error"); // after "error: FILE"

    const QByteArray head = "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n";
    const QByteArray user = "users:\n- name: u\n  user:\n    token: abc\n";
    const QByteArray context = "contexts:\n- name: ctx\n  context: {cluster: c, user: u}\ncurrent-context: ctx\n";
    QTest::newRow("certificate-authority file that does not exist") << head + "    certificate-authority: /nonexistent/ca.crt\n" + user +
            context << u":4: context \"ctx\": cannot read the certificate authority file /nonexistent/ca.crt of cluster \"c\""_s;
    QTest::newRow("client certificate file that does not exist")
        << head + "users:\n- name: u\n  user:\n    client-certificate: /nonexistent/u.crt\n    client-key: /nonexistent/u.key\n" + context
        << u":8: context \"ctx\": cannot read the client certificate file /nonexistent/u.crt"_s;
    QTest::newRow("exec plugin that is not installed") << head +
            "users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: cachescope-no-such-plugin\n" +
            context << u":8: context \"ctx\": the exec plugin \"cachescope-no-such-plugin\" was not found"_s;
    QTest::newRow("current-context that is not defined") << head + user + "contexts:\n- name: ctx\n  context: {cluster: c, user: u}\ncurrent-context: gone\n"
                                                         << u":14: current-context \"gone\" is not defined in "_s;
}

void TestClient::configurationErrorsFailAtOnce()
{
    QFETCH(QByteArray, kubeconfig);
    QFETCH(QString, error);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"kubeconfig.yaml"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kubeconfig);
    file.close();
    QProcess cli;
    // The timeout is far longer than the test waits: only failing at once passes.
    cli.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"--kubeconfig"_s, path, u"get"_s, u"pods"_s, u"--timeout"_s, u"10m"_s});
    QVERIFY(cli.waitForFinished(60000));
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    QCOMPARE(cli.exitCode(), 1);
    QVERIFY2(err.startsWith(u"error: "_s + path + error), qPrintable(err));
    QVERIFY2(!err.contains(u"retrying"_s), qPrintable(err));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestClient)
#include "tst_client.moc"
