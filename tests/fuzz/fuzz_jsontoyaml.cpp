// fuzz_jsontoyaml: jsonToYaml() on whatever QJsonDocument accepts from the input.
#include "core/kube/jsontoyaml.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (document.isObject())
        (void)jsonToYaml(QJsonValue(document.object()));
    else if (document.isArray())
        (void)jsonToYaml(QJsonValue(document.array()));
    return 0;
}
