#include "core/kube/apiclient.h"
#include "core/kube/credentialprovider.h"
#include "core/kube/discovery.h"
#include "core/kube/listpager.h"
#include "core/kube/watchstream.h"
#include "core/version.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QPointer>
#include <QSignalSpy>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrlQuery>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

using Headers = QHash<QByteArray, QByteArray>;

namespace {

const QString certDir = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/certs/");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// HttpRequest is one request as the test server saw it.
struct HttpRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QPointer<QTcpSocket> socket;
    QString peerCommonName;
};

// TestServer is a minimal HTTP/1.1 server on loopback (optionally TLS through QSslServer) that
// hands each request to a test-supplied handler. Enough HTTP for GETs, keep-alive and chunked
// watch streams; nothing else.
class TestServer
{
public:
    std::function<void(const HttpRequest &)> handler;
    QList<HttpRequest> requests;

    ~TestServer()
    {
        // Sockets report their disconnection while the server is deleted: the buffers must
        // still exist then.
        m_server.reset();
    }

    bool listen(bool tls)
    {
        if (tls) {
            auto *server = new QSslServer;
            QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
            ssl.setLocalCertificate(QSslCertificate(readAll(certDir + u"server.crt"_s)));
            ssl.setPrivateKey(QSslKey(readAll(certDir + u"server.key"_s), QSsl::Rsa));
            // Ask for a client certificate without requiring one, to see which one was sent.
            ssl.setPeerVerifyMode(QSslSocket::QueryPeer);
            server->setSslConfiguration(ssl);
            m_server.reset(server);
        } else {
            m_server = std::make_unique<QTcpServer>();
        }
        m_tls = tls;
        QObject::connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, m_server.get(), [this] {
            while (QTcpSocket *socket = m_server->nextPendingConnection()) {
                accept(socket);
            }
        });
        return m_server->listen(QHostAddress::LocalHost, 0);
    }

    QString url() const { return (m_tls ? u"https://127.0.0.1:"_s : u"http://127.0.0.1:"_s) + QString::number(m_server->serverPort()); }

    static void reply(QTcpSocket *socket, int status, const QByteArray &body, const QByteArray &extraHeaders = {})
    {
        if (!socket) {
            return;
        }
        socket->write("HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
                      "\r\n" + extraHeaders + "\r\n" + body);
    }
    static void startStream(QTcpSocket *socket) { socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"); }
    static void chunk(QTcpSocket *socket, const QByteArray &data)
    {
        if (socket) {
            socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
        }
    }
    static void endStream(QTcpSocket *socket)
    {
        if (socket) {
            socket->write("0\r\n\r\n");
        }
    }

private:
    void accept(QTcpSocket *socket)
    {
        socket->setParent(m_server.get());
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
            m_buffers[socket] += socket->readAll();
            QByteArray &buffer = m_buffers[socket];
            qsizetype end;
            while ((end = buffer.indexOf("\r\n\r\n")) >= 0) {
                const QList<QByteArray> lines = buffer.left(end).split('\n');
                buffer.remove(0, end + 4);
                HttpRequest request;
                const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
                request.method = first.value(0);
                const QUrl url(QString::fromLatin1(first.value(1)));
                request.path = url.path();
                request.query = QUrlQuery(url);
                for (qsizetype i = 1; i < lines.size(); ++i) {
                    const qsizetype colon = lines[i].indexOf(':');
                    if (colon > 0) {
                        request.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
                    }
                }
                request.socket = socket;
                if (auto *ssl = qobject_cast<QSslSocket *>(socket)) {
                    request.peerCommonName = ssl->peerCertificate().subjectInfo(QSslCertificate::CommonName).value(0);
                }
                requests.append(request);
                if (handler) {
                    handler(request);
                }
            }
        });
        QObject::connect(socket, &QTcpSocket::disconnected, socket, [this, socket] {
            m_buffers.remove(socket);
            socket->deleteLater();
        });
    }

    std::unique_ptr<QTcpServer> m_server;
    bool m_tls = false;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

RestConfig configFor(const QString &url)
{
    RestConfig config;
    config.context.name = u"test"_s;
    config.cluster.name = u"test-cluster"_s;
    config.cluster.server = QUrl(url);
    config.user.name = u"test-user"_s;
    return config;
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
    if (!QTest::qWaitFor([&] { return done; }, 20000)) {
        result.error = ApiError(ApiError::Kind::Timeout, u"test gave up waiting"_s);
    }
    return result;
}

ApiRequest requestFor(const QString &path)
{
    ApiRequest request;
    request.path = path;
    return request;
}

// StreamRun is one ApiClient::stream() of the pods collection and what it delivered; its
// consumer keeps reading, or asks to stop at the first bytes.
struct StreamRun
{
    QByteArray received;
    int bodyCalls = 0;
    std::optional<ApiResponse> done;

    void start(ApiClient &client, QObject *context, bool keepReading = true)
    {
        client.stream(
            requestFor(u"/api/v1/pods"_s),
            context,
            [this, keepReading](QByteArrayView bytes) {
                received += bytes;
                ++bodyCalls;
                return keepReading;
            },
            [this](const ApiResponse &response) { done = response; });
    }
};

