#include "core/cache/delta.h"

namespace Cachescope {

QString deltaTypeName(DeltaType type)
{
    switch (type) {
    case DeltaType::Added:
        return QStringLiteral("Added");
    case DeltaType::Updated:
        return QStringLiteral("Updated");
    case DeltaType::Deleted:
        return QStringLiteral("Deleted");
    case DeltaType::Replaced:
        return QStringLiteral("Replaced");
    case DeltaType::Sync:
        return QStringLiteral("Sync");
    case DeltaType::ReplacedAll:
        return QStringLiteral("ReplacedAll");
    case DeltaType::SyncAll:
        return QStringLiteral("SyncAll");
    }
    return {};
}

} // namespace Cachescope
