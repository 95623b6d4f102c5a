#include "core/relations/relationservice.h"

#include "core/cache/cluster.h"
#include "core/cache/indexfunctions.h"
#include "core/cache/informerfactory.h"
#include "core/cache/notificationbatcher.h"
#include "core/kube/labelselector.h"
#include "core/relations/implicitreferences.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <tuple>
#include <variant>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

struct DefaultResource
{
    QString name;
    bool metadataOnly = false;
};

// The kinds a tree usually runs through. ConfigMaps and Secrets are only ever an edge's end:
// their names are enough, and a metadata-only informer keeps no secret data in memory.
const QList<DefaultResource> defaultResources{
    {u"pods"_s},
    {u"services"_s},
    {u"nodes"_s},
    {u"replicasets.apps"_s},
    {u"deployments.apps"_s},
    {u"statefulsets.apps"_s},
    {u"daemonsets.apps"_s},
    {u"jobs.batch"_s},
    {u"cronjobs.batch"_s},
    {u"replicationcontrollers"_s},
    {u"horizontalpodautoscalers.autoscaling"_s},
    {u"poddisruptionbudgets.policy"_s},
    {u"ingresses.networking.k8s.io"_s},
    {u"persistentvolumeclaims"_s},
    {u"serviceaccounts"_s},
    {u"configmaps"_s, true},
    {u"secrets"_s, true},
};

// Watch events of several informers often come together (a scale-up adds a ReplicaSet's update
// and its pods); one changed() per 100 ms keeps a view live without rebuilding a tree per event.
constexpr auto changeCoalescing = std::chrono::milliseconds(100);
// Owner chains are short (CronJob → Job → Pod); a longer one is a reference cycle.
constexpr int maxDepth = 16;

QString groupOf(const QString &apiVersion)
{
    const qsizetype slash = apiVersion.indexOf(u'/');
    return slash < 0 ? QString() : apiVersion.left(slash);
}

QString storeKey(const QString &namespaceName, const QString &name)
{
    return namespaceName.isEmpty() ? name : namespaceName + u'/' + name;
}

// selectorOf() reads a metav1.LabelSelector (matchLabels and matchExpressions) through the one
// label selector grammar; nothing for a null or malformed selector, which selects nothing.
std::optional<LabelSelector> selectorOf(const QJsonValue &value)
{
    if (!value.isObject()) {
        return std::nullopt;
    }
    QStringList requirements;
    const QJsonObject matchLabels = value[u"matchLabels"_s].toObject();
    for (auto it = matchLabels.begin(); it != matchLabels.end(); ++it) {
        requirements.append(it.key() + u'=' + it.value().toString());
    }
    const QJsonArray expressions = value[u"matchExpressions"_s].toArray();
    for (const QJsonValue &expression : expressions) {
        const QString key = expression[u"key"_s].toString();
        const QString op = expression[u"operator"_s].toString();
        QStringList values;
        for (const QJsonValue &item : expression[u"values"_s].toArray()) {
            values.append(item.toString());
        }
        if (op == u"In"_s) {
            requirements.append(key + u" in ("_s + values.join(u',') + u')');
        } else if (op == u"NotIn"_s) {
            requirements.append(key + u" notin ("_s + values.join(u',') + u')');
        } else if (op == u"Exists"_s) {
            requirements.append(key);
        } else if (op == u"DoesNotExist"_s) {
            requirements.append(u'!' + key);
        } else {
            return std::nullopt;
        }
    }
    auto parsed = LabelSelector::parse(requirements.join(u','));
    if (!std::holds_alternative<LabelSelector>(parsed)) {
        return std::nullopt;
    }
    return std::get<LabelSelector>(parsed);
}

// A Service's spec.selector is a plain map; an empty one selects nothing (it has no endpoints
// managed for it), unlike an empty LabelSelector.
std::optional<LabelSelector> serviceSelectorOf(const QJsonValue &value)
{
    const QJsonObject map = value.toObject();
    if (map.isEmpty()) {
        return std::nullopt;
    }
    QJsonObject wrapped{{u"matchLabels"_s, map}};
    return selectorOf(wrapped);
}

QJsonObject parsed(const KubeObject &object)
{
    return QJsonDocument::fromJson(object.json()).object();
}

} // namespace

