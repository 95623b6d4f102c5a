#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace Cachescope {

// The JSONPath subset of printer columns (kubectl's custom-columns, a CRD's
// additionalPrinterColumns), parsed once and evaluated per object: the one walker of JSON paths
// for the app's columns and the simulator's Table rows.

// JsonPathStep is one step of a parsed JSONPath: a key, or an index when key is null.
struct JsonPathStep
{
    QString key;
    qsizetype index = -1;
};
using JsonPath = QList<JsonPathStep>;

// parseJsonPath() accepts `.a.b[0].c`, `['a.b']`, `["a"]` and an optional `{…}` wrapper;
// filters, wildcards and recursion are not supported (nothing, with *error naming the position).
[[nodiscard]] std::optional<JsonPath> parseJsonPath(const QString &path, QString *error = nullptr);
// evaluateJsonPath() is the value at the path; undefined when any step is absent.
[[nodiscard]] QJsonValue evaluateJsonPath(const QJsonValue &root, const JsonPath &steps);

} // namespace Cachescope
