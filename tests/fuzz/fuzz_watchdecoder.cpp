// fuzz_watchdecoder: WatchDecoder fed any bytes in any split must give the same events as the
// same bytes decoded in one piece, and never crash or hang on the way.
#include "core/kube/watchdecoder.h"
#include "fuzzsplit.h"

#include <cstdlib>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    // A small frame limit so the too-large path is reached too.
    WatchDecoder split(4096);
    qsizetype splitEvents = 0;
    for (QByteArrayView chunk : fuzzSplit(data, size))
        splitEvents += split.feed(chunk).size();
    splitEvents += split.finish().size();

    WatchDecoder whole(4096);
    qsizetype wholeEvents = whole.feed(QByteArrayView(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1))).size();
    wholeEvents += whole.finish().size();
    // The split must not change what the stream says.
    if (splitEvents != wholeEvents)
        std::abort();
    return 0;
}
