#include "core/printers/conditions.h"

#include <QJsonValue>

namespace Cachescope {

QString conditionStatus(const QJsonArray &conditions, QStringView type)
{
    for (const QJsonValue &condition : conditions) {
        if (condition[u"type"].toString() == type) {
            return condition[u"status"].toString();
        }
    }
    return {};
}

} // namespace Cachescope
