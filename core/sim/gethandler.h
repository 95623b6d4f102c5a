#pragma once

#include <QtGlobal>

namespace Cachescope::Sim {

class ObjectStore;
struct ApiCall;

// GetHandler serves GET of one object: the stored object in the representation Accept asks
// for, or 404.
//
// Thread: the server thread. Not owning: the store outlives it (ApiServer owns it).
class GetHandler final
{
    Q_DISABLE_COPY_MOVE(GetHandler)
public:
    explicit GetHandler(const ObjectStore *store);

    void serve(const ApiCall &call) const;

private:
    const ObjectStore *m_store; // not owned
};

} // namespace Cachescope::Sim
