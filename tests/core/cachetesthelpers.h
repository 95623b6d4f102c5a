#pragma once

// Helpers shared by the core/cache unit tests: small objects built from JSON, and a readable
// one-line rendering of deltas so that a failing comparison shows what was queued.

#include "core/cache/delta.h"
#include "core/cache/deltaqueue.h"
#include "core/cache/keylistergetter.h"
#include "core/cache/keys.h"
#include "core/cache/kubeobject.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QStringList>
#include <QTest>

namespace CacheTest {

using namespace Cachescope;

// object() builds a pod-like object; key is `ns/name` or `name`, rv its resourceVersion.
inline KubeObject object(const QString &key, const QString &rv = QStringLiteral("1"), const QJsonObject &extraMetadata = {}, const QJsonObject &spec = {})
{
    QJsonObject metadata = extraMetadata;
    const auto parts = splitMetaNamespaceKey(key);
    Q_ASSERT(parts);
    metadata.insert(QStringLiteral("name"), parts->name);
    if (!parts->namespaceName.isEmpty()) {
        metadata.insert(QStringLiteral("namespace"), parts->namespaceName);
    }
    metadata.insert(QStringLiteral("resourceVersion"), rv);
    QJsonObject root{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("Pod")}, {QStringLiteral("metadata"), metadata}};
    if (!spec.isEmpty()) {
        root.insert(QStringLiteral("spec"), spec);
    }
    QString error;
    const auto decoded = KubeObject::fromJson(QJsonDocument(root).toJson(QJsonDocument::Compact), KubeObject::Transform::DropManagedFields, &error);
    if (!decoded) {
        qFatal("test object does not decode: %s", qPrintable(error));
    }
    return *decoded;
}

// describe() renders one delta as `Type key@rv`, a tombstone as `Type !key@rv` (rv of its last
// known object, `-` when there is none).
inline QString describe(const Delta &delta)
{
    if (delta.type == DeltaType::ReplacedAll) {
        // `ReplacedAll [a/x@1 a/y@2]@rv`
        QStringList objects;
        for (const KubeObject &object : delta.list ? *delta.list : QList<KubeObject>()) {
            objects.append(metaNamespaceKey(object) + QLatin1Char('@') + object.resourceVersion());
        }
        return QStringLiteral("ReplacedAll [") + objects.join(QLatin1Char(' ')) + QStringLiteral("]@") + delta.resourceVersion;
    }
    if (delta.type == DeltaType::SyncAll) {
        return QStringLiteral("SyncAll");
    }
    const KubeObject known = delta.kubeObject();
    const QString rv = known.isValid() ? known.resourceVersion() : QStringLiteral("-");
    const QString key = deletionHandlingMetaNamespaceKey(delta.object);
    return deltaTypeName(delta.type) + QLatin1Char(' ') + (delta.isTombstone() ? QStringLiteral("!") : QString()) + key + QLatin1Char('@') + rv;
}

inline QString describe(const Deltas &deltas)
{
    QStringList parts;
    for (const Delta &delta : deltas) {
        parts.append(describe(delta));
    }
    return parts.join(QStringLiteral(", "));
}

// FakeKnownObjects is a KeyListerGetter over a plain map, for queue tests that need a store.
class FakeKnownObjects final : public KeyListerGetter
{
public:
    void add(const KubeObject &object)
    {
        QMutexLocker locker(&m_mutex);
        m_objects.insert(metaNamespaceKey(object), object);
    }
    QStringList listKeys() const override
    {
        QMutexLocker locker(&m_mutex);
        QStringList keys = m_objects.keys();
        keys.sort();
        return keys;
    }
    KubeObject getByKey(const QString &key) const override
    {
        QMutexLocker locker(&m_mutex);
        return m_objects.value(key);
    }
    void remove(const QString &key)
    {
        QMutexLocker locker(&m_mutex);
        m_objects.remove(key);
    }
    // apply() does what an informer does with popped deltas: the store follows the queue.
    void apply(const Deltas &deltas)
    {
        for (const Delta &delta : deltas) {
            if (delta.type == DeltaType::ReplacedAll) {
                QMutexLocker locker(&m_mutex);
                m_objects.clear();
                for (const KubeObject &object : *delta.list) {
                    m_objects.insert(metaNamespaceKey(object), object);
                }
            } else if (delta.type == DeltaType::SyncAll) {
                // Nothing changes in the store.
            } else if (delta.type == DeltaType::Deleted) {
                remove(deletionHandlingMetaNamespaceKey(delta.object));
            } else {
                add(delta.kubeObject());
            }
        }
    }

private:
    mutable QMutex m_mutex;
    QHash<QString, KubeObject> m_objects;
};

// parsedObject() reads `ns/name@rv` (or `name@rv`).
inline KubeObject parsedObject(const QString &text)
{
    return object(text.section(QLatin1Char('@'), 0, 0), text.section(QLatin1Char('@'), 1));
}

// runOperations() drives a queue through a script, one operation per entry:
//   known OBJ          the store (knownObjects) gets OBJ
//   add OBJ | update OBJ | delete OBJ
//   tombstone KEY      delete with a DeletedFinalStateUnknown that has no object
//   replace OBJ…       relist with these objects (none: an empty list)
//   resync
//   pop                pop one item; the store applies it, as an informer would
// OBJ is `ns/name@rv`. Returns what each pop delivered, rendered by describe(), with ` (initial)`
// appended when the pop was flagged as part of the initial list.
inline QStringList runOperations(DeltaQueue &queue, FakeKnownObjects &known, const QStringList &operations)
{
    QStringList popped;
    for (const QString &operation : operations) {
        const QStringList words = operation.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const QString verb = words.value(0);
        const QString argument = words.value(1);
        if (verb == QLatin1String("known")) {
            known.add(parsedObject(argument));
        } else if (verb == QLatin1String("add")) {
            queue.add(parsedObject(argument));
        } else if (verb == QLatin1String("update")) {
            queue.update(parsedObject(argument));
        } else if (verb == QLatin1String("delete")) {
            queue.remove(parsedObject(argument));
        } else if (verb == QLatin1String("tombstone")) {
            queue.remove(DeletedFinalStateUnknown{argument, KubeObject()});
        } else if (verb == QLatin1String("replace")) {
            QList<KubeObject> list;
            for (const QString &word : words.mid(1)) {
                list.append(parsedObject(word));
            }
            queue.replace(list, QStringLiteral("100"));
        } else if (verb == QLatin1String("resync")) {
            queue.resync();
        } else if (verb == QLatin1String("pop")) {
            const auto deltas = queue.pop(
                [&](const Deltas &items, bool isInInitialList) {
                    known.apply(items);
                    popped.append(describe(items) + (isInInitialList ? QStringLiteral(" (initial)") : QString()));
                },
                QDeadlineTimer(0));
            if (!deltas) {
                popped.append(QStringLiteral("<empty>"));
            }
        } else {
            qFatal("unknown operation %s", qPrintable(operation));
        }
    }
    return popped;
}

} // namespace CacheTest
