#pragma once

#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiresource.h"
#include "core/relations/relationedge.h"
#include "core/relations/relationnode.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace Cachescope {

class Cluster;
class NotificationBatcher;

// RelationService answers, from a cluster's informer caches, what an object belongs to and what
// belongs to it: its owners up to the root (each ownerReference looked up in the informer of the
// owner's kind, by name and then uid: no object or another uid is a dangling owner) and its
// dependents down to the leaves (the `owner` uid index of every informer it watches), plus the
// implicit edges (ImplicitReferences: a Pod's Node, volumes, env, ServiceAccount, pull secrets;
// an HPA's target; an Ingress's Services), the selector edges (a Service or PDB selecting
// Pods, an HPA scaling a workload) and the reverse of a Pod's edges (the Pods on a Node; the
// Pods that mount or reference a ConfigMap, Secret, PVC or ServiceAccount), each saying where it
// came from.
//
// On construction it asks the cluster's factory for the informers of the usual kinds in
// `namespaceName` (empty: all namespaces; Nodes always cluster-wide): pods, services (full
// objects: selectors and volumes need the spec), the workload kinds, HPAs, PDBs, Ingresses,
// PVCs and ServiceAccounts, and metadata-only ConfigMaps and Secrets (no secret data is held for
// this). Kinds the server does not serve are skipped. It also watches every other informer of
// the factory in scope, those created later included (a CRD's), and starts an informer for an
// owner kind it meets that it does not watch yet (Unresolved until it syncs). It adds the
// `owner` index to informers that lack it (shared informers gain it for everyone).
//
// changed() is emitted when a cache it reads changed, coalesced (at most every 100 ms), so a
// view can follow live by asking again; synced() each time every watched informer has synced
// after one had not. Lookups read the indexers (thread-safe) and cost what the tree holds; they
// may start informers, hence not const.
// Make it once the cluster is discovered: the kinds resolve through its discovery.
// Thread: the cluster's thread (the GUI thread in the app, the CLI's main thread). Ownership:
// the informers belong to the cluster's factory; the service must not outlive the cluster.
class RelationService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RelationService)

public:
    RelationService(Cluster *cluster, const QString &namespaceName, QObject *parent = nullptr);
    ~RelationService() override;

    [[nodiscard]] QString namespaceName() const { return m_namespace; }
    // hasSynced() is true when every watched informer has synced.
    [[nodiscard]] bool hasSynced() const;
    // watchedResources() are the resources whose informers it reads ("pods", "deployments.apps").
    [[nodiscard]] QStringList watchedResources() const;

    // find() is the cached object of a kind (with its API group) by namespace and name.
    [[nodiscard]] ObjectRef find(const QString &group, const QString &kind, const QString &namespaceName, const QString &name);
    // refOf() is the reference of a cached object, with its kind from discovery.
    [[nodiscard]] ObjectRef refOf(const KubeObject &object, const ApiResource &resource) const;

    // ownersOf() is one edge per ownerReference of `object` (controller first), to the owner
    // found or dangling or unresolved.
    [[nodiscard]] RelationEdges ownersOf(const ObjectRef &object);
    // dependentsOf() are the edges from each object whose ownerReferences name `object`'s uid.
    [[nodiscard]] RelationEdges dependentsOf(const ObjectRef &object) const;
    // podsOf() are the Pods below `object` through owner references (a Deployment's through its
    // ReplicaSets, a CronJob's through its Jobs; a Pod's own children none), oldest first, each
    // once: the `owner` indexes, no list of pods.
    [[nodiscard]] QList<ObjectRef> podsOf(const ObjectRef &object) const;
    // implicitEdgesOf() are the implicit and selector edges of `object` (either direction), their
    // other ends looked up.
    [[nodiscard]] RelationEdges implicitEdgesOf(const ObjectRef &object);
    // treeOf() is the tree kubectl-tree draws, rooted at the top of the owner chain of `object`
    // (controller references first; a dangling owner is the root), with `object` as focus: its
    // dependents down to the leaves and, under it, its implicit edges.
    [[nodiscard]] RelationNode treeOf(const ObjectRef &object);

Q_SIGNALS:
    void changed();
    void synced();

private:
    struct Watched
    {
        QPointer<SharedIndexInformer> informer; // owned by the cluster's factory
        ApiResource resource;
        NotificationBatcher *batcher = nullptr; // owned (child)
        SharedIndexInformer::Registration registration;
    };

    void watchInformer(SharedIndexInformer *informer, const ApiResource &resource);
    void startInformer(const ApiResource &resource, bool metadataOnly);
    bool inScope(const ApiResource &resource, const QString &informerNamespace) const;
    [[nodiscard]] QList<const Watched *> watchedOf(const QString &group, const QString &kind) const;
    [[nodiscard]] ObjectRef lookup(const QString &apiVersion, const QString &kind, const QString &namespaceName, const QString &name, const QString &uid);
    void addDependents(RelationNode &node, QSet<QString> &visited, int depth) const;
    [[nodiscard]] RelationEdges selectorEdgesOf(const ObjectRef &object) const;
    void scheduleChanged();
    void checkSynced();

    QPointer<Cluster> m_cluster; // not owned
    QString m_namespace;
    QList<Watched> m_watched;
    QTimer m_changeTimer{this};
    bool m_announcedSync = false;
};

} // namespace Cachescope
