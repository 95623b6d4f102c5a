// ResourceColumns: kubectl's reading of pods (ready, status reason, restarts) from hand-made
// objects, the columns of other kinds, CRD printer columns with the JSONPath subset, and ages.
#include "core/cache/kubeobject.h"
#include "core/printers/podsummary.h"
#include "core/printers/resourcecolumns.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

QJsonObject parse(const QString &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) {
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    }
    return document.object();
}

KubeObject object(const QJsonObject &json)
{
    QString error;
    const auto decoded = KubeObject::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact), KubeObject::Transform::None, &error);
    if (!decoded) {
        qFatal("bad test object: %s", qPrintable(error));
    }
    return *decoded;
}

// The display texts of every column of an object, by column title.
QHash<QString, QString> row(const ResourceColumns &columns, const KubeObject &object, const QDateTime &now)
{
    QHash<QString, QString> cells;
    const QList<QVariant> values = columns.values(object);
    for (qsizetype i = 0; i < columns.count(); ++i) {
        cells.insert(columns.column(i).title, columns.displayText(i, values.at(i), now));
    }
    return cells;
}

QStringList titles(const ResourceColumns &columns)
{
    QStringList out;
    for (const ResourceColumns::Column &column : columns.columns()) {
        out.append(column.title);
    }
    return out;
}

} // namespace

class TestResourceColumns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void podSummary_data();
    void podSummary();
    void podRowShowsKubectlCells();
    void columnsPerKind_data();
    void columnsPerKind();
    void kindCells_data();
    void kindCells();
    void printerColumns();
    void jsonPath_data();
    void jsonPath();
    void sortValuesAreTyped();
    void labelColumns();
};

