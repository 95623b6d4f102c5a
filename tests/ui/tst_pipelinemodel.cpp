// PipelineModel sampling a real informer against an in-process simulated cluster: it names the
// queue kind, follows the reflector through listing and watching, and its counters move when
// the server misbehaves (a restart makes the resumed watch meet 410 Gone and relist; server
// errors are counted with their text). A controller's work queue adds a stage of its own.
#include "tst_informersim.h"

#include "core/cache/notificationbatcher.h"
// A DelayingQueue is enough: the pipeline reads only Queue::metrics().
#include "core/workqueue/delayingqueue.h"
#include "ui/models/pipelinemodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using Stage = PipelineModel::Stage;

class TestPipelineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsQueueKindAndStages_data();
    void showsQueueKindAndStages();
    void relistAfterRestartIsCounted();
    void serverErrorsAreCountedWithText();
    void workQueueStage();
    void ratesFollowChurn();

private:
    static std::unique_ptr<CachescopeTest::InformerSim> startSim(double churn = 0)
    {
        Sim::SimOptions options;
        options.pods = 30;
        options.churn = churn;
        options.history = 50; // short, so that resuming after a restart meets 410 Gone
        options.historyWindowMs = 0;
        options.seed = 3;
        auto sim = std::make_unique<CachescopeTest::InformerSim>(options);
        QString error;
        if (!sim->start(&error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        return sim;
    }
    static QString line(const PipelineModel &model, Stage stage, const QString &prefix)
    {
        const QStringList lines = model.details(stage);
        for (const QString &line : lines) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return {};
    }
};

void TestPipelineModel::showsQueueKindAndStages_data()
{
    QTest::addColumn<int>("queueKind");
    QTest::addColumn<bool>("atomicReplace");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("replaceMode");
    QTest::newRow("RealFifo informer shows RealFIFO with its atomic replace (1.36)")
        << int(DeltaQueue::Kind::RealFifo) << true << u"RealFIFO"_s << u"atomic replace"_s;
    QTest::newRow("RealFifo informer of 1.33-1.35 shows RealFIFO replacing per object")
        << int(DeltaQueue::Kind::RealFifo) << false << u"RealFIFO"_s << u"replace per object"_s;
    QTest::newRow("DeltaFifo informer shows DeltaFIFO") << int(DeltaQueue::Kind::DeltaFifo) << true << u"DeltaFIFO"_s << u"replace per object"_s;
}

void TestPipelineModel::showsQueueKindAndStages()
{
    QFETCH(int, queueKind);
    QFETCH(bool, atomicReplace);
    QFETCH(QString, title);
    QFETCH(QString, replaceMode);
    auto sim = startSim();
    QVERIFY(sim);
    PipelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setInterval(std::chrono::milliseconds(20));
    QCOMPARE(model.stateText(Stage::Reflector), u"no informer"_s);
    SharedIndexInformer *informer = sim->informer(u"pods"_s, u"Pod"_s, CachescopeTest::podIndexers(), [&](SharedIndexInformer::Options &options) {
        options.queueKind = DeltaQueue::Kind(queueKind);
        options.atomicReplace = atomicReplace;
    });
    model.setInformer(informer);
    QCOMPARE(model.stages(), (QList<Stage>{Stage::ListerWatcher, Stage::Reflector, Stage::Queue, Stage::Informer, Stage::Indexer, Stage::Handlers}));
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.stageTitle(Stage::Queue), title);
    QCOMPARE(model.index(2).data(PipelineModel::TitleRole).toString(), title);

    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Reflector), u"watching"_s, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Informer), u"synced"_s, 30000);
    QCOMPARE(model.health(Stage::Reflector), PipelineModel::Health::Ok);
    QCOMPARE(model.index(1).data(PipelineModel::StateRole).toString(), u"watching"_s);
    QCOMPARE(model.stateText(Stage::Indexer), u"objects %1"_s.arg(informer->indexer().size()));
    QCOMPARE(model.stateText(Stage::ListerWatcher), u"pods"_s);
    const QString indexes = line(model, Stage::Indexer, u"indexes: "_s);
    for (const QString &name : CachescopeTest::podIndexers().keys()) {
        QVERIFY2(indexes.contains(name), qPrintable(indexes));
    }
    QVERIFY(!line(model, Stage::Reflector, u"resourceVersion "_s).endsWith(u'-'));
    QCOMPARE(line(model, Stage::Reflector, u"errors "_s), u"errors 0"_s);
    QCOMPARE(line(model, Stage::Queue, replaceMode), replaceMode);

    // Each handler gets a line with its backlog.
    NotificationBatcher batcher(NotificationBatcher::Mode::Coalesce);
    const auto registration = informer->addEventHandler(batcher.handler());
    QVERIFY(registration.isValid());
    QTRY_COMPARE(model.stateText(Stage::Handlers), u"handlers 1"_s);
    QTRY_COMPARE(line(model, Stage::Handlers, u"handler 1"_s), u"handler 1: backlog 0"_s);
}