RelationService::RelationService(Cluster *cluster, const QString &namespaceName, QObject *parent)
    : QObject(parent)
    , m_cluster(cluster)
    , m_namespace(namespaceName)
{
    m_changeTimer.setSingleShot(true);
    m_changeTimer.setInterval(changeCoalescing);
    connect(&m_changeTimer, &QTimer::timeout, this, &RelationService::changed);

    InformerFactory *factory = cluster->informers();
    for (const DefaultResource &wanted : defaultResources) {
        const auto resolved = cluster->discovery().resolve(wanted.name);
        if (const ApiResource *resource = std::get_if<ApiResource>(&resolved)) {
            startInformer(*resource, wanted.metadataOnly);
        }
    }
    // Informers others made (a CRD's table, an owner kind asked for later) count too.
    const QList<InformerKey> keys = factory->keys();
    for (const InformerKey &key : keys) {
        if (inScope(key.resource, key.namespaceName)) {
            watchInformer(factory->find(key), key.resource);
        }
    }
    connect(factory, &InformerFactory::informerCreated, this, [this](SharedIndexInformer *informer, const InformerKey &key) {
        if (inScope(key.resource, key.namespaceName)) {
            watchInformer(informer, key.resource);
        }
    });
    factory->start();
    // Queued, so that a caller connects to synced() before it is emitted for informers that had
    // synced already (as OwnerInformers does).
    QMetaObject::invokeMethod(this, &RelationService::checkSynced, Qt::QueuedConnection);
}

RelationService::~RelationService()
{
    for (const Watched &watched : std::as_const(m_watched)) {
        if (watched.informer) {
            watched.informer->removeEventHandler(watched.registration);
        }
    }
}

bool RelationService::inScope(const ApiResource &resource, const QString &informerNamespace) const
{
    if (!resource.namespaced) {
        return true;
    }
    // An informer of all namespaces covers any; one of a namespace only that namespace.
    return informerNamespace.isEmpty() || informerNamespace == m_namespace;
}

void RelationService::startInformer(const ApiResource &resource, bool metadataOnly)
{
    if (!m_cluster || !resource.supports(u"list"_s) || !resource.supports(u"watch"_s)) {
        return;
    }
    InformerKey key;
    key.resource = resource;
    key.namespaceName = resource.namespaced ? m_namespace : QString();
    key.metadataOnly = metadataOnly;
    // informer() emits informerCreated() for a new one, which watches it.
    SharedIndexInformer *informer = m_cluster->informers()->informer(key);
    watchInformer(informer, resource);
}

void RelationService::watchInformer(SharedIndexInformer *informer, const ApiResource &resource)
{
    if (informer == nullptr) {
        return;
    }
    for (const Watched &watched : std::as_const(m_watched)) {
        if (watched.informer == informer) {
            return;
        }
    }
    if (!informer->indexer().hasIndex(ownerUidIndexName())) {
        // Only pods get the owner index by default; a uid index cannot fail to build.
        (void)informer->addIndexers({{ownerUidIndexName(), ownerUidIndexFunction()}});
    }
    Watched watched;
    watched.informer = informer;
    watched.resource = resource;
    watched.batcher = new NotificationBatcher(NotificationBatcher::Mode::Coalesce, this);
    connect(watched.batcher, &NotificationBatcher::notificationsReady, this, &RelationService::scheduleChanged);
    watched.registration = informer->addEventHandler(watched.batcher->handler());
    connect(informer, &SharedIndexInformer::synced, this, &RelationService::checkSynced);
    connect(informer, &QObject::destroyed, this, &RelationService::scheduleChanged);
    m_announcedSync = false;
    m_watched.append(watched);
    // An informer that had synced already emits nothing more: check once the caller connected.
    QMetaObject::invokeMethod(this, &RelationService::checkSynced, Qt::QueuedConnection);
}

bool RelationService::hasSynced() const
{
    return std::all_of(m_watched.cbegin(), m_watched.cend(), [](const Watched &watched) { return watched.informer && watched.informer->hasSynced(); });
}

QStringList RelationService::watchedResources() const
{
    QStringList names;
    for (const Watched &watched : m_watched) {
        if (watched.informer) {
            names.append(watched.informer->name());
        }
    }
    return names;
}

void RelationService::scheduleChanged()
{
    if (!m_changeTimer.isActive()) {
        m_changeTimer.start();
    }
}

void RelationService::checkSynced()
{
    if (!m_announcedSync && hasSynced()) {
        m_announcedSync = true;
        Q_EMIT synced();
        scheduleChanged();
    }
}