void TestResourceColumns::podSummary_data()
{
    QTest::addColumn<QString>("pod");
    QTest::addColumn<int>("ready");
    QTest::addColumn<int>("total");
    QTest::addColumn<QString>("status");
    QTest::addColumn<int>("restarts");

    QTest::newRow("running and ready")
        << uR"({"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":0,"state":{"running":{}}}]}})"_s
        << 1 << 1 << u"Running"_s << 0;
    QTest::newRow("crash loop: the waiting reason wins over the phase")
        << uR"({"spec":{"containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":1,"state":{"running":{}}},{"ready":false,"restartCount":7,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"_s
        << 1 << 2 << u"CrashLoopBackOff"_s << 8;
    QTest::newRow("the first container's reason wins (walked from the last)")
        << uR"({"spec":{"containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Pending","containerStatuses":[{"ready":false,"restartCount":0,"state":{"waiting":{"reason":"ImagePullBackOff"}}},{"ready":false,"restartCount":0,"state":{"waiting":{"reason":"ContainerCreating"}}}]}})"_s
        << 0 << 2 << u"ImagePullBackOff"_s << 0;
    QTest::newRow("terminated with a reason")
        << uR"({"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed","containerStatuses":[{"ready":false,"restartCount":2,"state":{"terminated":{"reason":"OOMKilled","exitCode":137}}}]}})"_s
        << 0 << 1 << u"OOMKilled"_s << 2;
    QTest::newRow("terminated without a reason shows the exit code")
        << uR"({"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed","containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"exitCode":3}}}]}})"_s
        << 0 << 1 << u"ExitCode:3"_s << 0;
    QTest::newRow("terminated by a signal")
        << uR"({"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed","containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"exitCode":0,"signal":9}}}]}})"_s
        << 0 << 1 << u"Signal:9"_s << 0;
    QTest::newRow("deleted: Terminating")
        << uR"({"metadata":{"deletionTimestamp":"2024-01-01T00:00:00Z"},"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":0,"state":{"running":{}}}]}})"_s
        << 1 << 1 << u"Terminating"_s << 0;
    QTest::newRow("a finished pod being deleted keeps its reason")
        << uR"({"metadata":{"deletionTimestamp":"2024-01-01T00:00:00Z"},"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Succeeded","containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"reason":"Completed","exitCode":0}}}]}})"_s
        << 0 << 1 << u"Completed"_s << 0;
    QTest::newRow("failed with the container's reason: Error, not the phase")
        << uR"({"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed","containerStatuses":[{"ready":false,"restartCount":2,"state":{"terminated":{"reason":"Error","exitCode":1}}}]}})"_s
        << 0 << 1 << u"Error"_s << 2;
    QTest::newRow("once initialised, init containers' restarts no longer count")
        << uR"({"spec":{"initContainers":[{"name":"i1"}],"containers":[{"name":"a"}]},"status":{"phase":"Running","initContainerStatuses":[{"restartCount":3,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}],"containerStatuses":[{"ready":true,"restartCount":1,"state":{"running":{}}}]}})"_s
        << 1 << 1 << u"Running"_s << 1;
    QTest::newRow("deleted on a lost node: Unknown")
        << uR"({"metadata":{"deletionTimestamp":"2024-01-01T00:00:00Z"},"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running","reason":"NodeLost"}})"_s
        << 0 << 1 << u"Unknown"_s << 0;
    QTest::newRow("the pod's reason replaces the phase")
        << uR"({"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Failed","reason":"Evicted"}})"_s << 0 << 1 << u"Evicted"_s << 0;
    QTest::newRow("init container still running: Init:i/n")
        << uR"({"spec":{"initContainers":[{"name":"i1"},{"name":"i2"}],"containers":[{"name":"a"}]},"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":0,"state":{"terminated":{"exitCode":0}}},{"restartCount":1,"state":{"running":{}}}],"containerStatuses":[{"ready":false,"restartCount":0,"state":{"waiting":{"reason":"PodInitializing"}}}]}})"_s
        << 0 << 1 << u"Init:1/2"_s << 1;
    QTest::newRow("init container crash looping: Init:reason")
        << uR"({"spec":{"initContainers":[{"name":"i1"}],"containers":[{"name":"a"}]},"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":4,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"_s
        << 0 << 1 << u"Init:CrashLoopBackOff"_s << 4;
    QTest::newRow("init container failed: Init:ExitCode")
        << uR"({"spec":{"initContainers":[{"name":"i1"}],"containers":[{"name":"a"}]},"status":{"phase":"Pending","initContainerStatuses":[{"restartCount":0,"state":{"terminated":{"exitCode":2}}}]}})"_s
        << 0 << 1 << u"Init:ExitCode:2"_s << 0;
    QTest::newRow("completed container next to a running one: Running when ready")
        << uR"({"spec":{"containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"reason":"Completed","exitCode":0}}},{"ready":true,"restartCount":0,"state":{"running":{}}}]}})"_s
        << 1 << 2 << u"Running"_s << 0;
    QTest::newRow("completed container next to a running one: NotReady otherwise")
        << uR"({"spec":{"containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"False"}],"containerStatuses":[{"ready":false,"restartCount":0,"state":{"terminated":{"reason":"Completed","exitCode":0}}},{"ready":true,"restartCount":0,"state":{"running":{}}}]}})"_s
        << 1 << 2 << u"NotReady"_s << 0;
}

void TestResourceColumns::podSummary()
{
    QFETCH(QString, pod);
    QFETCH(int, ready);
    QFETCH(int, total);
    QFETCH(QString, status);
    QFETCH(int, restarts);

    const PodSummary summary = PodSummary::fromJson(parse(pod));
    QCOMPARE(summary.readyContainers, ready);
    QCOMPARE(summary.totalContainers, total);
    QCOMPARE(summary.status, status);
    QCOMPARE(summary.restarts, restarts);
}

