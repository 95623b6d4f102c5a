// `cachescope-cli tree` and `events`: the printing, row by row against what kubectl-tree and
// kubectl events print, then both commands end to end against the cachescope-sim binary.
#include "core/cli/eventscommand.h"
#include "core/cli/treecommand.h"

#include "simprocess.h"
#include "testmain.h"
#include "testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <QTextStream>

using namespace Cachescope;

namespace {

const QDateTime Now = QDateTime(QDate(2026, 1, 10), QTime(12, 0), Qt::UTC);

ObjectRef found(const QString &kind, const QString &ns, const QString &name, const QString &status = {})
{
    QJsonObject metadata{{u"name"_s, name}, {u"uid"_s, QString(name + u"-uid"_s)}, {u"creationTimestamp"_s, u"2026-01-07T12:00:00Z"_s}};
    if (!ns.isEmpty()) {
        metadata.insert(u"namespace"_s, ns);
    }
    QJsonObject object{{u"metadata"_s, metadata}};
    if (!status.isEmpty()) {
        const QJsonObject ready{{u"type"_s, u"Ready"_s}, {u"status"_s, status}, {u"reason"_s, status == u"True"_s ? QString() : u"ContainersNotReady"_s}};
        object.insert(u"status"_s, QJsonObject{{u"conditions"_s, QJsonArray{ready}}});
    }
    return ObjectRef::of(*KubeObject::fromJson(QJsonDocument(object).toJson(QJsonDocument::Compact)), kind, u"v1"_s);
}

RelationNode
node(const ObjectRef &object, QList<RelationNode> children = {}, RelationEdge::Source source = RelationEdge::Source::OwnerReference, const QString &detail = {})
{
    RelationNode made;
    made.object = object;
    made.children = std::move(children);
    made.source = source;
    made.detail = detail;
    return made;
}

struct RunResult
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestCliRelations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void printsTree_data();
    void printsTree();
    void printsEvents_data();
    void printsEvents();
    void initTestCase();
    void cleanupTestCase();
    void againstTheSimulator_data();
    void againstTheSimulator();

private:
    RunResult cli(const QStringList &arguments);
    QString firstName(const QString &resource);

    SimProcess m_sim;
};

void TestCliRelations::printsTree_data()
{
    QTest::addColumn<RelationNode>("tree");
    QTest::addColumn<QStringList>("lines");

    QTest::newRow("one object alone") << node(found(u"ConfigMap"_s, u"shop"_s, u"settings"_s))
                                      << QStringList{u"NAMESPACE   NAME                 READY   REASON   AGE"_s,
                                                     u"shop        ConfigMap/settings   -                3d"_s};

    RelationNode pod = node(found(u"Pod"_s, u"shop"_s, u"web-1"_s, u"True"_s),
                            {node(found(u"Node"_s, QString(), u"node-1"_s, u"True"_s), {}, RelationEdge::Source::NodeName, u"nodeName"_s),
                             node(found(u"ConfigMap"_s, u"shop"_s, u"web-config"_s), {}, RelationEdge::Source::Volume, u"volume config"_s)});
    pod.focus = true;
    QTest::newRow("a deployment down to its pods, kubectl-tree's branches, implicit edges marked")
        << node(found(u"Deployment"_s, u"shop"_s, u"web"_s),
                {node(found(u"ReplicaSet"_s, u"shop"_s, u"web-5d"_s), {pod, node(found(u"Pod"_s, u"shop"_s, u"web-2"_s, u"False"_s))})})
        << QStringList{u"NAMESPACE   NAME                                                 READY   REASON               AGE"_s,
                       u"shop        Deployment/web                                       -                            3d"_s,
                       u"shop        └─ReplicaSet/web-5d                                  -                            3d"_s,
                       u"shop          ├─Pod/web-1                                        True                         3d"_s,
                       u"              │ ├─Node/node-1 [nodeName: nodeName]               True                         3d"_s,
                       u"shop          │ └─ConfigMap/web-config [volume: volume config]   -                            3d"_s,
                       u"shop          └─Pod/web-2                                        False   ContainersNotReady   3d"_s};

    ObjectRef ghost;
    ghost.kind = u"ReplicaSet"_s;
    ghost.namespaceName = u"shop"_s;
    ghost.name = u"ghost"_s;
    ghost.resolution = ObjectRef::Resolution::Dangling;
    ObjectRef unknown = ghost;
    unknown.kind = u"Widget"_s;
    unknown.name = u"w"_s;
    unknown.resolution = ObjectRef::Resolution::Unresolved;
    QTest::newRow("a dangling owner and an unresolved reference")
        << node(ghost, {node(found(u"Pod"_s, u"shop"_s, u"orphan"_s, u"True"_s), {node(unknown, {}, RelationEdge::Source::ScaleTarget, QString())})})
        << QStringList{u"NAMESPACE   NAME                         READY   REASON     AGE"_s,
                       u"shop        ReplicaSet/ghost             -       Dangling"_s,
                       u"shop        └─Pod/orphan                 True               3d"_s,
                       u"shop          └─Widget/w [scaleTarget]   -       Unknown"_s};
}