QList<const RelationService::Watched *> RelationService::watchedOf(const QString &group, const QString &kind) const
{
    QList<const Watched *> found;
    for (const Watched &watched : m_watched) {
        if (watched.informer && watched.resource.kind == kind && watched.resource.gvr.group() == group) {
            found.append(&watched);
        }
    }
    return found;
}

ObjectRef RelationService::refOf(const KubeObject &object, const ApiResource &resource) const
{
    return ObjectRef::of(object, resource.kind, resource.gvr.groupVersion());
}

ObjectRef RelationService::lookup(const QString &apiVersion, const QString &kind, const QString &namespaceName, const QString &name, const QString &uid)
{
    ObjectRef ref;
    ref.apiVersion = apiVersion;
    ref.kind = kind;
    ref.namespaceName = namespaceName;
    ref.name = name;
    ref.uid = uid;
    const QString group = groupOf(apiVersion);
    QList<const Watched *> informers = watchedOf(group, kind);
    if (informers.isEmpty() && m_cluster) {
        // A kind met for the first time (a CRD owning pods): watch it; the answer comes with
        // changed() once its informer synced.
        const QList<ApiResource> resources = m_cluster->discovery().preferredResources();
        for (const ApiResource &resource : resources) {
            if (resource.kind == kind && resource.gvr.group() == group && !resource.gvr.resource().contains(u'/')) {
                startInformer(resource, false);
                m_cluster->informers()->start();
                break;
            }
        }
        return ref;
    }
    bool allSynced = true;
    for (const Watched *watched : std::as_const(informers)) {
        const QString key = storeKey(watched->resource.namespaced ? namespaceName : QString(), name);
        const KubeObject object = watched->informer->indexer().getByKey(key);
        if (object.isValid() && (uid.isEmpty() || object.uid() == uid)) {
            return refOf(object, watched->resource);
        }
        allSynced = allSynced && watched->informer->hasSynced();
    }
    ref.resolution = allSynced ? ObjectRef::Resolution::Dangling : ObjectRef::Resolution::Unresolved;
    return ref;
}

ObjectRef RelationService::find(const QString &group, const QString &kind, const QString &namespaceName, const QString &name)
{
    const QString apiVersion = group.isEmpty() ? u"v1"_s : group + u"/v1"_s;
    return lookup(apiVersion, kind, namespaceName, name, QString());
}

RelationEdges RelationService::ownersOf(const ObjectRef &object)
{
    RelationEdges edges;
    QList<KubeObject::OwnerReference> references = object.object.ownerReferences();
    // The controller first: it is the chain a tree follows.
    std::stable_partition(references.begin(), references.end(), [](const KubeObject::OwnerReference &reference) { return reference.controller; });
    for (const KubeObject::OwnerReference &reference : std::as_const(references)) {
        RelationEdge edge;
        edge.from = object;
        edge.to = lookup(reference.apiVersion, reference.kind, object.namespaceName, reference.name, reference.uid);
        edge.source = RelationEdge::Source::OwnerReference;
        edge.detail = reference.controller ? u"controller"_s : QString();
        edges.append(edge);
    }
    return edges;
}

RelationEdges RelationService::dependentsOf(const ObjectRef &object) const
{
    RelationEdges edges;
    if (object.uid.isEmpty()) {
        return edges;
    }
    QSet<QString> seen;
    for (const Watched &watched : m_watched) {
        if (!watched.informer) {
            continue;
        }
        const QList<KubeObject> dependents = watched.informer->indexer().byIndex(ownerUidIndexName(), object.uid);
        for (const KubeObject &dependent : dependents) {
            if (seen.contains(dependent.uid())) {
                continue; // the same resource through two informers (one namespace and all)
            }
            seen.insert(dependent.uid());
            RelationEdge edge;
            edge.from = refOf(dependent, watched.resource);
            edge.to = object;
            edge.source = RelationEdge::Source::OwnerReference;
            const auto controller = dependent.controllerReference();
            edge.detail = controller && controller->uid == object.uid ? u"controller"_s : QString();
            edges.append(edge);
        }
    }
    std::sort(edges.begin(), edges.end(), [](const RelationEdge &a, const RelationEdge &b) {
        return std::tie(a.from.kind, a.from.namespaceName, a.from.name) < std::tie(b.from.kind, b.from.namespaceName, b.from.name);
    });
    return edges;
}