QByteArray eventLine(const char *type, const QString &name, int rv)
{
    return "{\"type\":\"" + QByteArray(type) + "\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name.toUtf8() + "\",\"resourceVersion\":\"" +
        QByteArray::number(rv) + "\"}}}\n";
}

} // namespace

class TestApiClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rateLimit_data();
    void rateLimit();
    void requestHeaders_data();
    void requestHeaders();
    void serverPathPrefixKept();
    void statusErrorDecoded();
    void retries_data();
    void retries();
    void unauthorizedRefreshesExecCredentialsOnce_data();
    void unauthorizedRefreshesExecCredentialsOnce();
    void networkErrorIsClear();
    void listPages();
    void listContinueExpiredFallsBackToFullList();
    void streamHandsOverTheBodyAsItArrives();
    void streamedErrorAnswersAreCollectedWhole();
    void streamBrokenMidwayEndsWithItsError();
    void streamStoppedByItsConsumerAborts();
    void watchDecodesEventsAcrossChunks();
    void watchPausedEmitsNothingUntilResumed_data();
    void watchPausedEmitsNothingUntilResumed();
    void watchHttpErrorFinishesWithStatus();
    void watchIdleWatchdogReportsStall();
    void fiftyConcurrentWatchesOverHttp11();
    void tls_data();
    void tls();
    void clientCertificatePresented();
    void livesOnWorkerThread();
    void discovery_data();
    void discovery();
    void watchOutlivesClient();
    void watchRetriedAfterThrottling();

private:
    QTemporaryDir m_tmp;
};

// The client's token bucket (core/util/tokenbucket, whose reservation semantics tst_ratelimiter
// pins on a FakeClock) as the client uses it: the burst goes at once, the next request waits its
// 1/qps (100 s here, so "not yet" cannot be a race), and a QPS <= 0 builds no bucket at all.
void TestApiClient::rateLimit_data()
{
    QTest::addColumn<double>("qps");
    QTest::addColumn<int>("burst");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("answeredAtOnce");

    QTest::newRow("the burst goes at once, the next waits 1/qps") << 0.01 << 2 << 3 << 2;
    QTest::newRow("a burst below one still lets one request through") << 0.01 << 0 << 2 << 1;
    QTest::newRow("qps zero turns client-side limiting off") << 0.0 << 1 << 5 << 5;
    QTest::newRow("negative qps turns client-side limiting off") << -1.0 << 1 << 5 << 5;
}

void TestApiClient::rateLimit()
{
    QFETCH(double, qps);
    QFETCH(int, burst);
    QFETCH(int, requests);
    QFETCH(int, answeredAtOnce);

    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 200, "{}");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    client.setRateLimit(qps, burst);
    int answered = 0;
    QObject context;
    for (int i = 0; i < requests; ++i) {
        client.send(requestFor(u"/api/v1/pods"_s), &context, [&answered](const ApiResponse &) { ++answered; });
    }
    QTRY_COMPARE_WITH_TIMEOUT(answered, answeredAtOnce, 20000);
    QTest::qWait(300);
    QCOMPARE(answered, answeredAtOnce);
    QCOMPARE(server.requests.size(), answeredAtOnce);
}

void TestApiClient::requestHeaders_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("username");
    QTest::addColumn<bool>("impersonate");
    QTest::addColumn<bool>("disableCompression");
    QTest::addColumn<QByteArray>("accept");
    QTest::addColumn<Headers>("expected");

    QTest::newRow("bearer token and user agent") << u"tok-123"_s << QString() << false << false << QByteArray(ApiRequest::acceptJson)
                                                 << Headers{{"authorization", "Bearer tok-123"},
                                                            {"user-agent", userAgent().toUtf8()},
                                                            {"accept", "application/json"}};
    QTest::newRow("basic auth") << QString() << u"jane"_s << false << false << QByteArray(ApiRequest::acceptJson)
                                << Headers{{"authorization", "Basic " + QByteArray("jane:pw").toBase64()}};
    QTest::newRow("impersonation headers") << u"t"_s << QString() << true << false << QByteArray(ApiRequest::acceptJson)
                                           << Headers{{"impersonate-user", "alice"},
                                                      {"impersonate-uid", "u-1"},
                                                      {"impersonate-group", "devs,ops"},
                                                      {"impersonate-extra-scopes", "view"}};
    QTest::newRow("gzip offered by default") << QString() << QString() << false << false << QByteArray(ApiRequest::acceptJson)
                                             << Headers{{"accept-encoding", "~gzip"}};
    QTest::newRow("disable-compression asks for identity")
        << QString() << QString() << false << true << QByteArray(ApiRequest::acceptJson) << Headers{{"accept-encoding", "identity"}};
    QTest::newRow("Table accept variant") << QString() << QString() << false << false << QByteArray(ApiRequest::acceptTable)
                                          << Headers{{"accept", ApiRequest::acceptTable}};
    QTest::newRow("PartialObjectMetadata accept variant")
        << QString() << QString() << false << false << QByteArray(ApiRequest::acceptMetadataList) << Headers{{"accept", ApiRequest::acceptMetadataList}};
}

