#include "core/cache/deltafifo.h"

#include <QMutexLocker>
#include <QSet>

namespace Cachescope {

namespace {

DeltaFifo::Options withDefaults(DeltaFifo::Options options)
{
    if (!options.keyFunction) {
        options.keyFunction = metaNamespaceKey;
    }
    return options;
}

bool isValidObject(const DeltaObject &object)
{
    return std::holds_alternative<DeletedFinalStateUnknown>(object) || std::get<KubeObject>(object).isValid();
}

// Relists and watches can both report one deletion; keep a single Deleted delta. As client-go's
// isDeletionDup: the older one stays unless it is a tombstone, whose place the newer one takes
// (a real object carries the final state; of two real ones the first is what the server said).
void dedupLastTwo(Deltas &deltas)
{
    const qsizetype n = deltas.size();
    if (n < 2) {
        return;
    }
    const Delta &older = deltas.at(n - 2);
    const Delta &newer = deltas.at(n - 1);
    if (older.type != DeltaType::Deleted || newer.type != DeltaType::Deleted) {
        return;
    }
    if (older.isTombstone()) {
        deltas[n - 2] = newer;
    }
    deltas.removeLast();
}

} // namespace

DeltaFifo::DeltaFifo()
    : DeltaFifo(Options{})
{
}

DeltaFifo::DeltaFifo(const Options &options)
    : m_options(withDefaults(options))
{
}

QString DeltaFifo::keyOf(const DeltaObject &object) const
{
    return keyOfLocked(object);
}

QString DeltaFifo::keyOfLocked(const DeltaObject &object) const
{
    if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
        return tombstone->key;
    }
    return m_options.keyFunction(std::get<KubeObject>(object));
}

void DeltaFifo::queueActionLocked(DeltaType type, const DeltaObject &object)
{
    const QString key = keyOfLocked(object);
    auto it = m_items.find(key);
    if (it == m_items.end()) {
        it = m_items.insert(key, Deltas());
        m_queue.append(key);
    }
    it->append(Delta{type, object});
    dedupLastTwo(*it);
    ++m_queuedCount;
    m_notEmpty.wakeAll();
}

void DeltaFifo::add(const KubeObject &object)
{
    if (!object.isValid()) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    m_populated = true;
    queueActionLocked(DeltaType::Added, object);
}

void DeltaFifo::update(const KubeObject &object)
{
    if (!object.isValid()) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    m_populated = true;
    queueActionLocked(DeltaType::Updated, object);
}

void DeltaFifo::remove(const DeltaObject &object)
{
    if (!isValidObject(object)) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    const QString key = keyOfLocked(object);
    m_populated = true;
    // Skip a delete that nobody could act on: the key is neither queued nor stored, so a relist
    // already removed it (or it never arrived).
    if (!m_items.contains(key)) {
        if (!m_options.knownObjects || !m_options.knownObjects->getByKey(key).isValid()) {
            return;
        }
    }
    queueActionLocked(DeltaType::Deleted, object);
}

void DeltaFifo::replace(const QList<KubeObject> &list, const QString &resourceVersion)
{
    Q_UNUSED(resourceVersion)
    QMutexLocker locker(&m_mutex);
    const DeltaType action = m_options.emitDeltaTypeReplaced ? DeltaType::Replaced : DeltaType::Sync;

    QSet<QString> listed;
    listed.reserve(list.size());
    for (const KubeObject &object : list) {
        if (!object.isValid()) {
            continue;
        }
        listed.insert(keyOfLocked(object));
        queueActionLocked(action, object);
    }

    // Queued keys missing from the list were deleted while we were not watching. Walk the queue
    // rather than the hash so that the tombstones come out in a deterministic order.
    qsizetype queuedDeletions = 0;
    const QStringList queuedKeys = m_queue;
    for (const QString &key : queuedKeys) {
        if (listed.contains(key)) {
            continue;
        }
        const Deltas &deltas = m_items.value(key);
        KubeObject last;
        if (!deltas.isEmpty()) {
            last = deltas.last().kubeObject();
        }
        ++queuedDeletions;
        queueActionLocked(DeltaType::Deleted, DeletedFinalStateUnknown{key, last});
    }

    if (m_options.knownObjects) {
        const QStringList knownKeys = m_options.knownObjects->listKeys();
        for (const QString &key : knownKeys) {
            if (listed.contains(key) || m_items.contains(key)) {
                continue;
            }
            // An invalid object (the key vanished from the store meanwhile) still gets its
            // tombstone, without an object, as client-go does.
            const KubeObject last = m_options.knownObjects->getByKey(key);
            ++queuedDeletions;
            queueActionLocked(DeltaType::Deleted, DeletedFinalStateUnknown{key, last});
        }
    }

    if (!m_populated) {
        m_populated = true;
        m_initialPopulationCount = listed.size() + queuedDeletions;
    }
}

