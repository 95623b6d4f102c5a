// The built-in process functions (pod-health, owner-references, label-policy, simulated-work)
// on hand-made objects, and the registry that makes them from names and parameters.
#include "core/cache/indexer.h"
#include "core/controller/labelpolicycheck.h"
#include "core/controller/ownerreferencecheck.h"
#include "core/controller/podhealthcheck.h"
#include "core/controller/processfunctionregistry.h"
#include "core/controller/simulatedwork.h"

#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {
const QDateTime fixedNow = QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);

KubeObject object(const QJsonObject &json)
{
    QString error;
    const auto decoded = KubeObject::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact), KubeObject::Transform::DropManagedFields, &error);
    if (!decoded) {
        qFatal("test object does not decode: %s", qPrintable(error));
    }
    return *decoded;
}

struct PodSpec
{
    QString phase = u"Running"_s;
    bool ready = true;
    int restarts = 0;
    QString waiting;
    qint64 ageSeconds = 3600;
    QString kind = u"Pod"_s;
};

PodSpec podSpec(const QString &phase = u"Running"_s, bool ready = true, int restarts = 0, const QString &waiting = {}, qint64 ageSeconds = 3600)
{
    PodSpec spec;
    spec.phase = phase;
    spec.ready = ready;
    spec.restarts = restarts;
    spec.waiting = waiting;
    spec.ageSeconds = ageSeconds;
    return spec;
}

KubeObject pod(const PodSpec &spec)
{
    QJsonObject container{{u"name"_s, u"app"_s}, {u"ready"_s, spec.ready}, {u"restartCount"_s, spec.restarts}};
    if (!spec.waiting.isEmpty()) {
        container.insert(u"state"_s, QJsonObject{{u"waiting"_s, QJsonObject{{u"reason"_s, spec.waiting}}}});
    }
    return object(QJsonObject{
        {u"apiVersion"_s, u"v1"_s},
        {u"kind"_s, spec.kind},
        {u"metadata"_s,
         QJsonObject{{u"name"_s, u"web-1"_s},
                     {u"namespace"_s, u"shop"_s},
                     {u"uid"_s, u"pod-uid"_s},
                     {u"creationTimestamp"_s, fixedNow.addSecs(-spec.ageSeconds).toString(Qt::ISODate)}}},
        {u"status"_s,
         QJsonObject{{u"phase"_s, spec.phase},
                     {u"conditions"_s, QJsonArray{QJsonObject{{u"type"_s, u"Ready"_s}, {u"status"_s, spec.ready ? u"True"_s : u"False"_s}}}},
                     {u"containerStatuses"_s, QJsonArray{container}}}},
    });
}

KubeObject owned(const QString &namespaceName, const QList<QJsonObject> &owners)
{
    QJsonArray references;
    for (const QJsonObject &owner : owners) {
        references.append(owner);
    }
    QJsonObject metadata{{u"name"_s, u"dependent"_s}, {u"uid"_s, u"dependent-uid"_s}, {u"ownerReferences"_s, references}};
    if (!namespaceName.isEmpty()) {
        metadata.insert(u"namespace"_s, namespaceName);
    }
    return object(QJsonObject{{u"apiVersion"_s, u"v1"_s}, {u"kind"_s, u"Pod"_s}, {u"metadata"_s, metadata}});
}

QJsonObject reference(const QString &kind, const QString &name, const QString &uid)
{
    return QJsonObject{{u"apiVersion"_s, u"apps/v1"_s}, {u"kind"_s, kind}, {u"name"_s, name}, {u"uid"_s, uid}, {u"controller"_s, true}};
}

KubeObject owner(const QString &kind, const QString &namespaceName, const QString &name, const QString &uid)
{
    QJsonObject metadata{{u"name"_s, name}, {u"uid"_s, uid}};
    if (!namespaceName.isEmpty()) {
        metadata.insert(u"namespace"_s, namespaceName);
    }
    return object(QJsonObject{{u"apiVersion"_s, u"apps/v1"_s}, {u"kind"_s, kind}, {u"metadata"_s, metadata}});
}

QStringList reasons(const ProcessResult &result)
{
    QStringList list;
    for (const Finding &finding : result.findings) {
        list.append(finding.reason);
    }
    return list;
}

QString messages(const ProcessResult &result)
{
    QStringList list;
    for (const Finding &finding : result.findings) {
        list.append(finding.message);
    }
    return list.join(u" | "_s);
}
} // namespace

