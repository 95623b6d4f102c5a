#pragma once

#include "core/relations/relationedge.h"

#include <QList>

namespace Cachescope {

// RelationNode is one node of the tree RelationService::treeOf() builds: an object, how it is
// related to its parent node (the root's source is OwnerReference and its detail empty), and its
// children. Owner edges point up the tree (a child is a dependent of its parent); the implicit
// edges listed under the focus object point either way, and `detail` says which ("selects
// app=web" for a Service above a Pod, "volume config" for a ConfigMap a Pod mounts). Plain
// value type.
struct RelationNode
{
    ObjectRef object;
    RelationEdge::Source source = RelationEdge::Source::OwnerReference;
    QString detail;
    bool focus = false; // the object the tree was asked for
    QList<RelationNode> children;

    // isImplicit() is true for a relation other than an owner reference.
    [[nodiscard]] bool isImplicit() const { return source != RelationEdge::Source::OwnerReference; }
    // find() is the first node, depth first from this one, whose object has that uid; nullptr if none.
    [[nodiscard]] const RelationNode *find(const QString &uid) const;
    // count() is the number of nodes of this subtree, this one included.
    [[nodiscard]] qsizetype count() const;
};

} // namespace Cachescope
