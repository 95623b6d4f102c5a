#pragma once

#include "core/printers/jsonpath.h"
#include "core/printers/podsummary.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace Cachescope {

class Indexer;
class KubeObject;
struct ApiResource;

// ResourceColumns is the set of table columns for one kind: the columns kubectl prints for the
// built-in kinds (pods: Name, Namespace, Ready, Status, Restarts, IP and Node (wide), Age; deployments,
// replicasets, statefulsets, daemonsets, services, nodes, namespaces, configmaps, secrets,
// events, jobs), Name/Namespace/Age for any other kind, and a custom resource's
// `additionalPrinterColumns` (a JSONPath subset: `.a.b[0].c`, `['key.with.dots']`).
//
// value() computes one cell as a typed value (numbers as numbers, "x/y" fractions as a number
// that sorts by x then y, ages as the negated creation time in ms so that ascending is youngest
// first); displayText() turns it into what the table shows, given the current time (so ages
// tick without recomputing). Columns that need more than KubeObject's extracted fields
// (needsDocument()) read a parsed document: parse json() once per object and ask every such
// column of it, as values() does.
//
// Value type, cheap to copy; no Qt thread affinity. Cost: extracted columns are O(1); the rest
// are one QJsonDocument parse per object (values()) plus a walk of a few fields.
class ResourceColumns
{
public:
    // Type is how a column sorts and shows.
    enum class Type { String, Integer, Number, Boolean, Fraction, Age, TimeSpan };

    // PrinterColumn is one entry of a CRD version's `additionalPrinterColumns`.
    struct PrinterColumn
    {
        QString name;
        QString type; // integer, number, string, boolean, date
        QString jsonPath;
        QString description;
        int priority = 0;

        bool operator==(const PrinterColumn &) const = default;
    };

    // Field says where a column's value comes from.
    enum class Field {
        Name,
        Namespace,
        Age, // metadata.creationTimestamp
        Node, // spec.nodeName (extracted)
        Path, // a JSONPath (m_path) of any type
        PodReady,
        PodStatus,
        PodRestarts,
        ReplicasReady, // status.readyReplicas / spec.replicas
        ServiceExternalIp,
        ServicePorts,
        NodeStatus,
        NodeRoles,
        NodeSelector, // spec.template.spec.nodeSelector as key=value,…
        DataCount, // entries of data plus binaryData
        EventLastSeen,
        EventObject,
        JobStatus,
        JobCompletions,
        JobDuration,
        Label, // metadata.labels[labelKey]: kubectl's -L
    };

    struct Column
    {
        QString title; // English, translated by the model for display
        Type type = Type::String;
        Field field = Field::Path;
        QString jsonPath; // Field::Path
        QString emptyText; // shown when the value is missing ("<none>")
        QString description;
        // kubectl's priority: 0 is printed by default, more only with `-o wide` (the app shows all).
        int priority = 0;
        QString labelKey; // Field::Label; its title is the key, as the user wrote it
    };

    ResourceColumns() = default;

    // forKind() chooses the columns for a kind; printerColumns, when not empty, replace the
    // kind's own columns (after Name and Namespace), as the apiserver does for a CRD.
    [[nodiscard]] static ResourceColumns forKind(const QString &kind, bool namespaced, const QList<PrinterColumn> &printerColumns = {});
    [[nodiscard]] static ResourceColumns forResource(const ApiResource &resource, const QList<PrinterColumn> &printerColumns = {});
    // printerColumnsOf() reads `spec.versions[name == version].additionalPrinterColumns` (or the
    // v1beta1 top-level list) from a CustomResourceDefinition document.
    [[nodiscard]] static QList<PrinterColumn> printerColumnsOf(const QJsonObject &crd, const QString &version);
    // CrdResource names CustomResourceDefinitions for discovery (Cluster::informerOf()).
    static constexpr QLatin1String CrdResource{"customresourcedefinitions.apiextensions.k8s.io"};
    // printerColumnsIn() reads them from the resource's CRD (named `<plural>.<group>`) in an
    // indexer of CustomResourceDefinitions; none when the resource has no CRD there.
    [[nodiscard]] static QList<PrinterColumn> printerColumnsIn(const Indexer &crds, const ApiResource &resource);

    // addLabelColumns() appends a column per label key, as `kubectl get -L key,…` does; a key
    // already shown is not added twice. labelHeader() is kubectl's header for such a column: the
    // key's last path segment in upper case (app.kubernetes.io/name → NAME).
    void addLabelColumns(const QStringList &keys);
    [[nodiscard]] static QString labelHeader(const QString &key);

    qsizetype count() const { return m_columns.size(); }
    const Column &column(qsizetype index) const { return m_columns.at(index); }
    const QList<Column> &columns() const { return m_columns; }
    // indexOf() is the first column with that field (-1 when absent).
    qsizetype indexOf(Field field) const;
    bool needsDocument(qsizetype index) const;
    bool anyNeedsDocument() const;

    // value() is one cell's typed value; document is the parsed object (only read by columns
    // that needsDocument()). Invalid QVariant when the object has no such value.
    QVariant value(qsizetype index, const KubeObject &object, const QJsonObject &document) const;
    // values() is every cell of one object, parsing its JSON once when any column needs it.
    QList<QVariant> values(const KubeObject &object) const;
    QString displayText(qsizetype index, const QVariant &value, const QDateTime &now) const;

private:
    // value() with the pod's summary made at most once for all the cells of one object (Ready,
    // Status and Restarts all read it).
    QVariant value(qsizetype index, const KubeObject &object, const QJsonObject &document, std::optional<PodSummary> &pod) const;

    void add(const char *title, Type type, Field field, const QString &jsonPath = {}, const QString &emptyText = {});
    void add(const QString &title, Type type, Field field, const QString &jsonPath = {}, const QString &emptyText = {});

    QList<Column> m_columns;
    QList<JsonPath> m_paths; // parsed jsonPath per column (empty for others)
};

} // namespace Cachescope