void TestApiClient::requestHeaders()
{
    QFETCH(QString, token);
    QFETCH(QString, username);
    QFETCH(bool, impersonate);
    QFETCH(bool, disableCompression);
    QFETCH(QByteArray, accept);
    QFETCH(Headers, expected);

    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 200, "{}");
    };
    QVERIFY(server.listen(false));
    RestConfig config = configFor(server.url());
    config.user.token = Secret::fromString(token);
    config.user.username = username;
    config.user.password = Secret("pw");
    config.cluster.disableCompression = disableCompression;
    if (impersonate) {
        config.user.impersonate = u"alice"_s;
        config.user.impersonateUid = u"u-1"_s;
        config.user.impersonateGroups = {u"devs"_s, u"ops"_s};
        config.user.impersonateUserExtra.insert(u"scopes"_s, {u"view"_s});
    }
    ApiClient client(config);
    ApiRequest request = requestFor(u"/api/v1/pods"_s);
    request.accept = accept;
    const ApiResponse response = fetch(client, request);
    QVERIFY2(response.isOk(), qPrintable(response.error.toString()));
    QCOMPARE(server.requests.size(), 1);
    const HttpRequest &seen = server.requests.constFirst();
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        if (it.value().startsWith('~')) { // "~x": the header contains x
            QVERIFY2(seen.headers.value(it.key()).contains(it.value().mid(1)), seen.headers.value(it.key()).constData());
        } else {
            QCOMPARE(seen.headers.value(it.key()), it.value());
        }
    }
    if (token.isEmpty() && username.isEmpty()) {
        QVERIFY(!seen.headers.contains("authorization"));
    }
}

void TestApiClient::serverPathPrefixKept()
{
    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 200, "{}");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url() + u"/k8s/clusters/c-1/"_s));
    ApiRequest request = requestFor(u"/api/v1/namespaces/default/pods"_s);
    request.query.addQueryItem(u"labelSelector"_s, u"app in (a,b)"_s);
    QVERIFY(fetch(client, request).isOk());
    QCOMPARE(server.requests.constFirst().path, u"/k8s/clusters/c-1/api/v1/namespaces/default/pods"_s);
    QCOMPARE(server.requests.constFirst().query.queryItemValue(u"labelSelector"_s, QUrl::FullyDecoded), u"app in (a,b)"_s);
}

void TestApiClient::statusErrorDecoded()
{
    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(
            request.socket,
            403,
            R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods is forbidden: User \"jane\" cannot list resource \"pods\"","reason":"Forbidden","code":403})");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    const ApiResponse response = fetch(client, requestFor(u"/api/v1/pods"_s));
    QVERIFY(!response.isOk());
    QCOMPARE(response.error.kind(), ApiError::Kind::Http);
    QCOMPARE(response.error.code(), 403);
    QCOMPARE(response.error.reason(), u"Forbidden"_s);
    QVERIFY(response.error.message().startsWith(u"pods is forbidden"_s));
    QCOMPARE(response.attempts, 1);
}

void TestApiClient::retries_data()
{
    QTest::addColumn<QList<int>>("statuses"); // answers in order, the last one repeats
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::addColumn<int>("maxRetries");
    QTest::addColumn<int>("expectedAttempts");
    QTest::addColumn<int>("expectedCode"); // 0 = success

    QTest::newRow("429 with Retry-After retried until success") << QList<int>{429, 429, 200} << QByteArray("0") << 10 << 3 << 0;
    QTest::newRow("503 with Retry-After retried") << QList<int>{503, 200} << QByteArray("0") << 10 << 2 << 0;
    QTest::newRow("500 without Retry-After not retried") << QList<int>{500, 200} << QByteArray() << 10 << 1 << 500;
    QTest::newRow("404 never retried") << QList<int>{404, 200} << QByteArray("0") << 10 << 1 << 404;
    QTest::newRow("retries exhausted") << QList<int>{429} << QByteArray("0") << 2 << 3 << 429;
    QTest::newRow("Retry-After of one second is honoured") << QList<int>{429, 200} << QByteArray("1") << 10 << 2 << 0;
}

