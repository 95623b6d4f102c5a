// Integration test: a recording served as a cluster, `cachescope-sim --replay FILE [--at TIME]`.
// A churning cachescope-sim is recorded for a few seconds by `cachescope-cli record`; the
// recording is then served by a second cachescope-sim with --replay, and read by a real kubectl
// (the one on PATH) and by cachescope-cli:
// - `kubectl get pods -A` lists what RecordingReader::stateAt() says the recording held at the
//   instant (names and resourceVersions; in pages; with a label selector), at the start and at
//   three instants given by --at;
// - `kubectl get -w` sees the recorded events after --at, in order, with their versions;
// - a write (delete, label, create) fails with 405 MethodNotAllowed and changes nothing;
// - `cachescope-cli get` against the replaying simulator prints what `cachescope-cli replay
//   FILE get` prints at the same instant.
// Replays that must hold still run at a speed so small that no recorded event follows in time.

#include "core/record/recordedcache.h"
#include "core/record/recordingreader.h"
#include "simprocess.h"
#include "testmain.h"

#include <QDateTime>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {
// Far below any useful pace: the replayed store stays at --at while the clients read it.
const QString Frozen = u"0.000000001"_s;

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

QStringList sortedLines(const QString &text)
{
    QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    lines.sort();
    return lines;
}
} // namespace

