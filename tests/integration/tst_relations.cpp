// RelationService and ObjectEvents against the in-process simulated cluster: the tree of a
// Deployment is exactly its ReplicaSets and their Pods and follows a scale-up and a delete; the
// tree of a Pod goes up to its Deployment and shows its Node, the ConfigMaps and Secrets it
// mounts and references and the Service selecting it; a dangling owner is reported; a Pod's
// Events come newest first.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/relations/objectevents.h"
#include "core/relations/relationservice.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

using CachescopeTest::send;

namespace {

// Twelve pods in two namespaces, the cluster the CLI rows of tst_clirelations print too.
Sim::SimOptions simOptions()
{
    return CachescopeTest::simOptions(12, 2, 0, 15);
}

// shape() writes a tree one line per node, indented two spaces per level: "Kind/name" for owner
// edges, "Kind/name [source]" for implicit ones, "!" after a dangling object.
void shape(const RelationNode &node, int depth, QStringList &lines)
{
    QString line = QString(depth * 2, u' ') + node.object.displayName();
    if (node.isImplicit()) {
        line += u" ["_s + RelationEdge::sourceName(node.source) + u']';
    }
    if (node.object.isDangling()) {
        line += u'!';
    }
    lines.append(line);
    for (const RelationNode &child : node.children) {
        shape(child, depth + 1, lines);
    }
}

QStringList shape(const RelationNode &root)
{
    QStringList lines;
    shape(root, 0, lines);
    return lines;
}

// ownedBy() reads the objects an owner owns from a plain list, not through the index under test.
QList<KubeObject> ownedBy(const SharedIndexInformer *informer, const QString &uid)
{
    QList<KubeObject> owned;
    const QList<KubeObject> all = informer->indexer().list();
    for (const KubeObject &object : all) {
        const QList<KubeObject::OwnerReference> owners = object.ownerReferences();
        if (std::any_of(owners.cbegin(), owners.cend(), [&uid](const KubeObject::OwnerReference &owner) { return owner.uid == uid; })) {
            owned.append(object);
        }
    }
    return owned;
}

QStringList sortedNames(const QList<KubeObject> &objects, const QString &kind)
{
    QStringList names;
    for (const KubeObject &object : objects) {
        names.append(kind + u'/' + object.name());
    }
    names.sort();
    return names;
}

} // namespace

class TestRelations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void deploymentTreeFollowsScaleAndDelete();
    void podTreeShowsOwnersAndImplicitEdges();
    void danglingOwnerIsReported();
    void podEventsNewestFirst();

private:
    // expectedDeploymentTree() is the deployment's tree computed from the informers directly.
    QStringList expectedDeploymentTree(const KubeObject &deployment) const;
    ObjectRef deploymentWithPods() const;

    std::unique_ptr<CachescopeTest::SimClusterFixture> m_fixture;
    SharedIndexInformer *m_pods = nullptr;
    SharedIndexInformer *m_replicaSets = nullptr;
    SharedIndexInformer *m_deployments = nullptr;
};

void TestRelations::init()
{
    m_fixture = std::make_unique<CachescopeTest::SimClusterFixture>(simOptions());
    QVERIFY(m_fixture->startDiscovered());
    m_pods = m_fixture->syncedInformer(u"pods"_s);
    m_replicaSets = m_fixture->syncedInformer(u"rs"_s);
    m_deployments = m_fixture->syncedInformer(u"deploy"_s);
    QVERIFY(m_pods && m_replicaSets && m_deployments);
}

void TestRelations::cleanup()
{
    m_fixture.reset();
}

ObjectRef TestRelations::deploymentWithPods() const
{
    const QList<KubeObject> deployments = m_deployments->indexer().list();
    for (const KubeObject &deployment : deployments) {
        if (deployment.value(u"spec.replicas"_s).toInt() >= 1) {
            return ObjectRef::of(deployment, u"Deployment"_s, u"apps/v1"_s);
        }
    }
    return {};
}

QStringList TestRelations::expectedDeploymentTree(const KubeObject &deployment) const
{
    QStringList lines{u"Deployment/"_s + deployment.name()};
    const QStringList replicaSets = sortedNames(ownedBy(m_replicaSets, deployment.uid()), QString());
    for (const QString &slashName : replicaSets) {
        const KubeObject replicaSet = m_replicaSets->indexer().getByKey(deployment.namespaceName() + slashName);
        lines.append(u"  ReplicaSet"_s + slashName);
        for (const QString &pod : sortedNames(ownedBy(m_pods, replicaSet.uid()), u"Pod"_s)) {
            lines.append(u"    "_s + pod);
        }
    }
    return lines;
}