void TestApiClient::retries()
{
    QFETCH(QList<int>, statuses);
    QFETCH(QByteArray, retryAfter);
    QFETCH(int, maxRetries);
    QFETCH(int, expectedAttempts);
    QFETCH(int, expectedCode);

    TestServer server;
    QElapsedTimer sinceFirst;
    qint64 secondRequestAfterMs = -1;
    server.handler = [&](const HttpRequest &request) {
        const qsizetype index = server.requests.size() - 1;
        if (index == 0) {
            sinceFirst.start();
        } else if (index == 1) {
            secondRequestAfterMs = sinceFirst.elapsed();
        }
        const int status = statuses.value(index, statuses.constLast());
        TestServer::reply(request.socket,
                          status,
                          status == 200 ? QByteArray("{}") : R"({"kind":"Status","code":)" + QByteArray::number(status) + "}",
                          retryAfter.isEmpty() ? QByteArray() : "Retry-After: " + retryAfter + "\r\n");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    client.setMaxRetries(maxRetries);
    const ApiResponse response = fetch(client, requestFor(u"/api/v1/pods"_s));
    QCOMPARE(response.attempts, expectedAttempts);
    QCOMPARE(server.requests.size(), expectedAttempts);
    QCOMPARE(response.isOk(), expectedCode == 0);
    if (expectedCode) {
        QCOMPARE(response.error.code(), expectedCode);
    }
    if (retryAfter == "1") {
        QVERIFY2(secondRequestAfterMs >= 900, qPrintable(QString::number(secondRequestAfterMs)));
    }
}

void TestApiClient::unauthorizedRefreshesExecCredentialsOnce_data()
{
    QTest::addColumn<int>("unauthorizedAnswers");
    QTest::addColumn<int>("expectedRuns");
    QTest::addColumn<bool>("ok");

    QTest::newRow("one 401 runs the plugin again and succeeds") << 1 << 2 << true;
    QTest::newRow("persistent 401 is refreshed only once") << 100 << 2 << false;
}

void TestApiClient::unauthorizedRefreshesExecCredentialsOnce()
{
    QFETCH(int, unauthorizedAnswers);
    QFETCH(int, expectedRuns);
    QFETCH(bool, ok);

    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        if (server.requests.size() <= unauthorizedAnswers) {
            TestServer::reply(request.socket, 401, R"({"kind":"Status","code":401,"reason":"Unauthorized","message":"Unauthorized"})");
        } else {
            TestServer::reply(request.socket, 200, "{}");
        }
    };
    QVERIFY(server.listen(false));
    const QString countFile = m_tmp.filePath(u"runs-%1"_s.arg(unauthorizedAnswers));
    RestConfig config = configFor(server.url());
    ExecConfig exec;
    exec.apiVersion = u"client.authentication.k8s.io/v1"_s;
    exec.command = QStringLiteral(CACHESCOPE_TEST_DATA "/exec/plugin.sh");
    exec.env = {{u"PLUGIN_TOKEN"_s, Secret("exec-token")}, {u"PLUGIN_COUNT_FILE"_s, Secret::fromString(countFile)}};
    config.user.exec = exec;
    ApiClient client(config);
    const ApiResponse response = fetch(client, requestFor(u"/api/v1/pods"_s));
    QCOMPARE(response.isOk(), ok);
    QCOMPARE(client.credentialProvider()->execRuns(), expectedRuns);
    QCOMPARE(readAll(countFile).count("run"), expectedRuns);
    QCOMPARE(server.requests.constFirst().headers.value("authorization"), QByteArray("Bearer exec-token"));
    if (!ok) {
        QCOMPARE(response.error.code(), 401);
    }
}

void TestApiClient::networkErrorIsClear()
{
    // A port nobody listens on: bind one, then close it.
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    ApiClient client(configFor(u"http://127.0.0.1:"_s + QString::number(port)));
    const ApiResponse response = fetch(client, requestFor(u"/version"_s));
    QCOMPARE(response.error.kind(), ApiError::Kind::Network);
    QVERIFY2(response.error.message().contains(u"cannot reach 127.0.0.1:"_s), qPrintable(response.error.message()));
}

void TestApiClient::listPages()
{
    TestServer server;
    const int total = 7;
    server.handler = [&](const HttpRequest &request) {
        const int limit = request.query.queryItemValue(u"limit"_s).toInt();
        const int start = request.query.queryItemValue(u"continue"_s).toInt();
        const int end = std::min(total, start + limit);
        QByteArray items;
        for (int i = start; i < end; ++i) {
            items += (items.isEmpty() ? "" : ",") + QByteArray(R"({"metadata":{"name":"pod-)") + QByteArray::number(i) + "\"}}";
        }
        QByteArray metadata = R"("resourceVersion":"42")";
        if (end < total) {
            metadata += R"(,"continue":")" + QByteArray::number(end) + R"(","remainingItemCount":)" + QByteArray::number(total - end);
        }
        TestServer::reply(request.socket, 200, R"({"kind":"PodList","apiVersion":"v1","metadata":{)" + metadata + R"(},"items":[)" + items + "]}");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    ListPager pager(&client, requestFor(u"/api/v1/pods"_s), 3);
    QSignalSpy pages(&pager, &ListPager::pageReceived);
    QSignalSpy progress(&pager, &ListPager::progress);
    QSignalSpy finished(&pager, &ListPager::finished);
    QSignalSpy failed(&pager, &ListPager::failed);
    pager.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.size(), 0);
    QCOMPARE(pages.size(), 3);
    QCOMPARE(pages.at(0).at(0).value<QList<QByteArray>>().size(), 3);
    QCOMPARE(pages.at(2).at(0).value<QList<QByteArray>>(), QList<QByteArray>{R"({"metadata":{"name":"pod-6"}})"});
    QCOMPARE(progress.at(0).at(0).toLongLong(), 3);
    QCOMPARE(progress.at(0).at(1).toLongLong(), 4);
    QCOMPARE(progress.at(2).at(0).toLongLong(), 7);
    QCOMPARE(progress.at(2).at(1).toLongLong(), 0);
    QCOMPARE(finished.at(0).at(0).toString(), u"42"_s);
    QCOMPARE(server.requests.at(1).query.queryItemValue(u"continue"_s), u"3"_s);
    QCOMPARE(server.requests.at(1).query.queryItemValue(u"limit"_s), u"3"_s);
}

