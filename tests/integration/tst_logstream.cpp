// LogStream against the in-process simulated cluster: a whole log read as the network hands it
// over is the server's body line for line (over HTTP/2 and HTTP/1.1), a limitBytes cut ends
// with the cut line, a follow sees new lines as they are written and ends cleanly when the pod
// is deleted, stop() ends it without ended(), and the server's refusals arrive as its Status.
#include "core/kube/apiclient.h"
#include "core/kube/logstream.h"
#include "core/sim/containerloggenerator.h"
#include "core/sim/simcluster.h"
#include "simclusterfixture.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

namespace {

ApiResponse fetch(ApiClient &client, const ApiRequest &request)
{
    ApiResponse result;
    bool done = false;
    QObject context;
    client.send(request, &context, [&](const ApiResponse &response) {
        result = response;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 30000))
        result.error = ApiError(ApiError::Kind::Timeout, u"no answer in 30 s"_s);
    return result;
}

ApiResponse fetch(ApiClient &client, const QString &path, const QUrlQuery &query = {})
{
    ApiRequest request;
    request.path = path;
    request.query = query;
    return fetch(client, request);
}

// What a LogStream delivered: its lines, how many signals carried them, how it ended.
struct Collected
{
    QStringList lines;
    int pieces = 0;
    std::optional<ApiError> ended;
};

void collect(LogStream &stream, Collected &into)
{
    QObject::connect(&stream, &LogStream::linesReceived, &stream, [&into](const QStringList &lines) {
        into.lines += lines;
        ++into.pieces;
    });
    QObject::connect(&stream, &LogStream::ended, &stream, [&into](const ApiError &error) { into.ended = error; });
}

struct SimWithClient
{
    std::unique_ptr<SimCluster> sim;
    std::unique_ptr<ApiClient> client;
    QList<QJsonObject> pods; // running pods, oldest first
};

} // namespace

class TestLogStream : public QObject
{
    Q_OBJECT

private:
    SimWithClient m_http2;
    SimWithClient m_http1;

