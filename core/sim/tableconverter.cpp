#include "core/sim/tableconverter.h"

#include "core/printers/duration.h"
#include "core/printers/jsonpath.h"
#include "core/printers/podsummary.h"
#include "core/util/rfc3339.h"

#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
QJsonObject column(const QString &name, const QString &type, const QString &description, int priority = 0, const QString &format = {})
{
    return QJsonObject{{u"name"_s, name}, {u"type"_s, type}, {u"format"_s, format}, {u"description"_s, description}, {u"priority"_s, priority}};
}

QJsonObject nameColumn()
{
    return column(u"Name"_s,
                  u"string"_s,
                  u"Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client "
                  u"to request the generation of an appropriate name automatically."_s,
                  0,
                  u"name"_s);
}

QJsonObject ageColumn()
{
    return column(u"Age"_s, u"string"_s, u"CreationTimestamp is a timestamp representing the server time when this object was created."_s);
}

QString age(const QJsonObject &metadata, const QDateTime &now)
{
    const QDateTime created = dateTimeFromRfc3339(metadata.value(u"creationTimestamp").toString());
    if (!created.isValid())
        return u"<unknown>"_s;
    return humanDuration(std::chrono::seconds(created.secsTo(now)));
}

int integer(const QJsonObject &object, const QString &key)
{
    return object.value(key).toInt();
}

// A printer column's cell as the apiextensions apiserver renders it: missing values are null
// (kubectl prints <none>), dates become ages.
QJsonValue printerCell(const QJsonObject &printer, const QJsonObject &object, const QDateTime &now)
{
    const std::optional<JsonPath> path = parseJsonPath(printer.value(u"jsonPath").toString());
    const QJsonValue value = path ? evaluateJsonPath(object, *path) : QJsonValue(QJsonValue::Undefined);
    if (value.isUndefined() || value.isNull())
        return QJsonValue::Null;
    if (printer.value(u"type").toString() == u"date") {
        const QDateTime time = dateTimeFromRfc3339(value.toString());
        return time.isValid() ? QJsonValue(humanDuration(std::chrono::seconds(time.secsTo(now)))) : QJsonValue(u"<invalid>"_s);
    }
    return value;
}

// podCells() are the apiserver's pod row (its printPod), from the one PodSummary the app and the
// CLI print too. The apiserver adds "(<age> ago)" to RESTARTS; the simulator does not.
QJsonArray podCells(const QJsonObject &object)
{
    const PodSummary pod = PodSummary::fromJson(object);
    return QJsonArray{pod.ready(), pod.status, pod.restarts, QString(), pod.ip.isEmpty() ? u"<none>"_s : pod.ip, pod.node.isEmpty() ? u"<none>"_s : pod.node};
}
} // namespace

