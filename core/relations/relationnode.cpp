#include "core/relations/relationnode.h"

namespace Cachescope {

const RelationNode *RelationNode::find(const QString &uid) const
{
    if (object.uid == uid) {
        return this;
    }
    for (const RelationNode &child : children) {
        if (const RelationNode *found = child.find(uid)) {
            return found;
        }
    }
    return nullptr;
}

qsizetype RelationNode::count() const
{
    qsizetype total = 1;
    for (const RelationNode &child : children) {
        total += child.count();
    }
    return total;
}

} // namespace Cachescope
