// fuzz_simhttp1: the simulator's HTTP/1.1 request parser (HttpRequestParser, what HttpConnection
// reads sockets with) fed any bytes in any split must give the same requests, in the same order,
// with the same error at the end, as the same bytes parsed in one piece; a request framed by
// Content-Length has exactly that many bytes of body, and no body outgrows the limit.
#include "core/sim/httprequestparser.h"
#include "fuzzsplit.h"

#include <QList>

#include <cstdlib>

using namespace Cachescope::Sim;

namespace {

// Small limits so the too-large paths are reached with short inputs.
constexpr qsizetype MaxHeadBytes = 512;
constexpr qint64 MaxBodyBytes = 4096;

using Result = HttpRequestParser::Result;

// Takes every result the parser has after a feed: requests until it needs more, or the error
// that ends it (once: it repeats).
void drain(HttpRequestParser &parser, QList<Result> &results)
{
    for (;;) {
        Result result = parser.next();
        if (result.kind == Result::Kind::NeedMore)
            return;
        if (result.kind == Result::Kind::Error) {
            if (results.isEmpty() || results.constLast().kind != Result::Kind::Error)
                results.append(result);
            return;
        }
        results.append(result);
    }
}

bool sameResult(const Result &a, const Result &b)
{
    if (a.kind != b.kind || a.errorStatus != b.errorStatus || a.errorMessage != b.errorMessage || a.closeAfterResponse != b.closeAfterResponse)
        return false;
    const HttpRequest &x = a.request;
    const HttpRequest &y = b.request;
    return x.method == y.method && x.path == y.path && x.query == y.query && x.headers == y.headers && x.body == y.body;
}

void checkRequest(const Result &result)
{
    if (result.kind != Result::Kind::Request)
        return;
    const HttpRequest &request = result.request;
    if (request.body.size() > MaxBodyBytes)
        std::abort();
    if (request.header("transfer-encoding").toLower().contains("chunked"))
        return;
    const QByteArray length = request.header("content-length");
    if (length.isEmpty()) {
        if (!request.body.isEmpty())
            std::abort();
    } else if (request.body.size() != length.toLongLong()) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    HttpRequestParser split(MaxHeadBytes, MaxBodyBytes);
    QList<Result> splitResults;
    for (QByteArrayView chunk : fuzzSplit(data, size)) {
        split.feed(chunk);
        drain(split, splitResults);
    }

    HttpRequestParser whole(MaxHeadBytes, MaxBodyBytes);
    QList<Result> wholeResults;
    whole.feed(QByteArrayView(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1)));
    drain(whole, wholeResults);

    // Pipelined requests come out one by one, in order, whatever the reads were.
    if (splitResults.size() != wholeResults.size())
        std::abort();
    for (qsizetype i = 0; i < splitResults.size(); ++i) {
        if (!sameResult(splitResults.at(i), wholeResults.at(i)))
            std::abort();
        checkRequest(splitResults.at(i));
    }
    return 0;
}
