#include "core/sim/workloadgenerator.h"

#include "core/sim/jsonwriter.h"
#include "core/sim/objectstore.h"
#include "core/util/rfc3339.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
const QStringList applicationNames{u"frontend"_s,
                                   u"checkout"_s,
                                   u"payments"_s,
                                   u"catalog"_s,
                                   u"search"_s,
                                   u"cart"_s,
                                   u"auth"_s,
                                   u"orders"_s,
                                   u"shipping"_s,
                                   u"reviews"_s,
                                   u"inventory"_s,
                                   u"mailer"_s};
const QStringList namespaceNames{u"shop"_s, u"data"_s, u"monitoring"_s, u"platform"_s, u"payments"_s, u"search"_s};
const QStringList images{u"registry.example.com/shop/web:1.14.2"_s,
                         u"registry.example.com/shop/api:2.3.0"_s,
                         u"docker.io/library/nginx:1.27"_s,
                         u"docker.io/library/redis:7.2"_s,
                         u"ghcr.io/example/worker:0.9.1"_s};

QString timestamp(const QDateTime &time)
{
    return rfc3339FromSecsSinceEpoch(time.toSecsSinceEpoch());
}

QString now()
{
    return rfc3339FromSecsSinceEpoch(QDateTime::currentSecsSinceEpoch());
}

QJsonObject condition(const QString &type, const QString &status, const QString &time)
{
    return QJsonObject{{u"type"_s, type}, {u"status"_s, status}, {u"lastProbeTime"_s, QJsonValue::Null}, {u"lastTransitionTime"_s, time}};
}

// The slots of the pod template (podTemplateObject()): what varies from one pod to the next.
enum PodSlot {
    Name,
    Uid,
    ResourceVersion,
    Time, // creation, start and the conditions' transitions
    GenerateName,
    Namespace,
    App,
    TemplateHash,
    Tier,
    ReplicaSetName,
    ReplicaSetUid,
    ReplicaSetUidText, // in a managedFields key
    ManagedTime,
    Image,
    NodeName,
    Phase,
    ReadyStatus, // "True" or "False" of Ready and ContainersReady
    HostIp,
    PodIp,
    PodIpText, // in a managedFields key
    State,
    LastState,
    Running, // ready and started
    RestartCount,
    ImageId,
    ContainerId,
    PodSlotCount
};

// The status the deployment controller writes once `replicas` pods are ready.
QJsonObject deploymentStatus(const QJsonValue &observedGeneration, const QJsonValue &replicas)
{
    return QJsonObject{{u"observedGeneration"_s, observedGeneration},
                       {u"replicas"_s, replicas},
                       {u"updatedReplicas"_s, replicas},
                       {u"readyReplicas"_s, replicas},
                       {u"availableReplicas"_s, replicas},
                       {u"conditions"_s,
                        QJsonArray{QJsonObject{{u"type"_s, u"Available"_s},
                                               {u"status"_s, u"True"_s},
                                               {u"reason"_s, u"MinimumReplicasAvailable"_s},
                                               {u"message"_s, u"Deployment has minimum availability."_s}}}}};
}

// The string `text` as JSON, quoted, for a value slot of a JsonTemplate.
QByteArray jsonString(QStringView text)
{
    QByteArray out;
    out.reserve(text.size() + 2);
    JsonWriter::appendString(out, text);
    return out;
}

// The escaped text without quotes, for a slot inside a longer string.
QByteArray jsonText(QStringView text)
{
    return jsonString(text).chopped(1).mid(1);
}
} // namespace

WorkloadGenerator::WorkloadGenerator(ObjectStore *store, const ResourceCatalog *catalog, const Settings &settings, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_catalog(catalog)
    , m_settings(settings)
    , m_random(settings.seed)
{
    m_churnTimer = new QTimer(this);
    // 20 ms ticks: smooth enough for a UI to look live, coarse enough that a rate of 100k/s is
    // 2000 changes per tick rather than a timer storm.
    m_churnTimer->setInterval(20);
    connect(m_churnTimer, &QTimer::timeout, this, [this] {
        m_churnCarry += m_churnRate * m_churnTimer->interval() / 1000.0;
        while (m_churnCarry >= 1.0) {
            m_churnCarry -= 1.0;
            churnOnce();
        }
    });
    m_reconcileTimer = new QTimer(this);
    m_reconcileTimer->setSingleShot(true);
    m_reconcileTimer->setInterval(0);
    connect(m_reconcileTimer, &QTimer::timeout, this, &WorkloadGenerator::reconcile);
    // Events about a deletion are written after the delete's own listeners have run, not from
    // inside them.
    m_eventTimer = new QTimer(this);
    m_eventTimer->setSingleShot(true);
    m_eventTimer->setInterval(0);
    connect(m_eventTimer, &QTimer::timeout, this, &WorkloadGenerator::recordPendingEvents);
    QPointer<WorkloadGenerator> guard(this);
    m_store->addListener([guard](const StoreEventPtr &event) {
        if (guard)
            guard->onStoreEvent(event);
    });
}

WorkloadGenerator::~WorkloadGenerator() = default;

ResourceType WorkloadGenerator::type(const QString &id) const
{
    return m_catalog->findById(id);
}

QString WorkloadGenerator::randomSuffix(int length)
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    QString result;
    for (int i = 0; i < length; ++i)
        result += QLatin1Char(alphabet[m_random() % (sizeof(alphabet) - 1)]);
    return result;
}

QString WorkloadGenerator::backdated(int maxAgeSeconds)
{
    return timestamp(QDateTime::currentDateTimeUtc().addSecs(-qint64(m_random() % quint64(qMax(1, maxAgeSeconds)))));
}

QJsonObject WorkloadGenerator::managedFields(
    const QString &manager, const QString &operation, const QString &subresource, const QJsonObject &fields, const QString &time) const
{
    QJsonObject entry{{u"manager"_s, manager},
                      {u"operation"_s, operation},
                      {u"apiVersion"_s, u"v1"_s},
                      {u"time"_s, time.isEmpty() ? now() : time},
                      {u"fieldsType"_s, u"FieldsV1"_s},
                      {u"fieldsV1"_s, fields}};
    if (!subresource.isEmpty())
        entry.insert(u"subresource"_s, subresource);
    return entry;
}

