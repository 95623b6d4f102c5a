#pragma once

#include "core/cache/deltaqueue.h"
#include "core/kube/apiresource.h"

#include <QString>

namespace Cachescope {

// RecordedInformer is one informer of a recording (a row of `informers`): the resource it
// reflects and how (namespace, selectors, metadata only, queue kind, streaming lists), which a
// replay needs to build the same informer again. Plain value type.
struct RecordedInformer
{
    qint64 id = 0;
    QString name; // as InformerKey::name() says it ("pods -n shop")
    ApiResource resource; // gvr, kind, namespaced, short names
    QString namespaceName; // empty = all namespaces (or cluster-scoped)
    QString labelSelector;
    QString fieldSelector;
    bool metadataOnly = false;
    DeltaQueue::Kind queueKind = DeltaQueue::Kind::RealFifo;
    bool watchList = false; // the reflector used streaming lists (sendInitialEvents)
};

} // namespace Cachescope
