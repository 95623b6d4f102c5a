#include "core/cache/realfifo.h"

#include <QHash>
#include <QMutexLocker>
#include <QSet>

namespace Cachescope {

namespace {

RealFifo::Options withDefaults(RealFifo::Options options)
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

} // namespace

RealFifo::RealFifo(const Options &options)
    : m_options(withDefaults(options))
{
    // client-go refuses to build a RealFIFO without knownObjects: replace() could not detect
    // deletions. Here a missing store behaves as an empty one. The atomic mode needs none: its
    // consumer works deletions out against its own store.
    Q_ASSERT(m_options.knownObjects || m_options.atomicReplace);
}

QString RealFifo::keyOf(const DeltaObject &object) const
{
    if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
        return tombstone->key;
    }
    return m_options.keyFunction(std::get<KubeObject>(object));
}

void RealFifo::appendLocked(DeltaType type, const DeltaObject &object)
{
    m_items.append(Delta{type, object});
    ++m_queuedCount;
    m_notEmpty.wakeAll();
}

void RealFifo::add(const KubeObject &object)
{
    if (!object.isValid()) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    m_populated = true;
    appendLocked(DeltaType::Added, object);
}

void RealFifo::update(const KubeObject &object)
{
    if (!object.isValid()) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    m_populated = true;
    appendLocked(DeltaType::Updated, object);
}

void RealFifo::remove(const DeltaObject &object)
{
    if (!isValidObject(object)) {
        return;
    }
    QMutexLocker locker(&m_mutex);
    m_populated = true;
    appendLocked(DeltaType::Deleted, object);
}

void RealFifo::replace(const QList<KubeObject> &list, const QString &resourceVersion)
{
    QMutexLocker locker(&m_mutex);

    if (m_options.atomicReplace) {
        // What is queued is older than the list, which the consumer applies as a whole: the
        // queued deltas would only replay states the list already supersedes.
        m_items.clear();
        if (!m_populated) {
            m_populated = true;
            m_initialPopulationCount = 1;
        }
        auto valid = std::make_shared<QList<KubeObject>>();
        valid->reserve(list.size());
        for (const KubeObject &object : list) {
            if (object.isValid()) {
                valid->append(object);
            }
        }
        Delta delta{DeltaType::ReplacedAll, KubeObject(), std::move(valid), resourceVersion};
        m_items.append(std::move(delta));
        ++m_queuedCount;
        m_notEmpty.wakeAll();
        return;
    }

    QSet<QString> listed;
    listed.reserve(list.size());
    for (const KubeObject &object : list) {
        if (object.isValid()) {
            listed.insert(keyOf(object));
        }
    }

    // The deletes go first, before the new items: a queued key that is listed again may be a new
    // object under an old name, and its pending delete must still reach handlers before it.
    QStringList queuedKeys;
    QHash<QString, qsizetype> lastQueued;
    for (qsizetype i = 0; i < m_items.size(); ++i) {
        const QString key = keyOf(m_items.at(i).object);
        if (!lastQueued.contains(key)) {
            queuedKeys.append(key);
        }
        lastQueued.insert(key, i);
    }
    for (const QString &key : std::as_const(queuedKeys)) {
        if (listed.contains(key)) {
            continue;
        }
        const Delta last = m_items.at(lastQueued.value(key));
        if (last.type == DeltaType::Deleted) {
            continue;
        }
        appendLocked(DeltaType::Deleted, DeletedFinalStateUnknown{key, last.kubeObject()});
    }

    if (m_options.knownObjects) {
        const QStringList knownKeys = m_options.knownObjects->listKeys();
        for (const QString &key : knownKeys) {
            if (listed.contains(key) || lastQueued.contains(key)) {
                continue;
            }
            appendLocked(DeltaType::Deleted, DeletedFinalStateUnknown{key, m_options.knownObjects->getByKey(key)});
        }
    }

    for (const KubeObject &object : list) {
        if (object.isValid()) {
            appendLocked(DeltaType::Replaced, object);
        }
    }

    if (!m_populated) {
        m_populated = true;
        m_initialPopulationCount = m_items.size();
    }
}

void RealFifo::resync()
{
    QMutexLocker locker(&m_mutex);
    if (m_options.atomicReplace) {
        appendLocked(DeltaType::SyncAll, KubeObject());
        return;
    }
    if (!m_options.knownObjects) {
        return;
    }
    QSet<QString> queuedKeys;
    for (const Delta &delta : std::as_const(m_items)) {
        queuedKeys.insert(keyOf(delta.object));
    }
    const QStringList knownKeys = m_options.knownObjects->listKeys();
    for (const QString &key : knownKeys) {
        // A queued event is newer than the store's copy (see DeltaFifo::resync()).
        if (queuedKeys.contains(key)) {
            continue;
        }
        const KubeObject object = m_options.knownObjects->getByKey(key);
        if (object.isValid()) {
            appendLocked(DeltaType::Sync, object);
        }
    }
}

std::optional<Deltas> RealFifo::pop(const PopProcess &process, QDeadlineTimer deadline)
{
    QMutexLocker locker(&m_mutex);
    while (m_items.isEmpty()) {
        if (m_closed) {
            return std::nullopt;
        }
        if (!m_notEmpty.wait(&m_mutex, deadline) && m_items.isEmpty()) {
            return std::nullopt;
        }
    }
    const bool isInInitialList = !hasSyncedLocked();
    const Deltas deltas{m_items.takeFirst()};
    if (m_initialPopulationCount > 0) {
        --m_initialPopulationCount;
    }
    ++m_poppedCount;
    if (m_options.atomicReplace) {
        // Nothing in this mode reads the store, so the consumer may take its time over a list
        // of 100k objects without blocking the reflector's add/update/remove.
        locker.unlock();
    }
    if (process) {
        process(deltas, isInInitialList);
    }
    return deltas;
}

void RealFifo::close()
{
    QMutexLocker locker(&m_mutex);
    m_closed = true;
    m_notEmpty.wakeAll();
}

bool RealFifo::isClosed() const
{
    QMutexLocker locker(&m_mutex);
    return m_closed;
}

bool RealFifo::hasSynced() const
{
    QMutexLocker locker(&m_mutex);
    return hasSyncedLocked();
}

DeltaQueue::Counters RealFifo::counters() const
{
    QMutexLocker locker(&m_mutex);
    return Counters{m_items.size(), m_queuedCount, m_poppedCount};
}

Deltas RealFifo::queued() const
{
    QMutexLocker locker(&m_mutex);
    return m_items;
}

} // namespace Cachescope
