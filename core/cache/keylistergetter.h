#pragma once

#include "core/cache/kubeobject.h"

#include <QString>
#include <QStringList>

namespace Cachescope {

// KeyListerGetter is what a DeltaFifo or RealFifo needs to know of the store behind it (its
// "knownObjects", in practice the informer's Indexer): the keys it holds and the object under a
// key. Implementations must be thread-safe; the queues call them under their own lock, so an
// implementation must never call back into the queue.
class KeyListerGetter
{
public:
    virtual ~KeyListerGetter() = default;

    virtual QStringList listKeys() const = 0;
    // getByKey() returns an invalid KubeObject when the key is absent.
    virtual KubeObject getByKey(const QString &key) const = 0;
};

} // namespace Cachescope
