// fuzz_fieldselector: FieldSelector::parse() on any text, with and without a resource's
// supported fields; what it accepts must print to a selector that parses to the same one.
#include "core/kube/fieldselector.h"

#include <QStringList>

#include <cstdlib>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto parsed = FieldSelector::parse(text);
    if (const auto *selector = std::get_if<FieldSelector>(&parsed)) {
        const QString printed = selector->toString();
        const auto again = FieldSelector::parse(printed);
        const auto *reparsed = std::get_if<FieldSelector>(&again);
        if (!reparsed || reparsed->toString() != printed)
            std::abort();
    }
    (void)FieldSelector::parse(text, {QStringLiteral("metadata.name"), QStringLiteral("metadata.namespace"), QStringLiteral("spec.nodeName")});
    return 0;
}