void WorkloadGenerator::recordEvent(
    const EventSubject &subject, const QString &reason, const QString &message, const EventSource &source, const QString &eventType)
{
    const ResourceType events = type(u"events"_s);
    const QString time = now();
    const QString correlation =
        QStringList{
            subject.kind, subject.namespaceName, subject.name, subject.uid, subject.fieldPath, reason, message, source.component, source.host, eventType}
            .join(u'\x1f');
    const QString namespaceName = subject.namespaceName.isEmpty() ? u"default"_s : subject.namespaceName;
    if (const auto it = m_eventByCorrelation.constFind(correlation); it != m_eventByCorrelation.cend()) {
        if (const ObjectPtr stored = m_store->get(events, namespaceName, *it)) {
            QJsonObject event = QJsonDocument::fromJson(stored->json).object();
            event.insert(u"count"_s, event.value(u"count").toInt(1) + 1);
            event.insert(u"lastTimestamp"_s, time);
            if (m_store->update(events, event).ok())
                return;
        }
    }
    const QString eventName = subject.name + u'.' + QString::number(0x17f000000000LL + (++m_eventSerial), 16);
    QJsonObject involved{{u"kind"_s, subject.kind}, {u"name"_s, subject.name}, {u"uid"_s, subject.uid}, {u"apiVersion"_s, subject.apiVersion}};
    if (!subject.namespaceName.isEmpty())
        involved.insert(u"namespace"_s, subject.namespaceName);
    if (!subject.fieldPath.isEmpty())
        involved.insert(u"fieldPath"_s, subject.fieldPath);
    QJsonObject sourceObject{{u"component"_s, source.component}};
    if (!source.host.isEmpty())
        sourceObject.insert(u"host"_s, source.host);
    const QJsonObject event{
        {u"metadata"_s, QJsonObject{{u"name"_s, eventName}, {u"namespace"_s, namespaceName}}},
        {u"involvedObject"_s, involved},
        {u"reason"_s, reason},
        {u"message"_s, message},
        {u"source"_s, sourceObject},
        {u"firstTimestamp"_s, time},
        {u"lastTimestamp"_s, time},
        {u"count"_s, 1},
        {u"type"_s, eventType},
        {u"eventTime"_s, QJsonValue::Null},
        {u"reportingComponent"_s, source.component},
        {u"reportingInstance"_s, source.host},
    };
    if (m_store->create(events, event).ok()) {
        m_events.append({namespaceName, eventName});
        m_eventByCorrelation.insert(correlation, eventName);
        m_correlationOf.insert(namespaceName + u'/' + eventName, correlation);
    }
    // Events expire in a real cluster (an hour by default); here the oldest go once there are
    // many, so a long churn does not grow the store without bound.
    while (m_events.size() > qMax(200, m_settings.pods)) {
        const PodRef oldest = m_events.takeFirst();
        m_eventByCorrelation.remove(m_correlationOf.take(oldest.namespaceName + u'/' + oldest.name));
        (void)m_store->remove(events, oldest.namespaceName, oldest.name);
    }
}

void WorkloadGenerator::recordContainerEvent(const StoredObject &pod, const QString &reason, const QString &message, const QString &eventType)
{
    recordEvent({u"Pod"_s, pod.namespaceName, pod.name, pod.uid, u"v1"_s, u"spec.containers{app}"_s}, reason, message, {u"kubelet"_s, pod.nodeName}, eventType);
}

void WorkloadGenerator::recordPodStart(const StoredObject &pod, const QString &image)
{
    recordEvent({u"Pod"_s, pod.namespaceName, pod.name, pod.uid, u"v1"_s, QString()},
                u"Scheduled"_s,
                u"Successfully assigned %1/%2 to %3"_s.arg(pod.namespaceName, pod.name, pod.nodeName),
                {u"default-scheduler"_s, QString()});
    recordContainerEvent(pod, u"Pulling"_s, u"Pulling image \"%1\""_s.arg(image));
    if (pod.phase == u"Pending")
        return;
    // Pull times and sizes from the name, not the generator's random sequence, which the
    // objects of a seed depend on.
    const size_t hash = qHash(pod.name, 0);
    const QString pull = QString::number(0.4 + double(hash % 2600) / 1000.0, 'f', 3);
    recordContainerEvent(
        pod,
        u"Pulled"_s,
        u"Successfully pulled image \"%1\" in %2s (%2s including waiting). Image size: %3 bytes."_s.arg(image, pull).arg(20000000 + hash % 90000000));
    recordContainerEvent(pod, u"Created"_s, u"Created container: app"_s);
    recordContainerEvent(pod, u"Started"_s, u"Started container app"_s);
}

void WorkloadGenerator::recordPendingEvents()
{
    const QList<ObjectPtr> killed = std::exchange(m_killedPods, {});
    for (const ObjectPtr &pod : killed)
        recordContainerEvent(*pod, u"Killing"_s, u"Stopping container app"_s);
}

QJsonObject WorkloadGenerator::makeNode(int index)
{
    const QString name = u"node-%1"_s.arg(index, 2, 10, QLatin1Char('0'));
    const QString zone = u"zone-"_s + QLatin1Char(char('a' + index % 3));
    const QString time = backdated(90 * 24 * 3600);
    QJsonObject labels{{u"kubernetes.io/hostname"_s, name},
                       {u"kubernetes.io/os"_s, u"linux"_s},
                       {u"kubernetes.io/arch"_s, u"amd64"_s},
                       {u"topology.kubernetes.io/zone"_s, zone},
                       {u"node.kubernetes.io/instance-type"_s, u"m5.2xlarge"_s}};
    labels.insert(index == 0 ? u"node-role.kubernetes.io/control-plane"_s : u"node-role.kubernetes.io/worker"_s, QString());
    const QJsonObject capacity{{u"cpu"_s, u"8"_s}, {u"memory"_s, u"32780604Ki"_s}, {u"pods"_s, u"110"_s}, {u"ephemeral-storage"_s, u"101430960Ki"_s}};
    QJsonArray conditions;
    for (const auto &[type, reason] : {std::pair{u"MemoryPressure"_s, u"KubeletHasSufficientMemory"_s},
                                       std::pair{u"DiskPressure"_s, u"KubeletHasNoDiskPressure"_s},
                                       std::pair{u"PIDPressure"_s, u"KubeletHasSufficientPID"_s},
                                       std::pair{u"Ready"_s, u"KubeletReady"_s}}) {
        conditions.append(QJsonObject{{u"type"_s, type},
                                      {u"status"_s, type == u"Ready" ? u"True"_s : u"False"_s},
                                      {u"lastHeartbeatTime"_s, now()},
                                      {u"lastTransitionTime"_s, time},
                                      {u"reason"_s, reason},
                                      {u"message"_s, type == u"Ready" ? u"kubelet is posting ready status"_s : u"kubelet has no pressure"_s}});
    }
    return QJsonObject{
        {u"metadata"_s,
         QJsonObject{{u"name"_s, name},
                     {u"labels"_s, labels},
                     {u"creationTimestamp"_s, time},
                     {u"annotations"_s,
                      QJsonObject{{u"node.alpha.kubernetes.io/ttl"_s, u"0"_s}, {u"volumes.kubernetes.io/controller-managed-attach-detach"_s, u"true"_s}}}}},
        {u"spec"_s, QJsonObject{{u"podCIDR"_s, u"10.244.%1.0/24"_s.arg(index)}, {u"providerID"_s, QString(u"sim://"_s + name)}}},
        {u"status"_s,
         QJsonObject{{u"capacity"_s, capacity},
                     {u"allocatable"_s, capacity},
                     {u"conditions"_s, conditions},
                     {u"addresses"_s,
                      QJsonArray{QJsonObject{{u"type"_s, u"InternalIP"_s}, {u"address"_s, u"10.0.0.%1"_s.arg(10 + index)}},
                                 QJsonObject{{u"type"_s, u"Hostname"_s}, {u"address"_s, name}}}},
                     {u"nodeInfo"_s,
                      QJsonObject{{u"machineID"_s, u"0d3c5e%1"_s.arg(index)},
                                  {u"systemUUID"_s, u"ec2a%1"_s.arg(index)},
                                  {u"bootID"_s, u"b%1"_s.arg(index)},
                                  {u"kernelVersion"_s, u"6.1.0-28-amd64"_s},
                                  {u"osImage"_s, u"Debian GNU/Linux 12 (bookworm)"_s},
                                  {u"containerRuntimeVersion"_s, u"containerd://1.7.22"_s},
                                  {u"kubeletVersion"_s, u"v1.32.0"_s},
                                  {u"kubeProxyVersion"_s, u"v1.32.0"_s},
                                  {u"operatingSystem"_s, u"linux"_s},
                                  {u"architecture"_s, u"amd64"_s}}}}},
    };
}