QList<ObjectRef> RelationService::podsOf(const ObjectRef &object) const
{
    QList<ObjectRef> pods;
    QSet<QString> visited{object.uid};
    QList<ObjectRef> level{object};
    for (int depth = 0; depth < maxDepth && !level.isEmpty(); ++depth) {
        QList<ObjectRef> next;
        for (const ObjectRef &owner : std::as_const(level)) {
            const RelationEdges edges = dependentsOf(owner);
            for (const RelationEdge &edge : edges) {
                if (visited.contains(edge.from.uid)) {
                    continue;
                }
                visited.insert(edge.from.uid);
                if (edge.from.kind == u"Pod"_s && edge.from.apiVersion == u"v1"_s) {
                    pods.append(edge.from);
                } else {
                    next.append(edge.from);
                }
            }
        }
        level = next;
    }
    std::stable_sort(pods.begin(), pods.end(), [](const ObjectRef &a, const ObjectRef &b) {
        return std::make_tuple(a.object.creationTimestamp(), a.name) < std::make_tuple(b.object.creationTimestamp(), b.name);
    });
    return pods;
}

RelationEdges RelationService::selectorEdgesOf(const ObjectRef &object) const
{
    using Source = RelationEdge::Source;
    RelationEdges edges;
    const QString ns = object.namespaceName;
    const auto pods = watchedOf(QString(), u"Pod"_s);
    auto podsIn = [&](const QString &namespaceName) {
        QList<std::pair<KubeObject, const Watched *>> found;
        QSet<QString> seen;
        for (const Watched *watched : pods) {
            const QList<KubeObject> all = watched->informer->indexer().list();
            for (const KubeObject &pod : all) {
                if (pod.namespaceName() == namespaceName && !seen.contains(pod.uid())) {
                    seen.insert(pod.uid());
                    found.append({pod, watched});
                }
            }
        }
        return found;
    };
    auto objectsOf = [&](const QString &group, const QString &kind) {
        QList<std::pair<KubeObject, const Watched *>> found;
        for (const Watched *watched : watchedOf(group, kind)) {
            const QList<KubeObject> all = watched->informer->indexer().list();
            for (const KubeObject &candidate : all) {
                if (candidate.namespaceName() == ns) {
                    found.append({candidate, watched});
                }
            }
        }
        return found;
    };
    auto edge = [](const ObjectRef &from, const ObjectRef &to, Source source, const QString &detail) {
        RelationEdge made;
        made.from = from;
        made.to = to;
        made.source = source;
        made.detail = detail;
        return made;
    };

    if (object.kind == u"Service"_s || object.kind == u"PodDisruptionBudget"_s) {
        const QJsonObject spec = parsed(object.object).value(u"spec"_s).toObject();
        const auto selector = object.kind == u"Service"_s ? serviceSelectorOf(spec.value(u"selector"_s)) : selectorOf(spec.value(u"selector"_s));
        if (selector) {
            for (const auto &[pod, watched] : podsIn(ns)) {
                if (selector->matches(pod.labels())) {
                    edges.append(edge(object, refOf(pod, watched->resource), Source::Selector, u"selects "_s + selector->toString()));
                }
            }
        }
    } else if (object.kind == u"Pod"_s) {
        for (const auto &[service, watched] : objectsOf(QString(), u"Service"_s)) {
            const auto selector = serviceSelectorOf(service.value(u"spec.selector"_s));
            if (selector && selector->matches(object.object.labels())) {
                edges.append(edge(refOf(service, watched->resource), object, Source::Selector, u"selects "_s + selector->toString()));
            }
        }
        for (const auto &[budget, watched] : objectsOf(u"policy"_s, u"PodDisruptionBudget"_s)) {
            const auto selector = selectorOf(budget.value(u"spec.selector"_s));
            if (selector && selector->matches(object.object.labels())) {
                edges.append(edge(refOf(budget, watched->resource), object, Source::Selector, u"selects "_s + selector->toString()));
            }
        }
    }
    // The reverse of a Pod's implicit edges: the pods scheduled on a Node, and the pods that
    // mount or reference a ConfigMap, Secret, PVC or ServiceAccount (each pod's spec is read).
    static const QStringList podReferenced{u"ConfigMap"_s, u"Secret"_s, u"PersistentVolumeClaim"_s, u"ServiceAccount"_s};
    if (object.kind == u"Node"_s && object.apiVersion == u"v1"_s) {
        QSet<QString> seen;
        for (const Watched *watched : pods) {
            const Indexer &indexer = watched->informer->indexer();
            const QList<KubeObject> scheduled = indexer.hasIndex(nodeNameIndexName()) ? indexer.byIndex(nodeNameIndexName(), object.name) : QList<KubeObject>();
            for (const KubeObject &pod : scheduled) {
                if (!seen.contains(pod.uid())) {
                    seen.insert(pod.uid());
                    edges.append(edge(refOf(pod, watched->resource), object, Source::NodeName, u"nodeName"_s));
                }
            }
        }
    } else if (podReferenced.contains(object.kind) && groupOf(object.apiVersion).isEmpty()) {
        for (const auto &[pod, watched] : podsIn(ns)) {
            const ObjectRef podRef = refOf(pod, watched->resource);
            const RelationEdges references = ImplicitReferences::of(podRef);
            for (const RelationEdge &reference : references) {
                if (reference.to.kind == object.kind && reference.to.name == object.name) {
                    edges.append(edge(podRef, object, reference.source, reference.detail));
                }
            }
        }
    }
    // Selected and referencing objects in name order, as dependents are.
    std::stable_sort(edges.begin(), edges.end(), [](const RelationEdge &a, const RelationEdge &b) {
        return std::tie(a.from.kind, a.from.name, a.to.kind, a.to.name) < std::tie(b.from.kind, b.from.name, b.to.kind, b.to.name);
    });
    // An HPA above the workload it scales.
    for (const auto &[autoscaler, watched] : objectsOf(u"autoscaling"_s, u"HorizontalPodAutoscaler"_s)) {
        const QJsonValue target = autoscaler.value(u"spec.scaleTargetRef"_s);
        if (target[u"kind"_s].toString() == object.kind && target[u"name"_s].toString() == object.name &&
            groupOf(target[u"apiVersion"_s].toString()) == groupOf(object.apiVersion)) {
            edges.append(edge(refOf(autoscaler, watched->resource), object, Source::ScaleTarget, u"scaleTargetRef"_s));
        }
    }
    return edges;
}

