#pragma once

#include <QtGlobal>

namespace Cachescope::Sim {

class ObjectStore;
class ResourceCatalog;
struct ApiCall;

// WriteHandler serves the writes that send a whole object: create (POST to a collection, into a
// namespace that exists; a pod without a phase starts Pending; dryRun=All stores nothing) and
// replace (PUT of a name; of the status subresource, which changes status only). The store
// checks names, versions (409 on a stale resourceVersion) and existence.
//
// Thread: the server thread. Not owning: store and catalog outlive it (ApiServer owns it).
class WriteHandler final
{
    Q_DISABLE_COPY_MOVE(WriteHandler)
public:
    WriteHandler(ObjectStore *store, const ResourceCatalog *catalog);

    void create(const ApiCall &call);
    void replace(const ApiCall &call);

private:
    ObjectStore *m_store; // not owned
    const ResourceCatalog *m_catalog; // not owned
};

} // namespace Cachescope::Sim
