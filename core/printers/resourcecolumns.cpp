#include "core/printers/resourcecolumns.h"

#include "core/cache/indexer.h"
#include "core/cache/kubeobject.h"
#include "core/kube/apiresource.h"
#include "core/printers/conditions.h"
#include "core/printers/duration.h"
#include "core/printers/podsummary.h"
#include "core/util/rfc3339.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

const QString NoneText = u"<none>"_s;

qint64 ageValue(const QDateTime &time)
{
    return -time.toMSecsSinceEpoch();
}

QDateTime timestamp(const QJsonValue &value)
{
    return dateTimeFromRfc3339(value.toString());
}

qint64 fraction(qint64 numerator, qint64 denominator)
{
    // Sorts by the numerator first, then by the denominator; both stay far below 2^31.
    return (numerator << 32) | (denominator & 0xffffffff);
}

QVariant typed(const QJsonValue &value, ResourceColumns::Type type)
{
    switch (value.type()) {
    case QJsonValue::Undefined:
    case QJsonValue::Null:
        return {};
    case QJsonValue::Array:
    case QJsonValue::Object:
        // kubectl prints compound values as JSON.
        return QString::fromUtf8(value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                                 : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    default:
        break;
    }
    switch (type) {
    case ResourceColumns::Type::Integer:
        return value.isDouble() ? QVariant(qint64(value.toDouble())) : QVariant(value.toVariant().toLongLong());
    case ResourceColumns::Type::Number:
        return value.isDouble() ? value.toDouble() : value.toVariant().toDouble();
    case ResourceColumns::Type::Boolean:
        return value.isBool() ? value.toBool() : value.toVariant().toBool();
    case ResourceColumns::Type::Age: {
        const QDateTime time = timestamp(value);
        return time.isValid() ? QVariant(ageValue(time)) : QVariant();
    }
    default:
        return value.isString() ? value.toString() : value.toVariant().toString();
    }
}

QString servicePorts(const QJsonObject &document)
{
    QStringList ports;
    const QJsonArray list = document[u"spec"][u"ports"].toArray();
    for (const QJsonValue &port : list) {
        QString text = QString::number(port[u"port"].toInt());
        if (port[u"nodePort"].toInt() > 0) {
            text += u':' + QString::number(port[u"nodePort"].toInt());
        }
        text += u'/' + port[u"protocol"].toString(u"TCP"_s);
        ports.append(text);
    }
    return ports.join(u',');
}

QVariant serviceExternalIp(const QJsonObject &document)
{
    const QJsonObject spec = document[u"spec"].toObject();
    QStringList addresses;
    const QJsonArray ingress = document[u"status"][u"loadBalancer"][u"ingress"].toArray();
    for (const QJsonValue &entry : ingress) {
        const QString ip = entry[u"ip"].toString();
        addresses.append(ip.isEmpty() ? entry[u"hostname"].toString() : ip);
    }
    const QJsonArray external = spec[u"externalIPs"].toArray();
    for (const QJsonValue &ip : external) {
        addresses.append(ip.toString());
    }
    const QString type = spec[u"type"].toString();
    if (addresses.isEmpty()) {
        if (type == u"LoadBalancer") {
            return u"<pending>"_s;
        }
        if (type == u"ExternalName") {
            return spec[u"externalName"].toString();
        }
        return {};
    }
    return addresses.join(u',');
}

QString nodeRoles(const KubeObject &object)
{
    // kubectl's rule: every `node-role.kubernetes.io/<role>` label, and `kubernetes.io/role`.
    static const QString prefix = u"node-role.kubernetes.io/"_s;
    QStringList roles;
    const QList<KubeObject::Label> labels = object.labels();
    for (const auto &[key, value] : labels) {
        if (key.startsWith(prefix) && key.size() > prefix.size()) {
            roles.append(key.mid(prefix.size()));
        } else if (key == u"kubernetes.io/role" && !value.isEmpty()) {
            roles.append(value);
        }
    }
    roles.sort();
    roles.removeDuplicates();
    return roles.join(u',');
}

// nodeSelector() prints a selector map as kubectl does: key=value pairs by key, comma separated.
QString nodeSelector(const QJsonObject &selector)
{
    QStringList pairs;
    for (auto it = selector.begin(); it != selector.end(); ++it) {
        pairs.append(it.key() + u'=' + it.value().toString());
    }
    return pairs.join(u','); // QJsonObject iterates in key order
}

QString nodeStatus(const QJsonObject &document)
{
    const QString ready = conditionStatus(document[u"status"][u"conditions"].toArray(), u"Ready");
    QString status = ready == u"True" ? u"Ready"_s : ready == u"False" ? u"NotReady"_s : u"Unknown"_s;
    if (document[u"spec"][u"unschedulable"].toBool()) {
        status += u",SchedulingDisabled"_s;
    }
    return status;
}

QString eventObject(const QJsonObject &document)
{
    const QJsonObject involved = document[u"involvedObject"].toObject();
    const QJsonObject regarding = involved.isEmpty() ? document[u"regarding"].toObject() : involved;
    return regarding[u"kind"].toString().toLower() + u'/' + regarding[u"name"].toString();
}

QVariant eventLastSeen(const KubeObject &object, const QJsonObject &document)
{
    for (const auto *field : {u"lastTimestamp", u"eventTime", u"firstTimestamp"}) {
        const QDateTime time = timestamp(document[QStringView(field)]);
        if (time.isValid()) {
            return ageValue(time);
        }
    }
    const QDateTime created = object.creationTimestamp();
    return created.isValid() ? QVariant(ageValue(created)) : QVariant();
}

QString jobStatus(const QJsonObject &document)
{
    const QJsonArray conditions = document[u"status"][u"conditions"].toArray();
    if (conditionStatus(conditions, u"Complete") == u"True") {
        return u"Complete"_s;
    }
    if (conditionStatus(conditions, u"Failed") == u"True") {
        return u"Failed"_s;
    }
    if (conditionStatus(conditions, u"Suspended") == u"True") {
        return u"Suspended"_s;
    }
    return u"Running"_s;
}

QVariant jobDuration(const QJsonObject &document)
{
    const QDateTime start = timestamp(document[u"status"][u"startTime"]);
    if (!start.isValid()) {
        return {};
    }
    QDateTime end = timestamp(document[u"status"][u"completionTime"]);
    if (!end.isValid()) {
        // A running job's duration is read when the row is computed; it is refreshed with the
        // row's next change rather than every second.
        end = QDateTime::currentDateTimeUtc();
    }
    return start.secsTo(end);
}

} // namespace

