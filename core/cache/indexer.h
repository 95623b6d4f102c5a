#pragma once

#include "core/cache/delta.h"
#include "core/cache/indexers.h"
#include "core/cache/keylistergetter.h"
#include "core/cache/keys.h"
#include "core/cache/threadsafestore.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace Cachescope {

// Indexer is client-go's Indexer (a Store with indexes): a ThreadSafeStore that computes keys
// itself with a KeyFunction. It is what a SharedIndexInformer keeps its cache in, what listers
// and the GUI read, and the "knownObjects" its DeltaFifo / RealFifo consult.
//
// Thread: any (see ThreadSafeStore for the locking and costs). Ownership: owned by whoever
// creates it, usually the informer; queues hold a non-owning pointer to it.
// remove() accepts a DeletedFinalStateUnknown and removes its key, as client-go's informer does
// with DeletionHandlingMetaNamespaceKeyFunc.
class Indexer final : public KeyListerGetter
{
public:
    explicit Indexer(const Indexers &indexers = {}, KeyFunction keyFunction = metaNamespaceKey);
    Q_DISABLE_COPY_MOVE(Indexer)

    void add(const KubeObject &object);
    void update(const KubeObject &object);
    void remove(const DeltaObject &object);
    QList<KubeObject> list() const;
    QStringList listKeys() const override;
    // get() looks up the stored object with the same key as object.
    KubeObject get(const KubeObject &object) const;
    KubeObject getByKey(const QString &key) const override;
    // replace() makes the content exactly list; resourceVersion is accepted for parity with
    // client-go's Store and not used.
    void replace(const QList<KubeObject> &list, const QString &resourceVersion);
    // replaceItems() makes the content exactly items, each already under its keyOf(): for a
    // caller that made the keys anyway (an informer applying a relist; a million keys are a
    // second of work).
    void replaceItems(const QHash<QString, KubeObject> &items) { m_store.replace(items); }
    // resync() is a no-op: a store has nothing to resync (the queue does that).
    void resync() { }

    QList<KubeObject> index(const QString &indexName, const KubeObject &object) const { return m_store.index(indexName, object); }
    QStringList indexKeys(const QString &indexName, const QString &value) const { return m_store.indexKeys(indexName, value); }
    QList<KubeObject> byIndex(const QString &indexName, const QString &value) const { return m_store.byIndex(indexName, value); }
    QStringList listIndexFuncValues(const QString &indexName) const { return m_store.listIndexFuncValues(indexName); }
    Indexers indexers() const { return m_store.indexers(); }
    bool hasIndex(const QString &indexName) const { return m_store.hasIndex(indexName); }
    [[nodiscard]] bool addIndexers(const Indexers &indexers, QString *errorMessage = nullptr) { return m_store.addIndexers(indexers, errorMessage); }

    qsizetype size() const { return m_store.size(); }
    qsizetype indexValueCount(const QString &indexName) const { return m_store.indexValueCount(indexName); }
    QHash<QString, qsizetype> indexValueSizes(const QString &indexName) const { return m_store.indexValueSizes(indexName); }
    qint64 jsonBytes() const { return m_store.jsonBytes(); }
    qint64 storedBytes() const { return m_store.storedBytes(); }

    // keyOf() is the key an object or tombstone is stored under.
    QString keyOf(const DeltaObject &object) const;

private:
    KeyFunction m_keyFunction;
    ThreadSafeStore m_store;
};

} // namespace Cachescope