void TestApiClient::listContinueExpiredFallsBackToFullList()
{
    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        if (request.query.hasQueryItem(u"continue"_s)) {
            TestServer::reply(
                request.socket,
                410,
                R"({"kind":"Status","code":410,"reason":"Expired","message":"The provided continue parameter is too old to display a consistent list result."})");
        } else if (request.query.hasQueryItem(u"limit"_s)) {
            TestServer::reply(request.socket, 200, R"({"metadata":{"resourceVersion":"5","continue":"tok"},"items":[{"n":1},{"n":2}]})");
        } else {
            TestServer::reply(request.socket, 200, R"({"metadata":{"resourceVersion":"9"},"items":[{"n":1},{"n":2},{"n":3}]})");
        }
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    ListPager pager(&client, requestFor(u"/api/v1/pods"_s), 2);
    QSignalSpy pages(&pager, &ListPager::pageReceived);
    QSignalSpy restarted(&pager, &ListPager::restarted);
    QSignalSpy finished(&pager, &ListPager::finished);
    pager.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(restarted.size(), 1);
    QCOMPARE(pages.size(), 2);
    QCOMPARE(pages.at(1).at(0).value<QList<QByteArray>>().size(), 3);
    QCOMPARE(pager.itemsSoFar(), 3);
    QCOMPARE(finished.at(0).at(0).toString(), u"9"_s);
    QCOMPARE(server.requests.size(), 3);
    QVERIFY(!server.requests.at(2).query.hasQueryItem(u"limit"_s));
}