class TestSimReplay final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_file;
    std::unique_ptr<RecordingReader> m_reader;
    qint64 m_podsInformer = 0;

    static QStringList kubectlBase(const SimProcess &sim) { return {u"--cache-dir"_s, sim.home() + u"/kube-cache"_s, u"--request-timeout=30s"_s}; }

    static Run run(const QString &program, const QProcessEnvironment &environment, const QStringList &arguments)
    {
        QProcess process;
        process.setProcessEnvironment(environment);
        process.start(program, arguments);
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            return {};
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }
    static Run kubectl(const SimProcess &sim, const QStringList &arguments) { return run(u"kubectl"_s, sim.clientEnvironment(), kubectlBase(sim) + arguments); }
    static Run cli(const SimProcess &sim, const QStringList &arguments)
    {
        return run(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), sim.clientEnvironment(), arguments);
    }

    // The recording's instant as --at says it: "" is the start, else an offset or RFC 3339.
    QString atText(const QString &at) const
    {
        if (at != u"middle")
            return at;
        const RecordingReader::Summary summary = m_reader->summary();
        const QDateTime middle = QDateTime::fromMSecsSinceEpoch((summary.firstWallMs + summary.lastWallMs) / 2, Qt::UTC);
        return middle.toString(Qt::ISODateWithMs);
    }

    // The input after which every informer had its first list: what --replay serves without --at.
    qint64 startSeq() const
    {
        qint64 start = 0;
        for (const RecordedInformer &informer : m_reader->informers()) {
            RecordedCache cache;
            for (const RecordedInput &input : m_reader->inputs(informer.id)) {
                const bool wasListing = cache.isListing();
                cache.apply(input);
                if (wasListing && !cache.isListing()) {
                    start = std::max(start, input.seq);
                    break;
                }
            }
        }
        return start;
    }

    qint64 seqOf(const QString &at) const
    {
        if (at.isEmpty())
            return startSeq();
        QString error;
        const std::optional<qint64> seq = m_reader->seqAt(at, &error);
        return seq.value_or(-1);
    }

    // "namespace/name resourceVersion" of every pod the recording held after input seq.
    QStringList recordedPods(qint64 seq) const
    {
        QStringList lines;
        const RecordedCache state = m_reader->stateAt(m_podsInformer, seq);
        for (auto it = state.entries().cbegin(); it != state.entries().cend(); ++it)
            lines.append(it.key() + u' ' + it->resourceVersion);
        lines.sort();
        return lines;
    }

    bool startReplay(SimProcess &sim, const QString &at, const QString &speed, QString *error)
    {
        QStringList arguments{u"--replay"_s, m_file, u"--speed"_s, speed};
        if (!at.isEmpty())
            arguments += {u"--at"_s, at};
        return sim.start(arguments, error);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QProcess version;
        version.start(u"kubectl"_s, {u"version"_s, u"--client"_s});
        QVERIFY2(version.waitForFinished(30000) && version.exitCode() == 0, "kubectl is not on PATH");

        SimProcess live;
        QString error;
        QVERIFY2(live.start({u"--pods"_s, u"24"_s, u"--churn"_s, u"20"_s, u"--seed"_s, u"7"_s}, &error), qPrintable(error));
        m_file = m_dir.filePath(u"churn.cachescope"_s);
        const Run recorded = cli(live, {u"record"_s, u"pods,configmaps"_s, u"-A"_s, u"-o"_s, m_file, u"--for"_s, u"5s"_s});
        QVERIFY2(recorded.exitCode == 0, qPrintable(recorded.err));
        QCOMPARE(live.stop(), 0);

        m_reader = std::make_unique<RecordingReader>();
        QVERIFY2(m_reader->open(m_file, &error), qPrintable(error));
        for (const RecordedInformer &informer : m_reader->informers()) {
            if (informer.resource.gvr.resource() == u"pods")
                m_podsInformer = informer.id;
        }
        QVERIFY(m_podsInformer > 0);
        // The instants below must see different clusters, or comparing them shows nothing.
        QVERIFY(recordedPods(seqOf(u"+1s"_s)) != recordedPods(seqOf(u"+4s"_s)));
    }

    void kubectlGetListsTheRecordedState_data()
    {
        QTest::addColumn<QString>("at");
        QTest::newRow("no --at: the start, after the first lists") << QString();
        QTest::newRow("--at +1s") << u"+1s"_s;
        QTest::newRow("--at +4s") << u"+4s"_s;
        QTest::newRow("--at an RFC 3339 instant mid-recording") << u"middle"_s;
    }
    void kubectlGetListsTheRecordedState()
    {
        QFETCH(QString, at);
        const QString instant = atText(at);
        const qint64 seq = seqOf(instant);
        QVERIFY(seq > 0);
        const QStringList expected = recordedPods(seq);
        QVERIFY(!expected.isEmpty());

        SimProcess sim;
        QString error;
        QVERIFY2(startReplay(sim, instant, Frozen, &error), qPrintable(error));
        const Run names = kubectl(sim, {u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s});
        QVERIFY2(names.exitCode == 0, qPrintable(names.err));
        QStringList expectedNames;
        for (const QString &line : expected)
            expectedNames.append(u"pod/"_s + line.section(u'/', 1).section(u' ', 0, 0));
        expectedNames.sort();
        QCOMPARE(sortedLines(names.out), expectedNames);

        const Run versions = kubectl(sim,
                                     {u"get"_s,
                                      u"pods"_s,
                                      u"-A"_s,
                                      u"-o"_s,
                                      u"jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {.metadata.resourceVersion}{\"\\n\"}{end}"_s});
        QVERIFY2(versions.exitCode == 0, qPrintable(versions.err));
        QCOMPARE(sortedLines(versions.out), expected);

        // Pages of four (kubectl follows the continue tokens) list the same pods.
        const Run paged = kubectl(sim, {u"get"_s, u"pods"_s, u"-A"_s, u"--chunk-size=4"_s, u"-o"_s, u"name"_s});
        QVERIFY2(paged.exitCode == 0, qPrintable(paged.err));
        QCOMPARE(sortedLines(paged.out), expectedNames);

        // A label selector picks the recorded pods of one app, and only those.
        const RecordedCache state = m_reader->stateAt(m_podsInformer, seq);
        const QString app = state.entries().cbegin()->object.label(u"app"_s).value_or(QString());
        QVERIFY(!app.isEmpty());
        QStringList expectedOfApp;
        for (const RecordedCache::Entry &entry : state.entries()) {
            if (entry.object.label(u"app"_s) == app)
                expectedOfApp.append(u"pod/"_s + entry.object.name());
        }
        expectedOfApp.sort();
        QVERIFY(expectedOfApp.size() < expectedNames.size());
        const Run selected = kubectl(sim, {u"get"_s, u"pods"_s, u"-A"_s, u"-l"_s, u"app="_s + app, u"-o"_s, u"name"_s});
        QVERIFY2(selected.exitCode == 0, qPrintable(selected.err));
        QCOMPARE(sortedLines(selected.out), expectedOfApp);
        QCOMPARE(sim.stop(), 0);
    }

    void kubectlWatchSeesTheRecordedEvents()
    {
        const QString at = u"+1s"_s;
        const qint64 seq = seqOf(at);
        QStringList expected;
        for (const RecordedInput &input : m_reader->inputs(m_podsInformer, seq + 1)) {
            if (input.kind == RecordedInput::Kind::WatchEvent)
                expected.append(input.eventType + u' ' + input.object.namespaceName() + u'/' + input.object.name() + u' ' + input.object.resourceVersion());
        }
        QVERIFY2(expected.size() >= 10, qPrintable(QString::number(expected.size())));

        SimProcess sim;
        QString error;
        // At the recorded pace, so that kubectl is watching well before the last events come.
        QVERIFY2(startReplay(sim, at, u"1"_s, &error), qPrintable(error));
        QProcess watch;
        watch.setProcessEnvironment(sim.clientEnvironment());
        watch.start(u"kubectl"_s,
                    kubectlBase(sim) +
                        QStringList{u"get"_s,
                                    u"pods"_s,
                                    u"-A"_s,
                                    u"-w"_s,
                                    u"--output-watch-events"_s,
                                    u"-o"_s,
                                    u"jsonpath={.type} {.object.metadata.namespace}/{.object.metadata.name} {.object.metadata.resourceVersion}{\"\\n\"}"_s});
        QVERIFY(watch.waitForStarted(10000));
        QByteArray output;
        auto lines = [&output] {
            return QString::fromUtf8(output).split(u'\n', Qt::SkipEmptyParts);
        };
        const bool sawLast = QTest::qWaitFor(
            [&] {
                output += watch.readAllStandardOutput();
                return !lines().isEmpty() && lines().constLast() == expected.constLast();
            },
            45000);
        watch.kill();
        watch.waitForFinished();
        const QStringList seen = lines();
        QVERIFY2(sawLast, qPrintable(seen.join(u'\n') + u"\nstderr: "_s + QString::fromUtf8(watch.readAllStandardError())));

        // kubectl prints its list as ADDED lines, then what its watch gets: the recorded events
        // after the list's version, a suffix of the expected ones in the recorded order.
        qsizetype matched = 0;
        while (matched < seen.size() && matched < expected.size() && seen.at(seen.size() - 1 - matched) == expected.at(expected.size() - 1 - matched))
            ++matched;
        const QStringList listed = seen.mid(0, seen.size() - matched);
        for (const QString &line : listed)
            QVERIFY2(line.startsWith(u"ADDED "_s), qPrintable(u"not a suffix of the recorded events: "_s + line));
        QVERIFY2(matched >= expected.size() / 2, qPrintable(u"%1 of %2 recorded events seen"_s.arg(matched).arg(expected.size())));
        QCOMPARE(sim.stop(), 0);
    }

    void writesAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message"); // as kubectl words the server's Status
        const QString refused = u"the server does not allow this method on the requested resource"_s;
        QTest::newRow("delete pod (DELETE)") << QStringList{u"delete"_s, u"pod"_s, u"NAME"_s, u"--wait=false"_s} << QString()
                                             << u"Error from server (MethodNotAllowed): "_s + refused;
        QTest::newRow("label pod (PATCH)") << QStringList{u"label"_s, u"pod"_s, u"NAME"_s, u"replayed=yes"_s} << QString()
                                           << u"Error from server (MethodNotAllowed): "_s + refused;
        QTest::newRow("create configmap (POST)") << QStringList{u"create"_s, u"configmap"_s, u"written-on-a-recording"_s} << u"written-on-a-recording"_s
                                                 << u"error: failed to create configmap: "_s + refused;
    }
    void writesAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, name);
        QFETCH(QString, message);
        const QStringList pods = recordedPods(startSeq());
        QVERIFY(!pods.isEmpty());
        const QString namespaceName = pods.constFirst().section(u'/', 0, 0);
        const QString pod = pods.constFirst().section(u'/', 1).section(u' ', 0, 0);
        arguments.replaceInStrings(u"NAME"_s, pod);

        SimProcess sim;
        QString error;
        QVERIFY2(startReplay(sim, QString(), Frozen, &error), qPrintable(error));
        const Run refused = kubectl(sim, arguments + QStringList{u"-n"_s, namespaceName});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(message), qPrintable(refused.err));
        // Nothing changed: the pod is as recorded, the configmap was not made.
        const Run after =
            kubectl(sim, {u"get"_s, u"pod"_s, pod, u"-n"_s, namespaceName, u"-o"_s, u"jsonpath={.metadata.resourceVersion} {.metadata.labels.replayed}"_s});
        QCOMPARE(after.exitCode, 0);
        QCOMPARE(after.out, pods.constFirst().section(u' ', 1) + u' ');
        if (!name.isEmpty()) {
            const Run made = kubectl(sim, {u"get"_s, u"configmap"_s, name, u"-n"_s, namespaceName});
            QCOMPARE(made.exitCode, 1);
            QVERIFY2(made.err.contains(u"NotFound"_s), qPrintable(made.err));
        }
        QCOMPARE(sim.stop(), 0);
    }

    // A recording served from an earlier instant than a client saw (the app's time bar moved
    // back): a list or watch from the later version is refused as the apiserver refuses it (504,
    // ResourceVersionTooLarge) but with no Retry-After, since the store reaches that version only
    // by playing to it. client-go retries the apiserver's answer (Retry-After: 1, tst_simapi) ten
    // times a second before it relists; this one it does not retry. kubectl -v=6 logs every
    // request it sends: one.
    void aLaterVersionIsRefusedWithoutRetry_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("list") << QString();
        QTest::newRow("watch") << u"watch=true&"_s;
    }
    void aLaterVersionIsRefusedWithoutRetry()
    {
        QFETCH(QString, query);
        SimProcess sim;
        QString error;
        QVERIFY2(startReplay(sim, QString(), Frozen, &error), qPrintable(error));
        const Run refused = kubectl(sim, {u"get"_s, u"--raw"_s, u"/api/v1/pods?%1resourceVersion=999999999"_s.arg(query), u"-v=6"_s});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(u"Too large resource version: 999999999"_s), qPrintable(refused.err));
        QVERIFY2(refused.err.count(u" 504 Gateway Timeout"_s) == 1, qPrintable(refused.err));
        QCOMPARE(sim.stop(), 0);
    }

    void cliGetEqualsReplayGet_data()
    {
        QTest::addColumn<QString>("at");
        QTest::newRow("--at +1s") << u"+1s"_s;
        QTest::newRow("--at +4s") << u"+4s"_s;
    }
    void cliGetEqualsReplayGet()
    {
        QFETCH(QString, at);
        SimProcess sim;
        QString error;
        QVERIFY2(startReplay(sim, at, Frozen, &error), qPrintable(error));
        for (const QString &resource : {u"pods"_s, u"configmaps"_s}) {
            const Run served = cli(sim, {u"get"_s, resource, u"-A"_s});
            QVERIFY2(served.exitCode == 0, qPrintable(served.err));
            const Run replayed = cli(sim, {u"replay"_s, m_file, u"get"_s, resource, u"-A"_s, u"--at"_s, at});
            QVERIFY2(replayed.exitCode == 0, qPrintable(replayed.err));
            QVERIFY(!served.out.isEmpty());
            // AGE columns count from now for both; a second may tick between the two runs.
            auto withoutAge = [](const QString &table) {
                QStringList rows;
                for (const QString &row : table.split(u'\n', Qt::SkipEmptyParts))
                    rows.append(row.section(u' ', 0, -2, QString::SectionSkipEmpty));
                return rows;
            };
            QCOMPARE(withoutAge(served.out), withoutAge(replayed.out));
        }
        QCOMPARE(sim.stop(), 0);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimReplay)

#include "tst_simreplay.moc"
