#pragma once

#include "core/controller/processfunctionparameters.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

namespace Cachescope {

class Cluster;
class SharedIndexInformer;

// OwnerInformers are the informers the owner-references check looks owners up in: one per kind
// that owns objects in a cluster (ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob,
// ReplicationController, Node) that the cluster's discovery serves with list and watch, asked
// of the cluster's InformerFactory (so they are shared with every view of those resources) and
// started. Namespaced kinds are watched in `namespaceName` (empty: all namespaces), Nodes in
// the whole cluster. A kind the server lacks is left out: references to it are not judged.
// synced() is emitted once, when every one of them has synced (at once if they already had).
// Thread: the cluster's thread (the GUI thread in the app). Ownership: the informers belong to
// the cluster's factory; lookup() reads their indexers, so whatever uses it (a controller) must
// be stopped before the cluster shuts its informers down.
class OwnerInformers final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OwnerInformers)

public:
    OwnerInformers(Cluster *cluster, const QString &namespaceName, QObject *parent = nullptr);
    ~OwnerInformers() override;

    // kinds() are the owner kinds looked for, whether the server has them or not.
    [[nodiscard]] static QStringList kinds();

    [[nodiscard]] OwnerLookup lookup() const { return m_lookup; }
    // hasSynced() is false once an informer is gone (the cluster shut them down).
    [[nodiscard]] bool hasSynced() const;
    // pendingKinds() are the kinds whose informer has not synced yet.
    [[nodiscard]] QStringList pendingKinds() const;

Q_SIGNALS:
    void synced();

private:
    void checkSynced();

    QList<QPointer<SharedIndexInformer>> m_informers; // owned by the cluster's factory
    QStringList m_kinds; // the kind of each informer
    OwnerLookup m_lookup;
    bool m_announced = false;
};

} // namespace Cachescope
