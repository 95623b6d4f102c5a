#pragma once

#include "core/cache/sharedindexinformer.h"
#include "core/kube/apiresource.h"
#include "core/relations/eventrecord.h"
#include "core/relations/objectref.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace Cachescope {

class Cluster;
class NotificationBatcher;

// ObjectEvents are the Kubernetes Events of objects, from one events informer of a cluster in
// `namespaceName` (empty: all namespaces), shared through the cluster's factory. It resolves
// "events" as kubectl does: core/v1 Events where served (what kubectl events reads), else
// events.k8s.io/v1 — not both, as the two are views of the same objects and would double every
// event. It adds two indexes to the informer: involvedObjectUidIndexName() (involvedObject.uid
// or regarding.uid) and involvedObjectIndexName() ("Kind/namespace/name", for events written
// without the uid, as the simulator's and some controllers' are).
//
// eventsFor() is the events of one object, newest first: those indexed under its uid, plus
// those under its kind and name that carry no uid or the same one (an event of an earlier object
// of the same name is not shown). Works for any kind, custom resources included. changed() is
// emitted (coalesced, at most every 100 ms) when the events change; synced() once the informer
// has synced. Thread: the cluster's thread; the informer belongs to the cluster's factory and
// the object must not outlive the cluster.
class ObjectEvents final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectEvents)

public:
    ObjectEvents(Cluster *cluster, const QString &namespaceName, QObject *parent = nullptr);
    ~ObjectEvents() override;

    [[nodiscard]] static QString involvedObjectUidIndexName();
    [[nodiscard]] static QString involvedObjectIndexName();
    // involvedObjectKey() is the value involvedObjectIndexName() files an object under.
    [[nodiscard]] static QString involvedObjectKey(const QString &kind, const QString &namespaceName, const QString &name);

    // isAvailable() is false when the server serves no events the client may list and watch.
    [[nodiscard]] bool isAvailable() const { return m_informer != nullptr; }
    [[nodiscard]] bool hasSynced() const;
    [[nodiscard]] SharedIndexInformer *informer() const { return m_informer; }

    [[nodiscard]] QList<EventRecord> eventsFor(const ObjectRef &object) const;

Q_SIGNALS:
    void changed();
    void synced();

private:
    QPointer<SharedIndexInformer> m_informer; // owned by the cluster's factory
    NotificationBatcher *m_batcher = nullptr; // owned (child)
    SharedIndexInformer::Registration m_registration;
    QTimer m_changeTimer{this};
};

} // namespace Cachescope
