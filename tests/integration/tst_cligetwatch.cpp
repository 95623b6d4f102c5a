// cachescope-cli get and watch against the cachescope-sim binary, checked against what a real
// kubectl (the one on PATH) sees of the same simulated cluster.
#include "simprocess.h"

#include "testmain.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <csignal>

using namespace Qt::Literals::StringLiterals;

namespace {

struct RunResult
{
    int exitCode = -1;
    QByteArray out;
    QString err;
};

// withoutManagedFields() is an object as an informer with the default transform stores it.
QJsonObject withoutManagedFields(QJsonObject object)
{
    QJsonObject metadata = object.value(u"metadata"_s).toObject();
    metadata.remove(u"managedFields"_s);
    object.insert(u"metadata"_s, metadata);
    return object;
}

// itemsByKey() maps ns/name to the object, for a List in JSON.
QMap<QString, QJsonObject> itemsByKey(const QByteArray &listJson, QString *kind)
{
    const QJsonObject list = QJsonDocument::fromJson(listJson).object();
    *kind = list.value(u"kind"_s).toString();
    QMap<QString, QJsonObject> items;
    const QJsonArray array = list.value(u"items"_s).toArray();
    for (const QJsonValue &item : array) {
        const QJsonObject metadata = item.toObject().value(u"metadata"_s).toObject();
        items.insert(metadata.value(u"namespace"_s).toString() + u'/' + metadata.value(u"name"_s).toString(), withoutManagedFields(item.toObject()));
    }
    return items;
}

} // namespace

class TestCliGetWatch : public QObject
{
    Q_OBJECT

private:
    SimProcess m_sim;

