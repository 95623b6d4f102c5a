#include "core/workqueue/queueevent.h"

namespace Cachescope {

QLatin1String queueEventTypeName(QueueEventType type)
{
    switch (type) {
    case QueueEventType::Added:
        return QLatin1String("Added");
    case QueueEventType::AddedWhileProcessing:
        return QLatin1String("AddedWhileProcessing");
    case QueueEventType::Merged:
        return QLatin1String("Merged");
    case QueueEventType::Got:
        return QLatin1String("Got");
    case QueueEventType::Done:
        return QLatin1String("Done");
    case QueueEventType::Requeued:
        return QLatin1String("Requeued");
    case QueueEventType::AddedAfter:
        return QLatin1String("AddedAfter");
    case QueueEventType::RateLimited:
        return QLatin1String("RateLimited");
    case QueueEventType::DelayReady:
        return QLatin1String("DelayReady");
    case QueueEventType::Forgotten:
        return QLatin1String("Forgotten");
    case QueueEventType::Rejected:
        return QLatin1String("Rejected");
    case QueueEventType::ShutDown:
        return QLatin1String("ShutDown");
    }
    return QLatin1String("Unknown");
}

} // namespace Cachescope