RelationEdges RelationService::implicitEdgesOf(const ObjectRef &object)
{
    RelationEdges edges = ImplicitReferences::of(object);
    for (RelationEdge &edge : edges) {
        edge.to = lookup(edge.to.apiVersion, edge.to.kind, edge.to.namespaceName, edge.to.name, QString());
    }
    edges.append(selectorEdgesOf(object));
    return edges;
}

void RelationService::addDependents(RelationNode &node, QSet<QString> &visited, int depth) const
{
    if (depth >= maxDepth) {
        return;
    }
    const RelationEdges edges = dependentsOf(node.object);
    for (const RelationEdge &edge : edges) {
        if (visited.contains(edge.from.uid)) {
            continue;
        }
        visited.insert(edge.from.uid);
        RelationNode child;
        child.object = edge.from;
        child.source = edge.source;
        child.detail = edge.detail;
        addDependents(child, visited, depth + 1);
        node.children.append(child);
    }
}

RelationNode RelationService::treeOf(const ObjectRef &object)
{
    RelationNode focus;
    focus.object = object;
    focus.focus = true;
    QSet<QString> visited{object.uid};
    addDependents(focus, visited, 0);
    const RelationEdges implicit = implicitEdgesOf(object);
    for (const RelationEdge &edge : implicit) {
        RelationNode child;
        // The end that is not the focus object.
        child.object = edge.from.uid == object.uid ? edge.to : edge.from;
        child.source = edge.source;
        child.detail = edge.detail;
        focus.children.append(child);
    }

    // Up the owner chain, controller first; a dangling or unresolved owner ends it.
    RelationNode tree = focus;
    ObjectRef current = object;
    for (int depth = 0; depth < maxDepth; ++depth) {
        const RelationEdges owners = ownersOf(current);
        if (owners.isEmpty() || visited.contains(owners.constFirst().to.uid)) {
            break;
        }
        const RelationEdge &owner = owners.constFirst();
        tree.source = RelationEdge::Source::OwnerReference;
        tree.detail = owner.detail;
        RelationNode parent;
        parent.object = owner.to;
        parent.children.append(tree);
        visited.insert(owner.to.uid);
        tree = parent;
        if (!owner.to.isFound()) {
            break;
        }
        current = owner.to;
    }
    return tree;
}

} // namespace Cachescope
