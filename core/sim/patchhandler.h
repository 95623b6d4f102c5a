#pragma once

#include <QtGlobal>

namespace Cachescope::Sim {

class ObjectStore;
struct ApiCall;

// PatchHandler serves PATCH of one object (or of its status subresource, which changes status
// only): JSON patch, merge patch and strategic merge patch (not for custom resources, as the
// apiserver refuses it there with 415), by the Content-Type. A patch is optimistic-locked only
// when it names a resourceVersion itself.
//
// Thread: the server thread. Not owning: the store outlives it (ApiServer owns it).
class PatchHandler final
{
    Q_DISABLE_COPY_MOVE(PatchHandler)
public:
    explicit PatchHandler(ObjectStore *store);

    void serve(const ApiCall &call);

private:
    ObjectStore *m_store; // not owned
};

} // namespace Cachescope::Sim
