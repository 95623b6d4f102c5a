// fuzz_execcredential: ExecPlugin::parseOutput() on any bytes, as an exec plugin's stdout for
// both ExecCredential API versions.
#include "core/kube/execplugin.h"

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray output(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)ExecPlugin::parseOutput(output, QStringLiteral("client.authentication.k8s.io/v1"));
    (void)ExecPlugin::parseOutput(output, QStringLiteral("client.authentication.k8s.io/v1beta1"));
    return 0;
}