Q_DECLARE_METATYPE(PodSpec)

class TestControllerFunctions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void podHealth_data();
    void podHealth();
    void podHealthOnDeletedAndForeignObjects();
    void ownerReferences_data();
    void ownerReferences();
    void labelPolicy_data();
    void labelPolicy();
    void simulatedWork_data();
    void simulatedWork();
    void simulatedWorkIsReproducible();
    void registry_data();
    void registry();
    void registryListsEveryBuiltIn();
    void assignments_data();
    void assignments();
};

void TestControllerFunctions::podHealth_data()
{
    QTest::addColumn<PodSpec>("spec");
    QTest::addColumn<int>("restartThreshold");
    QTest::addColumn<int>("pendingSeconds");
    QTest::addColumn<QStringList>("expectedReasons");
    QTest::addColumn<QString>("messageContains");

    QTest::newRow("running and ready pod has no findings") << podSpec() << 3 << 300 << QStringList{} << QString();
    QTest::newRow("running pod whose Ready condition is False is not ready")
        << podSpec(u"Running"_s, false) << 3 << 300 << QStringList{u"NotReady"_s} << u"containers app"_s;
    QTest::newRow("restarts at the threshold are reported")
        << podSpec(u"Running"_s, true, 3) << 3 << 300 << QStringList{u"Restarting"_s} << u"container app restarted 3 times"_s;
    QTest::newRow("restarts below the threshold are not reported") << podSpec(u"Running"_s, true, 2) << 3 << 300 << QStringList{} << QString();
    QTest::newRow("the reason a restarting container waits is named")
        << podSpec(u"Running"_s, false, 5, u"CrashLoopBackOff"_s) << 3 << 300 << QStringList{u"NotReady"_s, u"Restarting"_s} << u"now CrashLoopBackOff"_s;
    QTest::newRow("pending longer than the timeout is reported")
        << podSpec(u"Pending"_s, false, 0, QString(), 600) << 3 << 300 << QStringList{u"PendingTooLong"_s} << u"pending for 10m (longer than 5m)"_s;
    QTest::newRow("pending within the timeout is not reported") << podSpec(u"Pending"_s, false, 0, QString(), 120) << 3 << 300 << QStringList{} << QString();
    QTest::newRow("a failed pod is an error finding") << podSpec(u"Failed"_s, false) << 3 << 300 << QStringList{u"Failed"_s} << u"the pod failed"_s;
    QTest::newRow("a succeeded pod is not reported as not ready") << podSpec(u"Succeeded"_s, false) << 3 << 300 << QStringList{} << QString();
}

void TestControllerFunctions::podHealth()
{
    QFETCH(PodSpec, spec);
    QFETCH(int, restartThreshold);
    QFETCH(int, pendingSeconds);
    QFETCH(QStringList, expectedReasons);
    QFETCH(QString, messageContains);

    PodHealthCheck check({restartThreshold, std::chrono::seconds(pendingSeconds)}, [] { return fixedNow; });
    const ProcessResult result = check.process(u"shop/web-1"_s, pod(spec), {});
    QVERIFY2(!result.isError(), qPrintable(result.message));
    QCOMPARE(reasons(result), expectedReasons);
    QVERIFY2(messages(result).contains(messageContains), qPrintable(messages(result)));
    for (const Finding &finding : result.findings) {
        QCOMPARE(finding.time, fixedNow);
        QCOMPARE(finding.severity, finding.reason == u"Failed" ? FindingSeverity::Error : FindingSeverity::Warning);
    }
}

void TestControllerFunctions::podHealthOnDeletedAndForeignObjects()
{
    PodHealthCheck check({}, [] { return fixedNow; });
    const ProcessResult deleted = check.process(u"shop/web-1"_s, KubeObject(), {});
    QVERIFY(!deleted.isError());
    QVERIFY(deleted.findings.isEmpty());

    PodSpec node;
    node.kind = u"Node"_s;
    const ProcessResult foreign = check.process(u"shop/web-1"_s, pod(node), {});
    QVERIFY(foreign.isError());
    QVERIFY(!foreign.retryable);
    QVERIFY2(foreign.message.contains(u"Node"_s), qPrintable(foreign.message));
}

