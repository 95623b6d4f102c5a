#pragma once

#include <QByteArray>

class QJsonValue;

namespace Cachescope {

// jsonToYaml() renders a JSON value as YAML close to how `kubectl get -o yaml` shows objects:
// block style, map keys in the order QJsonObject keeps them (sorted, as sigs.k8s.io/yaml
// sorts them), strings quoted only where a plain scalar would read back as another type,
// multi-line strings as literal blocks where that is exact, empty maps and lists as `{}` and
// `[]`. Unlike kubectl, list items are indented under their key (yaml-cpp's only layout).
// Reading the output back with any YAML reader yields the same value.
// The output is UTF-8 and ends with a newline. Cost: linear in the size of the value.
QByteArray jsonToYaml(const QJsonValue &value);

} // namespace Cachescope