void ResourceColumns::add(const char *title, Type type, Field field, const QString &jsonPath, const QString &emptyText)
{
    // The titles are marked for lupdate where they are written and translated where they are shown.
    add(QString::fromLatin1(title), type, field, jsonPath, emptyText);
}

void ResourceColumns::add(const QString &title, Type type, Field field, const QString &jsonPath, const QString &emptyText)
{
    Column column;
    column.title = title;
    column.type = type;
    column.field = field;
    column.jsonPath = jsonPath;
    column.emptyText = emptyText;
    m_columns.append(column);
    m_paths.append(jsonPath.isEmpty() ? JsonPath() : parseJsonPath(jsonPath).value_or(JsonPath()));
}

void ResourceColumns::addLabelColumns(const QStringList &keys)
{
    for (const QString &key : keys) {
        const bool shown = std::any_of(m_columns.cbegin(), m_columns.cend(), [&key](const Column &column) { return column.labelKey == key; });
        if (key.isEmpty() || shown) {
            continue;
        }
        add(key, Type::String, Field::Label);
        m_columns.last().labelKey = key;
    }
}

QString ResourceColumns::labelHeader(const QString &key)
{
    return key.section(u'/', -1).toUpper();
}

ResourceColumns ResourceColumns::forKind(const QString &kind, bool namespaced, const QList<PrinterColumn> &printerColumns)
{
    ResourceColumns c;
    const bool isEvent = kind == u"Event";
    if (isEvent) {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Last Seen"), Type::Age, Field::EventLastSeen);
    }
    c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Name"), Type::String, Field::Name);
    if (isEvent) {
        c.m_columns.last().priority = 1; // kubectl names events only with -o wide
    }
    if (namespaced) {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Namespace"), Type::String, Field::Namespace);
    }
    if (!printerColumns.isEmpty()) {
        for (const PrinterColumn &printer : printerColumns) {
            Type type = Type::String;
            if (printer.type == u"integer") {
                type = Type::Integer;
            } else if (printer.type == u"number") {
                type = Type::Number;
            } else if (printer.type == u"boolean") {
                type = Type::Boolean;
            } else if (printer.type == u"date") {
                type = Type::Age;
            }
            c.add(printer.name, type, Field::Path, printer.jsonPath);
            c.m_columns.last().description = printer.description;
            c.m_columns.last().priority = printer.priority;
        }
        return c;
    }
    if (kind == u"Pod") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Ready"), Type::Fraction, Field::PodReady);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Status"), Type::String, Field::PodStatus);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Restarts"), Type::Integer, Field::PodRestarts);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "IP"), Type::String, Field::Path, u".status.podIP"_s, NoneText);
        c.m_columns.last().priority = 1;
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Node"), Type::String, Field::Node, {}, NoneText);
        c.m_columns.last().priority = 1;
    } else if (kind == u"Deployment") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Ready"), Type::Fraction, Field::ReplicasReady);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Up-to-date"), Type::Integer, Field::Path, u".status.updatedReplicas"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Available"), Type::Integer, Field::Path, u".status.availableReplicas"_s, u"0"_s);
    } else if (kind == u"ReplicaSet") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Desired"), Type::Integer, Field::Path, u".spec.replicas"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Current"), Type::Integer, Field::Path, u".status.replicas"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Ready"), Type::Integer, Field::Path, u".status.readyReplicas"_s, u"0"_s);
    } else if (kind == u"StatefulSet") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Ready"), Type::Fraction, Field::ReplicasReady);
    } else if (kind == u"DaemonSet") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Desired"), Type::Integer, Field::Path, u".status.desiredNumberScheduled"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Current"), Type::Integer, Field::Path, u".status.currentNumberScheduled"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Ready"), Type::Integer, Field::Path, u".status.numberReady"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Up-to-date"), Type::Integer, Field::Path, u".status.updatedNumberScheduled"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Available"), Type::Integer, Field::Path, u".status.numberAvailable"_s, u"0"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Node Selector"), Type::String, Field::NodeSelector, {}, NoneText);
    } else if (kind == u"Service") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Type"), Type::String, Field::Path, u".spec.type"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Cluster-IP"), Type::String, Field::Path, u".spec.clusterIP"_s, NoneText);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "External-IP"), Type::String, Field::ServiceExternalIp, {}, NoneText);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Port(s)"), Type::String, Field::ServicePorts, {}, NoneText);
    } else if (kind == u"Node") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Status"), Type::String, Field::NodeStatus);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Roles"), Type::String, Field::NodeRoles, {}, NoneText);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Age"), Type::Age, Field::Age);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Version"), Type::String, Field::Path, u".status.nodeInfo.kubeletVersion"_s);
        return c; // kubectl's order: the age before the version
    } else if (kind == u"Namespace") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Status"), Type::String, Field::Path, u".status.phase"_s);
    } else if (kind == u"ConfigMap") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Data"), Type::Integer, Field::DataCount);
    } else if (kind == u"Secret") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Type"), Type::String, Field::Path, u".type"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Data"), Type::Integer, Field::DataCount);
    } else if (isEvent) {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Type"), Type::String, Field::Path, u".type"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Reason"), Type::String, Field::Path, u".reason"_s);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Object"), Type::String, Field::EventObject);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Message"), Type::String, Field::Path, u".message"_s);
        return c; // kubectl shows no age for events: Last Seen is it
    } else if (kind == u"Job") {
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Status"), Type::String, Field::JobStatus);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Completions"), Type::Fraction, Field::JobCompletions);
        c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Duration"), Type::TimeSpan, Field::JobDuration);
    }
    c.add(QT_TRANSLATE_NOOP("ResourceColumns", "Age"), Type::Age, Field::Age);
    return c;
}

