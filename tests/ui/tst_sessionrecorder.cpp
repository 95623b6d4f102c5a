// SessionRecorder (File → Record Session… / Stop Recording) against an in-process simulated
// cluster, in the assembled window: it records the explorer's informers from the cluster's
// reconnect on into a file RecordingReader opens, with their lists and watch events; Stop
// closes the file (the session's end written); a path that cannot be written, or a disk that
// fills while recording, is a message in the status bar and the informers keep running.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/record/recordingreader.h"
#include "core/sim/simcluster.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/sessionrecorder.h"
#include "ui/workspace.h"

#include "exploreronsim.h"
#include "simclusterfixture.h"
#include "testmain.h"

#include <QAction>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CachescopeTest::simOptions;

namespace {

// AppOnSim is the assembled window with the simulator's kubeconfig opened in it and its
// session recorder, as app/cachescope.cpp assembles them.
struct AppOnSim : CachescopeTest::ExplorerOnSim
{
    using ExplorerOnSim::ExplorerOnSim;
    SessionRecorder recorder{&window, &workspace, &explorer};
};

qint64 watchEventsIn(const QString &path)
{
    RecordingReader reader;
    QString error;
    return reader.open(path, &error) ? reader.summary().inputsByKind.value(RecordedInput::Kind::WatchEvent) : 0;
}

} // namespace

