#include "core/relations/objectevents.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/notificationbatcher.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <variant>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// As RelationService: a burst of events (a rollout) gives one changed().
constexpr auto changeCoalescing = std::chrono::milliseconds(100);

// involvedObjectOf() is core/v1's involvedObject or events.k8s.io/v1's regarding, parsed once
// (the index functions read three of its fields).
QJsonObject involvedObjectOf(const KubeObject &event)
{
    const QJsonObject json = QJsonDocument::fromJson(event.json()).object();
    const QJsonValue involved = json.value(u"involvedObject"_s);
    return involved.isObject() ? involved.toObject() : json.value(u"regarding"_s).toObject();
}

} // namespace

ObjectEvents::ObjectEvents(Cluster *cluster, const QString &namespaceName, QObject *parent)
    : QObject(parent)
{
    m_changeTimer.setSingleShot(true);
    m_changeTimer.setInterval(changeCoalescing);
    connect(&m_changeTimer, &QTimer::timeout, this, &ObjectEvents::changed);

    m_informer = cluster->informerOf(u"events"_s, namespaceName);
    if (!m_informer) {
        return;
    }
    Indexers indexers;
    if (!m_informer->indexer().hasIndex(involvedObjectUidIndexName())) {
        indexers.insert(involvedObjectUidIndexName(), [](const KubeObject &event) {
            const QString uid = involvedObjectOf(event).value(u"uid"_s).toString();
            return uid.isEmpty() ? QStringList() : QStringList{uid};
        });
    }
    if (!m_informer->indexer().hasIndex(involvedObjectIndexName())) {
        indexers.insert(involvedObjectIndexName(), [](const KubeObject &event) {
            const QJsonObject involved = involvedObjectOf(event);
            const QString name = involved.value(u"name"_s).toString();
            if (name.isEmpty()) {
                return QStringList();
            }
            return QStringList{involvedObjectKey(involved.value(u"kind"_s).toString(), involved.value(u"namespace"_s).toString(), name)};
        });
    }
    if (!indexers.isEmpty()) {
        (void)m_informer->addIndexers(indexers);
    }
    m_batcher = new NotificationBatcher(NotificationBatcher::Mode::Coalesce, this);
    connect(m_batcher, &NotificationBatcher::notificationsReady, this, [this] {
        if (!m_changeTimer.isActive()) {
            m_changeTimer.start();
        }
    });
    m_registration = m_informer->addEventHandler(m_batcher->handler());
    connect(m_informer, &SharedIndexInformer::synced, this, &ObjectEvents::synced);
    cluster->informers()->start();
    if (m_informer->hasSynced()) {
        // Queued, so that a caller connects to synced() first.
        QMetaObject::invokeMethod(this, &ObjectEvents::synced, Qt::QueuedConnection);
    }
}

ObjectEvents::~ObjectEvents()
{
    if (m_informer) {
        m_informer->removeEventHandler(m_registration);
    }
}

QString ObjectEvents::involvedObjectUidIndexName()
{
    return u"involvedObject.uid"_s;
}

QString ObjectEvents::involvedObjectIndexName()
{
    return u"involvedObject"_s;
}

QString ObjectEvents::involvedObjectKey(const QString &kind, const QString &namespaceName, const QString &name)
{
    return kind + u'/' + namespaceName + u'/' + name;
}

bool ObjectEvents::hasSynced() const
{
    return m_informer && m_informer->hasSynced();
}

QList<EventRecord> ObjectEvents::eventsFor(const ObjectRef &object) const
{
    QList<EventRecord> records;
    if (!m_informer) {
        return records;
    }
    const Indexer &indexer = m_informer->indexer();
    QSet<QString> seen;
    auto add = [&](const KubeObject &event) {
        if (seen.contains(event.uid())) {
            return;
        }
        seen.insert(event.uid());
        records.append(EventRecord::fromObject(event));
    };
    if (!object.uid.isEmpty()) {
        const QList<KubeObject> byUid = indexer.byIndex(involvedObjectUidIndexName(), object.uid);
        for (const KubeObject &event : byUid) {
            add(event);
        }
    }
    const QList<KubeObject> byName = indexer.byIndex(involvedObjectIndexName(), involvedObjectKey(object.kind, object.namespaceName, object.name));
    for (const KubeObject &event : byName) {
        const QString uid = involvedObjectOf(event).value(u"uid"_s).toString();
        if (uid.isEmpty() || object.uid.isEmpty() || uid == object.uid) {
            add(event);
        }
    }
    std::stable_sort(records.begin(), records.end(), [](const EventRecord &a, const EventRecord &b) {
        if (a.lastSeen != b.lastSeen) {
            return a.lastSeen > b.lastSeen;
        }
        // Events of the same second: the later-created name (a higher resourceVersion) first.
        return a.event.resourceVersion().toULongLong() > b.event.resourceVersion().toULongLong();
    });
    return records;
}

} // namespace Cachescope