void TestRelations::deploymentTreeFollowsScaleAndDelete()
{
    const ObjectRef deployment = deploymentWithPods();
    QVERIFY(deployment.isFound());
    RelationService relations(m_fixture->cluster.get(), deployment.namespaceName);
    QSignalSpy synced(&relations, &RelationService::synced);
    QVERIFY(synced.wait(30000));
    QVERIFY(relations.hasSynced());

    const QStringList before = shape(relations.treeOf(deployment));
    QCOMPARE(before, expectedDeploymentTree(deployment.object));
    QVERIFY2(before.size() >= 3, qPrintable(before.join(u'\n'))); // a ReplicaSet and at least one Pod
    const RelationNode tree = relations.treeOf(deployment);
    QVERIFY(tree.focus);
    QCOMPARE(tree.object.uid, deployment.uid);
    QCOMPARE(tree.children.constFirst().source, RelationEdge::Source::OwnerReference);
    QCOMPARE(tree.children.constFirst().detail, u"controller"_s);
    const qsizetype podsBefore = tree.children.constFirst().children.size();

    // Scale up through the API, as kubectl scale does: the simulator's controllers add pods.
    QSignalSpy changed(&relations, &RelationService::changed);
    const int replicas = deployment.object.value(u"spec.replicas"_s).toInt() + 2;
    QCOMPARE(send(m_fixture->cluster.get(),
                  "PATCH",
                  u"/apis/apps/v1/namespaces/%1/deployments/%2"_s.arg(deployment.namespaceName, deployment.name),
                  QJsonObject{{u"spec"_s, QJsonObject{{u"replicas"_s, replicas}}}},
                  "application/merge-patch+json"),
             200);
    QTRY_VERIFY_WITH_TIMEOUT(relations.treeOf(deployment).children.constFirst().children.size() == podsBefore + 2, 20000);
    // changed() comes within its coalescing interval of the caches' change.
    QVERIFY(changed.count() > 0 || changed.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(shape(relations.treeOf(deployment)), expectedDeploymentTree(deployment.object), 10000);

    // Delete one pod: it leaves the tree (the simulator's ReplicaSet makes a new one).
    const RelationNode scaled = relations.treeOf(deployment);
    const ObjectRef victim = scaled.children.constFirst().children.constFirst().object;
    changed.clear();
    QCOMPARE(send(m_fixture->cluster.get(), "DELETE", u"/api/v1/namespaces/%1/pods/%2"_s.arg(victim.namespaceName, victim.name)), 200);
    QTRY_VERIFY_WITH_TIMEOUT(relations.treeOf(deployment).find(victim.uid) == nullptr, 20000);
    QVERIFY(changed.count() > 0 || changed.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(shape(relations.treeOf(deployment)), expectedDeploymentTree(deployment.object), 10000);
}

void TestRelations::podTreeShowsOwnersAndImplicitEdges()
{
    const ObjectRef deployment = deploymentWithPods();
    QVERIFY(deployment.isFound());
    const QString ns = deployment.namespaceName;
    Cluster *cluster = m_fixture->cluster.get();
    // What the generator does not make: a ConfigMap and a Secret the pod mounts and references.
    QCOMPARE(send(cluster,
                  "POST",
                  u"/api/v1/namespaces/%1/configmaps"_s.arg(ns),
                  QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, u"rel-config"_s}}}, {u"data"_s, QJsonObject{{u"level"_s, u"debug"_s}}}}),
             201);
    QCOMPARE(send(cluster,
                  "POST",
                  u"/api/v1/namespaces/%1/secrets"_s.arg(ns),
                  QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, u"rel-secret"_s}}}, {u"data"_s, QJsonObject{{u"password"_s, u"c2VjcmV0"_s}}}}),
             201);
    // A pod of the deployment's ReplicaSet that uses them: it carries the deployment's app label,
    // so the deployment's Service selects it.
    const QList<KubeObject> replicaSets = ownedBy(m_replicaSets, deployment.uid);
    QVERIFY(!replicaSets.isEmpty());
    const KubeObject replicaSet = replicaSets.constFirst();
    const QList<KubeObject> siblings = ownedBy(m_pods, replicaSet.uid());
    QVERIFY(!siblings.isEmpty());
    const QString node = siblings.constFirst().nodeName();
    QVERIFY(!node.isEmpty());
    const QJsonObject pod{
        {u"metadata"_s,
         QJsonObject{{u"name"_s, u"rel-pod"_s},
                     {u"labels"_s, QJsonObject{{u"app"_s, deployment.name}}},
                     {u"ownerReferences"_s,
                      QJsonArray{QJsonObject{{u"apiVersion"_s, u"apps/v1"_s},
                                             {u"kind"_s, u"ReplicaSet"_s},
                                             {u"name"_s, replicaSet.name()},
                                             {u"uid"_s, replicaSet.uid()},
                                             {u"controller"_s, true}}}}}},
        {u"spec"_s,
         QJsonObject{
             {u"nodeName"_s, node},
             {u"serviceAccountName"_s, u"default"_s},
             {u"volumes"_s,
              QJsonArray{QJsonObject{{u"name"_s, u"config"_s}, {u"configMap"_s, QJsonObject{{u"name"_s, u"rel-config"_s}}}},
                         QJsonObject{{u"name"_s, u"creds"_s}, {u"secret"_s, QJsonObject{{u"secretName"_s, u"rel-secret"_s}}}}}},
             {u"containers"_s,
              QJsonArray{QJsonObject{
                  {u"name"_s, u"app"_s},
                  {u"image"_s, u"nginx"_s},
                  {u"env"_s,
                   QJsonArray{QJsonObject{
                       {u"name"_s, u"PASSWORD"_s},
                       {u"valueFrom"_s, QJsonObject{{u"secretKeyRef"_s, QJsonObject{{u"name"_s, u"rel-secret"_s}, {u"key"_s, u"password"_s}}}}}}}}}}}}}};
    QCOMPARE(send(cluster, "POST", u"/api/v1/namespaces/%1/pods"_s.arg(ns), pod), 201);

    RelationService relations(cluster, ns);
    QSignalSpy synced(&relations, &RelationService::synced);
    QVERIFY(synced.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(m_pods->indexer().getByKey(ns + u"/rel-pod"_s).isValid(), 10000);
    const ObjectRef relPod = ObjectRef::of(m_pods->indexer().getByKey(ns + u"/rel-pod"_s), u"Pod"_s, u"v1"_s);

    // The ConfigMap and Secret informers may see the new objects a moment after the pod.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const RelationNode tree = relations.treeOf(relPod);
            const RelationNode *focus = tree.find(relPod.uid);
            return focus && std::all_of(focus->children.cbegin(), focus->children.cend(), [](const RelationNode &child) { return child.object.isFound(); });
        }(),
        10000);
    const RelationNode tree = relations.treeOf(relPod);
    const QStringList expected{
        u"Deployment/"_s + deployment.name,
        u"  ReplicaSet/"_s + replicaSet.name(),
        u"    Pod/rel-pod"_s,
        u"      ConfigMap/rel-config [volume]"_s,
        u"      Secret/rel-secret [volume]"_s,
        u"      Secret/rel-secret [env]"_s,
        u"      ServiceAccount/default [serviceAccount]"_s,
        u"      Node/"_s + node + u" [nodeName]"_s,
        u"      Service/"_s + deployment.name + u" [selector]"_s,
    };
    QCOMPARE(shape(tree), expected);
    QVERIFY(tree.object.isFound());
    QCOMPARE(tree.object.uid, deployment.uid);
    const RelationNode *focus = tree.find(relPod.uid);
    QVERIFY(focus && focus->focus);
    QCOMPARE(focus->children.at(0).detail, u"volume config"_s);
    QCOMPARE(focus->children.at(2).detail, u"env PASSWORD of container app"_s);
    QCOMPARE(focus->children.at(5).detail, u"selects app="_s + deployment.name);
    // The edges one by one, as a view would ask for them.
    const RelationEdges owners = relations.ownersOf(relPod);
    QCOMPARE(owners.size(), 1);
    QCOMPARE(owners.constFirst().to.uid, replicaSet.uid());
    QVERIFY(owners.constFirst().to.isFound());
    const RelationEdges implicit = relations.implicitEdgesOf(relPod);
    QCOMPARE(implicit.size(), 6);
    QCOMPARE(implicit.last().from.kind, u"Service"_s);
    QCOMPARE(implicit.last().to.uid, relPod.uid);

    // The Service's own tree lists the pods it selects, rel-pod among them.
    const ObjectRef service = relations.find(QString(), u"Service"_s, ns, deployment.name);
    QVERIFY(service.isFound());
    const RelationNode serviceTree = relations.treeOf(service);
    QVERIFY(serviceTree.find(relPod.uid));
    for (const RelationNode &child : serviceTree.children) {
        QCOMPARE(child.source, RelationEdge::Source::Selector);
        QCOMPARE(child.object.kind, u"Pod"_s);
        QVERIFY(child.object.object.label(u"app"_s) == deployment.name);
    }

    // The other way: the pods using a ConfigMap, a Secret and a Node.
    const ObjectRef config = relations.find(QString(), u"ConfigMap"_s, ns, u"rel-config"_s);
    QVERIFY(config.isFound());
    QCOMPARE(shape(relations.treeOf(config)), (QStringList{u"ConfigMap/rel-config"_s, u"  Pod/rel-pod [volume]"_s}));
    const ObjectRef secret = relations.find(QString(), u"Secret"_s, ns, u"rel-secret"_s);
    QCOMPARE(shape(relations.treeOf(secret)), (QStringList{u"Secret/rel-secret"_s, u"  Pod/rel-pod [volume]"_s, u"  Pod/rel-pod [env]"_s}));
    const ObjectRef nodeRef = relations.find(QString(), u"Node"_s, QString(), node);
    QVERIFY(nodeRef.isFound());
    const RelationNode nodeTree = relations.treeOf(nodeRef);
    QVERIFY(nodeTree.find(relPod.uid));
    for (const RelationNode &child : nodeTree.children) {
        QCOMPARE(child.source, RelationEdge::Source::NodeName);
        QCOMPARE(child.object.object.nodeName(), node);
    }
}