void TestResourceColumns::podRowShowsKubectlCells()
{
    const ResourceColumns columns = ResourceColumns::forKind(u"Pod"_s, true);
    QCOMPARE(titles(columns), (QStringList{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Status"_s, u"Restarts"_s, u"IP"_s, u"Node"_s, u"Age"_s}));
    // IP and Node are kubectl's `-o wide` columns.
    QList<int> priorities;
    for (const ResourceColumns::Column &column : columns.columns()) {
        priorities.append(column.priority);
    }
    QCOMPARE(priorities, (QList<int>{0, 0, 0, 0, 0, 1, 1, 0}));
    const QDateTime now = QDateTime::fromString(u"2024-05-01T12:00:00Z"_s, Qt::ISODate);
    const KubeObject pod = object(parse(
        uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop","creationTimestamp":"2024-05-01T11:56:30Z"},"spec":{"nodeName":"node-2","containers":[{"name":"a"},{"name":"b"}]},"status":{"phase":"Running","podIP":"10.1.2.3","containerStatuses":[{"ready":true,"restartCount":3,"state":{"running":{}}},{"ready":true,"restartCount":1,"state":{"running":{}}}]}})"_s));
    const QHash<QString, QString> cells = row(columns, pod, now);
    QCOMPARE(cells.value(u"IP"_s), u"10.1.2.3"_s);
    QCOMPARE(cells.value(u"Name"_s), u"web-1"_s);
    QCOMPARE(cells.value(u"Namespace"_s), u"shop"_s);
    QCOMPARE(cells.value(u"Ready"_s), u"2/2"_s);
    QCOMPARE(cells.value(u"Status"_s), u"Running"_s);
    QCOMPARE(cells.value(u"Restarts"_s), u"4"_s);
    QCOMPARE(cells.value(u"Node"_s), u"node-2"_s);
    QCOMPARE(cells.value(u"Age"_s), u"3m30s"_s);
    // Unscheduled: kubectl's <none>.
    const KubeObject pending =
        object(parse(uR"({"metadata":{"name":"p","namespace":"shop"},"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Pending"}})"_s));
    QCOMPARE(row(columns, pending, now).value(u"Node"_s), u"<none>"_s);
    QCOMPARE(row(columns, pending, now).value(u"IP"_s), u"<none>"_s);
    QCOMPARE(row(columns, pending, now).value(u"Ready"_s), u"0/1"_s);
}

void TestResourceColumns::columnsPerKind_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("namespaced");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("deployments") << u"Deployment"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Up-to-date"_s, u"Available"_s, u"Age"_s};
    QTest::newRow("replicasets") << u"ReplicaSet"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Desired"_s, u"Current"_s, u"Ready"_s, u"Age"_s};
    QTest::newRow("statefulsets") << u"StatefulSet"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Ready"_s, u"Age"_s};
    QTest::newRow("daemonsets")
        << u"DaemonSet"_s << true
        << QStringList{u"Name"_s, u"Namespace"_s, u"Desired"_s, u"Current"_s, u"Ready"_s, u"Up-to-date"_s, u"Available"_s, u"Node Selector"_s, u"Age"_s};
    QTest::newRow("services") << u"Service"_s << true
                              << QStringList{u"Name"_s, u"Namespace"_s, u"Type"_s, u"Cluster-IP"_s, u"External-IP"_s, u"Port(s)"_s, u"Age"_s};
    QTest::newRow("nodes, cluster-scoped") << u"Node"_s << false << QStringList{u"Name"_s, u"Status"_s, u"Roles"_s, u"Age"_s, u"Version"_s};
    QTest::newRow("namespaces") << u"Namespace"_s << false << QStringList{u"Name"_s, u"Status"_s, u"Age"_s};
    QTest::newRow("configmaps") << u"ConfigMap"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Data"_s, u"Age"_s};
    QTest::newRow("secrets") << u"Secret"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Type"_s, u"Data"_s, u"Age"_s};
    QTest::newRow("events") << u"Event"_s << true << QStringList{u"Last Seen"_s, u"Name"_s, u"Namespace"_s, u"Type"_s, u"Reason"_s, u"Object"_s, u"Message"_s};
    QTest::newRow("jobs") << u"Job"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Status"_s, u"Completions"_s, u"Duration"_s, u"Age"_s};
    QTest::newRow("any other kind: name, namespace, age") << u"Lease"_s << true << QStringList{u"Name"_s, u"Namespace"_s, u"Age"_s};
    QTest::newRow("any other cluster-scoped kind") << u"ClusterRole"_s << false << QStringList{u"Name"_s, u"Age"_s};
}

void TestResourceColumns::columnsPerKind()
{
    QFETCH(QString, kind);
    QFETCH(bool, namespaced);
    QFETCH(QStringList, expected);
    QCOMPARE(titles(ResourceColumns::forKind(kind, namespaced)), expected);
}

void TestResourceColumns::kindCells_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("column");
    QTest::addColumn<QString>("expected");

    QTest::newRow("deployment ready") << u"Deployment"_s << uR"({"spec":{"replicas":3},"status":{"readyReplicas":2,"updatedReplicas":3}})"_s << u"Ready"_s
                                      << u"2/3"_s;
    QTest::newRow("deployment available missing is 0") << u"Deployment"_s << uR"({"spec":{"replicas":3},"status":{}})"_s << u"Available"_s << u"0"_s;
    QTest::newRow("service ports with a node port")
        << u"Service"_s << uR"({"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080,"protocol":"TCP"},{"port":53,"protocol":"UDP"}]}})"_s
        << u"Port(s)"_s << u"80:30080/TCP,53/UDP"_s;
    QTest::newRow("load balancer without ingress is pending")
        << u"Service"_s << uR"({"spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1"}})"_s << u"External-IP"_s << u"<pending>"_s;
    QTest::newRow("cluster ip service has no external ip")
        << u"Service"_s << uR"({"spec":{"type":"ClusterIP","clusterIP":"10.0.0.1"}})"_s << u"External-IP"_s << u"<none>"_s;
    QTest::newRow("node ready and cordoned") << u"Node"_s << uR"({"spec":{"unschedulable":true},"status":{"conditions":[{"type":"Ready","status":"True"}]}})"_s
                                             << u"Status"_s << u"Ready,SchedulingDisabled"_s;
    QTest::newRow("node not ready") << u"Node"_s << uR"({"status":{"conditions":[{"type":"Ready","status":"False"}]}})"_s << u"Status"_s << u"NotReady"_s;
    QTest::newRow("node roles from labels")
        << u"Node"_s << uR"({"metadata":{"labels":{"node-role.kubernetes.io/worker":"","node-role.kubernetes.io/control-plane":"","x":"y"}}})"_s << u"Roles"_s
        << u"control-plane,worker"_s;
    QTest::newRow("node without roles") << u"Node"_s << uR"({"metadata":{"labels":{"x":"y"}}})"_s << u"Roles"_s << u"<none>"_s;
    QTest::newRow("node version") << u"Node"_s << uR"({"status":{"nodeInfo":{"kubeletVersion":"v1.30.2"}}})"_s << u"Version"_s << u"v1.30.2"_s;
    QTest::newRow("configmap data counts binaryData too")
        << u"ConfigMap"_s << uR"({"data":{"a":"1","b":"2"},"binaryData":{"c":"AA=="}})"_s << u"Data"_s << u"3"_s;
    QTest::newRow("secret type") << u"Secret"_s << uR"({"type":"kubernetes.io/tls","data":{"tls.crt":"","tls.key":""}})"_s << u"Type"_s
                                 << u"kubernetes.io/tls"_s;
    QTest::newRow("event object") << u"Event"_s << uR"({"involvedObject":{"kind":"Pod","name":"web-1"},"reason":"BackOff"})"_s << u"Object"_s << u"pod/web-1"_s;
    QTest::newRow("job completions") << u"Job"_s << uR"({"spec":{"completions":5},"status":{"succeeded":2}})"_s << u"Completions"_s << u"2/5"_s;
    QTest::newRow("job complete") << u"Job"_s << uR"({"status":{"conditions":[{"type":"Complete","status":"True"}]}})"_s << u"Status"_s << u"Complete"_s;
    QTest::newRow("job duration") << u"Job"_s << uR"({"status":{"startTime":"2024-01-01T00:00:00Z","completionTime":"2024-01-01T00:01:30Z"}})"_s
                                  << u"Duration"_s << u"90s"_s;
    QTest::newRow("daemonset node selector") << u"DaemonSet"_s
                                             << uR"({"spec":{"template":{"spec":{"nodeSelector":{"zone":"b","kubernetes.io/os":"linux"}}}}})"_s
                                             << u"Node Selector"_s << u"kubernetes.io/os=linux,zone=b"_s;
    QTest::newRow("daemonset without node selector") << u"DaemonSet"_s << uR"({"spec":{"template":{"spec":{}}}})"_s << u"Node Selector"_s << u"<none>"_s;
    QTest::newRow("namespace status") << u"Namespace"_s << uR"({"status":{"phase":"Active"}})"_s << u"Status"_s << u"Active"_s;
}