QJsonObject WorkloadGenerator::podTemplateObject(const ResourceType &type) const
{
    const auto S = [](PodSlot slot) {
        return JsonTemplate::slot(slot);
    };
    const QJsonObject labels{{u"app"_s, S(App)}, {u"pod-template-hash"_s, S(TemplateHash)}, {u"tier"_s, S(Tier)}};
    const QJsonArray ports{QJsonObject{{u"name"_s, u"http"_s}, {u"containerPort"_s, 8080}, {u"protocol"_s, u"TCP"_s}}};
    const QJsonObject container{
        {u"name"_s, u"app"_s},
        {u"image"_s, S(Image)},
        {u"ports"_s, ports},
        {u"env"_s,
         QJsonArray{
             QJsonObject{{u"name"_s, u"LOG_LEVEL"_s}, {u"value"_s, u"info"_s}},
             QJsonObject{{u"name"_s, u"POD_NAME"_s},
                         {u"valueFrom"_s, QJsonObject{{u"fieldRef"_s, QJsonObject{{u"apiVersion"_s, u"v1"_s}, {u"fieldPath"_s, u"metadata.name"_s}}}}}}}},
        {u"resources"_s,
         QJsonObject{{u"limits"_s, QJsonObject{{u"cpu"_s, u"500m"_s}, {u"memory"_s, u"256Mi"_s}}},
                     {u"requests"_s, QJsonObject{{u"cpu"_s, u"100m"_s}, {u"memory"_s, u"128Mi"_s}}}}},
        {u"volumeMounts"_s,
         QJsonArray{
             QJsonObject{{u"name"_s, u"kube-api-access"_s}, {u"readOnly"_s, true}, {u"mountPath"_s, u"/var/run/secrets/kubernetes.io/serviceaccount"_s}}}},
        {u"readinessProbe"_s,
         QJsonObject{{u"httpGet"_s, QJsonObject{{u"path"_s, u"/healthz"_s}, {u"port"_s, 8080}, {u"scheme"_s, u"HTTP"_s}}},
                     {u"periodSeconds"_s, 10},
                     {u"timeoutSeconds"_s, 1},
                     {u"successThreshold"_s, 1},
                     {u"failureThreshold"_s, 3}}},
        {u"terminationMessagePath"_s, u"/dev/termination-log"_s},
        {u"terminationMessagePolicy"_s, u"File"_s},
        {u"imagePullPolicy"_s, u"IfNotPresent"_s},
    };
    const QJsonObject containerStatus{{u"name"_s, u"app"_s},
                                      {u"state"_s, S(State)},
                                      {u"lastState"_s, S(LastState)},
                                      {u"ready"_s, S(Running)},
                                      {u"restartCount"_s, S(RestartCount)},
                                      {u"image"_s, S(Image)},
                                      {u"imageID"_s, S(ImageId)},
                                      {u"containerID"_s, S(ContainerId)},
                                      {u"started"_s, S(Running)}};
    const QJsonObject specFields{
        {u"f:containers"_s,
         QJsonObject{
             {u"k:{\"name\":\"app\"}"_s,
              QJsonObject{
                  {u"."_s, QJsonObject()},
                  {u"f:image"_s, QJsonObject()},
                  {u"f:imagePullPolicy"_s, QJsonObject()},
                  {u"f:name"_s, QJsonObject()},
                  {u"f:ports"_s,
                   QJsonObject{
                       {u"."_s, QJsonObject()},
                       {u"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}"_s,
                        QJsonObject{
                            {u"."_s, QJsonObject()}, {u"f:containerPort"_s, QJsonObject()}, {u"f:name"_s, QJsonObject()}, {u"f:protocol"_s, QJsonObject()}}}}},
                  {u"f:resources"_s,
                   QJsonObject{{u"."_s, QJsonObject()},
                               {u"f:limits"_s, QJsonObject{{u"."_s, QJsonObject()}, {u"f:cpu"_s, QJsonObject()}, {u"f:memory"_s, QJsonObject()}}},
                               {u"f:requests"_s, QJsonObject{{u"."_s, QJsonObject()}, {u"f:cpu"_s, QJsonObject()}, {u"f:memory"_s, QJsonObject()}}}}},
                  {u"f:terminationMessagePath"_s, QJsonObject()},
                  {u"f:terminationMessagePolicy"_s, QJsonObject()}}}}},
        {u"f:dnsPolicy"_s, QJsonObject()},
        {u"f:enableServiceLinks"_s, QJsonObject()},
        {u"f:restartPolicy"_s, QJsonObject()},
        {u"f:schedulerName"_s, QJsonObject()},
        {u"f:securityContext"_s, QJsonObject()},
        {u"f:terminationGracePeriodSeconds"_s, QJsonObject()}};
    const QJsonObject statusFields{
        {u"f:conditions"_s,
         QJsonObject{{u"k:{\"type\":\"ContainersReady\"}"_s,
                      QJsonObject{{u"."_s, QJsonObject()},
                                  {u"f:lastProbeTime"_s, QJsonObject()},
                                  {u"f:lastTransitionTime"_s, QJsonObject()},
                                  {u"f:status"_s, QJsonObject()},
                                  {u"f:type"_s, QJsonObject()}}},
                     {u"k:{\"type\":\"Initialized\"}"_s,
                      QJsonObject{{u"."_s, QJsonObject()},
                                  {u"f:lastProbeTime"_s, QJsonObject()},
                                  {u"f:lastTransitionTime"_s, QJsonObject()},
                                  {u"f:status"_s, QJsonObject()},
                                  {u"f:type"_s, QJsonObject()}}},
                     {u"k:{\"type\":\"Ready\"}"_s,
                      QJsonObject{{u"."_s, QJsonObject()},
                                  {u"f:lastProbeTime"_s, QJsonObject()},
                                  {u"f:lastTransitionTime"_s, QJsonObject()},
                                  {u"f:status"_s, QJsonObject()},
                                  {u"f:type"_s, QJsonObject()}}}}},
        {u"f:containerStatuses"_s, QJsonObject()},
        {u"f:hostIP"_s, QJsonObject()},
        {u"f:phase"_s, QJsonObject()},
        {u"f:podIP"_s, QJsonObject()},
        {u"f:podIPs"_s,
         QJsonObject{{u"."_s, QJsonObject()},
                     {QString(u"k:{\"ip\":\""_s + S(PodIpText) + u"\"}"_s), QJsonObject{{u"."_s, QJsonObject()}, {u"f:ip"_s, QJsonObject()}}}}},
        {u"f:startTime"_s, QJsonObject()}};
    const QJsonObject metadataFields{
        {u"f:generateName"_s, QJsonObject()},
        {u"f:labels"_s,
         QJsonObject{{u"."_s, QJsonObject()}, {u"f:app"_s, QJsonObject()}, {u"f:pod-template-hash"_s, QJsonObject()}, {u"f:tier"_s, QJsonObject()}}},
        {u"f:ownerReferences"_s, QJsonObject{{u"."_s, QJsonObject()}, {QString(u"k:{\"uid\":\""_s + S(ReplicaSetUidText) + u"\"}"_s), QJsonObject()}}}};
    const QJsonObject tokenSource{{u"serviceAccountToken"_s, QJsonObject{{u"expirationSeconds"_s, 3607}, {u"path"_s, u"token"_s}}}};
    const QJsonObject caSource{
        {u"configMap"_s,
         QJsonObject{{u"name"_s, u"kube-root-ca.crt"_s}, {u"items"_s, QJsonArray{QJsonObject{{u"key"_s, u"ca.crt"_s}, {u"path"_s, u"ca.crt"_s}}}}}}};
    const QJsonArray volumes{QJsonObject{
        {u"name"_s, u"kube-api-access"_s},
        {u"projected"_s, QJsonObject{{u"defaultMode"_s, 420}, {u"sources"_s, QJsonArray{tokenSource, caSource}}}},
    }};
    return QJsonObject{
        {u"kind"_s, type.kind},
        {u"apiVersion"_s, type.groupVersion()},
        {u"metadata"_s,
         QJsonObject{{u"name"_s, S(Name)},
                     {u"uid"_s, S(Uid)},
                     {u"resourceVersion"_s, S(ResourceVersion)},
                     {u"generation"_s, 1},
                     {u"creationTimestamp"_s, S(Time)},
                     {u"generateName"_s, S(GenerateName)},
                     {u"namespace"_s, S(Namespace)},
                     {u"labels"_s, labels},
                     {u"ownerReferences"_s,
                      QJsonArray{QJsonObject{{u"apiVersion"_s, u"apps/v1"_s},
                                             {u"kind"_s, u"ReplicaSet"_s},
                                             {u"name"_s, S(ReplicaSetName)},
                                             {u"uid"_s, S(ReplicaSetUid)},
                                             {u"controller"_s, true},
                                             {u"blockOwnerDeletion"_s, true}}}},
                     {u"managedFields"_s,
                      QJsonArray{managedFields(u"kube-controller-manager"_s,
                                               u"Update"_s,
                                               QString(),
                                               QJsonObject{{u"f:metadata"_s, metadataFields}, {u"f:spec"_s, specFields}},
                                               S(ManagedTime)),
                                 managedFields(u"kubelet"_s, u"Update"_s, u"status"_s, QJsonObject{{u"f:status"_s, statusFields}}, S(ManagedTime))}}}},
        {u"spec"_s,
         QJsonObject{
             {u"containers"_s, QJsonArray{container}},
             {u"volumes"_s, volumes},
             {u"restartPolicy"_s, u"Always"_s},
             {u"terminationGracePeriodSeconds"_s, 30},
             {u"dnsPolicy"_s, u"ClusterFirst"_s},
             {u"serviceAccountName"_s, u"default"_s},
             {u"serviceAccount"_s, u"default"_s},
             {u"nodeName"_s, S(NodeName)},
             {u"securityContext"_s, QJsonObject()},
             {u"schedulerName"_s, u"default-scheduler"_s},
             {u"tolerations"_s,
              QJsonArray{QJsonObject{
                  {u"key"_s, u"node.kubernetes.io/not-ready"_s}, {u"operator"_s, u"Exists"_s}, {u"effect"_s, u"NoExecute"_s}, {u"tolerationSeconds"_s, 300}}}},
             {u"priority"_s, 0},
             {u"enableServiceLinks"_s, true},
             {u"preemptionPolicy"_s, u"PreemptLowerPriority"_s}}},
        {u"status"_s,
         QJsonObject{{u"phase"_s, S(Phase)},
                     {u"conditions"_s,
                      QJsonArray{condition(u"Initialized"_s, u"True"_s, S(Time)),
                                 condition(u"Ready"_s, S(ReadyStatus), S(Time)),
                                 condition(u"ContainersReady"_s, S(ReadyStatus), S(Time)),
                                 condition(u"PodScheduled"_s, u"True"_s, S(Time))}},
                     {u"hostIP"_s, S(HostIp)},
                     {u"podIP"_s, S(PodIp)},
                     {u"podIPs"_s, QJsonArray{QJsonObject{{u"ip"_s, S(PodIp)}}}},
                     {u"startTime"_s, S(Time)},
                     {u"containerStatuses"_s, QJsonArray{containerStatus}},
                     {u"qosClass"_s, u"Burstable"_s}}},
    };
}

