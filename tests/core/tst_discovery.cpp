#include "core/kube/discoveryresult.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

namespace {

// Aggregated discovery as a 1.30 apiserver answers /api and /apis (trimmed to a few resources,
// subresources and freshness kept where real servers put them).
const QByteArray aggregatedCore = R"({"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
 {"metadata":{"creationTimestamp":null},"versions":[{"version":"v1","resources":[
  {"resource":"pods","responseKind":{"group":"","version":"v1","kind":"Pod"},"scope":"Namespaced","singularResource":"pod",
   "verbs":["create","delete","get","list","watch"],"shortNames":["po"],"categories":["all"],
   "subresources":[{"subresource":"log","responseKind":{"group":"","version":"v1","kind":"Pod"},"verbs":["get"]}]},
  {"resource":"events","responseKind":{"group":"","version":"v1","kind":"Event"},"scope":"Namespaced","singularResource":"event","verbs":["list","watch"],"shortNames":["ev"]},
  {"resource":"namespaces","responseKind":{"group":"","version":"v1","kind":"Namespace"},"scope":"Cluster","singularResource":"namespace","verbs":["list","watch"],"shortNames":["ns"]}
 ],"freshness":"Current"}]}]})";

const QByteArray aggregatedGroups = R"({"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2beta1","metadata":{},"items":[
 {"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[
  {"resource":"deployments","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment","verbs":["list","watch"],"shortNames":["deploy"],"categories":["all"]}]}]},
 {"metadata":{"name":"events.k8s.io"},"versions":[{"version":"v1","resources":[
  {"resource":"events","responseKind":{"group":"events.k8s.io","version":"v1","kind":"Event"},"scope":"Namespaced","singularResource":"event","verbs":["list","watch"],"shortNames":["ev"]}]}]},
 {"metadata":{"name":"autoscaling"},"versions":[
  {"version":"v2","resources":[{"resource":"horizontalpodautoscalers","responseKind":{"group":"autoscaling","version":"v2","kind":"HorizontalPodAutoscaler"},"scope":"Namespaced","singularResource":"horizontalpodautoscaler","verbs":["list"],"shortNames":["hpa"]}]},
  {"version":"v1","resources":[{"resource":"horizontalpodautoscalers","responseKind":{"group":"autoscaling","version":"v1","kind":"HorizontalPodAutoscaler"},"scope":"Namespaced","singularResource":"horizontalpodautoscaler","verbs":["list"],"shortNames":["hpa"]}]}]},
 {"metadata":{"name":"example.com"},"versions":[
  {"version":"v2","resources":[{"resource":"widgets","responseKind":{"group":"example.com","version":"v2","kind":"Widget"},"scope":"Cluster","singularResource":"widget","verbs":["list","watch"]}]},
  {"version":"v1","resources":[{"resource":"widgets","responseKind":{"group":"example.com","version":"v1","kind":"Widget"},"scope":"Cluster","singularResource":"widget","verbs":["list","watch"]}]}]}
]})";

DiscoveryResult aggregatedResult()
{
    DiscoveryResult result;
    result.resources = std::get<QList<ApiResource>>(DiscoveryResult::parseAggregated(aggregatedCore));
    result.resources += std::get<QList<ApiResource>>(DiscoveryResult::parseAggregated(aggregatedGroups));
    return result;
}

} // namespace

class TestDiscovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseAggregated();
    void parseLegacy();
    void parseErrors_data();
    void parseErrors();
    void resolve_data();
    void resolve();
    void groupVersionResource();
};

void TestDiscovery::parseAggregated()
{
    QVERIFY(DiscoveryResult::isAggregated(aggregatedCore));
    QVERIFY(DiscoveryResult::isAggregated(aggregatedGroups));
    QVERIFY(!DiscoveryResult::isAggregated(R"({"kind":"APIVersions","versions":["v1"]})"));
    const DiscoveryResult result = aggregatedResult();
    QCOMPARE(result.resources.size(), 9);
    const ApiResource pods = result.resources.at(0);
    QCOMPARE(pods.gvr, GroupVersionResource(QString(), u"v1"_s, u"pods"_s));
    QCOMPARE(pods.kind, u"Pod"_s);
    QCOMPARE(pods.singularName, u"pod"_s);
    QVERIFY(pods.namespaced);
    QCOMPARE(pods.shortNames, QStringList{u"po"_s});
    QCOMPARE(pods.categories, QStringList{u"all"_s});
    QVERIFY(pods.supports(u"watch"_s));
    QVERIFY(pods.preferredVersion);
    QVERIFY(!result.resources.at(2).namespaced); // namespaces
    // autoscaling: v2 preferred (listed first), v1 not.
    QCOMPARE(result.resources.at(5).gvr.version(), u"v2"_s);
    QVERIFY(result.resources.at(5).preferredVersion);
    QVERIFY(!result.resources.at(6).preferredVersion);
    QCOMPARE(result.preferredResources().size(), 7);
}