void TestResourceColumns::kindCells()
{
    QFETCH(QString, kind);
    QFETCH(QString, json);
    QFETCH(QString, column);
    QFETCH(QString, expected);

    QJsonObject document = parse(json);
    QJsonObject metadata = document.value(u"metadata").toObject();
    metadata.insert(u"name"_s, u"x"_s);
    document.insert(u"metadata"_s, metadata);
    const ResourceColumns columns = ResourceColumns::forKind(kind, true);
    QCOMPARE(row(columns, object(document), QDateTime::currentDateTimeUtc()).value(column), expected);
}

void TestResourceColumns::printerColumns()
{
    const QJsonObject crd = parse(uR"({"spec":{"versions":[
        {"name":"v1alpha1","additionalPrinterColumns":[{"name":"Old","type":"string","jsonPath":".spec.old"}]},
        {"name":"v1","additionalPrinterColumns":[
            {"name":"Size","type":"integer","jsonPath":".spec.size"},
            {"name":"Color","type":"string","jsonPath":".spec.colors[1]","description":"the second colour"},
            {"name":"Ready","type":"boolean","jsonPath":".status.ready"},
            {"name":"Zone","type":"string","jsonPath":".metadata.labels['topology.kubernetes.io/zone']","priority":1},
            {"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}]}]}})"_s);
    const QList<ResourceColumns::PrinterColumn> printer = ResourceColumns::printerColumnsOf(crd, u"v1"_s);
    QCOMPARE(printer.size(), 5);
    QCOMPARE(printer.at(1).description, u"the second colour"_s);
    const ResourceColumns columns = ResourceColumns::forKind(u"Widget"_s, true, printer);
    QCOMPARE(titles(columns), (QStringList{u"Name"_s, u"Namespace"_s, u"Size"_s, u"Color"_s, u"Ready"_s, u"Zone"_s, u"Age"_s}));
    // A printer column's priority carries over: Zone is for `-o wide`.
    QCOMPARE(columns.column(5).priority, 1);
    QCOMPARE(columns.column(2).priority, 0);

    const QDateTime now = QDateTime::fromString(u"2024-05-03T00:00:00Z"_s, Qt::ISODate);
    const KubeObject widget = object(parse(
        uR"({"metadata":{"name":"w","namespace":"n","creationTimestamp":"2024-05-01T00:00:00Z","labels":{"topology.kubernetes.io/zone":"eu-1"}},"spec":{"size":12,"colors":["red","blue"]},"status":{"ready":true}})"_s));
    const QHash<QString, QString> cells = row(columns, widget, now);
    QCOMPARE(cells.value(u"Size"_s), u"12"_s);
    QCOMPARE(cells.value(u"Color"_s), u"blue"_s);
    QCOMPARE(cells.value(u"Ready"_s), u"true"_s);
    QCOMPARE(cells.value(u"Zone"_s), u"eu-1"_s);
    QCOMPARE(cells.value(u"Age"_s), u"2d"_s); // 48 hours and more count in days
    // Integer columns sort as numbers.
    QCOMPARE(columns.values(widget).at(2).typeId(), QMetaType::LongLong);
}

void TestResourceColumns::jsonPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("expected"); // compact JSON of the value, or empty when undefined

    QTest::newRow("nested keys") << u".spec.template.name"_s << true << u"\"tpl\""_s;
    QTest::newRow("array index then key") << u".spec.items[1].id"_s << true << u"2"_s;
    QTest::newRow("quoted key with dots") << u".metadata.annotations['a.b/c']"_s << true << u"\"x\""_s;
    QTest::newRow("braces and dollar") << u"{$.spec.items[0].id}"_s << true << u"1"_s;
    QTest::newRow("index out of range is undefined") << u".spec.items[5].id"_s << true << QString();
    QTest::newRow("missing key is undefined") << u".spec.nothing"_s << true << QString();
    QTest::newRow("filters are not supported") << u".status.conditions[?(@.type==\"Ready\")].status"_s << false << QString();
    QTest::newRow("wildcards are not supported") << u".spec.items[*].id"_s << false << QString();
    QTest::newRow("unclosed bracket") << u".spec.items[0"_s << false << QString();
}

void TestResourceColumns::jsonPath()
{
    QFETCH(QString, path);
    QFETCH(bool, valid);
    QFETCH(QString, expected);

    const QJsonObject root = parse(uR"({"metadata":{"annotations":{"a.b/c":"x"}},"spec":{"template":{"name":"tpl"},"items":[{"id":1},{"id":2}]}})"_s);
    QString error;
    const auto steps = parseJsonPath(path, &error);
    QCOMPARE(steps.has_value(), valid);
    if (!valid) {
        QVERIFY(!error.isEmpty());
        return;
    }
    const QJsonValue value = evaluateJsonPath(root, *steps);
    if (expected.isEmpty()) {
        QVERIFY(value.isUndefined());
        return;
    }
    QCOMPARE(QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)), u'[' + expected + u']');
}