QJsonArray TableConverter::columnDefinitions(const ResourceType &type)
{
    if (!type.printerColumns.isEmpty()) {
        // The apiserver's table for a custom resource: Name, then exactly the declared columns
        // (Age only when declared).
        QJsonArray columns{nameColumn()};
        for (const QJsonValue &value : type.printerColumns) {
            const QJsonObject printer = value.toObject();
            columns.append(column(printer.value(u"name").toString(),
                                  printer.value(u"type").toString(),
                                  printer.value(u"description").toString(),
                                  printer.value(u"priority").toInt()));
        }
        return columns;
    }
    const QString &kind = type.kind;
    if (kind == u"Pod") {
        return QJsonArray{nameColumn(),
                          column(u"Ready"_s, u"string"_s, u"The aggregate readiness state of this pod for accepting traffic."_s),
                          column(u"Status"_s, u"string"_s, u"The aggregate status of the containers in this pod."_s),
                          column(u"Restarts"_s, u"string"_s, u"The number of times the containers in this pod have been restarted."_s),
                          ageColumn(),
                          column(u"IP"_s, u"string"_s, u"IP address allocated to the pod."_s, 1),
                          column(u"Node"_s, u"string"_s, u"Name of the Node this pod is assigned to."_s, 1)};
    }
    if (kind == u"Deployment") {
        return QJsonArray{nameColumn(),
                          column(u"Ready"_s, u"string"_s, u"Number of the pod with ready state"_s),
                          column(u"Up-to-date"_s, u"string"_s, u"Total number of non-terminated pods targeted by this deployment"_s),
                          column(u"Available"_s, u"string"_s, u"Total number of available pods"_s),
                          ageColumn()};
    }
    if (kind == u"StatefulSet") {
        return QJsonArray{nameColumn(), column(u"Ready"_s, u"string"_s, u"Number of the pod with ready state"_s), ageColumn()};
    }
    if (kind == u"ReplicaSet") {
        return QJsonArray{nameColumn(),
                          column(u"Desired"_s, u"integer"_s, u"Number of desired pods."_s),
                          column(u"Current"_s, u"integer"_s, u"Number of actual replicas."_s),
                          column(u"Ready"_s, u"integer"_s, u"Number of ready replicas."_s),
                          ageColumn()};
    }
    if (kind == u"Node") {
        return QJsonArray{nameColumn(),
                          column(u"Status"_s, u"string"_s, u"The status of the node"_s),
                          column(u"Roles"_s, u"string"_s, u"The roles of the node"_s),
                          ageColumn(),
                          column(u"Version"_s, u"string"_s, u"Kubelet Version reported by the node."_s)};
    }
    if (kind == u"Namespace")
        return QJsonArray{nameColumn(), column(u"Status"_s, u"string"_s, u"The status of the namespace"_s), ageColumn()};
    if (kind == u"Service") {
        return QJsonArray{nameColumn(),
                          column(u"Type"_s, u"string"_s, u"The type of service."_s),
                          column(u"Cluster-IP"_s, u"string"_s, u"The cluster IP of the service."_s),
                          column(u"External-IP"_s, u"string"_s, u"External IPs of the service."_s),
                          column(u"Port(s)"_s, u"string"_s, u"The ports of the service."_s),
                          ageColumn()};
    }
    if (kind == u"ConfigMap")
        return QJsonArray{nameColumn(), column(u"Data"_s, u"integer"_s, u"Number of data entries."_s), ageColumn()};
    if (kind == u"Secret") {
        return QJsonArray{nameColumn(),
                          column(u"Type"_s, u"string"_s, u"The type of the secret."_s),
                          column(u"Data"_s, u"integer"_s, u"Number of data entries."_s),
                          ageColumn()};
    }
    if (kind == u"Event") {
        return QJsonArray{column(u"Last Seen"_s, u"string"_s, u"Time the event was last seen."_s),
                          column(u"Type"_s, u"string"_s, u"Type of the event."_s),
                          column(u"Reason"_s, u"string"_s, u"Reason of the event."_s),
                          column(u"Object"_s, u"string"_s, u"The object the event is about."_s),
                          column(u"Message"_s, u"string"_s, u"Message of the event."_s),
                          column(u"Name"_s, u"string"_s, u"Name of the event."_s, 1, u"name"_s)};
    }
    return QJsonArray{nameColumn(), ageColumn()};
}