void TestControllerFunctions::ownerReferences_data()
{
    QTest::addColumn<KubeObject>("dependent");
    QTest::addColumn<QStringList>("expectedReasons");
    QTest::addColumn<QString>("messageContains");

    QTest::newRow("an owner present with the same uid is fine")
        << owned(u"shop"_s, {reference(u"ReplicaSet"_s, u"web-abc"_s, u"rs-uid"_s)}) << QStringList{} << QString();
    QTest::newRow("an owner that does not exist is dangling") << owned(u"shop"_s, {reference(u"ReplicaSet"_s, u"gone-abc"_s, u"gone-uid"_s)})
                                                              << QStringList{u"DanglingOwner"_s} << u"ReplicaSet gone-abc (uid gone-uid) does not exist"_s;
    QTest::newRow("an owner in another namespace does not count")
        << owned(u"data"_s, {reference(u"ReplicaSet"_s, u"web-abc"_s, u"rs-uid"_s)}) << QStringList{u"DanglingOwner"_s} << u"does not exist"_s;
    QTest::newRow("an owner made again with another uid is dangling")
        << owned(u"shop"_s, {reference(u"ReplicaSet"_s, u"web-abc"_s, u"old-uid"_s)}) << QStringList{u"DanglingOwner"_s} << u"it has uid rs-uid"_s;
    QTest::newRow("an owner kind without an informer is not judged")
        << owned(u"shop"_s, {reference(u"StatefulSet"_s, u"db"_s, u"sts-uid"_s)}) << QStringList{} << QString();
    QTest::newRow("a cluster-scoped owner is found by its name")
        << owned(u"shop"_s, {reference(u"Node"_s, u"node-01"_s, u"node-uid"_s)}) << QStringList{} << QString();
    QTest::newRow("each dangling reference is a finding") << owned(u"shop"_s,
                                                                   {reference(u"ReplicaSet"_s, u"gone-1"_s, u"u1"_s),
                                                                    reference(u"ReplicaSet"_s, u"web-abc"_s, u"rs-uid"_s),
                                                                    reference(u"Node"_s, u"gone-2"_s, u"u2"_s)})
                                                          << QStringList{u"DanglingOwner"_s, u"DanglingOwner"_s} << u"Node gone-2"_s;
    QTest::newRow("an object without owners is fine") << owned(u"shop"_s, {}) << QStringList{} << QString();
}

void TestControllerFunctions::ownerReferences()
{
    QFETCH(KubeObject, dependent);
    QFETCH(QStringList, expectedReasons);
    QFETCH(QString, messageContains);

    Indexer replicaSets;
    replicaSets.add(owner(u"ReplicaSet"_s, u"shop"_s, u"web-abc"_s, u"rs-uid"_s));
    Indexer nodes;
    nodes.add(owner(u"Node"_s, QString(), u"node-01"_s, u"node-uid"_s));
    const OwnerLookup lookup = OwnerReferenceCheck::lookupIn({{u"ReplicaSet"_s, &replicaSets}, {u"Node"_s, &nodes}});

    OwnerReferenceCheck check(lookup);
    const ProcessResult result = check.process(metaNamespaceKey(dependent), dependent, {});
    QVERIFY(!result.isError());
    QCOMPARE(reasons(result), expectedReasons);
    QVERIFY2(messages(result).contains(messageContains), qPrintable(messages(result)));
    QVERIFY(!check.process(u"shop/dependent"_s, KubeObject(), {}).isError());
    QVERIFY(check.process(u"shop/dependent"_s, KubeObject(), {}).findings.isEmpty());
}

void TestControllerFunctions::labelPolicy_data()
{
    QTest::addColumn<QJsonObject>("labels");
    QTest::addColumn<QStringList>("expectedMissing");

    QTest::newRow("every required key present is fine") << QJsonObject{{u"app"_s, u"web"_s}, {u"tier"_s, u"front"_s}} << QStringList{};
    QTest::newRow("a missing key is reported") << QJsonObject{{u"app"_s, u"web"_s}} << QStringList{u"tier"_s};
    QTest::newRow("no labels at all reports every key") << QJsonObject{} << QStringList{u"app"_s, u"tier"_s};
    QTest::newRow("an empty value counts as present") << QJsonObject{{u"app"_s, QString()}, {u"tier"_s, u"x"_s}} << QStringList{};
    QTest::newRow("other labels do not stand in for required ones") << QJsonObject{{u"application"_s, u"web"_s}, {u"tier"_s, u"x"_s}} << QStringList{u"app"_s};
}