void TestCliRelations::printsTree()
{
    QFETCH(RelationNode, tree);
    QFETCH(QStringList, lines);
    QString text;
    QTextStream out(&text);
    TreeCommand::printTree(tree, Now, out);
    out.flush();
    QCOMPARE(text, lines.join(u'\n') + u'\n');
}

void TestCliRelations::printsEvents_data()
{
    QTest::addColumn<QList<EventRecord>>("events");
    QTest::addColumn<QStringList>("lines");

    const auto event = [](const QString &type, const QString &reason, const QString &message, int count, int firstMinutesAgo, int lastMinutesAgo) {
        EventRecord record;
        record.type = type;
        record.reason = reason;
        record.message = message;
        record.count = count;
        record.firstSeen = Now.addSecs(-60 * firstMinutesAgo);
        record.lastSeen = Now.addSecs(-60 * lastMinutesAgo);
        record.objectKind = u"Pod"_s;
        record.objectNamespace = u"shop"_s;
        record.objectName = u"web-1"_s;
        return record;
    };
    // ObjectEvents gives them newest first; kubectl events prints the oldest first.
    QTest::newRow("oldest first, repeated events with their count and span")
        << QList<EventRecord>{event(u"Warning"_s, u"BackOff"_s, u"Back-off restarting failed container app\n"_s, 5, 42, 2),
                              event(u"Normal"_s, u"Started"_s, u"Started container app"_s, 1, 50, 50),
                              event(u"Normal"_s, u"Scheduled"_s, u"Successfully assigned shop/web-1 to node-1"_s, 1, 51, 51)}
        << QStringList{u"LAST SEEN          TYPE      REASON      OBJECT      MESSAGE"_s,
                       u"51m                Normal    Scheduled   pod/web-1   Successfully assigned shop/web-1 to node-1"_s,
                       u"50m                Normal    Started     pod/web-1   Started container app"_s,
                       u"2m (x5 over 42m)   Warning   BackOff     pod/web-1   Back-off restarting failed container app"_s};
    EventRecord undated = event(u"Normal"_s, u"Pulled"_s, u"done"_s, 1, 0, 0);
    undated.lastSeen = QDateTime();
    QTest::newRow("an event without any time") << QList<EventRecord>{undated}
                                               << QStringList{u"LAST SEEN   TYPE     REASON   OBJECT      MESSAGE"_s,
                                                              u"<unknown>   Normal   Pulled   pod/web-1   done"_s};
}

void TestCliRelations::printsEvents()
{
    QFETCH(QList<EventRecord>, events);
    QFETCH(QStringList, lines);
    QString text;
    QTextStream out(&text);
    EventsCommand::printEvents(events, Now, out);
    out.flush();
    QCOMPARE(text, lines.join(u'\n') + u'\n');
}

void TestCliRelations::initTestCase()
{
    QString error;
    QVERIFY2(m_sim.start({u"--pods"_s, u"12"_s, u"--namespaces"_s, u"2"_s, u"--churn"_s, u"0"_s, u"--seed"_s, u"15"_s}, &error), qPrintable(error));
}

void TestCliRelations::cleanupTestCase()
{
    QCOMPARE(m_sim.stop(), 0);
}

RunResult TestCliRelations::cli(const QStringList &arguments)
{
    QProcess process;
    process.setProcessEnvironment(m_sim.clientEnvironment());
    process.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), QStringList{u"--kubeconfig"_s, m_sim.kubeconfig()} + arguments);
    RunResult result;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString TestCliRelations::firstName(const QString &resource)
{
    const RunResult names = cli({u"get"_s, resource, u"-n"_s, u"shop"_s, u"-o"_s, u"name"_s});
    const QString first = names.out.section(u'\n', 0, 0);
    return first.section(u'/', 1);
}

