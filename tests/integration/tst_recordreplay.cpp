// Recording and replay end to end.
//
// In-process: a simulated cluster churns while its faults (drops, truncated frames, 410 Gone,
// 5xx) make the reflector relist and reconnect; its informer's ListerWatcher is teed into a
// recording. At instants taken from the recording (the last input recorded, with the live
// informer's queue drained) the live cache is noted. Then the recording is replayed through a
// real SharedIndexInformer: from the start up to each instant, and starting at each instant
// (the state rebuilt from a checkpoint), the replayed cache must equal the live one at that
// instant (keys and resourceVersions); replayed to the end, its handler calls must be the live
// informer's, in the same order.
//
// Through the CLI, against the cachescope-sim binary: `record` then `replay get` prints what
// `get` printed; a `record` killed with SIGKILL leaves a file `recording info` opens, with the
// inputs it had committed.
#include "recordingtesthelpers.h"
#include "simprocess.h"

#include "core/cache/apilisterwatcher.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiclient.h"
#include "core/kube/kubeconfig.h"
#include "core/record/recordinglisterwatcher.h"
#include "core/record/recordingreader.h"
#include "core/record/recordingwriter.h"
#include "core/record/replaylisterwatcher.h"
#include "core/sim/simcluster.h"

#include "testmain.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <QThread>

#include <variant>

using namespace Cachescope;
using namespace CachescopeTest;

namespace {

struct Instant
{
    qint64 seq = 0;
    KeyVersions state;
};

SharedIndexInformer::Options replayOptions()
{
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.reflector.useWatchList = false;
    options.reflector.veryShortWatch = std::chrono::milliseconds(0);
    options.reflector.backoff.initial = std::chrono::milliseconds(1);
    options.reflector.backoff.cap = std::chrono::milliseconds(10);
    return options;
}

} // namespace

class TestRecordReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replayEqualsTheRecordedCache_data();
    void replayEqualsTheRecordedCache();
    void cliReplayGetPrintsWhatGetPrinted();
    void recorderKilledLeavesAReadableFile();

private:
    struct RunResult
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    RunResult cli(const SimProcess &sim, const QStringList &arguments)
    {
        QProcess process;
        process.setProcessEnvironment(sim.clientEnvironment());
        process.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), arguments);
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }
};

void TestRecordReplay::replayEqualsTheRecordedCache_data()
{
    QTest::addColumn<bool>("watchList");
    QTest::newRow("paged lists") << false;
    QTest::newRow("streaming lists") << true;
}