void TestControllerFunctions::labelPolicy()
{
    QFETCH(QJsonObject, labels);
    QFETCH(QStringList, expectedMissing);

    const KubeObject configMap = object(QJsonObject{
        {u"apiVersion"_s, u"v1"_s},
        {u"kind"_s, u"ConfigMap"_s},
        {u"metadata"_s, QJsonObject{{u"name"_s, u"settings"_s}, {u"namespace"_s, u"shop"_s}, {u"labels"_s, labels}}},
    });
    LabelPolicyCheck check({u"app"_s, u"tier"_s});
    const ProcessResult result = check.process(u"shop/settings"_s, configMap, {});
    QVERIFY(!result.isError());
    QStringList missing;
    for (const Finding &finding : result.findings) {
        QCOMPARE(finding.reason, u"MissingLabel"_s);
        missing.append(finding.message.section(u'"', 1, 1));
    }
    QCOMPARE(missing, expectedMissing);
}

void TestControllerFunctions::simulatedWork_data()
{
    QTest::addColumn<double>("failureRate");
    QTest::addColumn<bool>("retryable");
    QTest::addColumn<double>("minimumFailed");
    QTest::addColumn<double>("maximumFailed");

    QTest::newRow("failure rate 0 never fails") << 0.0 << true << 0.0 << 0.0;
    QTest::newRow("failure rate 1 always fails") << 1.0 << true << 1.0 << 1.0;
    QTest::newRow("failure rate 0.3 fails about a third of the attempts") << 0.3 << true << 0.25 << 0.35;
    QTest::newRow("non-retryable failures say so") << 0.5 << false << 0.45 << 0.55;
}

void TestControllerFunctions::simulatedWork()
{
    QFETCH(double, failureRate);
    QFETCH(bool, retryable);
    QFETCH(double, minimumFailed);
    QFETCH(double, maximumFailed);

    SimulatedWork work({Duration(0), failureRate, 42, retryable});
    int failed = 0;
    constexpr int attempts = 2000;
    for (int i = 0; i < attempts; ++i) {
        const int attempt = i % 4;
        const ProcessResult result = work.process(u"ns/key-%1"_s.arg(i / 4), KubeObject(), ProcessContext{0, attempt});
        QCOMPARE(result.isError(), work.fails(u"ns/key-%1"_s.arg(i / 4), attempt));
        if (result.isError()) {
            ++failed;
            QCOMPARE(result.retryable, retryable);
            QCOMPARE(result.message, u"simulated failure (attempt %1)"_s.arg(attempt + 1));
        }
    }
    const double fraction = double(failed) / attempts;
    QVERIFY2(fraction >= minimumFailed && fraction <= maximumFailed, qPrintable(QString::number(fraction)));
}

void TestControllerFunctions::simulatedWorkIsReproducible()
{
    const SimulatedWork a({Duration(0), 0.5, 7, true});
    const SimulatedWork b({Duration(0), 0.5, 7, true});
    const SimulatedWork otherSeed({Duration(0), 0.5, 8, true});
    int differences = 0;
    for (int i = 0; i < 500; ++i) {
        const QString key = u"ns/pod-%1"_s.arg(i);
        QCOMPARE(a.fails(key, i % 3), b.fails(key, i % 3));
        differences += a.fails(key, i % 3) != otherSeed.fails(key, i % 3) ? 1 : 0;
    }
    QVERIFY2(differences > 100, "another seed should fail other attempts");
}

