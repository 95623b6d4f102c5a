#pragma once

#include "core/sim/storedobject.h"

namespace Cachescope::Sim {

class ObjectStore;
class ResourceCatalog;
struct ApiCall;
struct ResourceType;

// DeleteHandler serves DELETE of one object, with the DeleteOptions of its body (JSON or
// protobuf: uid and resourceVersion preconditions, propagationPolicy), and does at once what
// the garbage collector and the namespace controller do in a real cluster: unless the policy is
// Orphan, a deleted namespace takes its objects with it and a deleted owner its dependents
// (by ownerReferences, transitively).
//
// Thread: the server thread. Not owning: store and catalog outlive it (ApiServer owns it).
class DeleteHandler final
{
    Q_DISABLE_COPY_MOVE(DeleteHandler)
public:
    DeleteHandler(ObjectStore *store, const ResourceCatalog *catalog);

    void serve(const ApiCall &call);

private:
    void cascadeDelete(const ResourceType &ownerType, const ObjectPtr &owner);

    ObjectStore *m_store; // not owned
    const ResourceCatalog *m_catalog; // not owned
};

} // namespace Cachescope::Sim