void TestRelations::danglingOwnerIsReported()
{
    const QString ns = deploymentWithPods().namespaceName;
    Cluster *cluster = m_fixture->cluster.get();
    const QJsonObject orphan{{u"metadata"_s,
                              QJsonObject{{u"name"_s, u"orphan"_s},
                                          {u"ownerReferences"_s,
                                           QJsonArray{QJsonObject{{u"apiVersion"_s, u"apps/v1"_s},
                                                                  {u"kind"_s, u"ReplicaSet"_s},
                                                                  {u"name"_s, u"ghost"_s},
                                                                  {u"uid"_s, u"00000000-0000-0000-0000-00000000dead"_s},
                                                                  {u"controller"_s, true}}}}}},
                             {u"spec"_s, QJsonObject{{u"containers"_s, QJsonArray{QJsonObject{{u"name"_s, u"app"_s}, {u"image"_s, u"nginx"_s}}}}}}};
    QCOMPARE(send(cluster, "POST", u"/api/v1/namespaces/%1/pods"_s.arg(ns), orphan), 201);
    RelationService relations(cluster, ns);
    QSignalSpy synced(&relations, &RelationService::synced);
    QVERIFY(synced.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(m_pods->indexer().getByKey(ns + u"/orphan"_s).isValid(), 10000);
    const ObjectRef pod = ObjectRef::of(m_pods->indexer().getByKey(ns + u"/orphan"_s), u"Pod"_s, u"v1"_s);

    const RelationEdges owners = relations.ownersOf(pod);
    QCOMPARE(owners.size(), 1);
    QVERIFY(owners.constFirst().to.isDangling());
    QCOMPARE(owners.constFirst().to.uid, u"00000000-0000-0000-0000-00000000dead"_s);
    // The tree's root is the dangling owner, the pod under it.
    QCOMPARE(shape(relations.treeOf(pod)).mid(0, 2), (QStringList{u"ReplicaSet/ghost!"_s, u"  Pod/orphan"_s}));

    // An owner with the right name and another uid (deleted and made again) is dangling too.
    const KubeObject replicaSet = m_replicaSets->indexer().list().constFirst();
    const KubeObject::OwnerReference stale{u"apps/v1"_s, u"ReplicaSet"_s, replicaSet.name(), u"not-"_s + replicaSet.uid(), true};
    const QJsonObject stalePod{
        {u"metadata"_s,
         QJsonObject{{u"name"_s, u"stale"_s},
                     {u"ownerReferences"_s,
                      QJsonArray{QJsonObject{{u"apiVersion"_s, stale.apiVersion}, {u"kind"_s, stale.kind}, {u"name"_s, stale.name}, {u"uid"_s, stale.uid}}}}}},
        {u"spec"_s, QJsonObject{{u"containers"_s, QJsonArray{QJsonObject{{u"name"_s, u"app"_s}, {u"image"_s, u"nginx"_s}}}}}}};
    QCOMPARE(send(cluster, "POST", u"/api/v1/namespaces/%1/pods"_s.arg(replicaSet.namespaceName()), stalePod), 201);
    QTRY_VERIFY_WITH_TIMEOUT(m_pods->indexer().getByKey(replicaSet.namespaceName() + u"/stale"_s).isValid(), 10000);
    RelationService others(cluster, replicaSet.namespaceName());
    QSignalSpy othersSynced(&others, &RelationService::synced);
    QVERIFY(othersSynced.wait(30000));
    const RelationEdges staleOwners = others.ownersOf(ObjectRef::of(m_pods->indexer().getByKey(replicaSet.namespaceName() + u"/stale"_s), u"Pod"_s, u"v1"_s));
    QCOMPARE(staleOwners.size(), 1);
    QVERIFY(staleOwners.constFirst().to.isDangling());
}

void TestRelations::podEventsNewestFirst()
{
    const ObjectRef deployment = deploymentWithPods();
    const QString ns = deployment.namespaceName;
    Cluster *cluster = m_fixture->cluster.get();
    const KubeObject pod = m_pods->indexer().byIndex(u"namespace"_s, ns).constFirst();
    // Events at known times, written out of order; one carries the pod's uid, one the uid of an
    // earlier pod of the same name (not this pod's), the rest none.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto event = [&](const QString &name, int minutesAgo, const QString &reason, const QString &uid, int count) {
        QJsonObject involved{{u"kind"_s, u"Pod"_s}, {u"namespace"_s, ns}, {u"name"_s, pod.name()}, {u"apiVersion"_s, u"v1"_s}};
        if (!uid.isEmpty()) {
            involved.insert(u"uid"_s, uid);
        }
        const QString time = now.addSecs(-60 * minutesAgo).toString(Qt::ISODate);
        return QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, name}}},
                           {u"involvedObject"_s, involved},
                           {u"reason"_s, reason},
                           {u"message"_s, QString(reason + u" message"_s)},
                           {u"type"_s, reason == u"BackOff"_s ? u"Warning"_s : u"Normal"_s},
                           {u"count"_s, count},
                           {u"firstTimestamp"_s, now.addSecs(-60 * (minutesAgo + 10)).toString(Qt::ISODate)},
                           {u"lastTimestamp"_s, time},
                           {u"source"_s, QJsonObject{{u"component"_s, u"kubelet"_s}}}};
    };
    const QString path = u"/api/v1/namespaces/%1/events"_s.arg(ns);
    QCOMPARE(send(cluster, "POST", path, event(u"rel.1"_s, 30, u"Pulling"_s, QString(), 1)), 201);
    QCOMPARE(send(cluster, "POST", path, event(u"rel.2"_s, 5, u"BackOff"_s, pod.uid(), 7)), 201);
    QCOMPARE(send(cluster, "POST", path, event(u"rel.3"_s, 20, u"Pulled"_s, QString(), 1)), 201);
    QCOMPARE(send(cluster, "POST", path, event(u"rel.4"_s, 1, u"Killing"_s, u"an-earlier-pod"_s, 1)), 201);

    ObjectEvents events(cluster, ns);
    QVERIFY(events.isAvailable());
    QSignalSpy synced(&events, &ObjectEvents::synced);
    QVERIFY(synced.wait(30000));
    const ObjectRef ref = ObjectRef::of(pod, u"Pod"_s, u"v1"_s);
    QTRY_VERIFY_WITH_TIMEOUT(events.eventsFor(ref).size() >= 3, 10000);
    const QList<EventRecord> records = events.eventsFor(ref);
    QStringList mine;
    for (qsizetype i = 0; i < records.size(); ++i) {
        QCOMPARE(records.at(i).objectName, pod.name());
        QVERIFY(records.at(i).reason != u"Killing"_s); // another pod's, by uid
        if (i > 0) {
            QVERIFY(records.at(i - 1).lastSeen >= records.at(i).lastSeen);
        }
        if (records.at(i).event.name().startsWith(u"rel."_s)) {
            mine.append(records.at(i).reason);
        }
    }
    QCOMPARE(mine, (QStringList{u"BackOff"_s, u"Pulled"_s, u"Pulling"_s}));
    const auto backOff = *std::find_if(records.cbegin(), records.cend(), [](const EventRecord &record) { return record.event.name() == u"rel.2"_s; });
    QCOMPARE(backOff.count, 7);
    QCOMPARE(backOff.source, u"kubelet"_s);
    QVERIFY(backOff.isWarning());

    // A new event arrives through changed().
    QSignalSpy changed(&events, &ObjectEvents::changed);
    QCOMPARE(send(cluster, "POST", path, event(u"rel.5"_s, 0, u"Started"_s, pod.uid(), 1)), 201);
    QVERIFY(changed.wait(10000));
    // Newest: its time is the test's start, later than anything the generator wrote before.
    QTRY_COMPARE_WITH_TIMEOUT(events.eventsFor(ref).constFirst().event.name(), u"rel.5"_s, 10000);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRelations)
#include "tst_relations.moc"
