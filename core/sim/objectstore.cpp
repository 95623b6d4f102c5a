#include "core/sim/objectstore.h"

#include "core/sim/jsonwriter.h"
#include "core/util/rfc3339.h"
#include "core/util/stringinterner.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutexLocker>
#include <QUuid>

#include <algorithm>
#include <array>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
QString objectKey(const QString &namespaceName, const QString &name)
{
    return namespaceName.isEmpty() ? name : namespaceName + u'/' + name;
}

// Namespaces, node names, phases and label keys repeat across a million objects; each stored
// object shares one copy of them.
QString interned(const QString &text)
{
    if (text.isEmpty())
        return text;
    const QByteArray utf8 = text.toUtf8();
    return StringInterner::forThread().intern(std::string_view(utf8.constData(), size_t(utf8.size())));
}

QString nowTimestamp()
{
    return rfc3339FromSecsSinceEpoch(QDateTime::currentSecsSinceEpoch());
}
} // namespace

ObjectStore::ObjectStore(qsizetype historyLimit)
    // Versions start high, as on a real cluster that has lived a while: a client that treats
    // them as small numbers or as dense would be caught.
    : m_resourceVersion(1000)
    , m_historyLimit(qMax<qsizetype>(1, historyLimit))
{
    m_historyFloor = m_resourceVersion;
    m_clock.start();
    std::array<quint32, 8> seed{};
    QRandomGenerator::system()->fillRange(seed.data(), seed.size());
    m_uidRandom = QRandomGenerator64(seed.data(), qsizetype(seed.size()));
}

ObjectStore::~ObjectStore() = default;

void ObjectStore::finishComposing() const
{
    m_composer.finish();
}

ObjectPtr ObjectStore::makeObject(const QJsonObject &object, quint64 rv) const
{
    auto stored = std::make_shared<StoredObject>();
    const QJsonObject metadata = object.value(u"metadata").toObject();
    stored->name = metadata.value(u"name").toString();
    stored->namespaceName = interned(metadata.value(u"namespace").toString());
    stored->uid = metadata.value(u"uid").toString();
    const QJsonObject labels = metadata.value(u"labels").toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        stored->labels.insert(interned(it.key()), it.value().toString());
    stored->nodeName = interned(object.value(u"spec").toObject().value(u"nodeName").toString());
    stored->phase = interned(object.value(u"status").toObject().value(u"phase").toString());
    if (object.value(u"kind").toString() == u"Event") {
        // The fields the apiserver registers for events (kubectl get events --field-selector
        // involvedObject.name=NAME, what `kubectl describe` asks for).
        const QJsonObject involved = object.value(u"involvedObject").toObject();
        for (const QString &field : {u"kind"_s, u"namespace"_s, u"name"_s, u"uid"_s, u"apiVersion"_s, u"resourceVersion"_s, u"fieldPath"_s})
            stored->selectableFields.insert(u"involvedObject."_s + field, involved.value(field).toString());
        stored->selectableFields.insert(u"reason"_s, object.value(u"reason").toString());
        stored->selectableFields.insert(u"reportingComponent"_s, object.value(u"reportingComponent").toString());
        stored->selectableFields.insert(u"source"_s, object.value(u"source").toObject().value(u"component").toString());
        stored->selectableFields.insert(u"type"_s, object.value(u"type").toString());
    }
    stored->resourceVersion = rv;
    stored->json = JsonWriter::compact(object);
    return stored;
}