class TestSessionRecorder final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init() { QSettings().remove(u"tables"_s); }

    void recordsTheExplorersInformersUntilStopped()
    {
        AppOnSim app(simOptions(40, 2, 20));
        QString error;
        QVERIFY2(app.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(app.showsSyncedInformer(), 30000);
        QVERIFY(app.window.recordSessionAction()->isEnabled());
        QVERIFY(!app.window.stopRecordingAction()->isEnabled());
        const QPointer<Cluster> live = app.explorer.contextsView()->currentCluster();

        QTemporaryDir dir;
        const QString path = dir.filePath(u"session.cachescope"_s);
        QSignalSpy changed(&app.recorder, &SessionRecorder::recordingChanged);
        QVERIFY2(app.recorder.start(path), qPrintable(app.recorder.errorString()));
        QVERIFY(app.recorder.isRecording());
        // The writer commits off the GUI thread.
        QVERIFY(app.recorder.writerThread() != nullptr);
        QVERIFY(app.recorder.writerThread() != QThread::currentThread());
        QCOMPARE(changed.size(), 1);
        QVERIFY(!app.window.recordSessionAction()->isEnabled());
        QVERIFY(app.window.stopRecordingAction()->isEnabled());
        // Recorded from the reconnect on: a new cluster for the context, its informers recorded.
        QVERIFY(live.isNull());
        QPointer<Cluster> recorded = app.recorder.recordedCluster();
        QVERIFY(recorded);
        QCOMPARE(app.explorer.contextsView()->currentCluster(), recorded.data());
        QTRY_VERIFY_WITH_TIMEOUT(app.showsSyncedInformer(), 30000);
        QVERIFY(recorded->informers()->informers().contains(app.explorer.currentInformer()));
        // The status bar names the file and counts what is committed.
        QTRY_VERIFY_WITH_TIMEOUT(app.recorder.statusText().startsWith(u"Recording session.cachescope: "_s), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(watchEventsIn(path) > 0, 30000);
        const QString informerName = app.explorer.currentInformer()->name();

        app.recorder.stop();
        QVERIFY(!app.recorder.isRecording());
        QCOMPARE(changed.size(), 2);
        QVERIFY2(app.recorder.statusText().startsWith(u"Recorded "_s), qPrintable(app.recorder.statusText()));
        QVERIFY(app.window.recordSessionAction()->isEnabled());
        QVERIFY(!app.window.stopRecordingAction()->isEnabled());
        QVERIFY(app.recorder.errorString().isEmpty());
        // The live session goes on, on the same cluster.
        QCOMPARE(app.explorer.contextsView()->currentCluster(), recorded.data());
        QVERIFY(app.explorer.currentInformer()->isRunning());

        RecordingReader reader;
        QVERIFY2(reader.open(path, &error), qPrintable(error));
        QVERIFY2(reader.session().ended.isValid(), "Stop did not close the recording");
        QVERIFY(!reader.session().includeSecretValues); // redacted, as the CLI records by default
        QCOMPARE(reader.session().cluster, recorded->server());
        QVERIFY(!reader.session().serverVersion.isEmpty());
        qint64 informerId = 0;
        for (const RecordedInformer &informer : reader.informers()) {
            if (informer.name == informerName) {
                informerId = informer.id;
            }
        }
        QVERIFY2(informerId > 0, "the explorer's informer is not in the recording");
        const RecordingReader::Summary summary = reader.summary();
        QVERIFY(summary.inputsByKind.value(RecordedInput::Kind::WatchOpened) > 0);
        QVERIFY(summary.inputsByKind.value(RecordedInput::Kind::WatchEvent) > 0);
        QVERIFY(reader.errorString().isEmpty());
        // The recording begins with the informer's list (or a streaming list's watch): its cache
        // rebuilds from the recording's start on.
        const QList<RecordedInput> inputs = reader.inputs(informerId);
        QVERIFY(!inputs.isEmpty());
        const RecordedInput &first = inputs.constFirst();
        QVERIFY2(first.kind == RecordedInput::Kind::List || (first.kind == RecordedInput::Kind::WatchOpened && first.sendInitialEvents),
                 qPrintable(RecordedInput::kindName(first.kind)));
        QVERIFY(!reader.stateAt(informerId, summary.lastSeq).entries().isEmpty());
    }

    void aFailedWriteIsShownAndTheSessionGoesOn_data()
    {
        QTest::addColumn<QString>("file"); // in the test's directory
        QTest::addColumn<qint64>("maxFileBytes"); // 0: no limit
        QTest::addColumn<bool>("starts");
        QTest::addColumn<QString>("message"); // what the status bar says, in part
        QTest::newRow("a directory that does not exist")
            << u"missing/session.cachescope"_s << qint64(0) << false << u"Cannot record the session: cannot record to "_s;
        QTest::newRow("a file that exists") << u"exists.cachescope"_s << qint64(0) << false << u"the file exists"_s;
        // SQLite's max_page_count stands for a full disk: the schema takes 12 of its 16 pages
        // (RecordingSchema), the first list does not fit in the rest.
        QTest::newRow("a disk that fills while recording") << u"full.cachescope"_s << qint64(256 * 1024) << true << u"Not recording: "_s;
    }
    void aFailedWriteIsShownAndTheSessionGoesOn()
    {
        QFETCH(QString, file);
        QFETCH(qint64, maxFileBytes);
        QFETCH(bool, starts);
        QFETCH(QString, message);

        AppOnSim app(simOptions(300, 3, 40));
        QString error;
        QVERIFY2(app.open(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(app.showsSyncedInformer(), 30000);
        QTemporaryDir dir;
        QFile existing(dir.filePath(u"exists.cachescope"_s));
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.close();
        RecordingWriter::Options options;
        options.maxFileBytes = maxFileBytes;
        app.recorder.setWriterOptions(options);
        const QPointer<Cluster> live = app.explorer.contextsView()->currentCluster();

        QSignalSpy failed(&app.recorder, &SessionRecorder::errorOccurred);
        QCOMPARE(app.recorder.start(dir.filePath(file)), starts);
        if (starts) {
            // The reconnected cluster's first list is too large for the file.
            QVERIFY(failed.wait(30000));
        }
        QCOMPARE(failed.size(), 1);
        QVERIFY(!app.recorder.isRecording());
        QVERIFY(!app.recorder.errorString().isEmpty());
        QVERIFY2(app.recorder.statusText().contains(message), qPrintable(app.recorder.statusText()));
        QVERIFY2(app.recorder.statusText().contains(app.recorder.errorString()), qPrintable(app.recorder.statusText()));
        QVERIFY(app.window.recordSessionAction()->isEnabled());
        QVERIFY(!app.window.stopRecordingAction()->isEnabled());
        if (!starts) {
            QVERIFY2(live, "a refused start reconnected the cluster");
            QCOMPARE(app.explorer.contextsView()->currentCluster(), live.data());
        }
        // The live session goes on: the shown informer follows the churn.
        QTRY_VERIFY_WITH_TIMEOUT(app.showsSyncedInformer(), 30000);
        SharedIndexInformer *informer = app.explorer.currentInformer();
        QVERIFY(informer->isRunning());
        const quint64 processed = informer->counters().deltasProcessed;
        QTRY_VERIFY_WITH_TIMEOUT(informer->counters().deltasProcessed > processed, 30000);
    }
};

CACHESCOPE_TEST_MAIN(TestSessionRecorder)
#include "tst_sessionrecorder.moc"
