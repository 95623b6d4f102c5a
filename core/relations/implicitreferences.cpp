#include "core/relations/implicitreferences.h"

#include "core/cache/kubeobject.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

using Source = RelationEdge::Source;

class EdgeCollector
{
public:
    explicit EdgeCollector(const ObjectRef &from)
        : m_from(from)
    {
    }

    void add(Source source, const QString &apiVersion, const QString &kind, const QString &namespaceName, const QString &name, const QString &detail)
    {
        if (name.isEmpty()) {
            return;
        }
        RelationEdge edge;
        edge.from = m_from;
        edge.to.apiVersion = apiVersion;
        edge.to.kind = kind;
        edge.to.namespaceName = namespaceName;
        edge.to.name = name;
        edge.source = source;
        edge.detail = detail;
        if (!m_edges.contains(edge)) {
            m_edges.append(edge);
        }
    }

    RelationEdges edges() const { return m_edges; }

private:
    ObjectRef m_from;
    RelationEdges m_edges;
};

void readVolumes(EdgeCollector &edges, const QJsonArray &volumes, const QString &ns)
{
    for (const QJsonValue &entry : volumes) {
        const QJsonObject volume = entry.toObject();
        const QString detail = u"volume "_s + volume.value(u"name"_s).toString();
        edges.add(Source::Volume, u"v1"_s, u"ConfigMap"_s, ns, volume[u"configMap"_s][u"name"_s].toString(), detail);
        edges.add(Source::Volume, u"v1"_s, u"Secret"_s, ns, volume[u"secret"_s][u"secretName"_s].toString(), detail);
        edges.add(Source::Volume, u"v1"_s, u"PersistentVolumeClaim"_s, ns, volume[u"persistentVolumeClaim"_s][u"claimName"_s].toString(), detail);
        // An ephemeral volume's claim is named after the pod and the volume (generic ephemeral
        // volumes); it is owned by the pod, so the owner index finds it: nothing to add here.
        const QJsonArray sources = volume[u"projected"_s][u"sources"_s].toArray();
        for (const QJsonValue &source : sources) {
            const QString projected = u"projected "_s + detail;
            edges.add(Source::Volume, u"v1"_s, u"ConfigMap"_s, ns, source[u"configMap"_s][u"name"_s].toString(), projected);
            edges.add(Source::Volume, u"v1"_s, u"Secret"_s, ns, source[u"secret"_s][u"name"_s].toString(), projected);
        }
    }
}

void readContainers(EdgeCollector &edges, const QJsonArray &containers, const QString &ns)
{
    for (const QJsonValue &entry : containers) {
        const QJsonObject container = entry.toObject();
        const QString containerName = container.value(u"name"_s).toString();
        const QJsonArray envFrom = container.value(u"envFrom"_s).toArray();
        for (const QJsonValue &source : envFrom) {
            const QString detail = u"envFrom of container "_s + containerName;
            edges.add(Source::EnvFrom, u"v1"_s, u"ConfigMap"_s, ns, source[u"configMapRef"_s][u"name"_s].toString(), detail);
            edges.add(Source::EnvFrom, u"v1"_s, u"Secret"_s, ns, source[u"secretRef"_s][u"name"_s].toString(), detail);
        }
        const QJsonArray env = container.value(u"env"_s).toArray();
        for (const QJsonValue &variable : env) {
            const QJsonValue valueFrom = variable[u"valueFrom"_s];
            const QString detail = u"env "_s + variable[u"name"_s].toString() + u" of container "_s + containerName;
            edges.add(Source::Env, u"v1"_s, u"ConfigMap"_s, ns, valueFrom[u"configMapKeyRef"_s][u"name"_s].toString(), detail);
            edges.add(Source::Env, u"v1"_s, u"Secret"_s, ns, valueFrom[u"secretKeyRef"_s][u"name"_s].toString(), detail);
        }
    }
}

