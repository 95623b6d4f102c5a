#pragma once

#include "core/cache/delta.h"
#include "core/cache/kubeobject.h"

namespace Cachescope {

// ResourceEventHandler is client-go's ResourceEventHandler: what a SharedIndexInformer calls
// for every change of its cache. Objects are shared and immutable: handlers read them, never
// change them. Calls for one handler come one at a time, in order, from that handler's own
// delivery thread (not the GUI thread); a slow handler delays only itself.
// - onAdd(): a new object; isInInitialList for objects of the first list (and for the
//   synthetic adds a handler registered late receives for what the cache already holds).
// - onUpdate(): a changed object, or on resync (and a relist of an unchanged object) the same
//   object twice: compare resourceVersions to tell them apart.
// - onDelete(): a deleted object, or a DeletedFinalStateUnknown when the deletion was missed
//   while the watch was down and found by a relist.
class ResourceEventHandler
{
public:
    virtual ~ResourceEventHandler() = default;

    virtual void onAdd(const KubeObject &object, bool isInInitialList) = 0;
    virtual void onUpdate(const KubeObject &oldObject, const KubeObject &newObject) = 0;
    virtual void onDelete(const DeltaObject &object) = 0;
};

} // namespace Cachescope
