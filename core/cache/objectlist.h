#pragma once

#include "core/cache/kubeobject.h"

#include <QList>

namespace Cachescope {

// sortedForListing() orders objects as the apiserver lists them (namespace, then name), the
// order kubectl prints in.
QList<KubeObject> sortedForListing(QList<KubeObject> objects);

} // namespace Cachescope