void TestRecordReplay::replayEqualsTheRecordedCache()
{
    QFETCH(bool, watchList);
    Sim::SimOptions simOptions;
    simOptions.pods = 80;
    simOptions.churn = 60;
    simOptions.history = 150; // short, so that resuming after a fault often meets 410 Gone
    simOptions.historyWindowMs = 0;
    simOptions.bookmarkIntervalMs = 500;
    simOptions.faults = u"drop=0.15,truncate=0.1,gone=0.2,error=0.1:503"_s;
    simOptions.seed = 11;
    Sim::SimCluster sim(simOptions);
    QString error;
    QVERIFY2(sim.start(&error), qPrintable(error));
    const auto rest = Kubeconfig::loadFiles({sim.kubeconfigPath()}, true).restConfig(u"sim-token"_s);
    QVERIFY(std::holds_alternative<RestConfig>(rest));
    ApiClient client(std::get<RestConfig>(rest));

    QTemporaryDir dir;
    const QString path = dir.filePath(u"churn.cachescope"_s);
    RecordingWriter::Options writerOptions;
    writerOptions.checkpointEvery = 40; // several checkpoints in a few seconds
    RecordingWriter writer(writerOptions);
    QVERIFY2(writer.open(path, {sim.kubeconfigPath(), u"sim-token"_s, {}}, &error), qPrintable(error));

    ApiListerWatcher::Target target;
    target.resource.gvr = GroupVersionResource(QString(), u"v1"_s, u"pods"_s);
    target.resource.kind = u"Pod"_s;
    target.resource.namespaced = true;
    target.idleTimeout = std::chrono::milliseconds(2000);
    RecordedInformer recorded;
    recorded.name = u"pods"_s;
    recorded.resource = target.resource;
    recorded.watchList = watchList;
    const qint64 informerId = writer.queue()->addInformer(recorded);

    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.reflector.useWatchList = watchList;
    options.reflector.pageSize = 30;
    options.reflector.backoff.initial = std::chrono::milliseconds(50);
    options.reflector.backoff.cap = std::chrono::milliseconds(500);
    options.reflector.minWatchTimeout = std::chrono::seconds(1);
    SharedIndexInformer live(std::make_unique<RecordingListerWatcher>(std::make_unique<ApiListerWatcher>(&client, target), writer.queue(), informerId),
                             QThread::currentThread(),
                             options);
    auto liveLog = std::make_shared<CallLog>();
    (void)live.addEventHandler(liveLog);
    live.run();
    QTRY_VERIFY_WITH_TIMEOUT(live.hasSynced(), 30000);

    // The reflector runs on this thread: while it does not return to the event loop nothing new
    // reaches the queue, so once the informer drained it the cache is the one of the last input.
    const auto quiescentState = [&live] {
        KeyVersions previous;
        for (int stable = 0; stable < 3;) {
            QThread::msleep(5);
            const SharedIndexInformer::Counters counters = live.counters();
            const KeyVersions state = keyVersions(live);
            stable = counters.queue.depth == 0 && state == previous ? stable + 1 : 0;
            previous = state;
        }
        return previous;
    };
    QList<Instant> instants;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 7; ++i) {
        QTest::qWait(900);
        instants.append({writer.queue()->appended(), quiescentState()});
    }
    live.stop();
    QTRY_VERIFY(!liveLog->calls().isEmpty());
    writer.close();
    QVERIFY2(writer.errorString().isEmpty(), qPrintable(writer.errorString()));
    const QStringList liveCalls = liveLog->calls();

    RecordingReader reader;
    QVERIFY2(reader.open(path, &error), qPrintable(error));
    const RecordingReader::Summary summary = reader.summary();
    qInfo("recorded %lld inputs (%lld lists, %lld watches, %lld watch errors, %lld list errors), %lld checkpoints, %zu handler calls",
          summary.inputs,
          summary.inputsByKind.value(RecordedInput::Kind::List),
          summary.inputsByKind.value(RecordedInput::Kind::WatchOpened),
          summary.inputsByKind.value(RecordedInput::Kind::WatchError),
          summary.inputsByKind.value(RecordedInput::Kind::ListError),
          summary.checkpoints,
          size_t(liveCalls.size()));
    // The faults must have happened for the test to mean anything: errors and more than one list.
    QVERIFY(summary.inputsByKind.value(RecordedInput::Kind::WatchError) + summary.inputsByKind.value(RecordedInput::Kind::ListError) > 0);
    QVERIFY(summary.checkpoints > 0);
    QVERIFY(instants.constFirst().seq < instants.constLast().seq);

    // From the start up to each instant, and from each instant on.
    for (const Instant &instant : std::as_const(instants)) {
        for (const bool fromCheckpoint : {false, true}) {
            ReplayListerWatcher::Options replay;
            replay.speed = 0;
            replay.stopSeq = instant.seq;
            if (fromCheckpoint) {
                replay.startSeq = instant.seq;
            }
            auto lw = std::make_unique<ReplayListerWatcher>(reader, informerId, replay);
            ReplayListerWatcher *view = lw.get();
            SharedIndexInformer informer(std::move(lw), QThread::currentThread(), replayOptions());
            informer.run();
            QTRY_VERIFY_WITH_TIMEOUT(view->isFinished() && informer.hasSynced(), 20000);
            QTRY_COMPARE_WITH_TIMEOUT(keyVersions(informer), instant.state, 10000);
            informer.stop();
        }
    }

    // To the end: the same handler calls in the same order.
    ReplayListerWatcher::Options replay;
    replay.speed = 0;
    auto lw = std::make_unique<ReplayListerWatcher>(reader, informerId, replay);
    ReplayListerWatcher *view = lw.get();
    SharedIndexInformer informer(std::move(lw), QThread::currentThread(), replayOptions());
    auto replayLog = std::make_shared<CallLog>();
    (void)informer.addEventHandler(replayLog);
    informer.run();
    QTRY_VERIFY_WITH_TIMEOUT(view->isFinished(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(replayLog->calls().size() >= liveCalls.size(), 10000);
    QTest::qWait(200); // lets any call too many arrive
    const QStringList replayCalls = replayLog->calls();
    if (replayCalls != liveCalls) {
        // Where they part, and what the recording held around there, for the failure message.
        qsizetype at = 0;
        while (at < replayCalls.size() && at < liveCalls.size() && replayCalls.at(at) == liveCalls.at(at)) {
            ++at;
        }
        QStringList kinds;
        for (const RecordedInput &input : reader.inputs(informerId)) {
            kinds.append(QString::number(input.seq) + u':' + RecordedInput::kindName(input.kind) +
                         (input.eventType.isEmpty() ? QString() : u'/' + input.eventType) +
                         (input.error.isError() ? u"!"_s + input.error.toString() : QString()));
        }
        kinds.removeIf([](const QString &kind) { return kind.contains(u":watch_event/"_s) || kind.contains(u":bookmark"_s); });
        qWarning("calls part at %lld: live %s, replayed %s; inputs other than events and bookmarks: %s",
                 qint64(at),
                 qPrintable(liveCalls.mid(at, 3).join(u" | "_s)),
                 qPrintable(replayCalls.mid(at, 3).join(u" | "_s)),
                 qPrintable(kinds.join(u' ')));
    }
    QCOMPARE(replayCalls, liveCalls);
    informer.stop();
}

void TestRecordReplay::cliReplayGetPrintsWhatGetPrinted()
{
    SimProcess sim;
    QString error;
    // No churn: what get prints live is what the recording ends with.
    QVERIFY2(sim.start({u"--pods"_s, u"40"_s, u"--churn"_s, u"0"_s, u"--seed"_s, u"3"_s}, &error), qPrintable(error));
    QTemporaryDir dir;
    const QString file = dir.filePath(u"calm.cachescope"_s);
    const RunResult recorded = cli(sim, {u"record"_s, u"pods,configmaps"_s, u"-A"_s, u"-o"_s, file, u"--for"_s, u"2s"_s});
    QVERIFY2(recorded.exitCode == 0, qPrintable(recorded.err));
    QVERIFY2(recorded.err.contains(u"recording 2 informer(s) to "_s + file), qPrintable(recorded.err));
    const RunResult live = cli(sim, {u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s});
    QCOMPARE(live.exitCode, 0);
    const RunResult replayed = cli(sim, {u"replay"_s, file, u"get"_s, u"po"_s, u"-A"_s, u"-o"_s, u"name"_s});
    QVERIFY2(replayed.exitCode == 0, qPrintable(replayed.err));
    QCOMPARE(replayed.out, live.out);
    QCOMPARE(replayed.out.count(u'\n'), 40);
    // --at the very start: nothing listed yet.
    const RunResult atStart = cli(sim, {u"replay"_s, file, u"get"_s, u"pods"_s, u"-A"_s, u"--at"_s, u"+0s"_s});
    QVERIFY2(atStart.exitCode == 0, qPrintable(atStart.err));
    QVERIFY2(atStart.out.isEmpty(), qPrintable(atStart.out));
    // watch replays the initial adds, one JSON line each, and ends with the recording.
    const RunResult watched = cli(sim, {u"replay"_s, file, u"watch"_s, u"pods"_s, u"--speed"_s, u"0"_s});
    QVERIFY2(watched.exitCode == 0, qPrintable(watched.err));
    QCOMPARE(watched.out.count(u"\"type\":\"add\""_s), 40);
    const RunResult unknown = cli(sim, {u"replay"_s, file, u"get"_s, u"nodes"_s});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.contains(u"has no informer of \"nodes\""_s), qPrintable(unknown.err));
}