void readPod(EdgeCollector &edges, const QJsonObject &spec, const QString &ns)
{
    readVolumes(edges, spec.value(u"volumes"_s).toArray(), ns);
    for (const QString &list : {u"initContainers"_s, u"containers"_s, u"ephemeralContainers"_s}) {
        readContainers(edges, spec.value(list).toArray(), ns);
    }
    // serviceAccount is the deprecated spelling the apiserver still fills in beside it.
    QString serviceAccount = spec.value(u"serviceAccountName"_s).toString();
    if (serviceAccount.isEmpty()) {
        serviceAccount = spec.value(u"serviceAccount"_s).toString();
    }
    edges.add(Source::ServiceAccount, u"v1"_s, u"ServiceAccount"_s, ns, serviceAccount, u"serviceAccountName"_s);
    const QJsonArray pullSecrets = spec.value(u"imagePullSecrets"_s).toArray();
    for (const QJsonValue &secret : pullSecrets) {
        edges.add(Source::ImagePullSecret, u"v1"_s, u"Secret"_s, ns, secret[u"name"_s].toString(), u"imagePullSecrets"_s);
    }
    edges.add(Source::NodeName, u"v1"_s, u"Node"_s, QString(), spec.value(u"nodeName"_s).toString(), u"nodeName"_s);
}

void readIngressBackend(EdgeCollector &edges, const QJsonValue &backend, const QString &ns, const QString &detail)
{
    // networking.k8s.io/v1 writes service.name; v1beta1 (and extensions) wrote serviceName.
    QString service = backend[u"service"_s][u"name"_s].toString();
    if (service.isEmpty()) {
        service = backend[u"serviceName"_s].toString();
    }
    edges.add(Source::IngressBackend, u"v1"_s, u"Service"_s, ns, service, detail);
}

void readIngress(EdgeCollector &edges, const QJsonObject &spec, const QString &ns)
{
    readIngressBackend(edges, spec.value(u"defaultBackend"_s), ns, u"defaultBackend"_s);
    readIngressBackend(edges, spec.value(u"backend"_s), ns, u"defaultBackend"_s);
    const QJsonArray rules = spec.value(u"rules"_s).toArray();
    for (const QJsonValue &rule : rules) {
        const QString host = rule[u"host"_s].toString();
        const QJsonArray paths = rule[u"http"_s][u"paths"_s].toArray();
        for (const QJsonValue &path : paths) {
            const QString where = host.isEmpty() ? u"*"_s : host;
            readIngressBackend(edges, path[u"backend"_s], ns, u"rule "_s + where + path[u"path"_s].toString(u"/"_s));
        }
    }
}

} // namespace

RelationEdges ImplicitReferences::of(const ObjectRef &from)
{
    if (!from.object.isValid()) {
        return {};
    }
    return fromJson(QJsonDocument::fromJson(from.object.json()).object(), from);
}

RelationEdges ImplicitReferences::fromJson(const QJsonObject &object, const ObjectRef &from)
{
    EdgeCollector edges(from);
    // Items of a list carry no kind; the caller's reference knows it.
    const QString kind = from.kind.isEmpty() ? object.value(u"kind"_s).toString() : from.kind;
    const QString ns = object[u"metadata"_s][u"namespace"_s].toString();
    const QJsonObject spec = object.value(u"spec"_s).toObject();
    if (kind == u"Pod"_s) {
        readPod(edges, spec, ns);
    } else if (kind == u"HorizontalPodAutoscaler"_s) {
        const QJsonObject target = spec.value(u"scaleTargetRef"_s).toObject();
        edges.add(Source::ScaleTarget,
                  target.value(u"apiVersion"_s).toString(),
                  target.value(u"kind"_s).toString(),
                  ns,
                  target.value(u"name"_s).toString(),
                  u"scaleTargetRef"_s);
    } else if (kind == u"Ingress"_s) {
        readIngress(edges, spec, ns);
    }
    return edges.edges();
}

} // namespace Cachescope
