#pragma once

#include "core/cache/indexers.h"
#include "core/cache/indexkeyset.h"
#include "core/cache/kubeobject.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QReadWriteLock>
#include <QString>
#include <QStringList>

namespace Cachescope {

// ThreadSafeStore is client-go's threadSafeMap: objects by key plus the indexes declared by
// Indexers, kept exact on every change (an update removes the key from the values the old
// object had and adds it under the new object's values; values left without keys disappear).
//
// Thread: any. A QReadWriteLock lets many readers (the GUI, listers) run while one writer (the
// informer's processing loop) changes it; writers hold the lock for one object's index update,
// readers for one copy of the answer. Writers take turns on a mutex of their own first, so that
// replace() builds the new content and its indexes without the lock (readers see the old content
// meanwhile, then the new one at once) and holds it only to swap them: a relist of a million
// objects never makes a reader wait for its indexing; its indexes are built at once, each by one
// thread, on backgroundPool()'s free threads as well as the caller's. Results are copies (implicitly shared
// objects), never views into the store. Cost: get/update/remove are O(1) plus the index functions of the
// changed object; list() and listKeys() are O(n); byIndex() is O(size of the answer).
// Asking for an index that does not exist answers empty; hasIndex() tells the two apart.
class ThreadSafeStore final
{
public:
    explicit ThreadSafeStore(const Indexers &indexers = {});
    Q_DISABLE_COPY_MOVE(ThreadSafeStore)

    // add() and update() both store object under key (replacing any previous object).
    void add(const QString &key, const KubeObject &object);
    void update(const QString &key, const KubeObject &object);
    // remove() forgets key; a key that is absent is ignored.
    void remove(const QString &key);
    // get() returns an invalid KubeObject when key is absent.
    KubeObject get(const QString &key) const;
    QList<KubeObject> list() const;
    QStringList listKeys() const;
    // replace() swaps the whole content for items (key → object) and rebuilds every index.
    void replace(const QHash<QString, KubeObject> &items);

    // index() returns the objects that share at least one value of indexName with object.
    QList<KubeObject> index(const QString &indexName, const KubeObject &object) const;
    // indexKeys() returns the keys stored under value in indexName.
    QStringList indexKeys(const QString &indexName, const QString &value) const;
    // byIndex() returns the objects stored under value in indexName.
    QList<KubeObject> byIndex(const QString &indexName, const QString &value) const;
    // listIndexFuncValues() returns every value indexName currently holds keys for.
    QStringList listIndexFuncValues(const QString &indexName) const;

    Indexers indexers() const;
    bool hasIndex(const QString &indexName) const;
    // addIndexers() adds indexes, also once data is present (the new indexes are built from
    // the stored objects). It adds nothing and returns false when a name is already in use.
    [[nodiscard]] bool addIndexers(const Indexers &indexers, QString *errorMessage = nullptr);

    // Counters for the pipeline and index views; each is O(1) except indexValueSizes().
    qsizetype size() const;
    // indexValueCount() is the number of distinct values indexName holds.
    qsizetype indexValueCount(const QString &indexName) const;
    // indexValueSizes() maps each value of indexName to the number of keys under it.
    QHash<QString, qsizetype> indexValueSizes(const QString &indexName) const;
    // jsonBytes() is the sum of the stored objects' JSON sizes (KubeObject::jsonSize()), and
    // storedBytes() what that JSON takes in memory (KubeObject::storedSize(), keys numbered); both
    // kept up to date on every change so that the status bar can estimate the cache's memory in O(1).
    qint64 jsonBytes() const;
    qint64 storedBytes() const;

private:
    struct Index
    {
        IndexFunction function;
        QHash<QString, IndexKeySet> keysByValue;
    };

    // Callers hold the write lock, or own `index` alone (replace()). Either object may be invalid
    // (add / remove).
    void updateIndexLocked(Index &index, const QString &key, const KubeObject &oldObject, const KubeObject &newObject);
    void updateIndicesLocked(const QString &key, const KubeObject &oldObject, const KubeObject &newObject);

    QMutex m_writeMutex; // held by every writer, before m_lock
    mutable QReadWriteLock m_lock;
    QHash<QString, KubeObject> m_items;
    QHash<QString, Index> m_indices;
    qint64 m_jsonBytes = 0;
    qint64 m_storedBytes = 0;
};

} // namespace Cachescope
