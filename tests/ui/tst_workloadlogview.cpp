// LogView on a workload, against the in-process simulated cluster through a Cluster's worker
// thread and a RelationService as the app runs them: a Deployment's view holds lines from each
// of its pods, each after its "pod/container", each pod's lines in its own log's order and lines
// out of time order only as many as the merge counted late; a scale-up joins the new pods from
// their first line; a deleted pod's stream ends and its lines stay; the streams are capped and
// the status says how many pods are not followed.
#include "ui/widgets/logview.h"

#include "core/kube/apiclient.h"
#include "core/kube/logstream.h"
#include "core/relations/relationservice.h"
#include "core/relations/workloadlogs.h"
#include "simclusterfixture.h"
#include "ui/models/logbuffer.h"
#include "ui/widgets/logsourcehighlighter.h"

#include "testmain.h"

#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

// The view's ring, small enough that every pod's tail fits a few times over.
constexpr int RingLines = 3000;

bool hasStarted(const KubeObject &pod)
{
    const QJsonArray statuses = QJsonDocument::fromJson(pod.json()).object().value(u"status").toObject().value(u"containerStatuses").toArray();
    return !statuses.isEmpty() && statuses.at(0).toObject().value(u"state").toObject().contains(u"running"_s);
}

QString firstContainer(const KubeObject &pod)
{
    return QJsonDocument::fromJson(pod.json()).object().value(u"spec").toObject().value(u"containers").toArray().at(0).toObject().value(u"name").toString();
}

// The lines a view holds from one source, as received ("TIMESTAMP TEXT").
QStringList heldFrom(const LogView &view, const QString &source)
{
    QStringList lines;
    const LogBuffer *buffer = view.buffer();
    for (int row = 0; row < buffer->rowCount(); ++row) {
        if (buffer->source(row) == source)
            lines.append(buffer->data(buffer->index(row), LogBuffer::LineRole).toString());
    }
    return lines;
}

QSet<QString> heldSources(const LogView &view)
{
    QSet<QString> sources;
    for (int row = 0; row < view.buffer()->rowCount(); ++row)
        sources.insert(view.buffer()->source(row));
    return sources;
}

} // namespace