void WorkloadGenerator::createPodFor(const Deployment &deployment)
{
    // The random sequence is drawn in the order the pods of a seed always drew it: node, name,
    // phase roll, restarts, container id, pod IP.
    const qsizetype nodeIndex = m_nodes.isEmpty() ? -1 : qsizetype(m_random() % quint64(m_nodes.size()));
    const QString node = nodeIndex < 0 ? QString() : m_nodes.at(nodeIndex);
    const QString name = deployment.replicaSetName + u'-' + randomSuffix(5);
    // The pods a cluster starts with have run for up to two hours, so their logs have a past;
    // the age comes from the suffix of the name, not the random sequence the objects of a seed
    // depend on.
    const qint64 ageSeconds = m_populating ? qint64(qHash(name, 0) % (2 * 3600)) : 0;
    const QDateTime started = QDateTime::currentDateTimeUtc().addSecs(-ageSeconds);
    const QString time = timestamp(started);
    const quint64 roll = m_random() % 100;
    // Mostly Running, as in a healthy cluster, with the usual stragglers.
    const QString phase = roll < 90 ? u"Running"_s : roll < 95 ? u"Pending"_s : roll < 98 ? u"Succeeded"_s : u"Failed"_s;
    const bool running = phase == u"Running";
    const int restarts = roll < 80 ? 0 : int(m_random() % 7);
    // A restarted container started again a while after its pod; the instance before it ran
    // until ten seconds earlier (its log is what `kubectl logs --previous` reads).
    const QDateTime containerStarted = restarts > 0 ? started.addSecs(ageSeconds * 2 / 3) : started;
    const QDateTime lastFinished = containerStarted.addSecs(-10);
    const QString containerId = u"containerd://"_s + randomSuffix(32);
    const QString podIp = u"10.244.%1.%2"_s.arg(nodeIndex).arg(2 + m_random() % 250);
    const QString tier = roll % 2 ? u"web"_s : u"backend"_s;

    const ResourceType pods = type(u"pods"_s);
    if (!m_podTemplate.isValid())
        m_podTemplate = JsonTemplate(podTemplateObject(pods));
    // The pod's JSON is written from what was drawn above, by value: while populating, on a pool
    // thread beside the next pods' creation.
    auto compose = [podTemplate = m_podTemplate,
                    namespaceName = deployment.namespaceName,
                    app = deployment.name,
                    templateHash = deployment.hash,
                    replicaSetName = deployment.replicaSetName,
                    replicaSetUid = deployment.replicaSetUid,
                    image = deployment.image,
                    name,
                    time,
                    tier,
                    managedTime = now(),
                    node,
                    nodeIndex,
                    phase,
                    running,
                    restarts,
                    containerStarted,
                    lastFinished,
                    ageSeconds,
                    podIp,
                    containerId](const QString &uid, quint64 rv) {
        const QJsonObject lastState = restarts == 0
            ? QJsonObject()
            : QJsonObject{{u"terminated"_s,
                           QJsonObject{{u"exitCode"_s, 137},
                                       {u"reason"_s, u"OOMKilled"_s},
                                       {u"startedAt"_s, timestamp(lastFinished.addSecs(-qMax<qint64>(60, ageSeconds / 2)))},
                                       {u"finishedAt"_s, timestamp(lastFinished)}}}};
        QJsonObject state;
        if (running)
            state = QJsonObject{{u"running"_s, QJsonObject{{u"startedAt"_s, timestamp(containerStarted)}}}};
        else if (phase == u"Pending")
            state = QJsonObject{{u"waiting"_s, QJsonObject{{u"reason"_s, u"ContainerCreating"_s}}}};
        else
            state = QJsonObject{{u"terminated"_s,
                                 QJsonObject{{u"exitCode"_s, phase == u"Succeeded" ? 0 : 1},
                                             {u"reason"_s, phase == u"Succeeded" ? u"Completed"_s : u"Error"_s},
                                             {u"startedAt"_s, time},
                                             {u"finishedAt"_s, time}}}};
        QList<QByteArray> fragments(PodSlotCount);
        fragments[Name] = jsonString(name);
        fragments[Uid] = jsonString(uid);
        fragments[ResourceVersion] = jsonString(QString::number(rv));
        fragments[Time] = jsonString(time);
        fragments[GenerateName] = jsonString(QString(replicaSetName + u'-'));
        fragments[Namespace] = jsonString(namespaceName);
        fragments[App] = jsonString(app);
        fragments[TemplateHash] = jsonString(templateHash);
        fragments[Tier] = jsonString(tier);
        fragments[ReplicaSetName] = jsonString(replicaSetName);
        fragments[ReplicaSetUid] = jsonString(replicaSetUid);
        fragments[ReplicaSetUidText] = jsonText(replicaSetUid);
        fragments[ManagedTime] = jsonString(managedTime);
        fragments[Image] = jsonString(image);
        fragments[NodeName] = jsonString(node);
        fragments[Phase] = jsonString(phase);
        fragments[ReadyStatus] = running ? QByteArrayLiteral("\"True\"") : QByteArrayLiteral("\"False\"");
        fragments[HostIp] = jsonString(u"10.0.0.%1"_s.arg(10 + nodeIndex));
        fragments[PodIp] = jsonString(podIp);
        fragments[PodIpText] = jsonText(podIp);
        fragments[State] = JsonWriter::compact(state);
        fragments[LastState] = JsonWriter::compact(lastState);
        fragments[Running] = running ? QByteArrayLiteral("true") : QByteArrayLiteral("false");
        fragments[RestartCount] = QByteArray::number(restarts);
        fragments[ImageId] = jsonString(QString(image + u"@sha256:4f0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"_s));
        fragments[ContainerId] = jsonString(containerId);
        return podTemplate.fill(fragments);
    };

    // The extracted fields share the generator's strings (namespace, node, labels), so a
    // million pods hold one copy of each.
    StoredObject fields;
    fields.name = name;
    fields.namespaceName = deployment.namespaceName;
    fields.labels = deployment.podLabels[roll % 2];
    fields.nodeName = node;
    fields.phase = phase;
    ObjectStore::CreateOptions options;
    options.keepCreationTimestamp = true;
    options.initialState = m_populating;
    options.composeInBackground = m_populating;
    const ObjectStore::WriteResult result = m_store->createComposed(pods, std::move(fields), std::move(compose), options);
    if (!result.ok() || m_populating)
        return;
    recordEvent({u"ReplicaSet"_s, deployment.namespaceName, deployment.replicaSetName, deployment.replicaSetUid, u"apps/v1"_s, QString()},
                u"SuccessfulCreate"_s,
                u"Created pod: %1"_s.arg(result.object->name),
                {u"replicaset-controller"_s, QString()});
    recordPodStart(*result.object, deployment.image);
}
ObjectStore::WriteResult WorkloadGenerator::createTemplated(const QString &typeId,
                                                            const QList<QJsonValue> &values,
                                                            const QMap<QString, QString> &labels,
                                                            const std::function<QJsonObject(const SlotMarker &)> &build)
{
    const ResourceType resource = type(typeId);
    JsonTemplate &objectTemplate = m_templates[typeId];
    if (!objectTemplate.isValid()) {
        // What create() adds to what a client sends, in slots 0 to 2.
        QJsonObject object = build(&JsonTemplate::slot);
        QJsonObject metadata = object.value(u"metadata").toObject();
        metadata.insert(u"uid"_s, JsonTemplate::slot(0));
        metadata.insert(u"resourceVersion"_s, JsonTemplate::slot(1));
        metadata.insert(u"creationTimestamp"_s, JsonTemplate::slot(2));
        metadata.insert(u"generation"_s, 1);
        object.insert(u"metadata"_s, metadata);
        object.insert(u"kind"_s, resource.kind);
        object.insert(u"apiVersion"_s, resource.groupVersion());
        objectTemplate = JsonTemplate(object);
    }
    QList<QByteArray> fragments(qMax<qsizetype>(objectTemplate.slotCount(), values.size() + 2));
    for (qsizetype i = 0; i < values.size(); ++i)
        JsonWriter::appendValue(fragments[i + 2], values.at(i));
    StoredObject fields;
    fields.name = values.value(1).toString();
    fields.namespaceName = values.value(2).toString();
    fields.labels = labels;
    ObjectStore::CreateOptions options;
    options.initialState = m_populating;
    options.composeInBackground = m_populating;
    return m_store->createComposed(
        resource,
        std::move(fields),
        [objectTemplate, fragments = std::move(fragments)](const QString &uid, quint64 rv) mutable {
            fragments[0] = jsonString(uid);
            fragments[1] = jsonString(QString::number(rv));
            return objectTemplate.fill(fragments);
        },
        options);
}