void TestRecordReplay::recorderKilledLeavesAReadableFile()
{
    SimProcess sim;
    QString error;
    QVERIFY2(sim.start({u"--pods"_s, u"60"_s, u"--churn"_s, u"80"_s, u"--seed"_s, u"4"_s}, &error), qPrintable(error));
    QTemporaryDir dir;
    const QString file = dir.filePath(u"killed.cachescope"_s);
    QProcess recorder;
    recorder.setProcessEnvironment(sim.clientEnvironment());
    recorder.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"record"_s, u"pods"_s, u"-A"_s, u"-o"_s, file});
    QVERIFY(recorder.waitForStarted(10000));
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += recorder.readAllStandardError()).contains("recording 1 informer(s)"), 30000);
    // A few seconds of churn, several commits.
    QTest::qWait(3000);
    ::kill(pid_t(recorder.processId()), SIGKILL);
    QVERIFY(recorder.waitForFinished(10000));
    QCOMPARE(recorder.exitStatus(), QProcess::CrashExit);

    RecordingReader reader;
    QVERIFY2(reader.open(file, &error), qPrintable(error));
    QVERIFY(!reader.session().ended.isValid());
    const RecordingReader::Summary summary = reader.summary();
    QVERIFY(summary.inputsByKind.value(RecordedInput::Kind::WatchEvent) > 0);
    // Every input up to the last commit, with no gap: seqs 1..N.
    QCOMPARE(summary.firstSeq, 1);
    QCOMPARE(summary.lastSeq, summary.inputs);

    const RunResult info = cli(sim, {u"recording"_s, u"info"_s, file});
    QVERIFY2(info.exitCode == 0, qPrintable(info.err));
    QVERIFY2(info.out.contains(u"the recorder did not close the file"_s), qPrintable(info.out));
    const QRegularExpressionMatch inputs = QRegularExpression(u"^inputs: +(\\d+)$"_s, QRegularExpression::MultilineOption).match(info.out);
    QVERIFY2(inputs.hasMatch(), qPrintable(info.out));
    QCOMPARE(inputs.captured(1).toLongLong(), summary.inputs);
    // And it replays.
    const RunResult replayed = cli(sim, {u"replay"_s, file, u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s});
    QVERIFY2(replayed.exitCode == 0, qPrintable(replayed.err));
    QCOMPARE(replayed.out.count(u'\n'), qsizetype(keyVersions(reader.stateAt(1, summary.lastSeq)).size()));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRecordReplay)

#include "tst_recordreplay.moc"