class TestWorkloadLogView : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<CachescopeTest::SimClusterFixture> m_fixture;
    std::unique_ptr<RelationService> m_relations;
    std::unique_ptr<ApiClient> m_client; // the test's own, on the test thread
    SharedIndexInformer *m_deployments = nullptr;
    ObjectRef m_deployment;

    // read() is a pod's container log read once by a LogStream of the test's own, with timestamps.
    QStringList read(const QString &pod, const QString &container)
    {
        LogOptions options;
        options.container = container;
        options.timestamps = true;
        LogStream stream(m_client.get(), m_deployment.namespaceName, pod, options);
        QStringList lines;
        std::optional<ApiError> ended;
        connect(&stream, &LogStream::linesReceived, &stream, [&lines](const QStringList &got) { lines += got; });
        connect(&stream, &LogStream::ended, &stream, [&ended](const ApiError &error) { ended = error; });
        stream.start();
        if (!QTest::qWaitFor([&] { return ended.has_value(); }, 30000) || ended->isError())
            return {u"(the log could not be read)"_s};
        return lines;
    }

    // The deployment's pods whose container runs, by name.
    QList<KubeObject> startedPods()
    {
        QList<KubeObject> started;
        const QList<ObjectRef> pods = m_relations->podsOf(m_deployment);
        for (const ObjectRef &pod : pods) {
            if (hasStarted(pod.object))
                started.append(pod.object);
        }
        return started;
    }

    KubeObject deploymentObject() const { return m_deployments->indexer().getByKey(m_deployment.namespaceName + u'/' + m_deployment.name); }

    std::unique_ptr<LogView> makeView(int maxStreams = WorkloadLogs::DefaultMaxStreams)
    {
        QSettings().setValue(LogBuffer::maxLinesSettingsKey(), RingLines);
        auto view = std::make_unique<LogView>();
        QSettings().remove(LogBuffer::maxLinesSettingsKey());
        view->setInitialBackoff(std::chrono::milliseconds(200));
        view->setMaxStreams(maxStreams);
        view->setCluster(m_fixture->cluster.get());
        view->setRelations(m_relations.get());
        view->resize(900, 500);
        view->show();
        return view;
    }

    bool scaleTo(int replicas)
    {
        return CachescopeTest::send(m_fixture->cluster.get(),
                                    "PATCH",
                                    u"/apis/apps/v1/namespaces/%1/deployments/%2"_s.arg(m_deployment.namespaceName, m_deployment.name),
                                    QJsonObject{{u"spec"_s, QJsonObject{{u"replicas"_s, replicas}}}},
                                    "application/merge-patch+json") == 200;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Sim::SimOptions options = CachescopeTest::simOptions(12, 1, 0, 21);
        // Four lines a second in every container: each test sees new lines within a second.
        options.logLinesPerSecond = 4;
        m_fixture = std::make_unique<CachescopeTest::SimClusterFixture>(options);
        QVERIFY(m_fixture->startDiscovered());
        const auto rest = CachescopeTest::simRestConfig(m_fixture->sim);
        QVERIFY(rest);
        m_client = std::make_unique<ApiClient>(*rest);
        m_deployments = m_fixture->syncedInformer(u"deploy"_s);
        QVERIFY(m_deployments);
        // The application namespace: the generator's deployments are there.
        QString ns;
        for (const KubeObject &deployment : m_deployments->indexer().list()) {
            if (deployment.namespaceName() != u"kube-system")
                ns = deployment.namespaceName();
        }
        QVERIFY(!ns.isEmpty());
        m_relations = std::make_unique<RelationService>(m_fixture->cluster.get(), ns);
        QSignalSpy synced(m_relations.get(), &RelationService::synced);
        QVERIFY(synced.wait(30000));
        // The deployment with the most started pods, at least two.
        QList<KubeObject> deployments = m_deployments->indexer().list();
        std::sort(deployments.begin(), deployments.end(), [](const KubeObject &a, const KubeObject &b) { return a.name() < b.name(); });
        qsizetype most = 0;
        for (const KubeObject &deployment : std::as_const(deployments)) {
            if (deployment.namespaceName() != ns)
                continue;
            m_deployment = m_relations->refOf(deployment, std::get<ApiResource>(m_fixture->cluster->discovery().resolve(u"deploy"_s)));
            const qsizetype started = startedPods().size();
            if (started > most)
                most = started;
        }
        for (const KubeObject &deployment : std::as_const(deployments)) {
            if (deployment.namespaceName() != ns)
                continue;
            m_deployment = m_relations->refOf(deployment, std::get<ApiResource>(m_fixture->cluster->discovery().resolve(u"deploy"_s)));
            if (startedPods().size() == most)
                break;
        }
        QVERIFY2(most >= 2, qPrintable(QString::number(most)));
    }

    void cleanupTestCase()
    {
        m_relations.reset();
        m_client.reset();
        m_fixture.reset();
    }

    void holdsLinesFromEachPod()
    {
        auto view = makeView();
        QVERIFY(LogView::hasLogs(deploymentObject()));
        QVERIFY(view->setObject(deploymentObject()));
        QVERIFY(view->isWorkload());
        QCOMPARE(view->containers(), QStringList{QString()} + WorkloadLogs::containersOf(deploymentObject()));
        QVERIFY(!view->findChild<QCheckBox *>(u"previous"_s)->isEnabled());
        const QList<KubeObject> pods = startedPods();
        QSet<QString> expected;
        for (const KubeObject &pod : pods)
            expected.insert(pod.name() + u'/' + firstContainer(pod));
        QTRY_VERIFY_WITH_TIMEOUT(heldSources(*view).contains(expected), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(view->statusText().contains(u"%1 stream(s)"_s.arg(expected.size())), 10000);
        QVERIFY2(view->statusText().contains(u"following"_s), qPrintable(view->statusText()));

        // Each pod's lines are a piece of its own log, in its order: read after the snapshot, the
        // log holds every line held.
        const QString source = *expected.cbegin();
        const QStringList held = heldFrom(*view, source);
        QVERIFY(!held.isEmpty());
        const QStringList whole = read(source.section(u'/', 0, 0), source.section(u'/', 1));
        const qsizetype from = whole.indexOf(held.constFirst());
        QVERIFY2(from >= 0, qPrintable(held.constFirst()));
        QCOMPARE(held, whole.mid(from, held.size()));

        // Merged in time order: a line older than the one before it only where the merge said it
        // was late.
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() > 50, 30000);
        int inversions = 0;
        for (int row = 1; row < view->buffer()->rowCount(); ++row)
            inversions += view->buffer()->timestamp(row) < view->buffer()->timestamp(row - 1) ? 1 : 0;
        QVERIFY2(inversions <= view->workloadLogs()->merger().lateCount(),
                 qPrintable(u"%1 inversions, %2 late"_s.arg(inversions).arg(view->workloadLogs()->merger().lateCount())));

        // Shown after its source, in its pod's color.
        const int row = view->buffer()->rowCount() - 1;
        const QString shown = view->textView()->document()->findBlockByNumber(row).text();
        QCOMPARE(shown, view->buffer()->source(row) + u' ' + view->buffer()->text(row));
        const QTextLayout *layout = view->textView()->document()->findBlockByNumber(row).layout();
        QVERIFY(!layout->formats().isEmpty());
        QCOMPARE(layout->formats().constFirst().format.foreground().color(),
                 view->sourceHighlighter()->colorOf(view->buffer()->source(row).section(u'/', 0, 0)));
        view->hide();
        QVERIFY(!view->isStreaming());
    }

    void aScaleUpJoinsTheNewPodsFromTheirFirstLine()
    {
        auto view = makeView();
        QVERIFY(view->setObject(deploymentObject()));
        QTRY_VERIFY_WITH_TIMEOUT(view->workloadLogs() && view->workloadLogs()->streamCount() >= 2, 30000);
        QSet<QString> before;
        for (const ObjectRef &pod : m_relations->podsOf(m_deployment))
            before.insert(pod.name);
        const int replicas = deploymentObject().value(u"spec.replicas"_s).toInt();
        QVERIFY(scaleTo(replicas + 2));
        QTRY_COMPARE_WITH_TIMEOUT(m_relations->podsOf(m_deployment).size(), before.size() + 2, 30000);
        QStringList joined;
        for (const KubeObject &pod : startedPods()) {
            if (!before.contains(pod.name()))
                joined.append(pod.name() + u'/' + firstContainer(pod));
        }
        QVERIFY2(!joined.isEmpty(), "no new pod started");
        for (const QString &source : std::as_const(joined)) {
            // From its first line: the startup burst the container wrote as it started.
            const QString first = read(source.section(u'/', 0, 0), source.section(u'/', 1)).value(0);
            QTRY_VERIFY_WITH_TIMEOUT(heldFrom(*view, source).value(0) == first, 30000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(view->statusText().contains(u"%1 pod(s)"_s.arg(before.size() + 2)), 10000);
        view->hide();
    }

    void aDeletedPodsLinesStay()
    {
        auto view = makeView();
        QVERIFY(view->setObject(deploymentObject()));
        QTRY_VERIFY_WITH_TIMEOUT(view->workloadLogs() && view->workloadLogs()->streamCount() >= 2, 30000);
        const QString victim = view->workloadLogs()->runningSources().constFirst();
        QTRY_VERIFY_WITH_TIMEOUT(!heldFrom(*view, victim).isEmpty(), 30000);
        const QString pod = victim.section(u'/', 0, 0);
        QCOMPARE(CachescopeTest::send(m_fixture->cluster.get(), "DELETE", u"/api/v1/namespaces/%1/pods/%2"_s.arg(m_deployment.namespaceName, pod)), 200);
        // Its stream ends (the server ends a deleted pod's follow, or the grace does).
        QTRY_VERIFY_WITH_TIMEOUT(!view->workloadLogs()->runningSources().contains(victim), 30000);
        const QStringList kept = heldFrom(*view, victim);
        QVERIFY(!kept.isEmpty());
        // Others go on; its lines stay (the ring drops the oldest of all as new ones come: its
        // newest stay).
        const qint64 received = view->workloadLogs()->receivedCount();
        QTRY_VERIFY_WITH_TIMEOUT(view->workloadLogs()->receivedCount() > received + 10, 30000);
        // (Lines it delivered before its end may still leave the merge window after the snapshot.)
        const QStringList after = heldFrom(*view, victim);
        QVERIFY(after.contains(kept.constLast()));
        QVERIFY(view->workloadLogs()->lastError().isEmpty());
        view->hide();
    }

    void streamsAreCapped_data()
    {
        QTest::addColumn<int>("maxStreams");
        QTest::newRow("one stream for several pods") << 1;
        QTest::newRow("two streams for several pods") << 2;
    }
    void streamsAreCapped()
    {
        QFETCH(int, maxStreams);
        QTRY_VERIFY_WITH_TIMEOUT(startedPods().size() > maxStreams, 30000);
        auto view = makeView(maxStreams);
        QVERIFY(view->setObject(deploymentObject()));
        QTRY_VERIFY_WITH_TIMEOUT(view->workloadLogs() && view->workloadLogs()->streamCount() == maxStreams, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(view->buffer()->rowCount() > 0, 30000);
        QVERIFY(view->workloadLogs()->waitingCount() >= 1);
        QVERIFY2(view->statusText().contains(u"not followed (at most %1 streams)"_s.arg(maxStreams)), qPrintable(view->statusText()));
        QVERIFY(heldSources(*view).size() <= maxStreams);
        QCOMPARE(view->workloadLogs()->streamCount(), maxStreams);
        view->hide();
    }
};

CACHESCOPE_TEST_MAIN(TestWorkloadLogView)
#include "tst_workloadlogview.moc"