void DeltaFifo::resync()
{
    QMutexLocker locker(&m_mutex);
    if (!m_options.knownObjects) {
        return;
    }
    const QStringList knownKeys = m_options.knownObjects->listKeys();
    for (const QString &key : knownKeys) {
        const KubeObject object = m_options.knownObjects->getByKey(key);
        if (!object.isValid()) {
            continue;
        }
        // Something queued for the key is newer than the store's copy; a Sync with the store's
        // copy behind it would hand handlers an older object after a newer one.
        const QString id = keyOfLocked(object);
        if (!m_items.value(id).isEmpty()) {
            continue;
        }
        queueActionLocked(DeltaType::Sync, object);
    }
}

std::optional<Deltas> DeltaFifo::pop(const PopProcess &process, QDeadlineTimer deadline)
{
    QMutexLocker locker(&m_mutex);
    while (m_queue.isEmpty()) {
        if (m_closed) {
            return std::nullopt;
        }
        if (!m_notEmpty.wait(&m_mutex, deadline) && m_queue.isEmpty()) {
            return std::nullopt;
        }
    }
    const bool isInInitialList = !hasSyncedLocked();
    const QString key = m_queue.takeFirst();
    if (m_initialPopulationCount > 0) {
        --m_initialPopulationCount;
    }
    Deltas deltas = m_items.take(key);
    ++m_poppedCount;
    if (process) {
        process(deltas, isInInitialList);
    }
    return deltas;
}

void DeltaFifo::addIfNotPresent(const Deltas &deltas)
{
    if (deltas.isEmpty()) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    const QString key = keyOfLocked(deltas.last().object);
    m_populated = true;
    if (m_items.contains(key)) {
        return;
    }
    m_queue.append(key);
    m_items.insert(key, deltas);
    m_notEmpty.wakeAll();
}

void DeltaFifo::close()
{
    QMutexLocker locker(&m_mutex);
    m_closed = true;
    m_notEmpty.wakeAll();
}

bool DeltaFifo::isClosed() const
{
    QMutexLocker locker(&m_mutex);
    return m_closed;
}

bool DeltaFifo::hasSynced() const
{
    QMutexLocker locker(&m_mutex);
    return hasSyncedLocked();
}

DeltaQueue::Counters DeltaFifo::counters() const
{
    QMutexLocker locker(&m_mutex);
    return Counters{m_queue.size(), m_queuedCount, m_poppedCount};
}

QStringList DeltaFifo::listKeys() const
{
    QMutexLocker locker(&m_mutex);
    return m_queue;
}

QList<KubeObject> DeltaFifo::list() const
{
    QMutexLocker locker(&m_mutex);
    QList<KubeObject> objects;
    objects.reserve(m_queue.size());
    for (const QString &key : m_queue) {
        objects.append(m_items.value(key).last().kubeObject());
    }
    return objects;
}

std::optional<Deltas> DeltaFifo::getByKey(const QString &key) const
{
    QMutexLocker locker(&m_mutex);
    const auto it = m_items.constFind(key);
    if (it == m_items.cend()) {
        return std::nullopt;
    }
    return *it;
}

} // namespace Cachescope