void WorkloadGenerator::populate()
{
    m_populating = true;
    const ResourceType namespaces = type(u"namespaces"_s);
    QStringList appNamespaces;
    for (int i = 0; i < m_settings.namespaces; ++i)
        appNamespaces.append(i < namespaceNames.size() ? namespaceNames.at(i) : u"team-%1"_s.arg(i));
    QStringList allNamespaces{u"default"_s, u"kube-system"_s};
    allNamespaces += appNamespaces;
    ObjectStore::CreateOptions backdate;
    backdate.keepCreationTimestamp = true;
    for (const QString &name : allNamespaces) {
        (void)m_store->create(namespaces,
                              QJsonObject{{u"metadata"_s,
                                           QJsonObject{{u"name"_s, name},
                                                       {u"creationTimestamp"_s, backdated(120 * 24 * 3600)},
                                                       {u"labels"_s, QJsonObject{{u"kubernetes.io/metadata.name"_s, name}}}}},
                                          {u"spec"_s, QJsonObject{{u"finalizers"_s, QJsonArray{u"kubernetes"_s}}}},
                                          {u"status"_s, QJsonObject{{u"phase"_s, u"Active"_s}}}},
                              backdate);
        (void)m_store->create(type(u"serviceaccounts"_s), QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, u"default"_s}, {u"namespace"_s, name}}}});
        (void)m_store->create(
            type(u"configmaps"_s),
            QJsonObject{
                {u"metadata"_s, QJsonObject{{u"name"_s, u"kube-root-ca.crt"_s}, {u"namespace"_s, name}}},
                {u"data"_s,
                 QJsonObject{
                     {u"ca.crt"_s,
                      u"-----BEGIN CERTIFICATE-----\nMIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl\n-----END CERTIFICATE-----\n"_s}}}});
    }
    for (int i = 0; i < m_settings.nodes; ++i) {
        const QJsonObject node = makeNode(i);
        m_nodes.append(node.value(u"metadata").toObject().value(u"name").toString());
        (void)m_store->create(type(u"nodes"_s), node, backdate);
    }

    // Deployments of 1 to 5 replicas until the pod budget is spent, spread over the namespaces.
    int podsLeft = m_settings.pods;
    int serial = 0;
    while (podsLeft > 0 && !appNamespaces.isEmpty()) {
        Deployment deployment;
        deployment.namespaceName = appNamespaces.at(serial % appNamespaces.size());
        const QString base = applicationNames.at(serial % applicationNames.size());
        deployment.name = serial < applicationNames.size() ? base : base + u'-' + QString::number(serial / applicationNames.size());
        deployment.hash = randomSuffix(10);
        deployment.replicaSetName = deployment.name + u'-' + deployment.hash;
        deployment.replicas = qMin(podsLeft, 1 + int(m_random() % 5));
        deployment.image = images.at(qsizetype(m_random() % quint64(images.size())));
        podsLeft -= deployment.replicas;
        ++serial;

        const QString created = backdated(30 * 24 * 3600);
        // Every deployment's objects have one shape, written from a template per kind
        // (createTemplated()); S(i) is slot i, from 3 on the values listed.
        const ObjectStore::WriteResult deploymentResult = createTemplated(
            u"deployments.apps"_s,
            {created, deployment.name, deployment.namespaceName, deployment.replicas, deployment.image},
            {{u"app"_s, deployment.name}},
            [](const SlotMarker &S) {
                return QJsonObject{
                    {u"metadata"_s,
                     QJsonObject{{u"name"_s, S(3)},
                                 {u"namespace"_s, S(4)},
                                 {u"labels"_s, QJsonObject{{u"app"_s, S(3)}}},
                                 {u"annotations"_s, QJsonObject{{u"deployment.kubernetes.io/revision"_s, u"1"_s}}}}},
                    {u"spec"_s,
                     QJsonObject{{u"replicas"_s, S(5)},
                                 {u"selector"_s, QJsonObject{{u"matchLabels"_s, QJsonObject{{u"app"_s, S(3)}}}}},
                                 {u"template"_s,
                                  QJsonObject{
                                      {u"metadata"_s, QJsonObject{{u"labels"_s, QJsonObject{{u"app"_s, S(3)}}}}},
                                      {u"spec"_s, QJsonObject{{u"containers"_s, QJsonArray{QJsonObject{{u"name"_s, u"app"_s}, {u"image"_s, S(6)}}}}}},
                                  }},
                                 {u"strategy"_s, QJsonObject{{u"type"_s, u"RollingUpdate"_s}}},
                                 {u"revisionHistoryLimit"_s, 10},
                                 {u"progressDeadlineSeconds"_s, 600}}},
                    // Its pods are created right below, ready: the status the controller would
                    // write once they are.
                    {u"status"_s, deploymentStatus(1, S(5))}};
            });
        if (!deploymentResult.ok())
            continue;
        deployment.uid = deploymentResult.object->uid;
        const ObjectStore::WriteResult rsResult = createTemplated(
            u"replicasets.apps"_s,
            {created,
             deployment.replicaSetName,
             deployment.namespaceName,
             deployment.name,
             deployment.hash,
             deployment.uid,
             deployment.replicas,
             deployment.image},
            {{u"app"_s, deployment.name}, {u"pod-template-hash"_s, deployment.hash}},
            [](const SlotMarker &S) {
                const QJsonObject labels{{u"app"_s, S(5)}, {u"pod-template-hash"_s, S(6)}};
                return QJsonObject{
                    {u"metadata"_s,
                     QJsonObject{{u"name"_s, S(3)},
                                 {u"namespace"_s, S(4)},
                                 {u"labels"_s, labels},
                                 {u"ownerReferences"_s,
                                  QJsonArray{QJsonObject{{u"apiVersion"_s, u"apps/v1"_s},
                                                         {u"kind"_s, u"Deployment"_s},
                                                         {u"name"_s, S(5)},
                                                         {u"uid"_s, S(7)},
                                                         {u"controller"_s, true},
                                                         {u"blockOwnerDeletion"_s, true}}}}}},
                    {u"spec"_s,
                     QJsonObject{{u"replicas"_s, S(8)},
                                 {u"selector"_s, QJsonObject{{u"matchLabels"_s, labels}}},
                                 {u"template"_s,
                                  QJsonObject{
                                      {u"metadata"_s, QJsonObject{{u"labels"_s, labels}}},
                                      {u"spec"_s, QJsonObject{{u"containers"_s, QJsonArray{QJsonObject{{u"name"_s, u"app"_s}, {u"image"_s, S(9)}}}}}},
                                  }}}},
                    {u"status"_s, QJsonObject{{u"replicas"_s, S(8)}}}};
            });
        if (!rsResult.ok())
            continue;
        deployment.replicaSetUid = rsResult.object->uid;
        for (int tier = 0; tier < 2; ++tier)
            deployment.podLabels[tier] = {{u"app"_s, deployment.name}, {u"pod-template-hash"_s, deployment.hash}, {u"tier"_s, tier ? u"web"_s : u"backend"_s}};
        m_deploymentIndex.insert(deployment.namespaceName + u'/' + deployment.name, m_deployments.size());
        m_hashIndex.insert(deployment.hash, m_deployments.size());
        m_deployments.append(deployment);
        for (int r = 0; r < deployment.replicas; ++r)
            createPodFor(deployment);

        const QString createdNow = now();
        (void)createTemplated(
            u"services"_s,
            {createdNow, deployment.name, deployment.namespaceName, u"10.96.%1.%2"_s.arg(serial / 250).arg(serial % 250 + 1)},
            {{u"app"_s, deployment.name}},
            [](const SlotMarker &S) {
                return QJsonObject{
                    {u"metadata"_s, QJsonObject{{u"name"_s, S(3)}, {u"namespace"_s, S(4)}, {u"labels"_s, QJsonObject{{u"app"_s, S(3)}}}}},
                    {u"spec"_s,
                     QJsonObject{
                         {u"type"_s, u"ClusterIP"_s},
                         {u"clusterIP"_s, S(5)},
                         {u"selector"_s, QJsonObject{{u"app"_s, S(3)}}},
                         {u"ports"_s, QJsonArray{QJsonObject{{u"name"_s, u"http"_s}, {u"port"_s, 80}, {u"targetPort"_s, 8080}, {u"protocol"_s, u"TCP"_s}}}}}}};
            });
        (void)createTemplated(u"endpoints"_s, {createdNow, deployment.name, deployment.namespaceName}, {}, [](const SlotMarker &S) {
            return QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, S(3)}, {u"namespace"_s, S(4)}}}, {u"subsets"_s, QJsonArray()}};
        });
        (void)createTemplated(
            u"configmaps"_s,
            {createdNow, QString(deployment.name + u"-config"_s), deployment.namespaceName, QString::number(deployment.replicas)},
            {},
            [](const SlotMarker &S) {
                return QJsonObject{
                    {u"metadata"_s, QJsonObject{{u"name"_s, S(3)}, {u"namespace"_s, S(4)}}},
                    {u"data"_s, QJsonObject{{u"LOG_LEVEL"_s, u"info"_s}, {u"FEATURE_FLAGS"_s, u"search,recommendations"_s}, {u"REPLICAS"_s, S(5)}}}};
            });
    }
    for (const QString &name : appNamespaces) {
        (void)m_store->create(type(u"secrets"_s),
                              QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, u"db-credentials"_s}, {u"namespace"_s, name}}},
                                          {u"type"_s, u"Opaque"_s},
                                          {u"data"_s, QJsonObject{{u"username"_s, u"YXBw"_s}, {u"password"_s, u"czNjcjN0LXBhc3N3b3Jk"_s}}}});
    }

    // The custom resource: its definition, so CRD discovery and listing have something real,
    // and a few instances.
    const QString group = ResourceCatalog::customGroup();
    (void)m_store->create(
        type(u"customresourcedefinitions.apiextensions.k8s.io"_s),
        QJsonObject{
            {u"metadata"_s, QJsonObject{{u"name"_s, QString(u"widgets."_s + group)}}},
            {u"spec"_s,
             QJsonObject{{u"group"_s, group},
                         {u"scope"_s, u"Namespaced"_s},
                         {u"names"_s,
                          QJsonObject{{u"plural"_s, u"widgets"_s},
                                      {u"singular"_s, u"widget"_s},
                                      {u"kind"_s, u"Widget"_s},
                                      {u"listKind"_s, u"WidgetList"_s},
                                      {u"shortNames"_s, QJsonArray{u"wdg"_s}},
                                      {u"categories"_s, QJsonArray{u"all"_s}}}},
                         {u"versions"_s,
                          QJsonArray{QJsonObject{{u"name"_s, u"v1"_s},
                                                 {u"served"_s, true},
                                                 {u"storage"_s, true},
                                                 {u"additionalPrinterColumns"_s, type(u"widgets."_s + group).printerColumns},
                                                 {u"schema"_s,
                                                  QJsonObject{{u"openAPIV3Schema"_s,
                                                               QJsonObject{{u"type"_s, u"object"_s}, {u"x-kubernetes-preserve-unknown-fields"_s, true}}}}}}}}}},
            {u"status"_s, QJsonObject{{u"acceptedNames"_s, QJsonObject{{u"plural"_s, u"widgets"_s}, {u"kind"_s, u"Widget"_s}}}}}});
    for (int i = 0; i < qMin(3, int(appNamespaces.size())); ++i) {
        (void)m_store->create(type(u"widgets."_s + group),
                              QJsonObject{{u"metadata"_s,
                                           QJsonObject{{u"name"_s, u"widget-%1"_s.arg(i)},
                                                       {u"namespace"_s, appNamespaces.at(i)},
                                                       {u"labels"_s, QJsonObject{{u"color"_s, i % 2 ? u"blue"_s : u"green"_s}}}}},
                                          {u"spec"_s, QJsonObject{{u"size"_s, 1 + i}, {u"color"_s, i % 2 ? u"blue"_s : u"green"_s}}}});
    }
    // The controllers have nothing to do: every deployment was created with its pods and the
    // status they make (a reconcile of each was a third of a million updates at 1M pods).
    // The initial state is where watches start; its writes are no history anyone could
    // resume from.
    m_store->compactHistory();
    // The objects' JSON, written on the pool meanwhile, is complete before anyone is served.
    m_store->finishComposing();

    m_populating = false;

    // The events of the first pods' start, as the scheduler and kubelet left them (every pod's
    // would be five events per pod, too many for a large cluster).
    const ResourceType pods = type(u"pods"_s);
    for (qsizetype i = 0; i < qMin<qsizetype>(m_pods.size(), 20); ++i) {
        const PodRef &pod = m_pods.at(i);
        if (const ObjectPtr stored = m_store->get(pods, pod.namespaceName, pod.name)) {
            const qsizetype owner = m_hashIndex.value(stored->labels.value(u"pod-template-hash"_s), -1);
            recordPodStart(*stored, owner >= 0 ? m_deployments.at(owner).image : QString());
        }
    }
}