    RunResult run(const QString &program, const QStringList &arguments, int timeoutMs = 60000)
    {
        QProcess process;
        process.setProcessEnvironment(m_sim.clientEnvironment());
        process.start(program, arguments);
        RunResult result;
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = process.readAllStandardOutput();
        result.err = QString::fromUtf8(process.readAllStandardError());
        return result;
    }
    // A running pod of "shop" whose container never restarted (a pending one has no log yet).
    QString runningPod()
    {
        const RunResult result = kubectl({u"get"_s, u"pods"_s, u"-n"_s, u"shop"_s, u"-o"_s, u"json"_s});
        for (const QJsonValue &item : QJsonDocument::fromJson(result.out).object().value(u"items"_s).toArray()) {
            const QJsonObject status = item.toObject().value(u"status"_s).toObject();
            if (status.value(u"phase"_s).toString() == u"Running" &&
                status.value(u"containerStatuses"_s).toArray().at(0).toObject().value(u"restartCount"_s).toInt(-1) == 0)
                return item.toObject().value(u"metadata"_s).toObject().value(u"name"_s).toString();
        }
        return {};
    }
    RunResult cli(const QStringList &arguments) { return run(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), arguments); }
    RunResult kubectl(const QStringList &arguments)
    {
        return run(u"kubectl"_s, QStringList{u"--cache-dir"_s, m_sim.home() + u"/kube-cache"_s, u"--request-timeout=30s"_s} + arguments);
    }

    // compareTables() runs `get` with each client and compares the tables cell by cell, ages
    // and times only for being there.
    void compareTables(const QStringList &ourArguments, const QStringList &theirArguments)
    {
        const RunResult ours = cli(QStringList{u"get"_s} + ourArguments);
        QVERIFY2(ours.exitCode == 0, qPrintable(ours.err));
        const RunResult theirs = kubectl(QStringList{u"get"_s} + theirArguments);
        QVERIFY2(theirs.exitCode == 0, qPrintable(theirs.err));
        // Cells are separated by two spaces or more (a cell may hold single spaces).
        const auto table = [](const QByteArray &output) {
            static const QRegularExpression separator(u"\\s{2,}"_s);
            QList<QStringList> rows;
            for (const QString &line : QString::fromUtf8(output).split(u'\n', Qt::SkipEmptyParts)) {
                rows.append(line.trimmed().split(separator));
            }
            // Several resources print several tables: each header row says where its times are.
            QList<qsizetype> timeColumns;
            for (QStringList &row : rows) {
                if (row.constFirst() == u"NAME"_s || row.constFirst() == u"NAMESPACE"_s) {
                    timeColumns = {row.indexOf(u"AGE"_s), row.indexOf(u"LAST SEEN"_s)};
                    continue;
                }
                for (const qsizetype column : std::as_const(timeColumns)) {
                    if (column >= 0 && column < row.size()) {
                        row[column] = row.at(column).isEmpty() ? QString() : u"<time>"_s;
                    }
                }
            }
            return rows;
        };
        const QList<QStringList> ourRows = table(ours.out);
        const QList<QStringList> theirRows = table(theirs.out);
        QVERIFY(theirRows.size() > 1);
        QCOMPARE(ourRows.constFirst(), theirRows.constFirst()); // the headers
        QCOMPARE(ourRows.size(), theirRows.size());
        for (qsizetype i = 1; i < theirRows.size(); ++i) {
            QCOMPARE(ourRows.at(i), theirRows.at(i));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        // No churn: both clients must see the very same objects.
        QVERIFY2(m_sim.start({u"--pods"_s, u"150"_s, u"--namespaces"_s, u"4"_s, u"--churn"_s, u"0"_s, u"--seed"_s, u"5"_s}, &error), qPrintable(error));
    }

    void getMatchesKubectl_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("pods -A") << QStringList{u"pods"_s, u"-A"_s};
        QTest::newRow("pods -n shop") << QStringList{u"pods"_s, u"-n"_s, u"shop"_s};
        QTest::newRow("pods -A -l app=checkout") << QStringList{u"pods"_s, u"-A"_s, u"-l"_s, u"app=checkout"_s};
        QTest::newRow("deployments.apps -A") << QStringList{u"deployments.apps"_s, u"-A"_s};
        QTest::newRow("nodes") << QStringList{u"nodes"_s};
        QTest::newRow("deployments.apps,nodes -A (one List of both)") << QStringList{u"deployments.apps,nodes"_s, u"-A"_s};
    }

    void getMatchesKubectl()
    {
        QFETCH(QStringList, arguments);
        const RunResult ours = cli(QStringList{u"get"_s} + arguments + QStringList{u"-o"_s, u"json"_s});
        QVERIFY2(ours.exitCode == 0, qPrintable(ours.err));
        const RunResult theirs = kubectl(QStringList{u"get"_s} + arguments + QStringList{u"-o"_s, u"json"_s});
        QVERIFY2(theirs.exitCode == 0, qPrintable(theirs.err));
        QString ourKind;
        QString theirKind;
        const QMap<QString, QJsonObject> ourItems = itemsByKey(ours.out, &ourKind);
        const QMap<QString, QJsonObject> theirItems = itemsByKey(theirs.out, &theirKind);
        QCOMPARE(ourKind, u"List"_s);
        QCOMPARE(ourKind, theirKind);
        QVERIFY(!theirItems.isEmpty());
        QCOMPARE(ourItems.keys(), theirItems.keys());
        for (auto it = theirItems.cbegin(); it != theirItems.cend(); ++it) {
            // The whole object, apiVersion and kind included, the informer's transform aside.
            QCOMPARE(ourItems.value(it.key()), it.value());
        }
    }

    // The tables: the same headers and cells as kubectl prints from the server's Table (for a
    // custom resource, its CRD's printer columns); times (AGE, LAST SEEN) may be a tick apart
    // and are compared by presence only.
    void tableMatchesKubectl_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("pods -A") << QStringList{u"pods"_s, u"-A"_s};
        QTest::newRow("pods -n shop -o wide") << QStringList{u"pods"_s, u"-n"_s, u"shop"_s, u"-o"_s, u"wide"_s};
        QTest::newRow("deployments -A") << QStringList{u"deployments"_s, u"-A"_s};
        QTest::newRow("replicasets -n shop") << QStringList{u"replicasets"_s, u"-n"_s, u"shop"_s};
        QTest::newRow("nodes") << QStringList{u"nodes"_s};
        QTest::newRow("namespaces") << QStringList{u"namespaces"_s};
        QTest::newRow("services -A") << QStringList{u"services"_s, u"-A"_s};
        QTest::newRow("configmaps -A") << QStringList{u"configmaps"_s, u"-A"_s};
        QTest::newRow("secrets -A") << QStringList{u"secrets"_s, u"-A"_s};
        QTest::newRow("events -A") << QStringList{u"events"_s, u"-A"_s};
        QTest::newRow("a custom resource's printer columns") << QStringList{u"widgets"_s, u"-A"_s};
        QTest::newRow("pods,configmaps -n shop (a table each, names with their type)") << QStringList{u"pods,configmaps"_s, u"-n"_s, u"shop"_s};
        QTest::newRow("deployments,replicasets -A") << QStringList{u"deployments,replicasets"_s, u"-A"_s};
        QTest::newRow("pods -A --show-labels (LABELS last)") << QStringList{u"pods"_s, u"-A"_s, u"--show-labels"_s};
        QTest::newRow("pods,configmaps -n shop --show-labels") << QStringList{u"pods,configmaps"_s, u"-n"_s, u"shop"_s, u"--show-labels"_s};
        QTest::newRow("pods -A -L (label columns; a key with a prefix, a missing one)")
            << QStringList{u"pods"_s, u"-A"_s, u"-L"_s, u"app,app.kubernetes.io/name"_s, u"-L"_s, u"tier"_s};
        QTest::newRow("pods -n shop -o wide -L app --show-labels (after the wide columns, before LABELS)")
            << QStringList{u"pods"_s, u"-n"_s, u"shop"_s, u"-o"_s, u"wide"_s, u"-L"_s, u"app"_s, u"--show-labels"_s};
    }

    void tableMatchesKubectl()
    {
        QFETCH(QStringList, arguments);
        compareTables(arguments, arguments);
    }

    // A metadata-only informer knows no pod's READY or STATUS: its table is what kubectl prints
    // for a kind it has no columns for, which kubectl shows without the server's table.
    void metadataOnlyTableMatchesKubectl_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("pods -A") << QStringList{u"pods"_s, u"-A"_s};
        QTest::newRow("pods -n shop --show-labels") << QStringList{u"pods"_s, u"-n"_s, u"shop"_s, u"--show-labels"_s};
        QTest::newRow("pods -A -L app,tier") << QStringList{u"pods"_s, u"-A"_s, u"-L"_s, u"app,tier"_s};
        QTest::newRow("deployments.apps,configmaps -A (names with their type)") << QStringList{u"deployments.apps,configmaps"_s, u"-A"_s};
        QTest::newRow("widgets -A (no printer columns)") << QStringList{u"widgets"_s, u"-A"_s};
    }

    void metadataOnlyTableMatchesKubectl()
    {
        QFETCH(QStringList, arguments);
        compareTables(arguments + QStringList{u"--metadata-only"_s}, arguments + QStringList{u"--server-print=false"_s});
    }

    void outputNameMatchesKubectl_data()
    {
        QTest::addColumn<QString>("resources");
        QTest::newRow("deployments.apps") << u"deployments.apps"_s;
        QTest::newRow("pods,deployments,services") << u"pods,deployments,services"_s;
    }

    void outputNameMatchesKubectl()
    {
        QFETCH(QString, resources);
        const RunResult ours = cli({u"get"_s, resources, u"-A"_s, u"-o"_s, u"name"_s});
        const RunResult theirs = kubectl({u"get"_s, resources, u"-A"_s, u"-o"_s, u"name"_s});
        QCOMPARE(ours.exitCode, 0);
        QCOMPARE(theirs.exitCode, 0);
        QCOMPARE(ours.out, theirs.out);
    }

    // -o name names the resource's kind, not PartialObjectMetadata's.
    void metadataOnlyOutputNameMatchesKubectl_data()
    {
        QTest::addColumn<QString>("resources");
        QTest::newRow("pods") << u"pods"_s;
        QTest::newRow("pods,deployments.apps,services") << u"pods,deployments.apps,services"_s;
    }

    void metadataOnlyOutputNameMatchesKubectl()
    {
        QFETCH(QString, resources);
        const RunResult ours = cli({u"get"_s, resources, u"-A"_s, u"-o"_s, u"name"_s, u"--metadata-only"_s});
        const RunResult theirs = kubectl({u"get"_s, resources, u"-A"_s, u"-o"_s, u"name"_s});
        QCOMPARE(ours.exitCode, 0);
        QCOMPARE(theirs.exitCode, 0);
        QVERIFY(ours.out.startsWith("pod/"));
        QCOMPARE(ours.out, theirs.out);
    }

    void indexSelectsLikeAFieldSelector()
    {
        // The pods of one node, from the informer's node index, and from the server.
        const RunResult nodes = kubectl({u"get"_s, u"nodes"_s, u"-o"_s, u"name"_s});
        const QString node = QString::fromUtf8(nodes.out.split('\n').constFirst()).section(u'/', 1);
        QVERIFY(!node.isEmpty());
        const RunResult ours = cli({u"get"_s, u"pods"_s, u"-A"_s, u"--index"_s, u"node="_s + node, u"-o"_s, u"name"_s});
        const RunResult theirs = kubectl({u"get"_s, u"pods"_s, u"-A"_s, u"--field-selector"_s, u"spec.nodeName="_s + node, u"-o"_s, u"name"_s});
        QVERIFY2(ours.exitCode == 0, qPrintable(ours.err));
        QCOMPARE(theirs.exitCode, 0);
        QVERIFY(!theirs.out.isEmpty());
        QCOMPARE(QString::fromUtf8(ours.out).split(u'\n').size(), QString::fromUtf8(theirs.out).split(u'\n').size());
        QCOMPARE(ours.out, theirs.out);
    }

    void watchPrintsInitialAddsAndDumpsTheCache()
    {
        const QString dump = m_sim.home() + u"/dump.json"_s;
        const RunResult ours = cli({u"watch"_s, u"pods"_s, u"-A"_s, u"--for"_s, u"1s"_s, u"--dump"_s, dump});
        QVERIFY2(ours.exitCode == 0, qPrintable(ours.err));
        const QList<QByteArray> lines = ours.out.trimmed().split('\n');
        QSet<QString> added;
        for (const QByteArray &line : lines) {
            const QJsonObject event = QJsonDocument::fromJson(line).object();
            QCOMPARE(event.value(u"type"_s).toString(), u"add"_s);
            QVERIFY(!event.value(u"resourceVersion"_s).toString().isEmpty());
            added.insert(event.value(u"key"_s).toString());
        }
        QFile file(dump);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString kind;
        const QMap<QString, QJsonObject> dumped = itemsByKey(file.readAll(), &kind);
        QCOMPARE(kind, u"List"_s);
        const RunResult theirs = kubectl({u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"json"_s});
        const QMap<QString, QJsonObject> truth = itemsByKey(theirs.out, &kind);
        QCOMPARE(dumped.keys(), truth.keys());
        QCOMPARE(QSet<QString>(truth.keyBegin(), truth.keyEnd()), added);
        QVERIFY2(ours.err.contains(u"objects %1,"_s.arg(truth.size())), qPrintable(ours.err));
    }

    // Several resources, one informer each over one client: every object of each arrives as an
    // add naming its resource, the dump holds them all, and each gets its summary line.
    void watchSeveralResources()
    {
        const QString dump = m_sim.home() + u"/several.json"_s;
        const RunResult ours = cli({u"watch"_s, u"pods,configmaps"_s, u"-A"_s, u"--for"_s, u"1s"_s, u"--dump"_s, dump});
        QVERIFY2(ours.exitCode == 0, qPrintable(ours.err));
        QMap<QString, QSet<QString>> added;
        for (const QByteArray &line : ours.out.trimmed().split('\n')) {
            const QJsonObject event = QJsonDocument::fromJson(line).object();
            QCOMPARE(event.value(u"type"_s).toString(), u"add"_s);
            added[event.value(u"resource"_s).toString()].insert(event.value(u"key"_s).toString());
        }
        QString kind;
        const QMap<QString, QJsonObject> pods = itemsByKey(kubectl({u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"json"_s}).out, &kind);
        const QMap<QString, QJsonObject> configMaps = itemsByKey(kubectl({u"get"_s, u"configmaps"_s, u"-A"_s, u"-o"_s, u"json"_s}).out, &kind);
        QVERIFY(!pods.isEmpty());
        QVERIFY(!configMaps.isEmpty());
        QCOMPARE(added.keys(), (QStringList{u"configmaps"_s, u"pods"_s}));
        QCOMPARE(added.value(u"pods"_s), QSet<QString>(pods.keyBegin(), pods.keyEnd()));
        QCOMPARE(added.value(u"configmaps"_s), QSet<QString>(configMaps.keyBegin(), configMaps.keyEnd()));
        QFile file(dump);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object().value(u"items"_s).toArray().size(), pods.size() + configMaps.size());
        QVERIFY2(ours.err.contains(u"pods: objects %1,"_s.arg(pods.size())), qPrintable(ours.err));
        QVERIFY2(ours.err.contains(u"configmaps: objects %1,"_s.arg(configMaps.size())), qPrintable(ours.err));
        QVERIFY2(ours.err.contains(u"\nobjects %1,"_s.arg(pods.size() + configMaps.size())), qPrintable(ours.err));
    }

    // A list the server forbids: `get` gives up at once with the server's words, as kubectl does
    // (no retrying until --timeout), and names what it could not list.
    void getFailsAtOnceWhenForbidden()
    {
        const RunResult theirs = kubectl({u"--context"_s, u"sim-restricted"_s, u"get"_s, u"pods"_s});
        QCOMPARE(theirs.exitCode, 1);
        const QString message = u"pods is forbidden: User \"restricted\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""_s;
        QVERIFY2(theirs.err.contains(message), qPrintable(theirs.err));
        // A timeout far beyond what this process is given: only failing at once passes.
        const RunResult ours = run(
            QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"--context"_s, u"sim-restricted"_s, u"get"_s, u"pods"_s, u"--timeout"_s, u"10m"_s}, 60000);
        QCOMPARE(ours.exitCode, 1);
        QVERIFY2(ours.err.contains(u"Forbidden"_s) && ours.err.contains(message), qPrintable(ours.err));
        // What the user may list still works with the same credentials.
        QCOMPARE(cli({u"--context"_s, u"sim-restricted"_s, u"get"_s, u"configmaps"_s, u"-o"_s, u"name"_s}).exitCode, 0);
    }

    // `watch` (like the app) keeps retrying a forbidden list with backoff on the cluster's worker
    // thread, counts every attempt, and says at the end that the cache never synced.
    void watchRetriesWhenForbidden()
    {
        const RunResult ours = cli({u"--context"_s, u"sim-restricted"_s, u"watch"_s, u"pods"_s, u"--for"_s, u"4s"_s});
        QCOMPARE(ours.exitCode, 1);
        QVERIFY2(ours.err.count(u"pods is forbidden"_s) >= 2, qPrintable(ours.err));
        static const QRegularExpression errors(u"watch errors (\\d+)"_s);
        const QRegularExpressionMatch match = errors.match(ours.err);
        QVERIFY2(match.hasMatch() && match.captured(1).toInt() >= 2, qPrintable(ours.err));
        QVERIFY2(ours.err.contains(u"lists 0,"_s), qPrintable(ours.err));
        QVERIFY2(ours.err.contains(u"never synced"_s), qPrintable(ours.err));
    }

    void watchEndsCleanlyOnSigint()
    {
        const QString dump = m_sim.home() + u"/sigint.json"_s;
        QProcess process;
        process.setProcessEnvironment(m_sim.clientEnvironment());
        process.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"watch"_s, u"pods"_s, u"-A"_s, u"--dump"_s, dump});
        QVERIFY(process.waitForStarted());
        // Wait for the initial adds, then interrupt.
        QByteArray output;
        QTRY_VERIFY_WITH_TIMEOUT((output += process.readAllStandardOutput()).count('\n') >= 150, 30000);
        ::kill(pid_t(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFile::exists(dump));
        QVERIFY(QString::fromUtf8(process.readAllStandardError()).contains(u"objects 150,"_s));
    }

    void errorsAreClear_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown resource") << QStringList{u"get"_s, u"nosuchthings"_s} << u"doesn't have a resource type \"nosuchthings\""_s;
        QTest::newRow("unknown index") << QStringList{u"get"_s, u"pods"_s, u"--index"_s, u"bogus=1"_s} << u"no index named \"bogus\""_s;
        QTest::newRow("bad output") << QStringList{u"get"_s, u"pods"_s, u"-o"_s, u"xml"_s} << u"unknown output format \"xml\""_s;
        QTest::newRow("-n with -A") << QStringList{u"get"_s, u"pods"_s, u"-n"_s, u"x"_s, u"-A"_s} << u"-n and -A exclude each other"_s;
        QTest::newRow("bad duration") << QStringList{u"watch"_s, u"pods"_s, u"--for"_s, u"soon"_s} << u"\"soon\" is not a duration"_s;
        QTest::newRow("broken kubeconfig names the file")
            << QStringList{u"--kubeconfig"_s, QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/malformed.yaml"), u"get"_s, u"pods"_s} << u"malformed.yaml"_s;
    }

    void errorsAreClear()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const RunResult ours = cli(arguments);
        QCOMPARE(ours.exitCode, 1);
        QVERIFY2(ours.err.contains(message), qPrintable(ours.err));
    }

    // cachescope-cli logs against kubectl logs on the same running pod: the same bytes where the
    // log is fixed (its start), the same refusals, the same shape where it grows.
    void logsMatchesKubectl_data()
    {
        QTest::addColumn<QStringList>("ours");
        QTest::addColumn<QStringList>("theirs");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("lines"); // -1: compare the outputs byte for byte
        QTest::addColumn<QString>("err"); // what both say on stderr
        QTest::newRow("--limit-bytes prints the same first bytes")
            << QStringList{u"--limit-bytes"_s, u"300"_s} << QStringList{u"--limit-bytes=300"_s} << 0 << -1 << QString();
        QTest::newRow("-c of the one container, cut the same")
            << QStringList{u"-c"_s, u"app"_s, u"--limit-bytes"_s, u"2000"_s} << QStringList{u"-c"_s, u"app"_s, u"--limit-bytes=2000"_s} << 0 << -1 << QString();
        QTest::newRow("--tail with --timestamps") << QStringList{u"--tail"_s, u"3"_s, u"--timestamps"_s} << QStringList{u"--tail=3"_s, u"--timestamps"_s} << 0
                                                  << 3 << QString();
        QTest::newRow("an unknown container is refused by both")
            << QStringList{u"-c"_s, u"nope"_s} << QStringList{u"-c"_s, u"nope"_s} << 1 << 0 << u"container nope is not valid for pod"_s;
        QTest::newRow("--previous of a container that never restarted is refused by both")
            << QStringList{u"--previous"_s} << QStringList{u"--previous"_s} << 1 << 0 << u"previous terminated container \"app\" in pod"_s;
    }
    void logsMatchesKubectl()
    {
        QFETCH(QStringList, ours);
        QFETCH(QStringList, theirs);
        QFETCH(int, exitCode);
        QFETCH(int, lines);
        QFETCH(QString, err);
        const QString pod = runningPod();
        QVERIFY(!pod.isEmpty());
        const RunResult mine = cli(QStringList{u"logs"_s, pod, u"-n"_s, u"shop"_s} + ours);
        const RunResult kubectlResult = kubectl(QStringList{u"logs"_s, pod, u"-n"_s, u"shop"_s} + theirs);
        QVERIFY2(kubectlResult.exitCode == exitCode, qPrintable(kubectlResult.err));
        QVERIFY2(mine.exitCode == exitCode, qPrintable(mine.err));
        if (!err.isEmpty()) {
            QVERIFY2(kubectlResult.err.contains(err), qPrintable(kubectlResult.err));
            QVERIFY2(mine.err.contains(err), qPrintable(mine.err));
        }
        if (lines < 0) {
            QVERIFY(!mine.out.isEmpty());
            QCOMPARE(mine.out, kubectlResult.out);
        } else {
            QCOMPARE(mine.out.count('\n'), lines);
            QCOMPARE(kubectlResult.out.count('\n'), lines);
        }
        if (ours.contains(u"--timestamps"_s)) {
            static const QRegularExpression timestamp(u"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z "_s);
            for (const QString &line : QString::fromUtf8(mine.out).split(u'\n', Qt::SkipEmptyParts))
                QVERIFY2(timestamp.match(line).hasMatch(), qPrintable(line));
        }
    }

    // logs -f prints new lines as they come and ends cleanly on SIGTERM.
    void logsFollowUntilTerminated()
    {
        const QString pod = runningPod();
        QProcess follow;
        follow.setProcessEnvironment(m_sim.clientEnvironment());
        follow.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), {u"logs"_s, pod, u"-n"_s, u"shop"_s, u"-f"_s, u"--tail"_s, u"1"_s});
        QVERIFY(follow.waitForStarted());
        QByteArray output;
        const QDeadlineTimer deadline(30000);
        while (output.count('\n') < 3 && !deadline.hasExpired() && follow.state() == QProcess::Running) {
            follow.waitForReadyRead(200);
            output += follow.readAllStandardOutput();
        }
        QVERIFY2(output.count('\n') >= 3, output.constData());
        QCOMPARE(follow.state(), QProcess::Running);
        ::kill(pid_t(follow.processId()), SIGTERM);
        QVERIFY(follow.waitForFinished(10000));
        QCOMPARE(follow.exitStatus(), QProcess::NormalExit);
        QCOMPARE(follow.exitCode(), 0);
    }

    void cleanupTestCase() { QCOMPARE(m_sim.stop(), 0); }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestCliGetWatch)
#include "tst_cligetwatch.moc"
