// ImplicitReferences: the edges a Pod, an HPA and an Ingress write in their spec, from JSON
// fixtures, each edge written "source Kind ns/name (detail)".
#include "core/relations/implicitreferences.h"

#include "testmain.h"

#include <QJsonDocument>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestImplicitReferences : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reads_data();
    void reads();
    void edgesStartAtTheGivenObject();
};

namespace {

QByteArray pod(const QByteArray &spec)
{
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-1","namespace":"shop","uid":"u-1"},"spec":)" + spec + "}";
}

QString written(const RelationEdge &edge)
{
    const QString where = edge.to.namespaceName.isEmpty() ? edge.to.name : edge.to.namespaceName + u'/' + edge.to.name;
    return RelationEdge::sourceName(edge.source) + u' ' + edge.to.kind + u' ' + where + u" ("_s + edge.detail + u')';
}

} // namespace

void TestImplicitReferences::reads_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("edges");

    QTest::newRow("configMap, secret and persistentVolumeClaim volumes")
        << pod(R"({"volumes":[{"name":"config","configMap":{"name":"web-config"}},{"name":"tls","secret":{"secretName":"web-tls"}},)"
               R"({"name":"data","persistentVolumeClaim":{"claimName":"web-data"}},{"name":"scratch","emptyDir":{}}]})")
        << QStringList{u"volume ConfigMap shop/web-config (volume config)"_s,
                       u"volume Secret shop/web-tls (volume tls)"_s,
                       u"volume PersistentVolumeClaim shop/web-data (volume data)"_s};
    QTest::newRow("projected configMap and secret sources; the token source names nothing")
        << pod(R"({"volumes":[{"name":"kube-api-access","projected":{"sources":[{"serviceAccountToken":{"path":"token"}},)"
               R"({"configMap":{"name":"kube-root-ca.crt"}},{"secret":{"name":"extra"}},{"downwardAPI":{"items":[]}}]}}]})")
        << QStringList{u"volume ConfigMap shop/kube-root-ca.crt (projected volume kube-api-access)"_s,
                       u"volume Secret shop/extra (projected volume kube-api-access)"_s};
    QTest::newRow("envFrom configMapRef and secretRef")
        << pod(R"({"containers":[{"name":"app","envFrom":[{"configMapRef":{"name":"settings"}},{"prefix":"DB_","secretRef":{"name":"db"}}]}]})")
        << QStringList{u"envFrom ConfigMap shop/settings (envFrom of container app)"_s, u"envFrom Secret shop/db (envFrom of container app)"_s};
    QTest::newRow("env valueFrom configMapKeyRef and secretKeyRef; plain values and fieldRef name nothing")
        << pod(R"({"containers":[{"name":"app","env":[{"name":"PLAIN","value":"x"},{"name":"LEVEL","valueFrom":{"configMapKeyRef":{"name":"settings","key":"level"}}},)"
               R"({"name":"PASSWORD","valueFrom":{"secretKeyRef":{"name":"db","key":"password"}}},{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}]}]})")
        << QStringList{u"env ConfigMap shop/settings (env LEVEL of container app)"_s, u"env Secret shop/db (env PASSWORD of container app)"_s};
    QTest::newRow("init and ephemeral containers count, init first")
        << pod(R"({"containers":[{"name":"app","envFrom":[{"configMapRef":{"name":"app-env"}}]}],)"
               R"("initContainers":[{"name":"migrate","env":[{"name":"URL","valueFrom":{"secretKeyRef":{"name":"db","key":"url"}}}]}],)"
               R"("ephemeralContainers":[{"name":"debug","envFrom":[{"secretRef":{"name":"debug-token"}}]}]})")
        << QStringList{u"env Secret shop/db (env URL of container migrate)"_s,
                       u"envFrom ConfigMap shop/app-env (envFrom of container app)"_s,
                       u"envFrom Secret shop/debug-token (envFrom of container debug)"_s};
    QTest::newRow("serviceAccountName, imagePullSecrets and nodeName")
        << pod(R"({"serviceAccountName":"web","serviceAccount":"web","imagePullSecrets":[{"name":"registry"},{"name":"mirror"}],"nodeName":"node-2"})")
        << QStringList{u"serviceAccount ServiceAccount shop/web (serviceAccountName)"_s,
                       u"imagePullSecret Secret shop/registry (imagePullSecrets)"_s,
                       u"imagePullSecret Secret shop/mirror (imagePullSecrets)"_s,
                       u"nodeName Node node-2 (nodeName)"_s};
    QTest::newRow("the deprecated serviceAccount alone")
        << pod(R"({"serviceAccount":"legacy"})") << QStringList{u"serviceAccount ServiceAccount shop/legacy (serviceAccountName)"_s};
    QTest::newRow("the same reference written twice the same way is one edge")
        << pod(R"({"containers":[{"name":"a","envFrom":[{"configMapRef":{"name":"s"}},{"configMapRef":{"name":"s"}}]}]})")
        << QStringList{u"envFrom ConfigMap shop/s (envFrom of container a)"_s};
    QTest::newRow("an unscheduled pod without volumes names nothing") << pod(R"({"containers":[{"name":"a","image":"nginx"}]})") << QStringList{};
    QTest::newRow("a reference with an empty name is not an edge")
        << pod(R"({"volumes":[{"name":"v","configMap":{"name":""}}],"nodeName":""})") << QStringList{};
    QTest::newRow("HorizontalPodAutoscaler scaleTargetRef")
        << QByteArray(R"({"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web","namespace":"shop"},)"
                      R"("spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":1,"maxReplicas":5}})")
        << QStringList{u"scaleTarget Deployment shop/web (scaleTargetRef)"_s};
    QTest::newRow("Ingress default backend and each rule's paths, a Service behind two rules an edge per rule")
        << QByteArray(R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web","namespace":"shop"},"spec":{)"
                      R"("defaultBackend":{"service":{"name":"fallback","port":{"number":80}}},"rules":[{"host":"shop.example","http":{"paths":[)"
                      R"({"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}},)"
                      R"({"path":"/api","pathType":"Prefix","backend":{"service":{"name":"api","port":{"name":"http"}}}}]}},)"
                      R"({"http":{"paths":[{"backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}})")
        << QStringList{u"ingressBackend Service shop/fallback (defaultBackend)"_s,
                       u"ingressBackend Service shop/web (rule shop.example/)"_s,
                       u"ingressBackend Service shop/api (rule shop.example/api)"_s,
                       u"ingressBackend Service shop/web (rule */)"_s};
    QTest::newRow("a v1beta1 Ingress's serviceName")
        << QByteArray(
               R"({"apiVersion":"extensions/v1beta1","kind":"Ingress","metadata":{"name":"old","namespace":"shop"},"spec":{"backend":{"serviceName":"legacy","servicePort":80}}})")
        << QStringList{u"ingressBackend Service shop/legacy (defaultBackend)"_s};
    QTest::newRow("a Deployment's template is not read (its pods are)")
        << QByteArray(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},)"
                      R"("spec":{"template":{"spec":{"volumes":[{"name":"c","configMap":{"name":"web-config"}}]}}}})")
        << QStringList{};
}