void WorkloadGenerator::onStoreEvent(const StoreEventPtr &event)
{
    if (event->resource == u"pods") {
        const QString key = event->object->key();
        const qsizetype owner = m_hashIndex.value(event->object->labels.value(u"pod-template-hash"_s), -1);
        if (event->type == StoreEventType::Added) {
            m_podIndex.insert(key, m_pods.size());
            m_pods.append({event->object->namespaceName, event->object->name});
            if (owner >= 0)
                m_podsOf[owner].append(key);
        } else if (event->type == StoreEventType::Deleted) {
            // The kubelet stops the containers of a deleted pod, whoever deleted it.
            m_killedPods.append(event->object);
            m_eventTimer->start();
            if (owner >= 0)
                m_podsOf[owner].removeOne(key);
            const qsizetype index = m_podIndex.value(key, -1);
            if (index >= 0) {
                // Swap-remove keeps random picks O(1).
                const PodRef last = m_pods.takeLast();
                if (index < m_pods.size()) {
                    m_pods[index] = last;
                    m_podIndex.insert(last.namespaceName + u'/' + last.name, index);
                }
                m_podIndex.remove(key);
            }
            if (!m_reconciling && owner >= 0) {
                m_dirty.insert(owner);
                m_reconcileTimer->start();
            }
        }
    } else if (event->resource == u"deployments.apps" && event->type == StoreEventType::Modified && !m_reconciling) {
        const qsizetype index = m_deploymentIndex.value(event->object->key(), -1);
        if (index >= 0) {
            m_dirty.insert(index);
            m_reconcileTimer->start();
        }
    }
}