void TestDiscovery::parseLegacy()
{
    const auto core = DiscoveryResult::parseLegacyGroups(R"({"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]})", true);
    QCOMPARE(std::get<0>(core).size(), 1);
    QCOMPARE(std::get<0>(core).at(0).versions, QStringList{u"v1"_s});

    const auto groups = DiscoveryResult::parseLegacyGroups(R"({"kind":"APIGroupList","apiVersion":"v1","groups":[
        {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
        {"name":"autoscaling","versions":[{"groupVersion":"autoscaling/v1","version":"v1"},{"groupVersion":"autoscaling/v2","version":"v2"}],
         "preferredVersion":{"groupVersion":"autoscaling/v2","version":"v2"}}]})",
                                                           false);
    QVERIFY(std::holds_alternative<QList<DiscoveryResult::GroupVersions>>(groups));
    const auto list = std::get<0>(groups);
    QCOMPARE(list.size(), 2);
    QCOMPARE(list.at(1).group, u"autoscaling"_s);
    QCOMPARE(list.at(1).versions, QStringList({u"v2"_s, u"v1"_s})); // preferred first

    const auto resources = DiscoveryResult::parseLegacyResources(R"({"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
        {"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["list","watch"],"shortNames":["deploy"],"categories":["all"]},
        {"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get"]}]})",
                                                                 true);
    const auto parsed = std::get<QList<ApiResource>>(resources);
    QCOMPARE(parsed.size(), 1); // the subresource is left out
    QCOMPARE(parsed.at(0).gvr, GroupVersionResource(u"apps"_s, u"v1"_s, u"deployments"_s));
    QCOMPARE(parsed.at(0).shortNames, QStringList{u"deploy"_s});
    QVERIFY(parsed.at(0).namespaced);
    QVERIFY(parsed.at(0).preferredVersion);
}

void TestDiscovery::parseErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("parser"); // 0 aggregated, 1 groups, 2 resources
    QTest::addColumn<QString>("error");

    QTest::newRow("aggregated: not JSON") << QByteArray("<html>") << 0 << u"not valid JSON"_s;
    QTest::newRow("aggregated: wrong kind") << QByteArray(R"({"kind":"APIGroupList"})") << 0 << u"not an APIGroupDiscoveryList"_s;
    QTest::newRow("groups: wrong kind") << QByteArray(R"({"kind":"Status"})") << 1 << u"not an APIGroupList"_s;
    QTest::newRow("resources: no groupVersion") << QByteArray(R"({"kind":"APIResourceList"})") << 2 << u"not an APIResourceList"_s;
    QTest::newRow("resources: array") << QByteArray("[]") << 2 << u"not a JSON object"_s;
}

void TestDiscovery::parseErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(int, parser);
    QFETCH(QString, error);
    QString actual;
    if (parser == 0) {
        actual = std::get<QString>(DiscoveryResult::parseAggregated(body));
    } else if (parser == 1) {
        actual = std::get<QString>(DiscoveryResult::parseLegacyGroups(body, false));
    } else {
        actual = std::get<QString>(DiscoveryResult::parseLegacyResources(body, true));
    }
    QVERIFY2(actual.contains(error), qPrintable(actual));
}

void TestDiscovery::resolve_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected"); // GVR string, or "!" + error fragment

    QTest::newRow("short name") << u"po"_s << u"pods.v1"_s;
    QTest::newRow("plural") << u"pods"_s << u"pods.v1"_s;
    QTest::newRow("singular") << u"pod"_s << u"pods.v1"_s;
    QTest::newRow("kind") << u"Pod"_s << u"pods.v1"_s;
    QTest::newRow("kind of a group") << u"Deployment"_s << u"deployments.v1.apps"_s;
    QTest::newRow("resource.group") << u"deployments.apps"_s << u"deployments.v1.apps"_s;
    QTest::newRow("resource.version.group") << u"deployments.v1.apps"_s << u"deployments.v1.apps"_s;
    QTest::newRow("group short name") << u"deploy"_s << u"deployments.v1.apps"_s;
    QTest::newRow("core group wins a shared name") << u"events"_s << u"events.v1"_s;
    QTest::newRow("dotted group chosen explicitly") << u"events.events.k8s.io"_s << u"events.v1.events.k8s.io"_s;
    QTest::newRow("preferred version of a CRD") << u"widgets"_s << u"widgets.v2.example.com"_s;
    QTest::newRow("non-preferred version when asked") << u"widgets.v1.example.com"_s << u"widgets.v1.example.com"_s;
    QTest::newRow("preferred version through short name") << u"hpa"_s << u"horizontalpodautoscalers.v2.autoscaling"_s;
    QTest::newRow("upper-case plural") << u"PODS"_s << u"pods.v1"_s;
    QTest::newRow("unknown") << u"gizmos"_s << u"!doesn't have a resource type \"gizmos\""_s;
    QTest::newRow("unknown group") << u"deployments.nowhere"_s << u"!doesn't have a resource type"_s;
}

void TestDiscovery::resolve()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    const auto result = aggregatedResult().resolve(name);
    if (expected.startsWith(u'!')) {
        QVERIFY(std::holds_alternative<QString>(result));
        QVERIFY2(std::get<QString>(result).contains(expected.mid(1)), qPrintable(std::get<QString>(result)));
        return;
    }
    if (const QString *error = std::get_if<QString>(&result)) {
        QFAIL(qPrintable(*error));
    }
    QCOMPARE(std::get<ApiResource>(result).gvr.toString(), expected);
}

void TestDiscovery::groupVersionResource()
{
    const GroupVersionResource pods(QString(), u"v1"_s, u"pods"_s);
    const GroupVersionResource deployments(u"apps"_s, u"v1"_s, u"deployments"_s);
    QCOMPARE(pods.groupVersion(), u"v1"_s);
    QCOMPARE(deployments.groupVersion(), u"apps/v1"_s);
    QCOMPARE(pods.collectionPath(u"kube-system"_s), u"/api/v1/namespaces/kube-system/pods"_s);
    QCOMPARE(deployments.collectionPath(), u"/apis/apps/v1/deployments"_s);
    QVERIFY(!GroupVersionResource().isValid());
    QVERIFY(pods != deployments);
    QCOMPARE(qHash(pods), qHash(GroupVersionResource(QString(), u"v1"_s, u"pods"_s)));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestDiscovery)
#include "tst_discovery.moc"