void TestResourceColumns::sortValuesAreTyped()
{
    const ResourceColumns columns = ResourceColumns::forKind(u"Pod"_s, true);
    const auto pod = [](int restarts, const QString &created) {
        return object(parse(
            uR"({"metadata":{"name":"p","namespace":"n","creationTimestamp":"%2"},"spec":{"containers":[{"name":"a"}]},"status":{"containerStatuses":[{"ready":true,"restartCount":%1,"state":{"running":{}}}]}})"_s
                .arg(restarts)
                .arg(created)));
    };
    const qsizetype restarts = columns.indexOf(ResourceColumns::Field::PodRestarts);
    const qsizetype age = columns.indexOf(ResourceColumns::Field::Age);
    const QList<QVariant> nine = columns.values(pod(9, u"2024-01-01T00:00:00Z"_s));
    const QList<QVariant> ten = columns.values(pod(10, u"2024-01-02T00:00:00Z"_s));
    // 9 < 10 as numbers (as text "10" < "9").
    QVERIFY(nine.at(restarts).toLongLong() < ten.at(restarts).toLongLong());
    QCOMPARE(nine.at(restarts).typeId(), QMetaType::LongLong);
    // The younger object has the smaller age value.
    QVERIFY(ten.at(age).toLongLong() < nine.at(age).toLongLong());
}