void WorkloadGenerator::reconcile()
{
    // The replicaset and deployment controllers in one: pods are created or deleted until each
    // deployment has what its spec asks for, then its status reports it.
    m_reconciling = true;
    const ResourceType deployments = type(u"deployments.apps"_s);
    const ResourceType replicaSets = type(u"replicasets.apps"_s);
    const ResourceType pods = type(u"pods"_s);
    const QSet<qsizetype> dirty = std::exchange(m_dirty, {});
    for (const qsizetype index : dirty) {
        Deployment &deployment = m_deployments[index];
        const ObjectPtr stored = m_store->get(deployments, deployment.namespaceName, deployment.name);
        if (!stored)
            continue;
        QJsonObject object = QJsonDocument::fromJson(stored->json).object();
        const int desired = object.value(u"spec").toObject().value(u"replicas").toInt(1);
        const QStringList owned = m_podsOf.value(index);
        for (qsizetype i = owned.size(); i < desired; ++i)
            createPodFor(deployment);
        for (qsizetype i = desired; i < owned.size(); ++i) {
            const QString podName = owned.at(i).section(u'/', 1);
            if (m_store->remove(pods, owned.at(i).section(u'/', 0, 0), podName).ok()) {
                recordEvent({u"ReplicaSet"_s, deployment.namespaceName, deployment.replicaSetName, deployment.replicaSetUid, u"apps/v1"_s, QString()},
                            u"SuccessfulDelete"_s,
                            u"Deleted pod: %1"_s.arg(podName),
                            {u"replicaset-controller"_s, QString()});
            }
        }
        if (deployment.replicas != desired) {
            if (const ObjectPtr rs = m_store->get(replicaSets, deployment.namespaceName, deployment.replicaSetName)) {
                QJsonObject rsObject = QJsonDocument::fromJson(rs->json).object();
                QJsonObject spec = rsObject.value(u"spec").toObject();
                spec.insert(u"replicas"_s, desired);
                rsObject.insert(u"spec"_s, spec);
                rsObject.insert(u"status"_s, QJsonObject{{u"replicas"_s, desired}, {u"readyReplicas"_s, desired}, {u"availableReplicas"_s, desired}});
                (void)m_store->update(replicaSets, rsObject);
            }
            recordEvent({u"Deployment"_s, deployment.namespaceName, deployment.name, deployment.uid, u"apps/v1"_s, QString()},
                        u"ScalingReplicaSet"_s,
                        u"Scaled %1 replica set %2 from %3 to %4"_s.arg(desired > deployment.replicas ? u"up"_s : u"down"_s, deployment.replicaSetName)
                            .arg(deployment.replicas)
                            .arg(desired),
                        {u"deployment-controller"_s, QString()});
            deployment.replicas = desired;
        }
        const QJsonObject status = deploymentStatus(object.value(u"metadata").toObject().value(u"generation"), desired);
        if (object.value(u"status").toObject() != status) {
            object.insert(u"status"_s, status);
            QJsonObject metadata = object.value(u"metadata").toObject();
            metadata.remove(u"resourceVersion"_s);
            object.insert(u"metadata"_s, metadata);
            (void)m_store->update(deployments, object);
        }
    }
    m_reconciling = false;
}

