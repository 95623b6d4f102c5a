// LogView, the Logs tab of a Pod, against the in-process simulated cluster through a Cluster's
// worker thread as the app runs it: the tab shows exactly the lines LogStream reads for the
// container, a follow appends the lines the container writes, switching the container reads the
// other one, Previous shows the instance before a restart, a deleted pod says so and keeps its
// lines, and a follow lost when the simulator drops its connections is read again from the last
// line's time with no line lost or repeated.
#include "ui/widgets/logview.h"

#include "core/kube/apiclient.h"
#include "core/kube/logstream.h"
#include "core/sim/containerloggenerator.h"
#include "simclusterfixture.h"
#include "ui/models/logbuffer.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

QJsonObject jsonOf(const KubeObject &object)
{
    return QJsonDocument::fromJson(object.json()).object();
}

bool isRunning(const KubeObject &pod)
{
    const QJsonArray statuses = jsonOf(pod).value(u"status").toObject().value(u"containerStatuses").toArray();
    return !statuses.isEmpty() && statuses.at(0).toObject().value(u"state").toObject().contains(u"running"_s);
}

bool writesEverySecond(const KubeObject &pod)
{
    const QString image = jsonOf(pod).value(u"spec").toObject().value(u"containers").toArray().at(0).toObject().value(u"image").toString();
    return Sim::ContainerLogGenerator::styleForImage(image) == Sim::ContainerLogGenerator::Style::WebServer;
}

// The raw lines a LogView holds ("TIMESTAMP TEXT", as the server sent them).
QStringList heldLines(const LogView &view)
{
    QStringList lines;
    for (int row = 0; row < view.buffer()->rowCount(); ++row)
        lines.append(view.buffer()->data(view.buffer()->index(row), LogBuffer::LineRole).toString());
    return lines;
}

} // namespace

