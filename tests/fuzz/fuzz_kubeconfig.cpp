// fuzz_kubeconfig: Kubeconfig::fromYaml() on any bytes (yaml-cpp's parser and our reading of
// what it returns); a malformed file must become errors, never an exception or a crash.
#include "core/kube/kubeconfig.h"

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray yaml(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)Kubeconfig::fromYaml(yaml, QStringLiteral("/fuzz/config"));
    return 0;
}
