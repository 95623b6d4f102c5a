#include "core/relations/readycondition.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ReadyCondition ReadyCondition::of(const ObjectRef &object)
{
    if (object.isDangling()) {
        return {u"-"_s, u"Dangling"_s};
    }
    if (!object.isFound()) {
        return {u"-"_s, u"Unknown"_s};
    }
    const QJsonArray conditions = object.object.value(u"status.conditions"_s).toArray();
    for (const QJsonValue &condition : conditions) {
        if (condition[u"type"_s].toString() == u"Ready"_s) {
            return {condition[u"status"_s].toString(), condition[u"reason"_s].toString()};
        }
    }
    return {u"-"_s, QString()};
}

} // namespace Cachescope
