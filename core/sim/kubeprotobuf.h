#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Cachescope::Sim {

// KubeProtobuf reads the Kubernetes protobuf encoding (`application/vnd.kubernetes.protobuf`),
// which kubectl's typed commands (`create namespace`, `create configmap`, `create deployment`,
// `create secret`, ...) write their bodies in, and turns it into the JSON that the apiserver
// would store for the same object.
//
// The wire format is the magic `k8s\0` and a `runtime.Unknown` envelope: `typeMeta`
// (apiVersion, kind), `raw` (the object's own message) and an empty `contentEncoding`. The
// messages are those of core/sim/proto/, with the field numbers of the published
// generated.proto files, for every kind the simulator serves (core/v1, apps/v1, batch/v1,
// autoscaling/v1 Scale, meta/v1 DeleteOptions) and everything they reach; supports() lists them.
//
// The JSON follows the Go types, not protobuf's own JSON mapping: metav1.Time and MicroTime
// are RFC 3339 strings (a zero Time is `null`, as `creationTimestamp: null`), Quantity a
// string, IntOrString an int or a string, FieldsV1 its embedded JSON,
// `bytes` base64 (Secret.data), inline members merged into their parent (a probe's `httpGet`),
// and empty scalars left out as `omitempty` does unless the Go field is a pointer
// (`replicas: 0` stays). An object whose bytes hold a field these messages do not know fails
// to decode, naming the field, rather than losing it.
//
// Pure functions, any thread; a decode costs one parse of the body and one walk of the
// message.
class KubeProtobuf
{
public:
    static constexpr char MediaType[] = "application/vnd.kubernetes.protobuf";

    // The JSON object (with apiVersion and kind from the envelope), or nullopt with *error
    // saying why: no magic, a broken message, a content encoding, a kind not listed, or an
    // unknown field.
    [[nodiscard]] static std::optional<QJsonObject> decode(const QByteArray &body, QString *error);

    // Whether decode() knows the messages of apiVersion/kind.
    [[nodiscard]] static bool supports(const QString &apiVersion, const QString &kind);
};

} // namespace Cachescope::Sim