    static bool startCluster(SimWithClient &cluster, bool http1Only)
    {
        SimOptions options;
        options.pods = 10;
        options.seed = 11;
        options.http1Only = http1Only;
        cluster.sim = std::make_unique<SimCluster>(options);
        QString error;
        if (!cluster.sim->start(&error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        const auto rest = CachescopeTest::simRestConfig(*cluster.sim);
        if (!rest)
            return false;
        cluster.client = std::make_unique<ApiClient>(*rest);
        const ApiResponse list = fetch(*cluster.client, u"/api/v1/pods"_s);
        if (!list.isOk())
            return false;
        for (const QJsonValue &item : QJsonDocument::fromJson(list.body).object().value(u"items").toArray()) {
            const QJsonObject pod = item.toObject();
            if (pod.value(u"status").toObject().value(u"containerStatuses").toArray().at(0).toObject().value(u"state").toObject().contains(u"running"_s))
                cluster.pods.append(pod);
        }
        std::sort(cluster.pods.begin(), cluster.pods.end(), [](const QJsonObject &a, const QJsonObject &b) {
            return a.value(u"status").toObject().value(u"startTime").toString() < b.value(u"status").toObject().value(u"startTime").toString();
        });
        return cluster.pods.size() >= 3;
    }

    SimWithClient &cluster(bool http1) { return http1 ? m_http1 : m_http2; }

    static QString name(const QJsonObject &pod) { return pod.value(u"metadata").toObject().value(u"name").toString(); }
    static QString namespaceOf(const QJsonObject &pod) { return pod.value(u"metadata").toObject().value(u"namespace").toString(); }
    static QString logPath(const QJsonObject &pod) { return u"/api/v1/namespaces/%1/pods/%2/log"_s.arg(namespaceOf(pod), name(pod)); }

    // A running pod whose container writes a line a second (a web server's image), else any.
    static QJsonObject busiestPod(const SimWithClient &cluster, int skip = 0)
    {
        QList<QJsonObject> web;
        for (const QJsonObject &pod : cluster.pods) {
            const QString image = pod.value(u"spec").toObject().value(u"containers").toArray().at(0).toObject().value(u"image").toString();
            if (ContainerLogGenerator::styleForImage(image) == ContainerLogGenerator::Style::WebServer)
                web.append(pod);
        }
        const QList<QJsonObject> &from = web.size() > skip ? web : cluster.pods;
        return from.at(qMin<qsizetype>(skip, from.size() - 1));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(startCluster(m_http2, false));
        QVERIFY(startCluster(m_http1, true));
    }

    void wholeLogIsTheServersBody_data()
    {
        QTest::addColumn<bool>("http1");
        QTest::newRow("over HTTP/2") << false;
        QTest::newRow("over HTTP/1.1") << true;
    }
    void wholeLogIsTheServersBody()
    {
        QFETCH(bool, http1);
        SimWithClient &c = cluster(http1);
        const QJsonObject pod = c.pods.constFirst(); // the oldest: the longest log
        LogStream stream(c.client.get(), namespaceOf(pod), name(pod), {});
        Collected got;
        collect(stream, got);
        stream.start();
        QTRY_VERIFY_WITH_TIMEOUT(got.ended.has_value(), 30000);
        QVERIFY2(!got.ended->isError(), qPrintable(got.ended->toString()));
        QVERIFY(!stream.isRunning());
        QVERIFY2(got.lines.size() > 4, qPrintable(QString::number(got.lines.size())));
        QCOMPARE(stream.lineCount(), got.lines.size());
        // The body read in one piece afterwards: the same lines, then whatever was written since.
        const ApiResponse raw = fetch(*c.client, logPath(pod));
        QVERIFY(raw.isOk());
        QVERIFY(raw.body.endsWith('\n'));
        QVERIFY(!stream.endedMidLine());
        const QStringList rawLines = QString::fromUtf8(raw.body.chopped(1)).split(u'\n');
        QVERIFY(rawLines.size() >= got.lines.size());
        QCOMPARE(rawLines.mid(0, got.lines.size()), got.lines);
        QCOMPARE(stream.bytesReceived(), qint64(rawLines.mid(0, got.lines.size()).join(u'\n').toUtf8().size() + 1));
    }

    void limitBytesEndsWithTheCutLine()
    {
        const QJsonObject pod = m_http2.pods.constFirst();
        LogOptions options;
        options.limitBytes = 100;
        LogStream stream(m_http2.client.get(), namespaceOf(pod), name(pod), options);
        Collected got;
        collect(stream, got);
        stream.start();
        QTRY_VERIFY_WITH_TIMEOUT(got.ended.has_value(), 30000);
        QVERIFY(!got.ended->isError());
        QCOMPARE(stream.bytesReceived(), 100);
        // The first hundred bytes of the log, the last line cut where they end.
        const ApiResponse raw = fetch(*m_http2.client, logPath(pod));
        const QByteArray first = raw.body.left(100);
        QVERIFY(!first.endsWith('\n'));
        QCOMPARE(got.lines.join(u'\n').toUtf8(), first);
        QVERIFY(got.lines.size() >= 2);
        QVERIFY(stream.endedMidLine());
    }

    void followSeesNewLines_data()
    {
        QTest::addColumn<bool>("http1");
        QTest::newRow("over HTTP/2") << false;
        QTest::newRow("over HTTP/1.1") << true;
    }
    void followSeesNewLines()
    {
        QFETCH(bool, http1);
        SimWithClient &c = cluster(http1);
        const QJsonObject pod = busiestPod(c);
        LogOptions options;
        options.follow = true;
        options.tailLines = 2;
        options.timestamps = true;
        LogStream stream(c.client.get(), namespaceOf(pod), name(pod), options);
        Collected got;
        collect(stream, got);
        stream.start();
        // The tail (a new line may already have joined it on a loaded machine).
        QTRY_VERIFY_WITH_TIMEOUT(got.lines.size() >= 2, 20000);
        const qsizetype tail = got.lines.size();
        const QDateTime started = QDateTime::currentDateTimeUtc();
        // New lines, as the container writes them (a second apart for a web server).
        QTRY_VERIFY_WITH_TIMEOUT(got.lines.size() >= tail + 3, 30000);
        QVERIFY(!got.ended.has_value());
        QVERIFY(got.pieces >= 3);
        QDateTime previous;
        for (const QString &line : std::as_const(got.lines)) {
            const QDateTime time = QDateTime::fromString(line.section(u' ', 0, 0), Qt::ISODateWithMs);
            QVERIFY2(time.isValid(), qPrintable(line));
            QVERIFY(!previous.isValid() || time > previous);
            previous = time;
        }
        // The lines after the tail were written while the test waited.
        QVERIFY(previous >= started.addSecs(-2));
        QSignalSpy later(&stream, &LogStream::linesReceived);
        QSignalSpy ended(&stream, &LogStream::ended);
        stream.stop();
        QVERIFY(!stream.isRunning());
        // Nothing from a stopped stream, not even ended(), though lines keep being written.
        QVERIFY(!later.wait(3000));
        QCOMPARE(ended.count(), 0);
    }

    void followEndsWhenThePodIsDeleted()
    {
        const QJsonObject pod = busiestPod(m_http2, 1);
        LogOptions options;
        options.follow = true;
        options.tailLines = 1;
        LogStream stream(m_http2.client.get(), namespaceOf(pod), name(pod), options);
        Collected got;
        collect(stream, got);
        stream.start();
        QTRY_COMPARE_WITH_TIMEOUT(got.lines.size(), 1, 20000);
        ApiRequest remove;
        remove.path = u"/api/v1/namespaces/%1/pods/%2"_s.arg(namespaceOf(pod), name(pod));
        remove.verb = "DELETE";
        QVERIFY(fetch(*m_http2.client, remove).isOk());
        QTRY_VERIFY_WITH_TIMEOUT(got.ended.has_value(), 20000);
        QVERIFY2(!got.ended->isError(), qPrintable(got.ended->toString()));
        m_http2.pods.removeIf([&pod](const QJsonObject &p) { return name(p) == name(pod); });
    }

    void refusalsCarryTheServersMessage_data()
    {
        QTest::addColumn<QString>("pod"); // empty: the oldest pod
        QTest::addColumn<QString>("container");
        QTest::addColumn<bool>("previous");
        QTest::addColumn<int>("tailLines"); // -1: not sent
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("a missing pod is 404") << u"no-such-pod"_s << QString() << false << -1 << 404 << u"pods \"no-such-pod\" not found"_s;
        QTest::newRow("an unknown container is 400") << QString() << u"sidecar"_s << false << -1 << 400 << u"container sidecar is not valid for pod"_s;
        QTest::newRow("two containers need a name") << u"two"_s << QString() << false << -1 << 400
                                                    << u"a container name must be specified for pod two, choose one of: [a b]"_s;
        QTest::newRow("a container that never restarted has no previous")
            << u"two"_s << u"b"_s << true << -1 << 400 << u"previous terminated container \"b\" in pod \"two\" not found"_s;
        QTest::newRow("a negative tailLines is invalid")
            << QString() << QString() << false << -5 << 400 << u"tailLines: Invalid value: -5: must be greater than or equal to 0"_s;
    }
    void refusalsCarryTheServersMessage()
    {
        QFETCH(QString, pod);
        QFETCH(QString, container);
        QFETCH(bool, previous);
        QFETCH(int, tailLines);
        QFETCH(int, code);
        QFETCH(QString, message);
        const QString namespaceName = namespaceOf(m_http2.pods.constFirst());
        if (pod == u"two") {
            ApiRequest create;
            create.path = u"/api/v1/namespaces/%1/pods"_s.arg(namespaceName);
            create.verb = "POST";
            create.contentType = "application/json";
            create.body =
                R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"two"},"spec":{"containers":[{"name":"a","image":"nginx"},{"name":"b","image":"busybox"}]}})";
            const ApiResponse created = fetch(*m_http2.client, create);
            QVERIFY(created.isOk() || created.error.code() == 409);
        }
        LogOptions options;
        options.container = container;
        options.previous = previous;
        if (tailLines != -1)
            options.tailLines = tailLines;
        LogStream stream(m_http2.client.get(), namespaceName, pod.isEmpty() ? name(m_http2.pods.constFirst()) : pod, options);
        Collected got;
        collect(stream, got);
        stream.start();
        QTRY_VERIFY_WITH_TIMEOUT(got.ended.has_value(), 20000);
        QCOMPARE(got.ended->kind(), ApiError::Kind::Http);
        QCOMPARE(got.ended->code(), code);
        QVERIFY2(got.ended->message().contains(message), qPrintable(got.ended->message()));
        QVERIFY(got.lines.isEmpty());
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestLogStream)
#include "tst_logstream.moc"
