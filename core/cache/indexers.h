#pragma once

#include "core/cache/kubeobject.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>

namespace Cachescope {

// IndexFunction computes the values an object is indexed under (none, one or several), as
// client-go's IndexFunc. It must be deterministic and thread-safe: the store calls it under its
// write lock, on the writer's thread, for the old and the new state of every changed object, and
// when a list replaces the content, on backgroundPool() threads too, beside other indexes'
// functions (each index's function on one thread at a time).
using IndexFunction = std::function<QStringList(const KubeObject &)>;

// Indexers maps an index name to its function.
using Indexers = QHash<QString, IndexFunction>;

} // namespace Cachescope
