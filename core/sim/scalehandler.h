#pragma once

#include <QtGlobal>

namespace Cachescope::Sim {

class ObjectStore;
struct ApiCall;

// ScaleHandler serves the scale subresource of deployments, replica sets and stateful sets:
// GET renders the object as an autoscaling/v1 Scale; PUT, a JSON patch or a merge patch of that
// Scale changes spec.replicas of the object (422 for a negative count), optimistic-locked when
// the Scale names a resourceVersion.
//
// Thread: the server thread. Not owning: the store outlives it (ApiServer owns it).
class ScaleHandler final
{
    Q_DISABLE_COPY_MOVE(ScaleHandler)
public:
    explicit ScaleHandler(ObjectStore *store);

    void serve(const ApiCall &call);

private:
    ObjectStore *m_store; // not owned
};

} // namespace Cachescope::Sim
