#pragma once

// Helpers shared by the core/cache unit tests: small objects built from JSON, and a readable
// one-line rendering of deltas so that a failing comparison shows what was queued.

#include "core/cache/delta.h"
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

private:
    mutable QMutex m_mutex;
    QHash<QString, KubeObject> m_objects;
};

} // namespace CacheTest