ResourceColumns ResourceColumns::forResource(const ApiResource &resource, const QList<PrinterColumn> &printerColumns)
{
    return forKind(resource.kind, resource.namespaced, printerColumns);
}

QList<ResourceColumns::PrinterColumn> ResourceColumns::printerColumnsOf(const QJsonObject &crd, const QString &version)
{
    const QJsonObject spec = crd[u"spec"].toObject();
    QJsonArray list = spec[u"additionalPrinterColumns"].toArray();
    const QJsonArray versions = spec[u"versions"].toArray();
    for (const QJsonValue &entry : versions) {
        if (entry[u"name"].toString() == version && entry.toObject().contains(u"additionalPrinterColumns")) {
            list = entry[u"additionalPrinterColumns"].toArray();
        }
    }
    QList<PrinterColumn> columns;
    for (const QJsonValue &entry : std::as_const(list)) {
        PrinterColumn column;
        column.name = entry[u"name"].toString();
        column.type = entry[u"type"].toString();
        // v1beta1 spelled it JSONPath.
        column.jsonPath = entry.toObject().contains(u"jsonPath") ? entry[u"jsonPath"].toString() : entry[u"JSONPath"].toString();
        column.description = entry[u"description"].toString();
        column.priority = entry[u"priority"].toInt();
        columns.append(column);
    }
    return columns;
}

QList<ResourceColumns::PrinterColumn> ResourceColumns::printerColumnsIn(const Indexer &crds, const ApiResource &resource)
{
    if (resource.gvr.group().isEmpty()) {
        return {};
    }
    const KubeObject crd = crds.getByKey(resource.gvr.resource() + u'.' + resource.gvr.group());
    if (!crd.isValid()) {
        return {};
    }
    return printerColumnsOf(QJsonDocument::fromJson(crd.json()).object(), resource.gvr.version());
}

qsizetype ResourceColumns::indexOf(Field field) const
{
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        if (m_columns.at(i).field == field) {
            return i;
        }
    }
    return -1;
}