// kubectl's -L: a column per key, titled with the key (kubectl's header: its last segment, in
// upper case), empty where the object has no such label; a key is not added twice.
void TestResourceColumns::labelColumns()
{
    ResourceColumns columns = ResourceColumns::forKind(u"ConfigMap"_s, true);
    const qsizetype before = columns.count();
    columns.addLabelColumns({u"app"_s, u"app.kubernetes.io/name"_s, u"app"_s, QString()});
    QCOMPARE(columns.count(), before + 2);
    QCOMPARE(columns.column(before).title, u"app"_s);
    QCOMPARE(columns.column(before + 1).labelKey, u"app.kubernetes.io/name"_s);
    QVERIFY(!columns.needsDocument(before));
    QCOMPARE(ResourceColumns::labelHeader(u"app.kubernetes.io/name"_s), u"NAME"_s);
    QCOMPARE(ResourceColumns::labelHeader(u"tier"_s), u"TIER"_s);
    const KubeObject labelled =
        object(parse(uR"({"kind":"ConfigMap","metadata":{"name":"c","namespace":"shop","labels":{"app.kubernetes.io/name":"shop","tier":"web"}}})"_s));
    const QHash<QString, QString> cells = row(columns, labelled, QDateTime::currentDateTimeUtc());
    QCOMPARE(cells.value(u"app.kubernetes.io/name"_s), u"shop"_s);
    QVERIFY(cells.contains(u"app"_s));
    QCOMPARE(cells.value(u"app"_s), QString());
    QVERIFY(!columns.values(labelled).at(before).isValid());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestResourceColumns)

#include "tst_resourcecolumns.moc"
