#pragma once

#include "core/sim/jsontemplate.h"
#include "core/sim/objectstore.h"
#include "core/sim/resourcecatalog.h"
#include "core/sim/storedobject.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QSet>

#include <functional>
#include <random>

class QTimer;

namespace Cachescope::Sim {

// WorkloadGenerator fills an ObjectStore with a believable cluster and keeps it moving.
// populate() creates, deterministically for the seed: namespaces (default, kube-system and N
// application namespaces), nodes (labels, conditions, capacity, addresses), and per
// application deployments → replicasets → pods linked by ownerReferences, with labels,
// nodeName, phases, restarts, conditions, container statuses and realistic `managedFields`
// (a pod is about 5 KiB of JSON, like one of a real cluster), plus services, endpoints,
// configmaps, secrets, serviceaccounts, events, the Widget CustomResourceDefinition and a few
// widgets. Creation times are backdated so ages look lived-in; the pods have run for up to two
// hours (a restarted container's lastState says when its previous instance ran), so their
// generated logs (LogHandler) have a past.
//
// setChurn(rate) then applies about `rate` changes per second: pod status updates (restarts,
// readiness, phase), failing probes, deployment scale ups and downs (with their pods created and
// deleted), pod deletions with replacements, configmap edits. It also plays the controllers a
// cluster has: a deployment scaled through the API (kubectl scale) gets its replicaset and pods
// adjusted, and a pod of a replicaset deleted by a client is replaced.
//
// Events are written as the components would: the scheduler's Scheduled and the kubelet's
// Pulling, Pulled, Created, Started as a pod starts, BackOff on a restart, Killing on any pod
// deletion (API clients' too), the replicaset controller's SuccessfulCreate/SuccessfulDelete and
// the deployment controller's ScalingReplicaSet, with involvedObject (uid included) and source.
// A repeat of the same reason and message about the same object bumps count and lastTimestamp,
// as client-go's EventCorrelator aggregates; the oldest go once there are max(200, pods).
//
// Thread: server thread; the store must outlive it.
class WorkloadGenerator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WorkloadGenerator)
public:
    struct Settings
    {
        int namespaces = 3;
        int nodes = 3;
        int pods = 30;
        quint64 seed = 1;
    };

    WorkloadGenerator(ObjectStore *store, const ResourceCatalog *catalog, const Settings &settings, QObject *parent = nullptr);
    ~WorkloadGenerator() override;

    void populate();
    // Changes per second; 0 stops the churn.
    void setChurn(double eventsPerSecond);
    // One random change, as the churn timer makes them (tests call it directly).
    void churnOnce();
    // Runs the controllers' pending work now instead of on the next event loop turn.
    void settle();
    [[nodiscard]] quint64 changesMade() const { return m_changes; }

private:
    struct Deployment
    {
        QString namespaceName;
        QString name;
        QString hash;
        QString replicaSetName;
        QString replicaSetUid;
        QString uid;
        int replicas = 1;
        QString image;
        // The labels of its pods, tier "backend" and "web": shared by every pod's StoredObject.
        QMap<QString, QString> podLabels[2];
    };
    struct PodRef
    {
        QString namespaceName;
        QString name;
    };

    QJsonObject makeNode(int index);
    // Who an Event is about and who reports it, as in its involvedObject and source.
    struct EventSubject
    {
        QString kind;
        QString namespaceName;
        QString name;
        QString uid;
        QString apiVersion;
        QString fieldPath; // "spec.containers{app}" for a container's events
    };
    struct EventSource
    {
        QString component;
        QString host;
    };

    // A pod as the store holds it, with JsonTemplate slots (PodSlot) for what varies: the
    // source of m_podTemplate.
    QJsonObject podTemplateObject(const ResourceType &type) const;
    // An object of a deployment (its Deployment, ReplicaSet, Service, Endpoints, ConfigMap) from
    // the template of its kind, built on first use by build() with slot markers: slots 0 to 2
    // are the uid, resourceVersion and creationTimestamp that create() would add, `values` fill
    // slots 2 on, and values 1 and 2 are its name and namespace.
    using SlotMarker = std::function<QString(int)>;
    ObjectStore::WriteResult createTemplated(const QString &typeId,
                                             const QList<QJsonValue> &values,
                                             const QMap<QString, QString> &labels,
                                             const std::function<QJsonObject(const SlotMarker &)> &build);
    // A managedFields entry; `time` empty: now.
    QJsonObject managedFields(
        const QString &manager, const QString &operation, const QString &subresource, const QJsonObject &fields, const QString &time = QString()) const;
    QString randomSuffix(int length);
    QString backdated(int maxAgeSeconds);
    ResourceType type(const QString &id) const;
    void createPodFor(const Deployment &deployment);
    // An Event as the event recorder of client-go writes it: a repeat of the same reason and
    // message about the same object bumps count and lastTimestamp of the Event already there
    // instead of adding one (its EventCorrelator's aggregation).
    void recordEvent(
        const EventSubject &subject, const QString &reason, const QString &message, const EventSource &source, const QString &type = QStringLiteral("Normal"));
    // An event of a pod's container "app", reported by the kubelet of its node.
    void recordContainerEvent(const StoredObject &pod, const QString &reason, const QString &message, const QString &type = QStringLiteral("Normal"));
    // What the scheduler and the kubelet report as a pod starts: Scheduled, Pulling, Pulled,
    // Created, Started (a pod still waiting for its image stops after Pulling).
    void recordPodStart(const StoredObject &pod, const QString &image);
    void recordPendingEvents();
    void scaleDeployment(Deployment &deployment, int replicas);
    void updatePodStatus(const PodRef &pod);
    void onStoreEvent(const StoreEventPtr &event);
    void reconcile();

    ObjectStore *m_store; // not owned
    const ResourceCatalog *m_catalog; // not owned
    Settings m_settings;
    std::mt19937_64 m_random;
    QStringList m_nodes;
    QList<Deployment> m_deployments;
    JsonTemplate m_podTemplate; // built on the first pod
    QHash<QString, JsonTemplate> m_templates; // createTemplated()'s, by resource id
    QHash<QString, qsizetype> m_deploymentIndex; // "ns/name" -> index in m_deployments
    QHash<QString, qsizetype> m_hashIndex; // pod-template-hash -> index in m_deployments
    QSet<qsizetype> m_dirty; // deployments reconcile() must look at
    // Deployment index -> keys of its pods, oldest first. A handful each: a list, as a QSet per
    // deployment cost a hash table of over a kilobyte, a third of a million of them at 1M pods.
    QHash<qsizetype, QStringList> m_podsOf;
    QList<PodRef> m_pods; // every pod in the store, for random picks
    QHash<QString, qsizetype> m_podIndex; // key -> index in m_pods
    QList<PodRef> m_events; // oldest first, for expiry
    QHash<QString, QString> m_eventByCorrelation; // correlation key -> name of its Event
    QHash<QString, QString> m_correlationOf; // "namespace/name" of an Event -> its correlation key
    QList<ObjectPtr> m_killedPods; // deleted pods whose Killing event is pending
    QTimer *m_eventTimer = nullptr; // owned (child)
    bool m_populating = false;
    QTimer *m_churnTimer = nullptr; // owned (child)
    QTimer *m_reconcileTimer = nullptr; // owned (child)
    double m_churnRate = 0;
    double m_churnCarry = 0;
    quint64 m_changes = 0;
    int m_eventSerial = 0;
    bool m_reconciling = false;
};

} // namespace Cachescope::Sim