QUuid ObjectStore::newUid()
{
    // A random (version 4) UUID, as the apiserver gives, from the store's own generator:
    // QUuid::createUuid() asks the kernel for every one, a system call for each of the millions
    // of objects a large cluster populates with.
    std::array<quint64, 2> random{m_uidRandom.generate64(), m_uidRandom.generate64()};
    QByteArray bytes(reinterpret_cast<const char *>(random.data()), 16);
    bytes[6] = char((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = char((bytes[8] & 0x3f) | 0x80); // RFC 4122 variant
    return QUuid::fromRfc4122(bytes);
}

ObjectStore::WriteResult ObjectStore::create(const ResourceType &type, QJsonObject object, const CreateOptions &options)
{
    QJsonObject metadata = object.value(u"metadata").toObject();
    QString name = metadata.value(u"name").toString();
    if (name.isEmpty()) {
        const QString generateName = metadata.value(u"generateName").toString();
        if (generateName.isEmpty())
            return {{}, ApiError::invalid(type, QString(), u"metadata.name: Required value: name or generateName is required"_s)};
        // Five characters from the apiserver's alphabet (no vowels, no confusable digits).
        static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
        const QByteArray uuid = newUid().toRfc4122();
        name = generateName;
        for (int i = 0; i < 5; ++i)
            name += QLatin1Char(alphabet[quint8(uuid.at(i)) % (sizeof(alphabet) - 1)]);
        metadata.insert(u"name"_s, name);
    }
    if (!type.namespaced)
        metadata.remove(u"namespace"_s);
    const QString namespaceName = type.namespaced ? metadata.value(u"namespace").toString() : QString();
    const QString key = objectKey(namespaceName, name);

    QMutexLocker locker(&m_mutex);
    ObjectMap &objects = m_objects[type.id()];
    if (objects.find(key) != objects.end())
        return {{}, ApiError::alreadyExists(type, name)};
    const quint64 rv = ++m_resourceVersion;
    metadata.insert(u"uid"_s, newUid().toString(QUuid::WithoutBraces));
    metadata.insert(u"resourceVersion"_s, QString::number(rv));
    if (!options.keepCreationTimestamp || !metadata.contains(u"creationTimestamp"))
        metadata.insert(u"creationTimestamp"_s, nowTimestamp());
    metadata.insert(u"generation"_s, 1);
    metadata.remove(u"deletionTimestamp"_s);
    object.insert(u"metadata"_s, metadata);
    object.insert(u"kind"_s, type.kind);
    object.insert(u"apiVersion"_s, type.groupVersion());
    ObjectPtr stored = makeObject(object, rv);
    objects.emplace(key, stored);
    locker.unlock();
    record(StoreEventType::Added, type, stored, {}, options.initialState);
    return {stored, std::nullopt};
}

ObjectStore::WriteResult ObjectStore::createComposed(const ResourceType &type, StoredObject fields, Composer compose, const CreateOptions &options)
{
    if (!type.namespaced)
        fields.namespaceName.clear();
    const QString key = objectKey(fields.namespaceName, fields.name);
    QMutexLocker locker(&m_mutex);
    ObjectMap &objects = m_objects[type.id()];
    const auto [at, inserted] = objects.try_emplace(key);
    if (!inserted)
        return {{}, ApiError::alreadyExists(type, fields.name)};
    const quint64 rv = ++m_resourceVersion;
    auto stored = std::make_shared<StoredObject>(std::move(fields));
    stored->uid = newUid().toString(QUuid::WithoutBraces);
    stored->resourceVersion = rv;
    if (options.initialState && options.composeInBackground)
        m_composer.add(stored, std::move(compose));
    else
        stored->json = compose(stored->uid, rv);
    at->second = stored;
    locker.unlock();
    record(StoreEventType::Added, type, stored, {}, options.initialState);
    return {std::move(stored), std::nullopt};
}

ObjectStore::WriteResult ObjectStore::update(const ResourceType &type, QJsonObject object)
{
    finishComposing();
    QJsonObject metadata = object.value(u"metadata").toObject();
    const QString name = metadata.value(u"name").toString();
    const QString namespaceName = type.namespaced ? metadata.value(u"namespace").toString() : QString();
    const QString key = objectKey(namespaceName, name);

    QMutexLocker locker(&m_mutex);
    ObjectMap &objects = m_objects[type.id()];
    const auto it = objects.find(key);
    if (it == objects.end())
        return {{}, ApiError::notFound(type, name)};
    const ObjectPtr previous = it->second;
    const QString requestedRv = metadata.value(u"resourceVersion").toString();
    if (!requestedRv.isEmpty() && requestedRv != QString::number(previous->resourceVersion))
        return {{}, ApiError::conflict(type, name)};

    const QJsonObject old = QJsonDocument::fromJson(previous->json).object();
    const QJsonObject oldMetadata = old.value(u"metadata").toObject();
    const quint64 rv = ++m_resourceVersion;
    // uid and creationTimestamp belong to the server: a client cannot change them by replacing.
    metadata.insert(u"uid"_s, oldMetadata.value(u"uid"));
    metadata.insert(u"creationTimestamp"_s, oldMetadata.value(u"creationTimestamp"));
    metadata.insert(u"resourceVersion"_s, QString::number(rv));
    qint64 generation = oldMetadata.value(u"generation").toInteger(1);
    if (old.value(u"spec") != object.value(u"spec"))
        ++generation;
    metadata.insert(u"generation"_s, generation);
    if (type.namespaced)
        metadata.insert(u"namespace"_s, namespaceName);
    object.insert(u"metadata"_s, metadata);
    object.insert(u"kind"_s, type.kind);
    object.insert(u"apiVersion"_s, type.groupVersion());
    ObjectPtr stored = makeObject(object, rv);
    it->second = stored;
    locker.unlock();
    record(StoreEventType::Modified, type, stored, previous);
    return {stored, std::nullopt};
}

ObjectStore::WriteResult ObjectStore::remove(const ResourceType &type, const QString &namespaceName, const QString &name, const QString &preconditionRv)
{
    finishComposing();
    const QString key = objectKey(type.namespaced ? namespaceName : QString(), name);
    QMutexLocker locker(&m_mutex);
    ObjectMap &objects = m_objects[type.id()];
    const auto it = objects.find(key);
    if (it == objects.end())
        return {{}, ApiError::notFound(type, name)};
    const ObjectPtr previous = it->second;
    if (!preconditionRv.isEmpty() && preconditionRv != QString::number(previous->resourceVersion))
        return {{}, ApiError::conflict(type, name)};
    objects.erase(it);
    const quint64 rv = ++m_resourceVersion;
    // The DELETED event carries the last state stamped with the deletion's version, which is
    // what a reflector stores as its last-synced version.
    QJsonObject last = QJsonDocument::fromJson(previous->json).object();
    QJsonObject metadata = last.value(u"metadata").toObject();
    metadata.insert(u"resourceVersion"_s, QString::number(rv));
    last.insert(u"metadata"_s, metadata);
    ObjectPtr stored = makeObject(last, rv);
    locker.unlock();
    record(StoreEventType::Deleted, type, stored, previous);
    return {stored, std::nullopt};
}

bool ObjectStore::restore(const ResourceType &type, StoreEventType eventType, const QJsonObject &object, bool recordEvent)
{
    finishComposing();
    const QJsonObject metadata = object.value(u"metadata").toObject();
    const quint64 rv = metadata.value(u"resourceVersion").toString().toULongLong();
    const QString key = objectKey(type.namespaced ? metadata.value(u"namespace").toString() : QString(), metadata.value(u"name").toString());
    QMutexLocker locker(&m_mutex);
    ObjectMap &objects = m_objects[type.id()];
    const auto it = objects.find(key);
    const ObjectPtr previous = it == objects.end() ? ObjectPtr() : it->second;
    if (previous && previous->resourceVersion >= rv)
        return false;
    ObjectPtr stored = makeObject(object, rv);
    if (eventType == StoreEventType::Deleted) {
        if (!previous)
            return false;
        objects.erase(it);
    } else {
        objects.insert_or_assign(key, stored);
    }
    m_resourceVersion = std::max(m_resourceVersion, rv);
    locker.unlock();
    if (recordEvent) {
        // A recorded ADDED of an object the store already holds (a relist's difference) is a
        // modification for watchers, as the watch cache would have sent it.
        const StoreEventType sent = eventType == StoreEventType::Added && previous ? StoreEventType::Modified : eventType;
        record(sent, type, stored, previous);
    }
    return true;
}

void ObjectStore::resetResourceVersion(quint64 rv)
{
    {
        QMutexLocker locker(&m_mutex);
        m_resourceVersion = rv;
    }
    compactHistory();
}

ObjectPtr ObjectStore::get(const ResourceType &type, const QString &namespaceName, const QString &name) const
{
    finishComposing();
    QMutexLocker locker(&m_mutex);
    const auto objectsIt = m_objects.constFind(type.id());
    if (objectsIt == m_objects.cend())
        return {};
    const auto it = objectsIt->find(objectKey(type.namespaced ? namespaceName : QString(), name));
    return it == objectsIt->end() ? ObjectPtr() : it->second;
}

QList<ObjectPtr> ObjectStore::list(const ResourceType &type, const QString &namespaceName) const
{
    finishComposing();
    QList<ObjectPtr> result;
    QMutexLocker locker(&m_mutex);
    const auto objectsIt = m_objects.constFind(type.id());
    if (objectsIt == m_objects.cend())
        return result;
    const ObjectMap &objects = *objectsIt;
    if (namespaceName.isEmpty() || !type.namespaced) {
        result.reserve(qsizetype(objects.size()));
        for (const auto &[key, object] : objects)
            result.append(object);
        return result;
    }
    // Keys sort by namespace first, so one namespace is one contiguous range.
    const QString prefix = namespaceName + u'/';
    for (auto it = objects.lower_bound(prefix); it != objects.end() && it->first.startsWith(prefix); ++it)
        result.append(it->second);
    return result;
}

qsizetype ObjectStore::count(const ResourceType &type) const
{
    QMutexLocker locker(&m_mutex);
    const auto objectsIt = m_objects.constFind(type.id());
    return objectsIt == m_objects.cend() ? 0 : qsizetype(objectsIt->size());
}

quint64 ObjectStore::resourceVersion() const
{
    QMutexLocker locker(&m_mutex);
    return m_resourceVersion;
}

void ObjectStore::record(StoreEventType type, const ResourceType &resourceType, ObjectPtr object, ObjectPtr previous, bool initialState)
{
    auto event = std::make_shared<StoreEvent>();
    event->type = type;
    event->resource = resourceType.id();
    event->resourceVersion = object->resourceVersion;
    event->object = std::move(object);
    event->previous = std::move(previous);
    event->recordedMs = m_clock.elapsed();
    if (initialState && m_history.empty()) {
        // The state a watch starts from, as after compactHistory(). Once something is in the
        // history, a write is history whatever the caller says, or a watch from before it
        // would miss it.
        m_historyFloor = event->resourceVersion;
        for (const Listener &listener : m_listeners)
            listener(event);
        return;
    }
    // Restored events of two recorded informers may arrive slightly out of version order; the
    // history stays sorted so that eventsAfter() finds every one of them.
    if (!m_history.empty() && m_history.back()->resourceVersion > event->resourceVersion) {
        const auto at = std::upper_bound(
            m_history.begin(), m_history.end(), event->resourceVersion, [](quint64 value, const StoreEventPtr &e) { return value < e->resourceVersion; });
        m_history.insert(at, event);
    } else {
        m_history.push_back(event);
    }
    evictHistory();
    for (const Listener &listener : m_listeners)
        listener(event);
}

std::optional<QList<StoreEventPtr>> ObjectStore::eventsAfter(quint64 rv) const
{
    finishComposing();
    if (rv < m_historyFloor)
        return std::nullopt;
    QList<StoreEventPtr> result;
    auto it =
        std::upper_bound(m_history.begin(), m_history.end(), rv, [](quint64 value, const StoreEventPtr &event) { return value < event->resourceVersion; });
    for (; it != m_history.end(); ++it)
        result.append(*it);
    return result;
}

void ObjectStore::evictHistory()
{
    const qint64 now = m_clock.elapsed();
    const qsizetype cap = qMax(m_historyLimit, MaxHistoryEvents);
    while (!m_history.empty()) {
        const qsizetype size = qsizetype(m_history.size());
        const bool beyondCount = size > m_historyLimit;
        const bool young = m_historyWindow.count() > 0 && now - m_history.front()->recordedMs <= m_historyWindow.count();
        if (size <= cap && (!beyondCount || young)) {
            break;
        }
        // A watch from the evicted event's version would miss it: that version is now too old.
        m_historyFloor = m_history.front()->resourceVersion;
        m_history.pop_front();
    }
}

void ObjectStore::setHistoryLimit(qsizetype limit)
{
    m_historyLimit = qMax<qsizetype>(1, limit);
    evictHistory();
}

void ObjectStore::setHistoryWindow(std::chrono::milliseconds window)
{
    m_historyWindow = std::max(window, std::chrono::milliseconds(0));
    evictHistory();
}

void ObjectStore::compactHistory()
{
    m_history.clear();
    m_historyFloor = resourceVersion();
}

QHash<QString, quint64> ObjectStore::truth(const QString &resourceId) const
{
    QHash<QString, quint64> result;
    QMutexLocker locker(&m_mutex);
    const auto objectsIt = m_objects.constFind(resourceId);
    if (objectsIt == m_objects.cend())
        return result;
    result.reserve(qsizetype(objectsIt->size()));
    for (const auto &[key, object] : *objectsIt)
        result.insert(key, object->resourceVersion);
    return result;
}

} // namespace Cachescope::Sim
