// fuzz_labelselector: LabelSelector::parse() on any text; what it accepts must print to a
// selector that parses to the same one (InformerKey keys informers by that text).
#include "core/kube/labelselector.h"

#include <cstdlib>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto parsed = LabelSelector::parse(text);
    if (const auto *selector = std::get_if<LabelSelector>(&parsed)) {
        const QString printed = selector->toString();
        const auto again = LabelSelector::parse(printed);
        const auto *reparsed = std::get_if<LabelSelector>(&again);
        if (!reparsed || reparsed->toString() != printed)
            std::abort();
    }
    return 0;
}