void TestControllerFunctions::registry_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("assignments");
    QTest::addColumn<bool>("withLookup");
    QTest::addColumn<QString>("expectedError"); // empty: it is made

    QTest::newRow("pod-health with its defaults") << u"pod-health"_s << QStringList{} << false << QString();
    QTest::newRow("pod-health with parameters") << u"pod-health"_s << QStringList{u"restartThreshold=5"_s, u"pendingSeconds=60"_s} << false << QString();
    QTest::newRow("a value that does not parse is refused")
        << u"pod-health"_s << QStringList{u"restartThreshold=many"_s} << false << u"restartThreshold must be an integer"_s;
    QTest::newRow("a value out of range is refused") << u"pod-health"_s << QStringList{u"restartThreshold=0"_s} << false << u"from 1 to"_s;
    QTest::newRow("a misspelt parameter is refused") << u"pod-health"_s << QStringList{u"restartTreshold=5"_s} << false
                                                     << u"takes no parameter \"restartTreshold\" (it takes restartThreshold, pendingSeconds)"_s;
    QTest::newRow("owner-references needs a lookup") << u"owner-references"_s << QStringList{} << false << u"needs the informers"_s;
    QTest::newRow("owner-references with a lookup") << u"owner-references"_s << QStringList{} << true << QString();
    QTest::newRow("label-policy with required keys") << u"label-policy"_s << QStringList{u"required=app, team"_s} << false << QString();
    QTest::newRow("label-policy with no key is refused") << u"label-policy"_s << QStringList{u"required= , "_s} << false << u"at least one"_s;
    QTest::newRow("simulated-work with parameters") << u"simulated-work"_s
                                                    << QStringList{u"durationMs=0"_s, u"failureRate=1"_s, u"seed=3"_s, u"retryable=false"_s} << false
                                                    << QString();
    QTest::newRow("a failure rate above 1 is refused")
        << u"simulated-work"_s << QStringList{u"failureRate=1.5"_s} << false << u"failureRate must be a number"_s;
    QTest::newRow("an unknown controller is refused") << u"pod-doctor"_s << QStringList{} << false << u"unknown controller \"pod-doctor\""_s;
}

void TestControllerFunctions::registry()
{
    QFETCH(QString, name);
    QFETCH(QStringList, assignments);
    QFETCH(bool, withLookup);
    QFETCH(QString, expectedError);

    auto parameters = ProcessFunctionParameters::fromAssignments(assignments);
    QVERIFY(parameters);
    if (withLookup) {
        parameters->ownerLookup = [](const QString &, const KubeObject::OwnerReference &) {
            return std::optional<KubeObject>();
        };
    }
    QString error;
    const std::unique_ptr<ProcessFunction> function = makeProcessFunction(name, *parameters, &error);
    if (expectedError.isEmpty()) {
        QVERIFY2(function, qPrintable(error));
        QCOMPARE(function->name(), name);
    } else {
        QVERIFY(!function);
        QVERIFY2(error.contains(expectedError), qPrintable(error));
    }
}

void TestControllerFunctions::registryListsEveryBuiltIn()
{
    QCOMPARE(controllerNames(), (QStringList{u"pod-health"_s, u"owner-references"_s, u"label-policy"_s, u"simulated-work"_s}));
    for (const QString &name : controllerNames()) {
        const auto info = controllerInfo(name);
        QVERIFY(info);
        QCOMPARE(info->name, name);
        QVERIFY(!info->description.isEmpty());
        QVERIFY2(!info->description.contains(u'\n'), "a description is one line");
    }
    QVERIFY(controllerInfo(u"owner-references"_s)->needsOwnerLookup);
    QVERIFY(!controllerInfo(u"nope"_s));
    // Parameters take effect: a threshold of 5 does not report 4 restarts, the default would.
    PodSpec spec;
    spec.restarts = 4;
    const auto parameters = ProcessFunctionParameters::fromAssignments({u"restartThreshold=5"_s});
    QVERIFY(makeProcessFunction(u"pod-health"_s, *parameters)->process(u"shop/web-1"_s, pod(spec), {}).findings.isEmpty());
    QVERIFY(!makeProcessFunction(u"pod-health"_s, {})->process(u"shop/web-1"_s, pod(spec), {}).findings.isEmpty());
}

void TestControllerFunctions::assignments_data()
{
    QTest::addColumn<QStringList>("assignments");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");

    QTest::newRow("name=value is read") << QStringList{u"seed=3"_s} << true << u"seed"_s << u"3"_s;
    QTest::newRow("the value may contain '='") << QStringList{u"required=a=b"_s} << true << u"required"_s << u"a=b"_s;
    QTest::newRow("a missing '=' is refused") << QStringList{u"seed"_s} << false << QString() << QString();
    QTest::newRow("an empty name is refused") << QStringList{u"=3"_s} << false << QString() << QString();
}

void TestControllerFunctions::assignments()
{
    QFETCH(QStringList, assignments);
    QFETCH(bool, valid);
    QFETCH(QString, name);
    QFETCH(QString, value);

    QString error;
    const auto parameters = ProcessFunctionParameters::fromAssignments(assignments, &error);
    QCOMPARE(parameters.has_value(), valid);
    if (valid) {
        QCOMPARE(parameters->values.value(name), value);
    } else {
        QVERIFY(error.contains(u"name=value"_s));
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestControllerFunctions)
#include "tst_controllerfunctions.moc"