QJsonObject TableConverter::row(const ResourceType &type, const QJsonObject &object, IncludeObject include, const QDateTime &now)
{
    const QJsonObject metadata = object.value(u"metadata").toObject();
    const QString name = metadata.value(u"name").toString();
    const QString ageCell = age(metadata, now);
    const QJsonObject spec = object.value(u"spec").toObject();
    const QJsonObject status = object.value(u"status").toObject();
    const QString &kind = type.kind;
    QJsonArray cells;
    if (!type.printerColumns.isEmpty()) {
        cells = QJsonArray{name};
        for (const QJsonValue &value : type.printerColumns) {
            cells.append(printerCell(value.toObject(), object, now));
        }
    } else if (kind == u"Pod") {
        cells = podCells(object);
        cells.prepend(name);
        cells.replace(4, ageCell);
    } else if (kind == u"Deployment") {
        const int replicas = spec.value(u"replicas").toInt(1);
        cells = QJsonArray{name,
                           QString(QString::number(integer(status, u"readyReplicas"_s)) + u'/' + QString::number(replicas)),
                           integer(status, u"updatedReplicas"_s),
                           integer(status, u"availableReplicas"_s),
                           ageCell};
    } else if (kind == u"StatefulSet") {
        cells =
            QJsonArray{name, QString(QString::number(integer(status, u"readyReplicas"_s)) + u'/' + QString::number(spec.value(u"replicas").toInt(1))), ageCell};
    } else if (kind == u"ReplicaSet") {
        cells = QJsonArray{name, spec.value(u"replicas").toInt(1), integer(status, u"replicas"_s), integer(status, u"readyReplicas"_s), ageCell};
    } else if (kind == u"Node") {
        QString ready = u"Unknown"_s;
        for (const QJsonValue &condition : status.value(u"conditions").toArray()) {
            if (condition.toObject().value(u"type") == u"Ready"_s)
                ready = condition.toObject().value(u"status").toString() == u"True" ? u"Ready"_s : u"NotReady"_s;
        }
        QStringList roles;
        const QJsonObject labels = metadata.value(u"labels").toObject();
        const QString rolePrefix = u"node-role.kubernetes.io/"_s;
        for (auto it = labels.begin(); it != labels.end(); ++it) {
            if (it.key().startsWith(rolePrefix))
                roles.append(it.key().mid(rolePrefix.size()));
        }
        cells = QJsonArray{
            name, ready, roles.isEmpty() ? u"<none>"_s : roles.join(u','), ageCell, status.value(u"nodeInfo").toObject().value(u"kubeletVersion").toString()};
    } else if (kind == u"Namespace") {
        cells = QJsonArray{name, status.value(u"phase").toString(u"Active"_s), ageCell};
    } else if (kind == u"Service") {
        QStringList ports;
        for (const QJsonValue &port : spec.value(u"ports").toArray()) {
            const QJsonObject p = port.toObject();
            ports.append(QString::number(p.value(u"port").toInt()) + u'/' + p.value(u"protocol").toString(u"TCP"_s));
        }
        cells = QJsonArray{name,
                           spec.value(u"type").toString(u"ClusterIP"_s),
                           spec.value(u"clusterIP").toString(u"<none>"_s),
                           u"<none>"_s,
                           ports.isEmpty() ? u"<none>"_s : ports.join(u','),
                           ageCell};
    } else if (kind == u"ConfigMap") {
        cells = QJsonArray{name, object.value(u"data").toObject().size() + object.value(u"binaryData").toObject().size(), ageCell};
    } else if (kind == u"Secret") {
        cells = QJsonArray{name, object.value(u"type").toString(u"Opaque"_s), object.value(u"data").toObject().size(), ageCell};
    } else if (kind == u"Event") {
        const QJsonObject involved = object.value(u"involvedObject").toObject();
        const QDateTime last = dateTimeFromRfc3339(object.value(u"lastTimestamp").toString());
        cells = QJsonArray{last.isValid() ? humanDuration(std::chrono::seconds(last.secsTo(now))) : ageCell,
                           object.value(u"type").toString(),
                           object.value(u"reason").toString(),
                           QString(involved.value(u"kind").toString().toLower() + u'/' + involved.value(u"name").toString()),
                           object.value(u"message").toString(),
                           name};
    } else {
        cells = QJsonArray{name, ageCell};
    }
    QJsonObject row{{u"cells"_s, cells}};
    if (include == IncludeObject::Metadata)
        row.insert(u"object"_s, partialObjectMetadata(object));
    else if (include == IncludeObject::Object)
        row.insert(u"object"_s, object);
    return row;
}

QJsonObject TableConverter::table(const ResourceType &type, const QJsonArray &rows, bool includeColumns, const QJsonObject &listMetadata)
{
    return QJsonObject{
        {u"kind"_s, u"Table"_s},
        {u"apiVersion"_s, u"meta.k8s.io/v1"_s},
        {u"metadata"_s, listMetadata},
        {u"columnDefinitions"_s, includeColumns ? columnDefinitions(type) : QJsonArray()},
        {u"rows"_s, rows},
    };
}

QJsonObject TableConverter::partialObjectMetadata(const QJsonObject &object)
{
    return QJsonObject{
        {u"kind"_s, u"PartialObjectMetadata"_s},
        {u"apiVersion"_s, u"meta.k8s.io/v1"_s},
        {u"metadata"_s, object.value(u"metadata")},
    };
}

} // namespace Cachescope::Sim
