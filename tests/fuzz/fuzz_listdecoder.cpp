// fuzz_listdecoder: ListDecoder fed a list answer in random splits must give the items and the
// verdict that decode() gives for the whole body, and never crash or hang.
#include "core/kube/listdecoder.h"
#include "fuzzsplit.h"

#include <cstdlib>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    ListDecoder split;
    QList<QByteArray> items;
    for (QByteArrayView chunk : fuzzSplit(data, size))
        items += split.feed(chunk);
    const auto splitResult = split.finish();

    const QByteArrayView body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    ListDecoder whole;
    QList<QByteArray> wholeItems = whole.feed(body);
    const auto wholeResult = whole.finish();
    if (splitResult.index() != wholeResult.index())
        std::abort();
    // Items already handed out before a failure may differ only by where the failure was seen;
    // a successful list must give the same items however it arrived.
    if (splitResult.index() == 0 && items != wholeItems)
        std::abort();
    (void)ListDecoder::decode(body);
    return 0;
}