void TestPipelineModel::relistAfterRestartIsCounted()
{
    auto sim = startSim(50);
    QVERIFY(sim);
    PipelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setInterval(std::chrono::milliseconds(20));
    SharedIndexInformer *informer = sim->informer(u"pods"_s, u"Pod"_s, {});
    model.setInformer(informer);
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Reflector), u"watching"_s, 30000);
    QCOMPARE(line(model, Stage::Reflector, u"relists "_s), u"relists 0 · reconnects 0"_s);
    // A restarted server that forgot the version the client resumes from: the resumed watch
    // gets 410 Gone and the reflector relists. Churn then restart alone is a race (the client
    // may have seen every change before the restart, and resume without a 410), so the 410 is
    // forced onto the next watch.
    sim->sim().churn(80);
    sim->sim().faults().injectNext(Sim::FaultPlan::Fault::Gone);
    sim->sim().restart();
    QTRY_VERIFY_WITH_TIMEOUT(model.lastSample().counters.reflector.relists >= 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Reflector), u"watching"_s, 30000);
    const auto &reflector = model.lastSample().counters.reflector;
    QCOMPARE(line(model, Stage::Reflector, u"relists "_s), u"relists %1 · reconnects %2"_s.arg(reflector.relists).arg(reflector.reconnects));
    QCOMPARE(line(model, Stage::ListerWatcher, u"lists "_s).section(u' ', 1, 1), QString::number(reflector.lists));
    QVERIFY(reflector.lists >= 2);
}

void TestPipelineModel::serverErrorsAreCountedWithText()
{
    auto sim = startSim();
    QVERIFY(sim);
    PipelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setInterval(std::chrono::milliseconds(20));
    // Every request fails until the plan is cleared; the reflector backs off between attempts.
    QString error;
    QVERIFY2(sim->sim().faults().setSpec(u"error=1:503"_s, &error), qPrintable(error));
    SharedIndexInformer *informer = sim->informer(u"pods"_s, u"Pod"_s, {}, [](SharedIndexInformer::Options &options) {
        options.reflector.backoff.initial = std::chrono::milliseconds(300);
        options.reflector.backoff.cap = std::chrono::milliseconds(300);
    });
    model.setInformer(informer);
    QTRY_VERIFY_WITH_TIMEOUT(model.lastSample().counters.reflector.errors >= 2, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Reflector), u"backing off"_s, 30000);
    QCOMPARE(model.health(Stage::Reflector), PipelineModel::Health::Warning);
    QCOMPARE(model.health(Stage::ListerWatcher), PipelineModel::Health::Error);
    const QString lastError = line(model, Stage::Reflector, u"last error: "_s);
    QVERIFY2(lastError.contains(u"503"_s) || lastError.contains(u"ServiceUnavailable"_s, Qt::CaseInsensitive), qPrintable(lastError));
    QVERIFY(line(model, Stage::Reflector, u"errors "_s) != u"errors 0"_s);
    QCOMPARE(model.stateText(Stage::Informer), u"syncing"_s);

    sim->sim().faults().clear();
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Reflector), u"watching"_s, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Informer), u"synced"_s, 30000);
}

void TestPipelineModel::workQueueStage()
{
    PipelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setInterval(std::chrono::milliseconds(0));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    auto queue = std::make_shared<DelayingQueue>(nullptr, u"pods-controller"_s);
    model.setWorkQueue(queue);
    QVERIFY(model.hasWorkQueue());
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.stages().constLast(), Stage::WorkQueue);
    QCOMPARE(model.stageTitle(Stage::WorkQueue), u"WorkQueue pods-controller"_s);
    QCOMPARE(model.stateText(Stage::WorkQueue), u"depth 0"_s);

    queue->add(u"ns/a"_s);
    queue->add(u"ns/b"_s);
    queue->add(u"ns/c"_s);
    queue->add(u"ns/a"_s); // merged into the waiting one
    model.sample();
    QCOMPARE(model.stateText(Stage::WorkQueue), u"depth 3"_s);
    const std::optional<QString> key = queue->get();
    QVERIFY(key);
    queue->addAfter(u"ns/d"_s, std::chrono::seconds(60)); // a retry, as addRateLimited() is
    model.sample();
    QCOMPARE(model.stateText(Stage::WorkQueue), u"depth 2"_s);
    QCOMPARE(model.details(Stage::WorkQueue).value(0), u"adds 3 · retries 1"_s);
    QCOMPARE(model.details(Stage::WorkQueue).value(1), u"processing 1 · waiting 1"_s);
    queue->done(*key);

    // The model does not keep the queue alive: once it is gone, the stage goes with it.
    queue->shutDown();
    queue.reset();
    model.sample();
    QVERIFY(!model.hasWorkQueue());
    QCOMPARE(removed.count(), 1);
    QCOMPARE(model.rowCount(), 6);
}

void TestPipelineModel::ratesFollowChurn()
{
    auto sim = startSim(200);
    QVERIFY(sim);
    PipelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setInterval(std::chrono::milliseconds(100));
    SharedIndexInformer *informer = sim->informer(u"pods"_s, u"Pod"_s, {});
    model.setInformer(informer);
    QTRY_COMPARE_WITH_TIMEOUT(model.stateText(Stage::Informer), u"synced"_s, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(model.inputRate(Stage::Reflector) > 0, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(model.inputRate(Stage::Indexer) > 0, 20000);
    QVERIFY(model.index(4).data(PipelineModel::RateRole).toDouble() >= 0);

    sim->sim().setChurn(0);
    // Bookmarks still arrive now and then; the deltas into the indexer stop.
    QTRY_COMPARE_WITH_TIMEOUT(model.inputRate(Stage::Indexer), 0.0, 20000);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestPipelineModel)
#include "tst_pipelinemodel.moc"