class TestLogView : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<CachescopeTest::SimClusterFixture> m_fixture;
    std::unique_ptr<ApiClient> m_client; // the test's own, on the test thread
    SharedIndexInformer *m_pods = nullptr;
    QStringList m_used; // pods a test changed or deleted, not to be used again

    ApiResponse send(const ApiRequest &request)
    {
        ApiResponse result;
        bool done = false;
        QObject context;
        m_client->send(request, &context, [&](const ApiResponse &response) {
            result = response;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 30000))
            result.error = ApiError(ApiError::Kind::Timeout, u"no answer in 30 s"_s);
        return result;
    }

    // read() is the container's log read once by a LogStream of the test's own, with timestamps.
    QStringList read(const KubeObject &pod, LogOptions options)
    {
        options.timestamps = true;
        LogStream stream(m_client.get(), pod.namespaceName(), pod.name(), options);
        QStringList lines;
        std::optional<ApiError> ended;
        connect(&stream, &LogStream::linesReceived, &stream, [&lines](const QStringList &got) { lines += got; });
        connect(&stream, &LogStream::ended, &stream, [&ended](const ApiError &error) { ended = error; });
        stream.start();
        if (!QTest::qWaitFor([&] { return ended.has_value(); }, 30000) || ended->isError())
            return {u"(the log could not be read)"_s};
        return lines;
    }

    // A running pod no other test changed; one that writes a line a second when `busy`.
    KubeObject runningPod(bool busy)
    {
        QList<KubeObject> pods = m_pods->indexer().list();
        std::sort(pods.begin(), pods.end(), [](const KubeObject &a, const KubeObject &b) { return a.name() < b.name(); });
        for (const KubeObject &pod : std::as_const(pods)) {
            if (isRunning(pod) && !m_used.contains(pod.name()) && (!busy || writesEverySecond(pod)))
                return pod;
        }
        return {};
    }

    // The running pod, writing a line a second, that started first: the longest such log.
    KubeObject oldestBusyPod()
    {
        KubeObject oldest;
        QString oldestStart;
        for (const KubeObject &pod : m_pods->indexer().list()) {
            const QString start = jsonOf(pod).value(u"status").toObject().value(u"startTime").toString();
            if (isRunning(pod) && writesEverySecond(pod) && !m_used.contains(pod.name()) && (!oldest.isValid() || start < oldestStart)) {
                oldest = pod;
                oldestStart = start;
            }
        }
        return oldest;
    }

    KubeObject cached(const KubeObject &pod) { return m_pods->indexer().getByKey(pod.namespaceName() + u'/' + pod.name()); }

    std::unique_ptr<LogView> makeView()
    {
        auto view = std::make_unique<LogView>();
        // Reconnects come quickly here: a test waits for them.
        view->setInitialBackoff(std::chrono::milliseconds(200));
        view->setCluster(m_fixture->cluster.get());
        view->resize(900, 500);
        view->show();
        return view;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Sim::SimOptions options;
        options.pods = 12;
        options.seed = 11;
        m_fixture = std::make_unique<CachescopeTest::SimClusterFixture>(options);
        QVERIFY(m_fixture->startDiscovered());
        m_pods = m_fixture->syncedInformer(u"pods"_s);
        QVERIFY(m_pods);
        const auto rest = CachescopeTest::simRestConfig(m_fixture->sim);
        QVERIFY(rest);
        m_client = std::make_unique<ApiClient>(*rest);
        QVERIFY(runningPod(true).isValid());
    }

    void cleanupTestCase()
    {
        m_client.reset();
        m_fixture.reset();
    }

    void showsTheLinesOfTheContainer_data()
    {
        QTest::addColumn<bool>("timestamps");
        QTest::newRow("the text of each line") << false;
        QTest::newRow("each line after its time when asked") << true;
    }
    void showsTheLinesOfTheContainer()
    {
        QFETCH(bool, timestamps);
        const KubeObject pod = runningPod(false);
        QVERIFY(pod.isValid());
        auto view = makeView();
        view->setFollow(false);
        view->setTimestampsShown(timestamps);
        QVERIFY(view->setObject(pod));
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), LogFollower::State::Ended, 30000);
        QVERIFY(!view->isStreaming());
        const QStringList shown = heldLines(*view);
        // Read afterwards: the same lines, then what the container wrote since.
        const QStringList expected = read(pod, {});
        QVERIFY2(shown.size() > 4, qPrintable(QString::number(shown.size())));
        QVERIFY(expected.size() >= shown.size());
        QCOMPARE(shown, expected.mid(0, shown.size()));
        QStringList text;
        for (const QString &line : shown)
            text.append(timestamps ? line : LogFollower::splitTimestamp(line).second.toString());
        QCOMPARE(view->textView()->toPlainText(), text.join(u'\n'));
        QCOMPARE(view->textView()->document()->blockCount(), shown.size());
        QVERIFY2(view->statusText().contains(u"end of log"_s), qPrintable(view->statusText()));
    }

    void followAppendsNewLines()
    {
        const KubeObject pod = runningPod(true);
        QVERIFY(pod.isValid());
        auto view = makeView();
        QVERIFY(view->setObject(pod));
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() > 0, 30000);
        const int first = view->buffer()->rowCount();
        // The web server writes a line a second.
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() >= first + 3, 30000);
        QCOMPARE(view->state(), LogFollower::State::Streaming);
        QVERIFY2(view->statusText().contains(u"following"_s), qPrintable(view->statusText()));
        const QStringList shown = heldLines(*view);
        for (qsizetype i = 1; i < shown.size(); ++i)
            QVERIFY2(LogFollower::splitTimestamp(shown.at(i - 1)).first < LogFollower::splitTimestamp(shown.at(i)).first, qPrintable(shown.at(i)));
        QCOMPARE(view->textView()->document()->blockCount(), view->buffer()->rowCount());
        // Hidden, it reads nothing more.
        view->hide();
        QVERIFY(!view->isStreaming());
    }

    void switchingTheContainerReadsTheOther()
    {
        const QByteArray manifest = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"duo","namespace":"default"},)"
                                    R"("spec":{"containers":[{"name":"a","image":"nginx:1.27"},{"name":"b","image":"ghcr.io/example/worker:0.9.1"}],)"
                                    R"("initContainers":[{"name":"setup","image":"busybox:1.36"}]}})";
        ApiRequest create;
        create.verb = "POST";
        create.path = u"/api/v1/namespaces/default/pods"_s;
        create.body = manifest;
        create.contentType = "application/json";
        const ApiResponse created = send(create);
        QVERIFY2(created.isOk(), qPrintable(created.error.toString()));
        m_used.append(u"duo"_s);
        QTRY_VERIFY_WITH_TIMEOUT(m_pods->indexer().getByKey(u"default/duo"_s).isValid(), 30000);
        const KubeObject pod = m_pods->indexer().getByKey(u"default/duo"_s);
        auto view = makeView();
        view->setFollow(false);
        QVERIFY(view->setObject(pod));
        QCOMPARE(view->containers(), (QStringList{u"a"_s, u"b"_s, u"setup"_s}));
        QCOMPARE(view->container(), u"a"_s);
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == LogFollower::State::Ended || view->state() == LogFollower::State::Failed, 30000);
        QCOMPARE(view->state(), LogFollower::State::Ended);
        const QStringList fromA = heldLines(*view);
        LogOptions a;
        a.container = u"a"_s;
        QCOMPARE(fromA, read(pod, a).mid(0, fromA.size()));

        view->setContainer(u"b"_s);
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), LogFollower::State::Ended, 30000);
        const QStringList fromB = heldLines(*view);
        LogOptions b;
        b.container = u"b"_s;
        QVERIFY(!fromB.isEmpty());
        QCOMPARE(fromB, read(pod, b).mid(0, fromB.size()));
        QVERIFY(fromB != fromA.mid(0, fromB.size()));
    }

    void previousShowsTheInstanceBeforeARestart()
    {
        const KubeObject pod = runningPod(true);
        QVERIFY(pod.isValid());
        m_used.append(pod.name());
        const QString container = jsonOf(pod).value(u"spec").toObject().value(u"containers").toArray().at(0).toObject().value(u"name").toString();
        const QString image = jsonOf(pod).value(u"spec").toObject().value(u"containers").toArray().at(0).toObject().value(u"image").toString();
        // The status a kubelet writes after an OOMKill; the killed instance ran 20 minutes.
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const QJsonObject status{
            {u"status"_s,
             QJsonObject{
                 {u"containerStatuses"_s,
                  QJsonArray{QJsonObject{{u"name"_s, container},
                                         {u"ready"_s, true},
                                         {u"restartCount"_s, 1},
                                         {u"image"_s, image},
                                         {u"imageID"_s, QString()},
                                         {u"state"_s, QJsonObject{{u"running"_s, QJsonObject{{u"startedAt"_s, now.addSecs(-60).toString(Qt::ISODate)}}}}},
                                         {u"lastState"_s,
                                          QJsonObject{{u"terminated"_s,
                                                       QJsonObject{{u"exitCode"_s, 137},
                                                                   {u"reason"_s, u"OOMKilled"_s},
                                                                   {u"startedAt"_s, now.addSecs(-1300).toString(Qt::ISODate)},
                                                                   {u"finishedAt"_s, now.addSecs(-70).toString(Qt::ISODate)}}}}}}}}}}};
        ApiRequest patch;
        patch.verb = "PATCH";
        patch.path = u"/api/v1/namespaces/%1/pods/%2/status"_s.arg(pod.namespaceName(), pod.name());
        patch.body = QJsonDocument(status).toJson(QJsonDocument::Compact);
        patch.contentType = "application/merge-patch+json";
        const ApiResponse patched = send(patch);
        QVERIFY2(patched.isOk(), qPrintable(patched.error.toString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            jsonOf(cached(pod)).value(u"status").toObject().value(u"containerStatuses").toArray().at(0).toObject().value(u"restartCount").toInt() == 1, 30000);

        auto view = makeView();
        view->setPrevious(true);
        QVERIFY(view->setObject(cached(pod)));
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == LogFollower::State::Ended || view->state() == LogFollower::State::Failed, 30000);
        QVERIFY2(view->state() == LogFollower::State::Ended, qPrintable(view->statusText()));
        LogOptions previous;
        previous.previous = true;
        // An instance that ended has a log that no longer grows: exactly the same lines.
        const QStringList expected = read(pod, previous);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(heldLines(*view), expected);
        // And not the current instance's.
        view->setPrevious(false);
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() > 0, 30000);
        QVERIFY(heldLines(*view).constFirst() != expected.constFirst());
    }

    void aDeletedPodSaysSoAndKeepsItsLines()
    {
        const KubeObject pod = runningPod(true);
        QVERIFY(pod.isValid());
        m_used.append(pod.name());
        auto view = makeView();
        QVERIFY(view->setObject(pod));
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() > 0, 30000);
        ApiRequest remove;
        remove.verb = "DELETE";
        remove.path = u"/api/v1/namespaces/%1/pods/%2"_s.arg(pod.namespaceName(), pod.name());
        QVERIFY(send(remove).isOk());
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), LogFollower::State::PodDeleted, 30000);
        QVERIFY2(view->statusText().contains(u"pod deleted"_s), qPrintable(view->statusText()));
        QVERIFY(view->buffer()->rowCount() > 0);
        QCOMPARE(view->textView()->document()->blockCount(), view->buffer()->rowCount());
        QVERIFY(!view->isStreaming());
    }

    void boundedByTheRingFollowingOnlyAtTheBottom()
    {
        QSettings().setValue(LogBuffer::maxLinesSettingsKey(), 30);
        const KubeObject pod = oldestBusyPod();
        QVERIFY(pod.isValid());
        auto view = makeView();
        QSettings().remove(LogBuffer::maxLinesSettingsKey());
        QCOMPARE(view->buffer()->maxLines(), 30);
        view->resize(900, 200);
        QVERIFY(view->setObject(pod));
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->droppedCount() > 0 && view->buffer()->rowCount() == 30, 30000);
        // The document holds what the ring holds, the newest lines in order.
        QCOMPARE(view->textView()->document()->blockCount(), 30);
        // Held first, then the whole log: the pod keeps writing, so a log read
        // after the snapshot holds every held line (read before, it can miss the newest).
        const QStringList held = heldLines(*view);
        LogOptions all;
        const QStringList whole = read(pod, all);
        const qsizetype from = whole.indexOf(held.constFirst());
        QVERIFY(from >= 0);
        QCOMPARE(held, whole.mid(from, 30));
        QVERIFY2(view->statusText().contains(u"dropped"_s), qPrintable(view->statusText()));

        // At the bottom, the view follows the new lines.
        QScrollBar *bar = view->textView()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QString last = held.constLast();
        QTRY_VERIFY_WITH_TIMEOUT(heldLines(*view).constLast() != last, 30000);
        QCOMPARE(bar->value(), bar->maximum());
        // Scrolled up to read, the view stays where the user put it.
        bar->setValue(0);
        last = heldLines(*view).constLast();
        QTRY_VERIFY_WITH_TIMEOUT(heldLines(*view).constLast() != last, 30000);
        QCOMPARE(bar->value(), 0);

        // Search: every match highlighted, next and previous select one.
        const QString needle = LogFollower::splitTimestamp(heldLines(*view).constLast()).second.toString().section(u' ', 0, 0);
        QVERIFY(!needle.isEmpty());
        view->setSearchText(needle);
        const qsizetype lines = view->buffer()->matches(needle).size();
        QVERIFY(lines > 0);
        QVERIFY(view->textView()->extraSelections().size() >= lines);
        QVERIFY(view->findNext());
        QCOMPARE(view->textView()->textCursor().selectedText().toLower(), needle.toLower());
        QVERIFY(view->findPrevious());
        QCOMPARE(view->textView()->textCursor().selectedText().toLower(), needle.toLower());
        view->setSearchText(u"no line says this"_s);
        QVERIFY(view->textView()->extraSelections().isEmpty());
        QVERIFY(!view->findNext());
    }

    void aDroppedFollowIsReadAgainFromTheLastLine()
    {
        const KubeObject pod = runningPod(true);
        QVERIFY(pod.isValid());
        auto view = makeView();
        QSignalSpy status(view.get(), &LogView::statusChanged);
        QVERIFY(view->setObject(pod));
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() > 0, 30000);
        const QStringList before = heldLines(*view);
        m_fixture->sim.restart();
        QTRY_VERIFY_WITH_TIMEOUT(view->reconnects() >= 1, 30000);
        // Lines written after the restart arrive through the new request.
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() >= before.size() + 3 && view->state() == LogFollower::State::Streaming, 30000);
        bool saidReconnecting = false;
        for (const QList<QVariant> &args : std::as_const(status))
            saidReconnecting = saidReconnecting || args.at(0).toString().contains(u"reconnecting…"_s);
        QVERIFY(saidReconnecting);
        // Nothing lost, nothing twice: the server's log from the first line held, line for line.
        const QStringList shown = heldLines(*view);
        QCOMPARE(shown.mid(0, before.size()), before);
        LogOptions since;
        since.sinceTime = QDateTime::fromString(LogFollower::splitTimestamp(shown.constFirst()).first.toString(), Qt::ISODateWithMs);
        const QStringList expected = read(pod, since);
        QVERIFY(expected.size() >= shown.size());
        QCOMPARE(shown, expected.mid(0, shown.size()));
        view->hide();
    }
};

CACHESCOPE_TEST_MAIN(TestLogView)
#include "tst_logview.moc"
