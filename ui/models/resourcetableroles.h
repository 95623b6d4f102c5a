#pragma once

#include <Qt>

namespace Cachescope {

// ResourceTableRoles are the item roles of ResourceTableModel beyond Qt's own, one line each.
// Every role answers for any column of a row unless it says otherwise.
namespace ResourceTableRoles {
enum Role {
    ObjectRole = Qt::UserRole + 1, // the row's KubeObject (QVariant of Cachescope::KubeObject)
    KeyRole, // the informer key, "namespace/name" or "name" (QString)
    NameRole, // metadata.name (QString)
    NamespaceRole, // metadata.namespace, empty when cluster-scoped (QString)
    ResourceVersionRole, // metadata.resourceVersion (QString)
    LabelsRole, // metadata.labels as a QVariantMap (built on request: for tooltips, not for filtering 100k rows)
    ChangedAtRole, // ms since the epoch of the row's last add/update seen live, 0 for the initial list (qint64): the flash
    SortRole, // the cell as a typed value: numbers as numbers, ages as the creation time in ms negated (youngest first)
};
} // namespace ResourceTableRoles

} // namespace Cachescope
