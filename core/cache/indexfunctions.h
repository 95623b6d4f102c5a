#pragma once

#include "core/cache/indexers.h"

#include <QString>

#include <optional>

namespace Cachescope {

// The built-in index functions and the names they are registered under. Names are stable: the
// UI shows them and `cachescope-cli get --index NAME=VALUE` takes them.
//
//   namespace          metadata.namespace ("" for cluster-scoped objects, as client-go)
//   label:<key>        the value of label <key>, for objects that carry it
//   owner              the uid of every owner reference
//   node               spec.nodeName, for objects that have one
//   field:<path>       the value at a field path (see KubeObject::value()); a list gives each
//                      scalar element, null/absent/object give nothing
QString namespaceIndexName();
QString labelIndexName(const QString &labelKey);
QString ownerUidIndexName();
QString nodeNameIndexName();
QString fieldPathIndexName(const QString &fieldPath);

IndexFunction namespaceIndexFunction();
IndexFunction labelIndexFunction(const QString &labelKey);
IndexFunction ownerUidIndexFunction();
IndexFunction nodeNameIndexFunction();
IndexFunction fieldPathIndexFunction(const QString &fieldPath);

// indexFunctionForName() returns the built-in function registered under one of the names above,
// or std::nullopt for a name it does not know.
[[nodiscard]] std::optional<IndexFunction> indexFunctionForName(const QString &indexName);

} // namespace Cachescope
