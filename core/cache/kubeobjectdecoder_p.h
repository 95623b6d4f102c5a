#pragma once

#include "core/cache/kubeobject.h"

namespace Cachescope {

class KubeObjectData;

// KubeObjectDecoder is how KubeObject::fromJson() reads an object: one validating simdjson DOM
// pass over the bytes, the extracted fields read from the DOM (low-cardinality strings through the
// thread's StringInterner, timestamps through the RFC 3339 parser), then the transform applied to
// the stored bytes. It never throws (simdjson is used through its error codes).
//
// Thread: any; each thread has its own parser and scratch buffers, sized to the largest object it
// has decoded up to LargeObjectBytes (larger objects get buffers of their own, freed at once).
// Cost: linear in the size of the JSON; dropping managedFields adds one copy of the bytes.
class KubeObjectDecoder final
{
public:
    // Objects larger than this get parse buffers of their own instead of the per-thread ones, so
    // that one huge object does not pin that much memory per thread for good.
    static constexpr std::size_t LargeObjectBytes = std::size_t(1) << 20;

    // decode() fills data from json (see KubeObject::fromJson() for what is accepted). On failure
    // it returns false, leaves data partly filled, and stores a one-line reason in errorMessage
    // when that is given.
    [[nodiscard]] static bool decode(const QByteArray &json, KubeObject::Transform transform, KubeObjectData &data, QString *errorMessage);
};

} // namespace Cachescope