// stream(): a large answer's bytes reach the consumer while the answer is still arriving, and
// the final callback carries no copy of them.
void TestApiClient::streamHandsOverTheBodyAsItArrives()
{
    TestServer server;
    QPointer<QTcpSocket> socket;
    server.handler = [&](const HttpRequest &request) {
        socket = request.socket;
        TestServer::startStream(request.socket);
        TestServer::chunk(request.socket, R"({"kind":"PodList","metadata":{"resourceVersion":"4"},"items":[{"a":1},)");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    StreamRun run;
    run.start(client, this);
    QTRY_VERIFY_WITH_TIMEOUT(run.received.endsWith(R"({"a":1},)"), 10000);
    QVERIFY(!run.done); // the answer has not ended: the server holds its last chunk back
    TestServer::chunk(socket, R"({"b":2}]})");
    TestServer::endStream(socket);
    QTRY_VERIFY_WITH_TIMEOUT(run.done.has_value(), 10000);
    QVERIFY2(run.done->isOk(), qPrintable(run.done->error.message()));
    QCOMPARE(run.done->httpStatus, 200);
    QVERIFY(run.done->body.isEmpty());
    QCOMPARE(run.received, QByteArray(R"({"kind":"PodList","metadata":{"resourceVersion":"4"},"items":[{"a":1},{"b":2}]})"));
}

void TestApiClient::streamedErrorAnswersAreCollectedWhole()
{
    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        TestServer::reply(request.socket, 403, R"({"kind":"Status","code":403,"reason":"Forbidden","message":"pods is forbidden"})");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    StreamRun run;
    run.start(client, this);
    QTRY_VERIFY_WITH_TIMEOUT(run.done.has_value(), 10000);
    QCOMPARE(run.bodyCalls, 0);
    QCOMPARE(run.done->error.code(), 403);
    QVERIFY(run.done->error.message().contains(u"pods is forbidden"_s));
}

void TestApiClient::streamBrokenMidwayEndsWithItsError()
{
    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        TestServer::startStream(request.socket);
        TestServer::chunk(request.socket, R"({"items":[{"a":1},)");
        request.socket->flush();
        request.socket->abort();
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    client.setMaxRetries(3);
    StreamRun run;
    run.start(client, this);
    QTRY_VERIFY_WITH_TIMEOUT(run.done.has_value(), 10000);
    QVERIFY(!run.done->isOk());
    QCOMPARE(run.done->attempts, 1); // bytes were handed over: no retry could undo them
    QCOMPARE(server.requests.size(), 1);
}

void TestApiClient::streamStoppedByItsConsumerAborts()
{
    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        TestServer::startStream(request.socket);
        TestServer::chunk(request.socket, R"(<html>not a list)");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    StreamRun run;
    run.start(client, this, false);
    // The server never ends its answer: only the consumer's "stop" can end it.
    QTRY_VERIFY_WITH_TIMEOUT(run.done.has_value(), 10000);
    QCOMPARE(run.bodyCalls, 1);
    QCOMPARE(run.done->error.kind(), ApiError::Kind::Canceled);
}

void TestApiClient::watchDecodesEventsAcrossChunks()
{
    TestServer server;
    const QByteArray stream = eventLine("ADDED", u"a"_s, 1) + eventLine("MODIFIED", u"a"_s, 2) + eventLine("DELETED", u"a"_s, 3);
    server.handler = [&](const HttpRequest &request) {
        TestServer::startStream(request.socket);
        // Chunks that cut events at odd places, including inside strings.
        for (qsizetype i = 0; i < stream.size(); i += 37) {
            TestServer::chunk(request.socket, stream.mid(i, 37));
        }
        TestServer::endStream(request.socket);
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    ApiRequest request = requestFor(u"/api/v1/pods"_s);
    request.query.addQueryItem(u"watch"_s, u"true"_s);
    request.query.addQueryItem(u"resourceVersion"_s, u"0"_s);
    WatchStream *watch = client.watch(request, this);
    QSignalSpy opened(watch, &WatchStream::opened);
    QSignalSpy events(watch, &WatchStream::eventReceived);
    QSignalSpy finished(watch, &WatchStream::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(opened.size(), 1);
    QCOMPARE(watch->httpVersion(), u"1.1"_s);
    QCOMPARE(events.size(), 3);
    QCOMPARE(events.at(0).at(0).value<WatchEvent>().type, WatchEvent::Type::Added);
    QCOMPARE(events.at(2).at(0).value<WatchEvent>().type, WatchEvent::Type::Deleted);
    QCOMPARE(events.at(1).at(0).value<WatchEvent>().object, QByteArray(R"({"kind":"Pod","metadata":{"name":"a","resourceVersion":"2"}})"));
    QVERIFY2(!finished.at(0).at(0).value<ApiError>().isError(), qPrintable(finished.at(0).at(0).value<ApiError>().toString()));
    QCOMPARE(server.requests.constFirst().query.queryItemValue(u"watch"_s), u"true"_s);
    QCOMPARE(client.activeWatchCount(), 0);
    delete watch;
}

// A receiver that pauses reading gets no event after that one, not even those decoded from the
// same piece, and no end while paused, however long: neither the server's end (told after the
// events before it) nor the idle watchdog's (a pause is not silence). On resume the rest comes in
// order, then the end: the server's, or the watchdog's once the stream has been silent for its
// budget from the resume.
void TestApiClient::watchPausedEmitsNothingUntilResumed_data()
{
    QTest::addColumn<bool>("serverEnds");
    QTest::newRow("the server ends the answer while paused") << true;
    QTest::newRow("the answer stays open and silent") << false;
}

void TestApiClient::watchPausedEmitsNothingUntilResumed()
{
    QFETCH(bool, serverEnds);
    TestServer server;
    const QByteArray stream = eventLine("ADDED", u"a"_s, 1) + eventLine("MODIFIED", u"a"_s, 2) + eventLine("DELETED", u"a"_s, 3);
    server.handler = [&](const HttpRequest &request) {
        TestServer::startStream(request.socket);
        TestServer::chunk(request.socket, stream); // one chunk: the three events are read at once
        if (serverEnds) {
            TestServer::endStream(request.socket);
        }
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    ApiRequest request = requestFor(u"/api/v1/pods"_s);
    request.query.addQueryItem(u"watch"_s, u"true"_s);
    std::unique_ptr<WatchStream> watch(client.watch(request, this));
    watch->setIdleTimeout(std::chrono::milliseconds(200));
    QList<WatchEvent::Type> events;
    connect(watch.get(), &WatchStream::eventReceived, this, [&](const WatchEvent &event) {
        events.append(event.type);
        if (events.size() == 1) {
            watch->pauseReading();
        }
    });
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), 1, 10000);
    QTest::qWait(800); // four times the watchdog's budget
    QCOMPARE(events.size(), 1);
    QCOMPARE(finished.size(), 0);
    QVERIFY(watch->isReadingPaused());
    watch->resumeReading();
    QVERIFY(finished.wait(10000));
    QCOMPARE(events, (QList<WatchEvent::Type>{WatchEvent::Type::Added, WatchEvent::Type::Modified, WatchEvent::Type::Deleted}));
    QCOMPARE(watch->eventCount(), 3);
    const ApiError error = finished.at(0).at(0).value<ApiError>();
    if (serverEnds) {
        QVERIFY2(!error.isError(), qPrintable(error.toString()));
    } else {
        QCOMPARE(error.kind(), ApiError::Kind::Timeout);
    }
}

void TestApiClient::watchHttpErrorFinishesWithStatus()
{
    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 410, R"json({"kind":"Status","code":410,"reason":"Expired","message":"too old resource version: 1 (50)"})json");
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    std::unique_ptr<WatchStream> watch(client.watch(requestFor(u"/api/v1/pods"_s), this));
    QSignalSpy events(watch.get(), &WatchStream::eventReceived);
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(events.size(), 0);
    const ApiError error = finished.at(0).at(0).value<ApiError>();
    QVERIFY(error.isExpired());
    QCOMPARE(error.message(), u"too old resource version: 1 (50)"_s);
}

void TestApiClient::watchIdleWatchdogReportsStall()
{
    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::startStream(request.socket);
        TestServer::chunk(request.socket, eventLine("ADDED", u"a"_s, 1));
        // …and then nothing, like a half-open connection.
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    std::unique_ptr<WatchStream> watch(client.watch(requestFor(u"/api/v1/pods"_s), this));
    watch->setIdleTimeout(std::chrono::milliseconds(400));
    QSignalSpy events(watch.get(), &WatchStream::eventReceived);
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(events.size(), 1);
    const ApiError error = finished.at(0).at(0).value<ApiError>();
    QCOMPARE(error.kind(), ApiError::Kind::Timeout);
    QVERIFY2(error.message().contains(u"silent"_s), qPrintable(error.message()));
    QCOMPARE(watch->state(), WatchStream::State::Finished);
}

void TestApiClient::fiftyConcurrentWatchesOverHttp11()
{
    TestServer server;
    QList<QPointer<QTcpSocket>> watchSockets;
    server.handler = [&](const HttpRequest &request) {
        if (request.query.hasQueryItem(u"watch"_s)) {
            TestServer::startStream(request.socket);
            watchSockets.append(request.socket);
        } else {
            TestServer::reply(request.socket, 200, R"({"major":"1","minor":"32"})");
        }
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    const int count = 50;
    std::vector<std::unique_ptr<WatchStream>> watches;
    QList<int> received(count, 0);
    for (int i = 0; i < count; ++i) {
        ApiRequest request = requestFor(u"/apis/group%1/v1/things"_s.arg(i));
        request.query.addQueryItem(u"watch"_s, u"true"_s);
        watches.emplace_back(client.watch(request, nullptr));
        watches.back()->setParent(nullptr);
        connect(watches.back().get(), &WatchStream::eventReceived, this, [&received, i] { ++received[i]; });
    }
    // Every watch gets its own open connection at the server at the same time…
    QTRY_COMPARE_WITH_TIMEOUT(watchSockets.size(), count, 30000);
    QCOMPARE(client.activeWatchCount(), count);
    QCOMPARE(client.managerCount(), 1 + (count + client.watchesPerManager() - 1) / client.watchesPerManager());
    // …ordinary requests are not stuck behind them…
    const ApiResponse version = fetch(client, requestFor(u"/version"_s));
    QVERIFY2(version.isOk(), qPrintable(version.error.toString()));
    // …and every one of them delivers.
    for (const auto &socket : std::as_const(watchSockets)) {
        TestServer::chunk(socket, eventLine("ADDED", u"x"_s, 1));
    }
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(received.cbegin(), received.cend(), [](int n) { return n == 1; }), 30000);
    watches.clear();
    QCOMPARE(client.activeWatchCount(), 0);
}

void TestApiClient::tls_data()
{
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<bool>("insecure");
    QTest::addColumn<QString>("tlsServerName");
    QTest::addColumn<bool>("ok");

    QTest::newRow("right CA verifies") << u"ca.crt"_s << false << QString() << true;
    QTest::newRow("wrong CA gives a TLS error and no data") << u"other-ca.crt"_s << false << QString() << false;
    QTest::newRow("no CA: system store does not know the test CA") << QString() << false << QString() << false;
    QTest::newRow("tls-server-name in the certificate verifies") << u"ca.crt"_s << false << u"kubernetes.test"_s << true;
    QTest::newRow("tls-server-name not in the certificate fails") << u"ca.crt"_s << false << u"wrong.test"_s << false;
    QTest::newRow("insecure-skip-tls-verify connects with a warning") << u"other-ca.crt"_s << true << QString() << true;
}

void TestApiClient::tls()
{
    QFETCH(QString, caFile);
    QFETCH(bool, insecure);
    QFETCH(QString, tlsServerName);
    QFETCH(bool, ok);

    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 200, R"({"items":["secret data"]})");
    };
    QVERIFY(server.listen(true));
    RestConfig config = configFor(server.url());
    if (!caFile.isEmpty()) {
        config.cluster.certificateAuthority = certDir + caFile;
    }
    config.cluster.insecureSkipTlsVerify = insecure;
    config.cluster.tlsServerName = tlsServerName;
    config.user.token = Secret("tls-token");
    ApiClient client(config);
    QVERIFY(!client.configError().isError());
    QCOMPARE(!client.warnings().isEmpty(), insecure);
    const ApiResponse response = fetch(client, requestFor(u"/api/v1/pods"_s));
    QCOMPARE(response.isOk(), ok);
    if (ok) {
        QCOMPARE(response.body, QByteArray(R"({"items":["secret data"]})"));
        return;
    }
    QCOMPARE(response.error.kind(), ApiError::Kind::Tls);
    QVERIFY2(response.error.message().startsWith(u"TLS with 127.0.0.1:"_s), qPrintable(response.error.message()));
    QVERIFY(response.body.isEmpty());
    // The request never reached the HTTP layer, so the token was never sent.
    QCOMPARE(server.requests.size(), 0);
}

