#include "core/cache/indexer.h"

namespace Cachescope {

Indexer::Indexer(const Indexers &indexers, KeyFunction keyFunction)
    : m_keyFunction(std::move(keyFunction))
    , m_store(indexers)
{
}

QString Indexer::keyOf(const DeltaObject &object) const
{
    if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
        return tombstone->key;
    }
    return m_keyFunction(std::get<KubeObject>(object));
}

void Indexer::add(const KubeObject &object)
{
    m_store.add(keyOf(object), object);
}

void Indexer::update(const KubeObject &object)
{
    m_store.update(keyOf(object), object);
}

void Indexer::remove(const DeltaObject &object)
{
    m_store.remove(keyOf(object));
}

QList<KubeObject> Indexer::list() const
{
    return m_store.list();
}

QStringList Indexer::listKeys() const
{
    return m_store.listKeys();
}

KubeObject Indexer::get(const KubeObject &object) const
{
    return m_store.get(keyOf(object));
}

KubeObject Indexer::getByKey(const QString &key) const
{
    return m_store.get(key);
}

void Indexer::replace(const QList<KubeObject> &list, const QString &resourceVersion)
{
    Q_UNUSED(resourceVersion)
    QHash<QString, KubeObject> items;
    items.reserve(list.size());
    for (const KubeObject &object : list) {
        items.insert(keyOf(object), object);
    }
    replaceItems(items);
}

} // namespace Cachescope
