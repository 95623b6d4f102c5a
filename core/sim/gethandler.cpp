#include "core/sim/gethandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/objectstore.h"

namespace Cachescope::Sim {

GetHandler::GetHandler(const ObjectStore *store)
    : m_store(store)
{
}

void GetHandler::serve(const ApiCall &call) const
{
    const ResourceRoute &route = call.route;
    const ObjectPtr object = m_store->get(route.type, route.namespaceName, route.name);
    if (!object) {
        call.sendError(ApiError::notFound(route.type, route.name));
        return;
    }
    call.sendObject(200, object);
}

} // namespace Cachescope::Sim
