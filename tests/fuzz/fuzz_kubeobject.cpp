// fuzz_kubeobject: KubeObject::fromJson() on any bytes, then every accessor and a few field
// paths of what it accepted (value() parses the stored JSON again); the stored JSON must expand
// to the input exactly.
#include "core/cache/kubeobject.h"

#include <cstdlib>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    for (auto transform : {KubeObject::Transform::DropManagedFields, KubeObject::Transform::None}) {
        QString error;
        const std::optional<KubeObject> object = KubeObject::fromJson(json, transform, &error);
        if (!object)
            continue;
        // The JSON is kept with its keys numbered (StoredJson): it must come back byte for byte,
        // whole without the transform, and never longer with it.
        const QByteArray stored = object->json();
        if (stored.size() != object->jsonSize())
            std::abort();
        if (transform == KubeObject::Transform::None ? stored != json : stored.size() > json.size())
            std::abort();
        if (transform == KubeObject::Transform::None && !(KubeObject::fromJson(stored, transform) == *object))
            std::abort();
        (void)object->apiVersion();
        (void)object->kind();
        (void)object->namespaceName();
        (void)object->name();
        (void)object->uid();
        (void)object->resourceVersion();
        (void)object->generation();
        (void)object->creationTimestamp();
        (void)object->deletionTimestamp();
        (void)object->labels();
        (void)object->label(QStringLiteral("app"));
        (void)object->ownerReferences();
        (void)object->controllerReference();
        (void)object->nodeName();
        (void)object->phase();
        (void)object->value(QStringLiteral("spec.containers.0.image"));
        (void)object->value(QStringLiteral("metadata.labels.app\\.kubernetes\\.io/name"));
    }
    return 0;
}