void TestApiClient::clientCertificatePresented()
{
    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 200, "{}");
    };
    QVERIFY(server.listen(true));
    RestConfig config = configFor(server.url());
    config.cluster.certificateAuthority = certDir + u"ca.crt"_s;
    config.user.clientCertificate = certDir + u"client-ec.crt"_s;
    config.user.clientKey = certDir + u"client-ec.key"_s;
    ApiClient client(config);
    const ApiResponse response = fetch(client, requestFor(u"/version"_s));
    QVERIFY2(response.isOk(), qPrintable(response.error.toString()));
    QCOMPARE(server.requests.constFirst().peerCommonName, u"test-ec"_s);
    QVERIFY(!server.requests.constFirst().headers.contains("authorization"));
}

void TestApiClient::livesOnWorkerThread()
{
    TestServer server;
    server.handler = [](const HttpRequest &request) {
        TestServer::reply(request.socket, 200, "{}");
    };
    QVERIFY(server.listen(false));
    QThread worker;
    worker.start();
    auto *client = new ApiClient(configFor(server.url()));
    client->moveToThread(&worker);
    std::atomic<QThread *> calledBackOn = nullptr;
    std::atomic<bool> ok = false;
    QMetaObject::invokeMethod(client, [client, &calledBackOn, &ok] {
        client->get(u"/version"_s, client, [&calledBackOn, &ok](const ApiResponse &response) {
            ok = response.isOk();
            calledBackOn = QThread::currentThread();
        });
    });
    QTRY_VERIFY_WITH_TIMEOUT(calledBackOn.load() != nullptr, 10000);
    QVERIFY(ok);
    QCOMPARE(calledBackOn.load(), &worker);
    QMetaObject::invokeMethod(client, &QObject::deleteLater);
    worker.quit();
    QVERIFY(worker.wait(10000));
}

