#pragma once

#include "core/cache/kubeobject.h"

#include <QByteArray>
#include <QList>

namespace Cachescope {

// sortedForListing() orders objects as the apiserver lists them (namespace, then name), the
// order kubectl prints in.
QList<KubeObject> sortedForListing(QList<KubeObject> objects);

// objectListJson() is a `v1` `List` of the objects, as `kubectl get -o json` prints one
// (compact; the objects' own bytes, in the given order). Linear in their size.
QByteArray objectListJson(const QList<KubeObject> &objects);

} // namespace Cachescope
