#pragma once

// What the recording tests share: a handler that logs every call it gets (to compare the event
// order of a live informer and of its replay) and a cache's content as key → resourceVersion,
// from an informer or from a RecordedCache.

#include "core/cache/keys.h"
#include "core/cache/resourceeventhandler.h"
#include "core/cache/sharedindexinformer.h"
#include "core/record/recordedcache.h"
#include "core/record/recordedinformer.h"

#include <QMap>
#include <QMutex>
#include <QStringList>

namespace CachescopeTest {

// CallLog writes each handler call as a line: "add ns/a 5", "update ns/a 5->6", "delete ns/a",
// "delete ns/a tombstone". Thread-safe: calls come from the listener's thread.
class CallLog final : public Cachescope::ResourceEventHandler
{
public:
    void onAdd(const Cachescope::KubeObject &object, bool) override
    {
        record(QStringLiteral("add ") + Cachescope::metaNamespaceKey(object) + u' ' + object.resourceVersion());
    }
    void onUpdate(const Cachescope::KubeObject &oldObject, const Cachescope::KubeObject &newObject) override
    {
        record(QStringLiteral("update ") + Cachescope::metaNamespaceKey(newObject) + u' ' + oldObject.resourceVersion() + QStringLiteral("->") +
               newObject.resourceVersion());
    }
    void onDelete(const Cachescope::DeltaObject &object) override
    {
        const bool tombstone = std::holds_alternative<Cachescope::DeletedFinalStateUnknown>(object);
        record(QStringLiteral("delete ") + Cachescope::deletionHandlingMetaNamespaceKey(object) + (tombstone ? QStringLiteral(" tombstone") : QString()));
    }
    QStringList calls() const
    {
        QMutexLocker locker(&m_mutex);
        return m_calls;
    }

private:
    void record(const QString &call)
    {
        QMutexLocker locker(&m_mutex);
        m_calls.append(call);
    }
    mutable QMutex m_mutex;
    QStringList m_calls;
};

// recordedPods() describes an informer of all pods as a recording names it.
inline Cachescope::RecordedInformer recordedPods()
{
    Cachescope::RecordedInformer informer;
    informer.name = QStringLiteral("pods");
    informer.resource.gvr = Cachescope::GroupVersionResource(QString(), QStringLiteral("v1"), QStringLiteral("pods"));
    informer.resource.kind = QStringLiteral("Pod");
    informer.resource.namespaced = true;
    informer.resource.shortNames = {QStringLiteral("po")};
    return informer;
}

using KeyVersions = QMap<QString, QString>;

inline KeyVersions keyVersions(const Cachescope::SharedIndexInformer &informer)
{
    KeyVersions state;
    const QList<Cachescope::KubeObject> objects = informer.indexer().list();
    for (const Cachescope::KubeObject &object : objects) {
        state.insert(Cachescope::metaNamespaceKey(object), object.resourceVersion());
    }
    return state;
}

inline KeyVersions keyVersions(const Cachescope::RecordedCache &cache)
{
    KeyVersions state;
    for (auto it = cache.entries().cbegin(); it != cache.entries().cend(); ++it) {
        state.insert(it.key(), it->resourceVersion);
    }
    return state;
}

} // namespace CachescopeTest
