// Integration test: a recording opened as a cluster and travelled through, as the app's time
// bar does (RecordingPlayback). A churning cachescope-sim is recorded for a few seconds by
// `cachescope-cli record`; RecordingPlayback serves it in-process, and a Cluster's pods informer,
// connected through the playback's kubeconfig as the app connects it, must hold what the
// recording held at each instant the bar chooses: forward, backward, paused, and played to the
// end. Every new instant is a reconnect and a relist in the informer's counters, and the
// kubeconfig stays the same file with the same server.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/kube/kubeconfig.h"
#include "core/record/recordedcache.h"
#include "core/record/recordingreader.h"
#include "core/sim/recordingplayback.h"
#include "recordingtesthelpers.h"
#include "simclusterfixture.h"
#include "simprocess.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestRecordingPlayback final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_file;
    std::unique_ptr<RecordingReader> m_reader;
    qint64 m_podsInformer = 0;

    // Key → resourceVersion of every pod the recording held at an offset.
    CachescopeTest::KeyVersions recordedPods(qint64 offsetMs) const
    {
        return CachescopeTest::keyVersions(m_reader->stateAt(m_podsInformer, m_reader->seqAtOffset(offsetMs)));
    }

    static bool waitServed(Sim::RecordingPlayback &playback)
    {
        QSignalSpy served(&playback, &Sim::RecordingPlayback::served);
        return served.wait(30000) && served.constFirst().at(0).toBool();
    }

private Q_SLOTS:
    void initTestCase()
    {
        SimProcess live;
        QString error;
        QVERIFY2(live.start({u"--pods"_s, u"24"_s, u"--churn"_s, u"20"_s, u"--seed"_s, u"9"_s}, &error), qPrintable(error));
        m_file = m_dir.filePath(u"churn.cachescope"_s);
        QProcess record;
        record.setProcessEnvironment(live.clientEnvironment());
        record.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"record"_s, u"pods"_s, u"-A"_s, u"-o"_s, m_file, u"--for"_s, u"5s"_s});
        QVERIFY(record.waitForFinished(60000));
        QVERIFY2(record.exitCode() == 0, record.readAllStandardError().constData());
        QCOMPARE(live.stop(), 0);

        m_reader = std::make_unique<RecordingReader>();
        QVERIFY2(m_reader->open(m_file, &error), qPrintable(error));
        QCOMPARE(m_reader->informers().size(), 1);
        m_podsInformer = m_reader->informers().constFirst().id;
        // The instants below must see different clusters, or comparing them shows nothing.
        QVERIFY(recordedPods(1000) != recordedPods(4000));
    }

    void notARecordingIsAClearError()
    {
        const QString path = m_dir.filePath(u"not-a-recording"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("apiVersion: v1\nkind: Config\n");
        file.close();
        Sim::RecordingPlayback playback;
        QSignalSpy served(&playback, &Sim::RecordingPlayback::served);
        QString error;
        QVERIFY(!playback.open(path, &error));
        QVERIFY2(!error.isEmpty(), "no reason given");
        QTest::qWait(200);
        QCOMPARE(served.size(), 0); // nothing is served
    }

    void theCacheFollowsTheInstantsChosen()
    {
        Sim::RecordingPlayback playback;
        QString error;
        QVERIFY2(playback.open(m_file, &error), qPrintable(error));
        QVERIFY(playback.durationMs() >= 4000);
        QVERIFY(waitServed(playback));
        const QString kubeconfig = playback.kubeconfigPath();
        // One context, named after the one recorded (the CLI's current context, sim-token), so
        // the Clusters pane shows what was recorded rather than the simulator's three.
        const Kubeconfig served = Kubeconfig::loadFiles({kubeconfig}, true);
        QCOMPARE(m_reader->session().context, u"sim-token"_s);
        QCOMPARE(served.contexts().size(), 1);
        QCOMPARE(served.currentContext(), u"sim-token (recording)"_s);
        const auto rest = served.restConfig({});
        QVERIFY(std::holds_alternative<RestConfig>(rest));
        const QUrl server = std::get<RestConfig>(rest).cluster.server;

        Cluster cluster(std::get<RestConfig>(rest));
        // What is tested is the cache at each instant, not client-go's pace of coming back
        // (800 ms doubling to 30 s, which a run of restarts drives to its cap): a short backoff
        // keeps the test's length in the cache's convergence.
        SharedIndexInformer::Options options = cluster.informers()->defaultOptions();
        options.reflector.backoff.initial = std::chrono::milliseconds(100);
        options.reflector.backoff.cap = std::chrono::milliseconds(1000);
        cluster.informers()->setDefaultOptions(options);
        cluster.start();
        QVERIFY(QTest::qWaitFor([&cluster] { return cluster.isDiscovered(); }, 30000));
        const auto pods = cluster.discovery().resolve(u"pods"_s);
        QVERIFY(std::holds_alternative<ApiResource>(pods));
        InformerKey key;
        key.resource = std::get<ApiResource>(pods);
        SharedIndexInformer *informer = cluster.informers()->informer(key);
        cluster.informers()->start();
        QVERIFY(QTest::qWaitFor([informer] { return informer->hasSynced(); }, 30000));

        playback.setPlaying(false);
        QVERIFY(waitServed(playback));
        quint64 lists = informer->counters().reflector.lists;
        // Forward, backward (the informer's version is then newer than the server's), and
        // forward again: each instant held while paused.
        for (const qint64 offsetMs : {qint64(3500), qint64(1000), qint64(2500)}) {
            QElapsedTimer seek;
            seek.start();
            playback.seek(offsetMs);
            QVERIFY(waitServed(playback));
            QCOMPARE(playback.positionMs(), offsetMs);
            QVERIFY(!playback.isPlaying());
            const CachescopeTest::KeyVersions expected = recordedPods(offsetMs);
            QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::keyVersions(*informer), expected, 60000);
            qInfo("seek to %lld ms: the cache equals the recording's state there after %lld ms", offsetMs, seek.elapsed());
            // The same file names the same server: the app's Cluster only reconnects.
            QCOMPARE(playback.kubeconfigPath(), kubeconfig);
            const auto again = Kubeconfig::loadFiles({kubeconfig}, true).restConfig(u"sim-token (recording)"_s);
            QVERIFY(std::holds_alternative<RestConfig>(again));
            QCOMPARE(std::get<RestConfig>(again).cluster.server, server);
            // A new instant is a relist the informer counts.
            QTRY_VERIFY_WITH_TIMEOUT(informer->counters().reflector.lists > lists, 10000);
            lists = informer->counters().reflector.lists;
            QVERIFY(informer->counters().reflector.relists > 0);
        }

        // Paused means held: nothing moves.
        QTest::qWait(500);
        QCOMPARE(playback.positionMs(), qint64(2500));
        QCOMPARE(CachescopeTest::keyVersions(*informer), recordedPods(2500));

        // Played fast from there, the cache ends as the recording ended.
        playback.setSpeed(10);
        QCOMPARE(playback.speed(), 10.0);
        playback.setPlaying(true);
        QVERIFY(waitServed(playback));
        QVERIFY(playback.isPlaying());
        QTRY_COMPARE_WITH_TIMEOUT(playback.positionMs(), playback.durationMs(), 10000);
        // The end is after the recording's last input.
        QCOMPARE(m_reader->seqAtOffset(playback.durationMs()), m_reader->summary().lastSeq);
        QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::keyVersions(*informer), recordedPods(playback.durationMs()), 60000);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestRecordingPlayback)
#include "tst_recordingplayback.moc"
