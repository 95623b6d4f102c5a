#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QExplicitlySharedDataPointer>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace Cachescope {

class KubeObjectData;

// KubeObject is one Kubernetes object as the informer cache keeps it: the object's JSON bytes
// (after the decode transform, which by default drops `metadata.managedFields`) plus the few
// fields that keys, indexes and table columns need, extracted once at decode time with simdjson.
// No JSON DOM is kept; value() parses on demand. Annotations are not extracted: no key, index
// or default column needs them, and they can be large (last-applied-configuration); value()
// reads them (`metadata.annotations.<key>`).
//
// Contract: immutable and implicitly shared; copying is a reference-count increment, so copies
// can cross threads freely. A default-constructed KubeObject is invalid (isValid() is false) and
// every accessor then returns an empty value. fromJson() never throws and never crashes on
// malformed input: it returns std::nullopt and describes the problem.
// Cost: fromJson() is linear in the size of the JSON (KubeObjectDecoder: one validating simdjson
// pass, then one pass that writes the bytes with their member names numbered, StoredJson, leaving
// out managedFields when dropped); memory is the stored bytes (about half the JSON for a pod) plus
// about 350 bytes of fields (bench_cache prints the split). Repeated strings (kind, apiVersion, namespace, label keys and values, node, phase), equal label
// sets and equal owner lists are shared per thread (StringInterner, ValueInterner); uid() and resourceVersion() build a QString from the stored bytes on each
// call. Timestamps are read as RFC 3339 (rfc3339.h), malformed ones as absent. Stored fields are returned by reference: a reference to a temporary's dangles.
class KubeObject
{
public:
    // OwnerReference is the part of `metadata.ownerReferences[]` that indexes and the UI use.
    struct OwnerReference
    {
        QString apiVersion;
        QString kind;
        QString name;
        QString uid;
        bool controller = false;

        friend bool operator==(const OwnerReference &, const OwnerReference &) = default;
    };

    // Transform says what fromJson() strips from the stored bytes. DropManagedFields matches the
    // transform client-go users install: managedFields is a quarter to half of a typical object
    // and no reader of the cache needs it.
    enum class Transform {
        None,
        DropManagedFields,
    };

    using Label = std::pair<QString, QString>;

    KubeObject();
    KubeObject(const KubeObject &other);
    KubeObject(KubeObject &&other) noexcept;
    KubeObject &operator=(const KubeObject &other);
    KubeObject &operator=(KubeObject &&other) noexcept;
    ~KubeObject();

    // fromJson() decodes one object. The input must be a JSON object whose `metadata` (when
    // present) is an object; the extracted fields must have their Kubernetes types (strings,
    // integer generation, string maps for labels, a list of objects for ownerReferences);
    // `null` counts as absent. On failure it returns std::nullopt and, when errorMessage is given,
    // stores a one-line reason there. Syntax errors inside subtrees that are not extracted
    // (e.g. deep in `spec`) are found only where the structure cannot be skipped.
    [[nodiscard]] static std::optional<KubeObject>
    fromJson(const QByteArray &json, Transform transform = Transform::DropManagedFields, QString *errorMessage = nullptr);

    bool isValid() const { return d; }

    // json() is the object's JSON: the input, byte for byte, minus what the transform removed.
    // It is kept with its member names numbered (StoredJson), so each call builds the bytes
    // (~4 us for a pod); jsonSize() is their length without building them.
    QByteArray json() const;
    qsizetype jsonSize() const;
    // storedSize() is what the object's JSON takes in memory (bench_cache; the status bar).
    qsizetype storedSize() const;

    const QString &apiVersion() const;
    const QString &kind() const;
    const QString &namespaceName() const; // `metadata.namespace`; empty for cluster-scoped objects
    const QString &name() const;
    QString uid() const;
    QString resourceVersion() const;
    qint64 generation() const;
    QDateTime creationTimestamp() const; // invalid when absent
    QDateTime deletionTimestamp() const; // invalid when absent
    // labels() is sorted by key.
    const QList<Label> &labels() const;
    std::optional<QString> label(const QString &key) const;
    const QList<OwnerReference> &ownerReferences() const;
    // controllerReference() is the owner reference with `controller: true`, if any.
    std::optional<OwnerReference> controllerReference() const;
    const QString &nodeName() const; // `spec.nodeName`
    const QString &phase() const; // `status.phase`

    // value() returns the value at a dot-separated field path (`spec.nodeName`,
    // `metadata.labels.app`, `spec.containers.0.image`); a literal dot in a key is written `\.`
    // (`metadata.labels.app\.kubernetes\.io/name`). Undefined when the path does not exist.
    // Extracted fields are answered without parsing; anything else parses the stored JSON, so
    // callers that need many fields of one object should parse json() once themselves.
    QJsonValue value(const QString &fieldPath) const;

    // Two KubeObjects are equal when their stored JSON bytes are equal.
    friend bool operator==(const KubeObject &a, const KubeObject &b);

private:
    explicit KubeObject(KubeObjectData *data);
    QExplicitlySharedDataPointer<const KubeObjectData> d;
};

} // namespace Cachescope