bool ResourceColumns::needsDocument(qsizetype index) const
{
    switch (m_columns.at(index).field) {
    case Field::Name:
    case Field::Namespace:
    case Field::Age:
    case Field::Node:
    case Field::NodeRoles:
    case Field::Label:
        return false;
    default:
        return true;
    }
}

bool ResourceColumns::anyNeedsDocument() const
{
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        if (needsDocument(i)) {
            return true;
        }
    }
    return false;
}

QVariant ResourceColumns::value(qsizetype index, const KubeObject &object, const QJsonObject &document) const
{
    std::optional<PodSummary> pod;
    return value(index, object, document, pod);
}

QVariant ResourceColumns::value(qsizetype index, const KubeObject &object, const QJsonObject &document, std::optional<PodSummary> &pod) const
{
    const auto summary = [&pod, &document]() -> const PodSummary & {
        if (!pod) {
            pod = PodSummary::fromJson(document);
        }
        return *pod;
    };
    const Column &column = m_columns.at(index);
    switch (column.field) {
    case Field::Name:
        return object.name();
    case Field::Namespace:
        return object.namespaceName();
    case Field::Age: {
        const QDateTime created = object.creationTimestamp();
        return created.isValid() ? QVariant(ageValue(created)) : QVariant();
    }
    case Field::Node: {
        const QString node = object.nodeName();
        return node.isEmpty() ? QVariant() : QVariant(node);
    }
    case Field::Label: {
        const std::optional<QString> label = object.label(m_columns.at(index).labelKey);
        return label ? QVariant(*label) : QVariant();
    }
    case Field::Path:
        if (m_paths.at(index).isEmpty()) {
            return {};
        }
        return typed(evaluateJsonPath(document, m_paths.at(index)), column.type);
    case Field::PodReady:
        return fraction(summary().readyContainers, summary().totalContainers);
    case Field::PodStatus:
        return summary().status;
    case Field::PodRestarts:
        return qint64(summary().restarts);
    case Field::ReplicasReady:
        return fraction(document[u"status"][u"readyReplicas"].toInteger(), document[u"spec"][u"replicas"].toInteger());
    case Field::ServiceExternalIp:
        return serviceExternalIp(document);
    case Field::ServicePorts: {
        const QString ports = servicePorts(document);
        return ports.isEmpty() ? QVariant() : QVariant(ports);
    }
    case Field::NodeStatus:
        return nodeStatus(document);
    case Field::NodeRoles: {
        const QString roles = nodeRoles(object);
        return roles.isEmpty() ? QVariant() : QVariant(roles);
    }
    case Field::NodeSelector: {
        const QString selector = nodeSelector(document[u"spec"][u"template"][u"spec"][u"nodeSelector"].toObject());
        return selector.isEmpty() ? QVariant() : QVariant(selector);
    }
    case Field::DataCount:
        return qint64(document[u"data"].toObject().size() + document[u"binaryData"].toObject().size());
    case Field::EventLastSeen:
        return eventLastSeen(object, document);
    case Field::EventObject:
        return eventObject(document);
    case Field::JobStatus:
        return jobStatus(document);
    case Field::JobCompletions: {
        const QJsonValue completions = document[u"spec"][u"completions"];
        return fraction(document[u"status"][u"succeeded"].toInteger(), completions.isDouble() ? completions.toInteger() : 1);
    }
    case Field::JobDuration:
        return jobDuration(document);
    }
    return {};
}

QList<QVariant> ResourceColumns::values(const KubeObject &object) const
{
    QJsonObject document;
    if (anyNeedsDocument()) {
        document = QJsonDocument::fromJson(object.json()).object();
    }
    std::optional<PodSummary> pod;
    QList<QVariant> cells;
    cells.reserve(m_columns.size());
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        cells.append(value(i, object, document, pod));
    }
    return cells;
}

QString ResourceColumns::displayText(qsizetype index, const QVariant &value, const QDateTime &now) const
{
    const Column &column = m_columns.at(index);
    if (!value.isValid()) {
        return column.emptyText;
    }
    switch (column.type) {
    case Type::Age: {
        const qint64 created = -value.toLongLong();
        return Cachescope::humanDuration(std::chrono::milliseconds(now.toMSecsSinceEpoch() - created));
    }
    case Type::TimeSpan:
        return Cachescope::humanDuration(std::chrono::seconds(value.toLongLong()));
    case Type::Fraction: {
        const qint64 encoded = value.toLongLong();
        return QString::number(encoded >> 32) + u'/' + QString::number(encoded & 0xffffffff);
    }
    case Type::Boolean:
        return value.toBool() ? u"true"_s : u"false"_s;
    default:
        return value.toString();
    }
}

} // namespace Cachescope