void WorkloadGenerator::settle()
{
    if (m_reconcileTimer->isActive()) {
        m_reconcileTimer->stop();
        reconcile();
    }
}

void WorkloadGenerator::setChurn(double eventsPerSecond)
{
    m_churnRate = qMax(0.0, eventsPerSecond);
    if (m_churnRate > 0)
        m_churnTimer->start();
    else
        m_churnTimer->stop();
}

void WorkloadGenerator::updatePodStatus(const PodRef &pod)
{
    const ResourceType pods = type(u"pods"_s);
    const ObjectPtr stored = m_store->get(pods, pod.namespaceName, pod.name);
    if (!stored)
        return;
    QJsonObject object = QJsonDocument::fromJson(stored->json).object();
    QJsonObject status = object.value(u"status").toObject();
    QJsonArray statuses = status.value(u"containerStatuses").toArray();
    QJsonObject container = statuses.at(0).toObject();
    const quint64 roll = m_random() % 10;
    bool ready = container.value(u"ready").toBool();
    const QJsonObject running = container.value(u"state").toObject().value(u"running").toObject();
    const bool restarted = roll < 4;
    if (restarted) {
        container.insert(u"restartCount"_s, container.value(u"restartCount").toInt() + 1);
        QJsonObject terminated{{u"exitCode"_s, 137}, {u"reason"_s, u"OOMKilled"_s}, {u"finishedAt"_s, now()}};
        if (running.contains(u"startedAt"_s))
            terminated.insert(u"startedAt"_s, running.value(u"startedAt"));
        container.insert(u"lastState"_s, QJsonObject{{u"terminated"_s, terminated}});
    } else {
        ready = !ready;
    }
    status.insert(u"phase"_s, ready ? u"Running"_s : (roll < 7 ? u"Running"_s : u"Pending"_s));
    container.insert(u"ready"_s, ready);
    container.insert(u"started"_s, ready);
    // A container that keeps running keeps its start (its log goes on); a restart starts anew.
    container.insert(u"state"_s,
                     ready ? QJsonObject{{u"running"_s, QJsonObject{{u"startedAt"_s, restarted || running.isEmpty() ? now() : running.value(u"startedAt")}}}}
                           : QJsonObject{{u"waiting"_s, QJsonObject{{u"reason"_s, u"CrashLoopBackOff"_s}}}});
    statuses.replace(0, container);
    status.insert(u"containerStatuses"_s, statuses);
    QJsonArray conditions = status.value(u"conditions").toArray();
    for (qsizetype i = 0; i < conditions.size(); ++i) {
        QJsonObject c = conditions.at(i).toObject();
        if (c.value(u"type") == u"Ready"_s || c.value(u"type") == u"ContainersReady"_s) {
            c.insert(u"status"_s, ready ? u"True"_s : u"False"_s);
            c.insert(u"lastTransitionTime"_s, now());
            conditions.replace(i, c);
        }
    }
    status.insert(u"conditions"_s, conditions);
    object.insert(u"status"_s, status);
    const ObjectStore::WriteResult result = m_store->update(pods, object);
    if (!result.ok() || !restarted)
        return;
    // A repeated restart bumps the count of the same events (BackOff x5), as on a real node.
    recordContainerEvent(*result.object,
                         u"BackOff"_s,
                         u"Back-off restarting failed container app in pod %1_%2(%3)"_s.arg(pod.name, pod.namespaceName, result.object->uid),
                         u"Warning"_s);
    if (ready) {
        recordContainerEvent(*result.object, u"Pulled"_s, u"Container image \"%1\" already present on machine"_s.arg(container.value(u"image").toString()));
        recordContainerEvent(*result.object, u"Created"_s, u"Created container: app"_s);
        recordContainerEvent(*result.object, u"Started"_s, u"Started container app"_s);
    }
}

void WorkloadGenerator::churnOnce()
{
    ++m_changes;
    const quint64 roll = m_random() % 100;
    if (roll < 55 && !m_pods.isEmpty()) {
        updatePodStatus(m_pods.at(qsizetype(m_random() % quint64(m_pods.size()))));
    } else if (roll < 65 && !m_pods.isEmpty()) {
        // A failing readiness probe, the event a cluster repeats most (its count climbs).
        const PodRef pod = m_pods.at(qsizetype(m_random() % quint64(m_pods.size())));
        if (const ObjectPtr stored = m_store->get(type(u"pods"_s), pod.namespaceName, pod.name)) {
            recordContainerEvent(*stored, u"Unhealthy"_s, u"Readiness probe failed: HTTP probe failed with statuscode: 503"_s, u"Warning"_s);
        }
    } else if (roll < 80 && !m_deployments.isEmpty()) {
        // Scale by one around the initial size, so the pod count wanders but stays near --pods.
        Deployment &deployment = m_deployments[qsizetype(m_random() % quint64(m_deployments.size()))];
        const ResourceType deployments = type(u"deployments.apps"_s);
        const ObjectPtr stored = m_store->get(deployments, deployment.namespaceName, deployment.name);
        if (!stored)
            return;
        QJsonObject object = QJsonDocument::fromJson(stored->json).object();
        QJsonObject spec = object.value(u"spec").toObject();
        const int replicas = spec.value(u"replicas").toInt(1);
        const int next = replicas <= 1 ? 2 : replicas >= 5 ? 4 : replicas + ((m_random() % 2) ? 1 : -1);
        spec.insert(u"replicas"_s, next);
        object.insert(u"spec"_s, spec);
        (void)m_store->update(deployments, object);
    } else if (roll < 92 && !m_pods.isEmpty()) {
        // A pod dies; its replicaset replaces it (reconcile()).
        const PodRef pod = m_pods.at(qsizetype(m_random() % quint64(m_pods.size())));
        (void)m_store->remove(type(u"pods"_s), pod.namespaceName, pod.name);
    } else if (!m_deployments.isEmpty()) {
        const Deployment &deployment = m_deployments.at(qsizetype(m_random() % quint64(m_deployments.size())));
        const ResourceType configMaps = type(u"configmaps"_s);
        const ObjectPtr stored = m_store->get(configMaps, deployment.namespaceName, deployment.name + u"-config"_s);
        if (!stored)
            return;
        QJsonObject object = QJsonDocument::fromJson(stored->json).object();
        QJsonObject data = object.value(u"data").toObject();
        data.insert(u"REVISION"_s, QString::number(m_changes));
        object.insert(u"data"_s, data);
        (void)m_store->update(configMaps, object);
    }
}

} // namespace Cachescope::Sim