void TestCliRelations::againstTheSimulator_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("kind"); // the resource whose first object in "shop" the command is about
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("patterns"); // each must match a line of stdout, in order
    QTest::addColumn<QString>("stderrText");

    QTest::newRow("tree of a deployment: its ReplicaSet, then its pods") << u"tree"_s << u"deploy"_s << QStringList{} << 0
                                                                         << QStringList{u"^NAMESPACE +NAME +READY +REASON +AGE$"_s,
                                                                                        u"^shop +Deployment/\\S+ +- +\\S+$"_s,
                                                                                        u"^shop +└─ReplicaSet/\\S+ +- +\\S+$"_s,
                                                                                        u"^shop +  [├└]─Pod/\\S+ +(True|False) +"_s}
                                                                         << QString();
    QTest::newRow("tree of a pod: up to its deployment, its node, service account, root CA and service")
        << u"tree"_s << u"po"_s << QStringList{} << 0
        << QStringList{u"^NAMESPACE +NAME"_s,
                       u"^shop +Deployment/"_s,
                       u"^shop +└─ReplicaSet/"_s,
                       u"^shop +  └─Pod/"_s,
                       u"^shop +    ├─ConfigMap/kube-root-ca.crt \\[volume: projected volume kube-api-access\\]"_s,
                       u"^shop +    ├─ServiceAccount/default \\[serviceAccount: serviceAccountName\\]"_s,
                       u"^ +    ├─Node/\\S+ \\[nodeName: nodeName\\] +(True|False)"_s,
                       u"^shop +    └─Service/\\S+ \\[selector: selects app=\\S+\\]"_s}
        << QString();
    QTest::newRow("events of a pod, as kubectl events --for") << u"events"_s << u"pod"_s << QStringList{} << 0
                                                              << QStringList{u"^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$"_s,
                                                                             u"^\\S+ +Normal +Scheduled +pod/\\S+ +Successfully assigned shop/"_s,
                                                                             u"^\\S+ +Normal +Started +pod/\\S+ +Started container app$"_s}
                                                              << QString();
    QTest::newRow("an object that does not exist") << u"tree"_s << QString() << QStringList{u"deploy/nope"_s} << 1 << QStringList{}
                                                   << u"error: deployments.apps \"nope\" not found"_s;
    QTest::newRow("events of an object that does not exist")
        << u"events"_s << QString() << QStringList{u"pod/nope"_s} << 1 << QStringList{} << u"error: pods \"nope\" not found"_s;
    QTest::newRow("a kind without a name") << u"tree"_s << QString() << QStringList{u"deploy"_s} << 1 << QStringList{}
                                           << u"error: expected KIND/NAME (e.g. deploy/web, pod/web-1), got \"deploy\""_s;
    QTest::newRow("-A does not apply to one object") << u"events"_s << QString() << QStringList{u"pod/x"_s, u"-A"_s} << 1 << QStringList{}
                                                     << u"error: KIND/NAME names one object"_s;
}

void TestCliRelations::againstTheSimulator()
{
    QFETCH(QString, command);
    QFETCH(QString, kind);
    QFETCH(QStringList, extra);
    QFETCH(int, exitCode);
    QFETCH(QStringList, patterns);
    QFETCH(QString, stderrText);

    QStringList arguments{command};
    if (!kind.isEmpty()) {
        const QString name = firstName(kind);
        QVERIFY(!name.isEmpty());
        arguments.append(kind + u'/' + name);
    }
    arguments += extra;
    arguments += QStringList{u"-n"_s, u"shop"_s};
    if (arguments.contains(u"-A"_s)) {
        arguments.removeLast();
        arguments.removeLast();
    }
    const RunResult result = cli(arguments);
    QVERIFY2(result.exitCode == exitCode, qPrintable(u"exit code %1, stderr: %2"_s.arg(result.exitCode).arg(result.err)));
    const QStringList lines = result.out.split(u'\n');
    qsizetype from = 0;
    for (const QString &pattern : patterns) {
        const QRegularExpression expression(pattern);
        while (from < lines.size() && !expression.match(lines.at(from)).hasMatch()) {
            ++from;
        }
        QVERIFY2(from < lines.size(), qPrintable(u"no line matches \"%1\" (in order) in:\n%2"_s.arg(pattern, result.out)));
        ++from;
    }
    if (patterns.isEmpty()) {
        QVERIFY2(result.out.isEmpty(), qPrintable(result.out));
    }
    QVERIFY2(stderrText.isEmpty() ? result.err.isEmpty() : result.err.startsWith(stderrText), qPrintable(result.err));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestCliRelations)
#include "tst_clirelations.moc"