void TestApiClient::discovery_data()
{
    QTest::addColumn<bool>("aggregated");
    QTest::newRow("aggregated discovery v2") << true;
    QTest::newRow("legacy fallback with a broken aggregated API") << false;
}

void TestApiClient::discovery()
{
    QFETCH(bool, aggregated);
    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        const bool wantsAggregated = request.headers.value("accept").contains("as=APIGroupDiscoveryList");
        QByteArray body;
        int status = 200;
        if (request.path == u"/version"_s) {
            body = R"({"major":"1","minor":"32","gitVersion":"v1.32.0"})";
        } else if (request.path == u"/api"_s) {
            body = aggregated && wantsAggregated
                ? R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{},"versions":[{"version":"v1","resources":[{"resource":"pods","responseKind":{"kind":"Pod"},"scope":"Namespaced","shortNames":["po"],"verbs":["list"]}]}]}]})"
                : R"({"kind":"APIVersions","versions":["v1"]})";
        } else if (request.path == u"/apis"_s) {
            body = aggregated && wantsAggregated
                ? R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[{"resource":"deployments","responseKind":{"kind":"Deployment"},"scope":"Namespaced","verbs":["list"]}]}]}]})"
                : R"({"kind":"APIGroupList","groups":[{"name":"apps","versions":[{"version":"v1"}],"preferredVersion":{"version":"v1"}},{"name":"metrics.k8s.io","versions":[{"version":"v1beta1"}]}]})";
        } else if (request.path == u"/api/v1"_s) {
            body =
                R"({"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","namespaced":true,"kind":"Pod","shortNames":["po"],"verbs":["list"]},{"name":"pods/log","kind":"Pod"}]})";
        } else if (request.path == u"/apis/apps/v1"_s) {
            body =
                R"({"kind":"APIResourceList","groupVersion":"apps/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["list"]}]})";
        } else {
            status = 503;
            body = R"({"kind":"Status","code":503,"reason":"ServiceUnavailable","message":"the server is currently unable to handle the request"})";
        }
        TestServer::reply(request.socket, status, body);
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    Discovery discovery(&client);
    QSignalSpy finished(&discovery, &Discovery::finished);
    QSignalSpy failed(&discovery, &Discovery::failed);
    discovery.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.size(), 0);
    QCOMPARE(discovery.usedAggregated(), aggregated);
    const DiscoveryResult result = finished.at(0).at(0).value<DiscoveryResult>();
    QCOMPARE(result.gitVersion, u"v1.32.0"_s);
    QStringList names;
    for (const ApiResource &resource : result.resources) {
        names.append(resource.gvr.toString());
    }
    QCOMPARE(names, QStringList({u"pods.v1"_s, u"deployments.v1.apps"_s}));
    QCOMPARE(result.failedGroupVersions.size(), aggregated ? 0 : 1);
    if (!aggregated) {
        QVERIFY(result.failedGroupVersions.constFirst().startsWith(u"metrics.k8s.io/v1beta1: ServiceUnavailable (503)"_s));
    }
    QCOMPARE(std::get<ApiResource>(result.resolve(u"po"_s)).kind, u"Pod"_s);
}

void TestApiClient::watchOutlivesClient()
{
    TestServer server;
    bool opened = false;
    server.handler = [&](const HttpRequest &request) {
        TestServer::startStream(request.socket);
        opened = true;
    };
    QVERIFY(server.listen(false));
    auto client = std::make_unique<ApiClient>(configFor(server.url()));
    std::unique_ptr<WatchStream> watch(client->watch(requestFor(u"/api/v1/pods"_s), this));
    QTRY_VERIFY_WITH_TIMEOUT(opened, 10000);
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    // The cluster closes while a view still holds its stream: the stream must not touch the
    // client's QNAM (gone with the client) afterwards.
    client.reset();
    watch->stop();
    watch.reset();
    QCOMPARE(finished.size(), 0);
}

void TestApiClient::watchRetriedAfterThrottling()
{
    TestServer server;
    server.handler = [&](const HttpRequest &request) {
        if (server.requests.size() == 1) {
            TestServer::reply(request.socket, 429, R"({"kind":"Status","code":429,"reason":"TooManyRequests"})", "Retry-After: 0\r\n");
            return;
        }
        TestServer::startStream(request.socket);
        TestServer::chunk(request.socket, eventLine("ADDED", u"a"_s, 1));
        TestServer::endStream(request.socket);
    };
    QVERIFY(server.listen(false));
    ApiClient client(configFor(server.url()));
    std::unique_ptr<WatchStream> watch(client.watch(requestFor(u"/api/v1/pods"_s), this));
    QSignalSpy events(watch.get(), &WatchStream::eventReceived);
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(server.requests.size(), 2);
    QCOMPARE(events.size(), 1);
    QVERIFY(!finished.at(0).at(0).value<ApiError>().isError());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestApiClient)
#include "tst_apiclient.moc"
