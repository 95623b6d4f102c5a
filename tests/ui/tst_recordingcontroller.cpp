// RecordingController, a recording open in the assembled window: the session of a churning
// in-process simulated cluster is recorded by the app's own SessionRecorder, then served as a
// cluster the explorer opens. Stepping to the next or previous change of an object lands on that
// object's watch events (the instant shown has that change as its last one); the bar's buttons
// step through the object selected in the explorer, and the table shows that object's version;
// after a seek forward the table holds the state of the new instant without waiting on the
// reflector's backoff (the informers are told to retry when the instant is served).
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/keys.h"
#include "core/cache/sharedindexinformer.h"
#include "core/record/recordingreader.h"
#include "core/sim/recordingplayback.h"
#include "core/sim/simcluster.h"
#include "ui/models/eventstreammodel.h"
#include "ui/models/objecthistory.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"
#include "ui/widgets/contextsview.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/recordingbar.h"
#include "ui/widgets/recordingcontroller.h"
#include "ui/widgets/sessionrecorder.h"
#include "ui/workspace.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <climits>
#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CachescopeTest::simOptions;

namespace {

using KeyVersions = QHash<QString, quint64>;

KeyVersions tableState(const ResourceTableModel &model)
{
    KeyVersions state;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row, 0);
        state.insert(index.data(ResourceTableRoles::KeyRole).toString(), index.data(ResourceTableRoles::ResourceVersionRole).toString().toULongLong());
    }
    return state;
}

KeyVersions keyVersions(const RecordedCache &cache)
{
    KeyVersions state;
    for (auto it = cache.entries().cbegin(); it != cache.entries().cend(); ++it) {
        state.insert(it.key(), it->resourceVersion.toULongLong());
    }
    return state;
}

qint64 ceilMs(qint64 monoNs)
{
    return (monoNs + 999'999) / 1'000'000;
}

qint64 watchEventsIn(const QString &path)
{
    RecordingReader reader;
    QString error;
    return reader.open(path, &error) ? reader.summary().inputsByKind.value(RecordedInput::Kind::WatchEvent) : 0;
}

// The app as app/cachescope.cpp assembles it.
struct App
{
    MainWindow window;
    Workspace workspace;
    Explorer explorer{&window, &workspace};
    RecordingController recordings{&window, &workspace, &explorer};
    SessionRecorder recorder{&window, &workspace, &explorer};

    [[nodiscard]] bool showsSyncedInformer() const { return explorer.currentInformer() != nullptr && explorer.currentInformer()->hasSynced(); }
};

bool waitServed(Sim::RecordingPlayback &playback)
{
    QSignalSpy served(&playback, &Sim::RecordingPlayback::served);
    return served.wait(30000) && served.constFirst().at(0).toBool();
}

} // namespace