void TestImplicitReferences::reads()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, edges);

    QJsonParseError error;
    const QJsonObject object = QJsonDocument::fromJson(json, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const auto decoded = KubeObject::fromJson(json);
    QVERIFY(decoded);

    QStringList fromJson;
    for (const RelationEdge &edge : ImplicitReferences::fromJson(object, ObjectRef())) {
        fromJson.append(written(edge));
        QCOMPARE(edge.to.resolution, ObjectRef::Resolution::Unresolved);
        QVERIFY(edge.to.uid.isEmpty());
    }
    QCOMPARE(fromJson, edges);
    // The same from the cached object, whose kind comes with its reference.
    QStringList fromObject;
    for (const RelationEdge &edge : ImplicitReferences::of(ObjectRef::of(*decoded))) {
        fromObject.append(written(edge));
    }
    QCOMPARE(fromObject, edges);
}

void TestImplicitReferences::edgesStartAtTheGivenObject()
{
    // A list item: no kind in the JSON, the reference says Pod.
    const QByteArray json = R"({"metadata":{"name":"web-1","namespace":"shop","uid":"u-1"},"spec":{"nodeName":"node-1"}})";
    const auto decoded = KubeObject::fromJson(json);
    QVERIFY(decoded);
    const ObjectRef from = ObjectRef::of(*decoded, u"Pod"_s, u"v1"_s);
    const RelationEdges edges = ImplicitReferences::of(from);
    QCOMPARE(edges.size(), 1);
    QCOMPARE(edges.constFirst().from, from);
    QCOMPARE(edges.constFirst().to.displayName(), u"Node/node-1"_s);
    QVERIFY(ImplicitReferences::fromJson(QJsonDocument::fromJson(json).object(), ObjectRef()).isEmpty());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestImplicitReferences)
#include "tst_implicitreferences.moc"
