// fuzz_watchdecoder: WatchDecoder fed any bytes in any split must give the same events (types,
// objects, errors) as the same bytes decoded in one piece, and never crash or hang on the way.
#include "core/kube/watchdecoder.h"
#include "fuzzsplit.h"

#include <cstdlib>

using namespace Cachescope;

namespace {

// What a stream says: each event's type, object and error, in order.
QList<WatchEvent> decodeAll(WatchDecoder &decoder, const QList<QByteArrayView> &pieces)
{
    QList<WatchEvent> events;
    for (QByteArrayView piece : pieces)
        events += decoder.feed(piece);
    events += decoder.finish();
    return events;
}

bool same(const QList<WatchEvent> &a, const QList<WatchEvent> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].type != b[i].type || a[i].object != b[i].object || a[i].decodeError != b[i].decodeError)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    // A small frame limit so the too-large path is reached too.
    WatchDecoder split(4096);
    const QList<WatchEvent> splitEvents = decodeAll(split, fuzzSplit(data, size));
    // In one piece, most frames that end a line are decoded by the line fast path; split, many
    // are scanned byte by byte: both must say the same.
    WatchDecoder whole(4096);
    const QList<WatchEvent> wholeEvents = decodeAll(whole, {QByteArrayView(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1))});
    // The split must not change what the stream says.
    if (!same(splitEvents, wholeEvents))
        std::abort();
    return 0;
}