class TestRecordingController final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_file;
    std::unique_ptr<RecordingReader> m_reader;
    std::unique_ptr<App> m_app; // the recording open
    qint64 m_informerId = 0; // the recorded informer the explorer shows
    QString m_uid; // the object stepped through: the one that changed most
    QString m_key;
    QList<RecordedInput> m_changes; // its watch events, in order

    // seekTo() holds the instant `offsetMs`, paused, once it is served.
    bool seekTo(qint64 offsetMs)
    {
        Sim::RecordingPlayback *playback = m_app->recordings.playback();
        QSignalSpy served(playback, &Sim::RecordingPlayback::served);
        playback->seek(offsetMs);
        return served.wait(30000) && served.constFirst().at(0).toBool() && playback->positionMs() == offsetMs;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(u"tables"_s);
        m_file = m_dir.filePath(u"session.cachescope"_s);
        {
            // A few seconds of a churning cluster, recorded from the app.
            Sim::SimCluster sim(simOptions(16, 1, 20, 9));
            App recording;
            QString error;
            QVERIFY2(sim.start(&error), qPrintable(error));
            recording.window.show();
            recording.explorer.openKubeconfig(sim.kubeconfigPath());
            QTRY_VERIFY_WITH_TIMEOUT(recording.showsSyncedInformer(), 30000);
            QVERIFY2(recording.recorder.start(m_file), qPrintable(recording.recorder.errorString()));
            QTRY_VERIFY_WITH_TIMEOUT(recording.showsSyncedInformer(), 30000);
            QTRY_VERIFY_WITH_TIMEOUT(watchEventsIn(m_file) >= 80, 60000);
            recording.recorder.stop();
        }
        m_reader = std::make_unique<RecordingReader>();
        QString error;
        QVERIFY2(m_reader->open(m_file, &error), qPrintable(error));

        m_app = std::make_unique<App>();
        m_app->window.show();
        QVERIFY2(m_app->recordings.open(m_file, &error), qPrintable(error));
        QVERIFY(m_app->recordings.bar() != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(m_app->showsSyncedInformer(), 30000);
        Sim::RecordingPlayback *playback = m_app->recordings.playback();
        playback->setPlaying(false);
        QVERIFY(waitServed(*playback));

        // The recorded informer the explorer shows again, and its object that changed most.
        const QString shown = m_app->explorer.currentInformer()->name();
        for (const RecordedInformer &informer : m_reader->informers()) {
            if (informer.name == shown) {
                m_informerId = informer.id;
            }
        }
        QVERIFY2(m_informerId > 0, qPrintable(u"no recorded informer "_s + shown));
        QHash<QString, QList<RecordedInput>> changes;
        const QList<RecordedInput> inputs = m_reader->inputs(m_informerId);
        for (const RecordedInput &input : inputs) {
            if (input.kind == RecordedInput::Kind::WatchEvent) {
                changes[input.object.uid()].append(input);
            }
        }
        for (auto it = changes.cbegin(); it != changes.cend(); ++it) {
            if (it.value().size() > m_changes.size()) {
                m_uid = it.key();
                m_changes = it.value();
            }
        }
        QVERIFY2(m_changes.size() >= 3, "no object changed three times");
        m_key = metaNamespaceKey(m_changes.constFirst().object);
        // Each change at an instant of its own, or stepping to one shows another.
        for (qsizetype i = 1; i < m_changes.size(); ++i) {
            QVERIFY(ceilMs(m_changes.at(i).monoNs) > ceilMs(m_changes.at(i - 1).monoNs));
        }
    }

    void cleanupTestCase() { m_app.reset(); }

    void opensAsTheContextRecorded()
    {
        // The Clusters pane lists the recording as one context named after the one the app
        // recorded (the simulator's current context), not as the simulator's three.
        QCOMPARE(m_reader->session().context, u"sim-token"_s);
        const QList<ContextConfig> contexts = m_app->workspace.kubeconfig().contexts();
        QCOMPARE(contexts.size(), 1);
        QCOMPARE(contexts.constFirst().name, u"sim-token (recording)"_s);
        const Cluster *shown = m_app->explorer.contextsView()->currentCluster();
        QVERIFY(shown != nullptr);
        QCOMPARE(shown->name(), u"sim-token (recording)"_s);
    }

    void stepsThroughTheChangesOfAnObject_data()
    {
        QTest::addColumn<int>("from"); // the change shown first; -1: the recording's start
        QTest::addColumn<bool>("forward");
        QTest::addColumn<int>("expected"); // the change landed on; -1: none, the instant stays
        QTest::newRow("next from the start: its first change") << -1 << true << 0;
        QTest::newRow("next from its first change: the second") << 0 << true << 1;
        QTest::newRow("next from its second change: the third") << 1 << true << 2;
        QTest::newRow("previous from its third change: the second") << 2 << false << 1;
        QTest::newRow("previous from its second change: the first") << 1 << false << 0;
        QTest::newRow("previous from its first change: none") << 0 << false << -1;
        QTest::newRow("next from its last change: none") << int(INT_MAX) << true << -1;
    }
    void stepsThroughTheChangesOfAnObject()
    {
        QFETCH(int, from);
        QFETCH(bool, forward);
        QFETCH(int, expected);
        if (from == INT_MAX) {
            from = int(m_changes.size() - 1);
        }
        const qint64 start = from < 0 ? 0 : ceilMs(m_changes.at(from).monoNs);
        QVERIFY(seekTo(start));
        Sim::RecordingPlayback *playback = m_app->recordings.playback();

        QSignalSpy served(playback, &Sim::RecordingPlayback::served);
        const std::optional<qint64> offset = m_app->recordings.stepToChange(m_uid, forward);
        if (expected < 0) {
            QVERIFY(!offset);
            QCOMPARE(playback->positionMs(), start);
            QCOMPARE(served.size(), 0);
            return;
        }
        QVERIFY(offset);
        const RecordedInput &change = m_changes.at(expected);
        QCOMPARE(*offset, ceilMs(change.monoNs));
        QVERIFY(served.wait(30000));
        QCOMPARE(playback->positionMs(), *offset);
        // The instant shown has that change as the object's last one.
        const qint64 shown = m_reader->seqAtOffset(*offset);
        QVERIFY(shown >= change.seq);
        if (expected + 1 < m_changes.size()) {
            QVERIFY(shown < m_changes.at(expected + 1).seq);
        }
    }

    void theBarStepsThroughTheSelectedObject()
    {
        QVERIFY(seekTo(ceilMs(m_changes.at(0).monoNs)));
        QVERIFY(m_changes.at(0).eventType != u"DELETED"_s);
        Explorer &explorer = m_app->explorer;
        // Selected as if activated in the table: the object as its first change left it.
        explorer.showObject(m_changes.at(0).object);
        QCOMPARE(explorer.selectedObject().uid(), m_uid);

        Sim::RecordingPlayback *playback = m_app->recordings.playback();
        auto *next = m_app->recordings.bar()->findChild<QToolButton *>(u"nextChange"_s);
        auto *previous = m_app->recordings.bar()->findChild<QToolButton *>(u"previousChange"_s);
        QVERIFY(next && previous);
        next->click();
        QVERIFY(waitServed(*playback));
        QCOMPARE(playback->positionMs(), ceilMs(m_changes.at(1).monoNs));
        QTRY_COMPARE_WITH_TIMEOUT(m_app->recordings.bar()->position(), ceilMs(m_changes.at(1).monoNs), 5000);
        // The table's object is that version (or gone, after a delete). Not at once: the seek
        // before went back in time, and the informer relists only once the server refused its
        // newer version (seconds).
        if (m_changes.at(1).eventType == u"DELETED"_s) {
            QTRY_VERIFY_WITH_TIMEOUT(!tableState(*explorer.tableModel()).contains(m_key), 60000);
        } else {
            QTRY_COMPARE_WITH_TIMEOUT(tableState(*explorer.tableModel()).value(m_key), m_changes.at(1).object.resourceVersion().toULongLong(), 60000);
        }
        previous->click();
        QVERIFY(waitServed(*playback));
        QCOMPARE(playback->positionMs(), ceilMs(m_changes.at(0).monoNs));
    }

    void theEventStreamAndHistoryTellTheRecordedTime()
    {
        // Paused at an instant, what the informer delivers (the relist to it) is stamped with
        // that instant of the recording, not with the time it is watched.
        Sim::RecordingPlayback *playback = m_app->recordings.playback();
        const qint64 duration = playback->durationMs();
        QVERIFY(seekTo(duration / 8));
        QTRY_COMPARE_WITH_TIMEOUT(
            tableState(*m_app->explorer.tableModel()), keyVersions(m_reader->stateAt(m_informerId, m_reader->seqAtOffset(duration / 8))), 60000);
        // The batcher hands the table's last notifications on in the same turn of the event loop;
        // let it finish before counting.
        QTest::qWait(300);
        EventStreamModel *stream = m_app->explorer.eventStream();
        const int before = stream->rowCount();
        const qint64 offset = duration / 2;
        QVERIFY(seekTo(offset));
        const QDateTime instant = m_reader->session().started.addMSecs(offset);
        QCOMPARE(playback->instant(), instant);
        QTRY_COMPARE_WITH_TIMEOUT(
            tableState(*m_app->explorer.tableModel()), keyVersions(m_reader->stateAt(m_informerId, m_reader->seqAtOffset(offset))), 60000);
        QVERIFY(stream->rowCount() > before);
        const QString cluster = u"sim-token (recording)"_s;
        QString changedKey;
        QString changedResource;
        for (int row = before; row < stream->rowCount(); ++row) {
            const QModelIndex time = stream->index(row, EventStreamModel::TimeColumn);
            QCOMPARE(stream->index(row, EventStreamModel::ClusterColumn).data().toString(), cluster);
            QCOMPARE(time.data(EventStreamModel::TimestampRole).toLongLong(), instant.toMSecsSinceEpoch());
            changedKey = stream->index(row, EventStreamModel::KeyColumn).data().toString();
            // The recording holds more than the table's informer: the row says whose it is.
            changedResource = stream->index(row, EventStreamModel::ResourceColumn).data().toString();
        }
        // The object history agrees.
        const QList<ObjectHistory::Entry> entries = m_app->explorer.history()->entries(cluster + u" · "_s + changedResource, changedKey);
        QVERIFY(!entries.isEmpty());
        QCOMPARE(entries.constLast().time, instant);
    }

    void aSeekShowsItsInstantWithoutWaitingOnABackoff()
    {
        Sim::RecordingPlayback *playback = m_app->recordings.playback();
        const qint64 duration = playback->durationMs();
        // From near the start (not measured: going back in time, the informer's resourceVersion
        // is newer than the server's, which the server refuses, a relist later)...
        QVERIFY(seekTo(duration / 8));
        KeyVersions previous = keyVersions(m_reader->stateAt(m_informerId, m_reader->seqAtOffset(duration / 8)));
        QTRY_COMPARE_WITH_TIMEOUT(tableState(*m_app->explorer.tableModel()), previous, 60000);
        // ...forward. Each instant is a new server: the informers' watches end and their
        // reconnects are refused until it listens, so their reflectors back off, 800 ms at first
        // and doubling with each seek. Told to retry when the instant is served, they watch again
        // at once: well under the first backoff, on a loaded machine too.
        const qint64 limitMs = 700;
        for (const qint64 offsetMs : {duration / 4, duration / 2, duration * 3 / 4, duration}) {
            QSignalSpy served(playback, &Sim::RecordingPlayback::served);
            playback->seek(offsetMs);
            QVERIFY(served.wait(30000));
            QElapsedTimer sinceServed;
            sinceServed.start();
            const KeyVersions expected = keyVersions(m_reader->stateAt(m_informerId, m_reader->seqAtOffset(offsetMs)));
            QVERIFY(expected != previous); // else the table would hold it already
            QTRY_COMPARE_WITH_TIMEOUT(tableState(*m_app->explorer.tableModel()), expected, int(limitMs));
            qInfo("offset %lld ms: the table held its instant %lld ms after it was served", offsetMs, sinceServed.elapsed());
            previous = expected;
        }
    }
};

CACHESCOPE_TEST_MAIN(TestRecordingController)
#include "tst_recordingcontroller.moc"
