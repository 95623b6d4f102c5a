// fuzz_simhttp2: the simulator's HTTP/2 server session (Http2Session on libnghttp2, with its own
// callbacks and Http2Stream's responses) fed any bytes after the client connection preface, in
// any split. Each request it completes is answered in one of the ways the simulator's handlers
// answer (whole, chunked like a watch, pulled from a producer like a large list, a truncated
// frame, a stream reset, a GOAWAY), chosen by its method, so the data provider and the stream
// ends run too. Invariants: a request has a method, and a body as long as its content-length
// (nghttp2 checks it; our callbacks must not lose or add bytes); no stream is handed out twice.
//
// The socket has no peer: what the session writes is dropped. Not covered here: TLS and ALPN,
// the socket's high-water mark, and the faults that act on the socket (reset, freeze).
#include "core/sim/http2session.h"
#include "core/sim/http2stream.h"
#include "fuzzsplit.h"
#include "sinksocket.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSet>

#include <cstdlib>

using namespace Cachescope::Sim;

namespace {

void answer(Http2Session *session, HttpExchange *exchange, const HttpRequest &request)
{
    const QByteArray body = request.method + ' ' + request.path.toUtf8() + '\n' + request.body;
    const int way = request.method.isEmpty() ? 0 : int(uchar(request.method.back())) % 7;
    switch (way) {
    case 0:
        exchange->sendResponse(200, "application/json", body);
        break;
    case 1:
        // A watch: events now, the stream left open (deferred) until the input ends.
        exchange->beginChunked(200, "application/json", {{"x-watch", "1"}});
        exchange->writeChunk(body);
        exchange->writeChunk(request.body);
        break;
    case 2:
        exchange->beginChunked(200, "application/json");
        exchange->writeChunk(body);
        exchange->endChunked();
        break;
    case 3: {
        int pieces = 3;
        exchange->streamResponse(200, "application/json", [pieces, body]() mutable { return pieces-- > 0 ? body : QByteArray(); });
        break;
    }
    case 4:
        exchange->writeRawAndAbort("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n" + body.left(50));
        break;
    case 5:
        exchange->abort();
        break;
    case 6:
        exchange->sendResponse(410, "application/json", body, {{"Connection", "close"}, {"Retry-After", "1"}});
        session->goAway(0);
        break;
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    QPointer<Http2Session> session = new Http2Session(new CachescopeTest::SinkSocket, false);
    QSet<std::int32_t> handedOut; // stream ids: nghttp2 never reuses one on a connection
    QObject::connect(session, &Http2Session::requestReceived, session, [&](HttpExchange *exchange, const HttpRequest &request) {
        const auto *stream = qobject_cast<Http2Stream *>(exchange);
        if (!stream || handedOut.contains(stream->id()))
            std::abort();
        handedOut.insert(stream->id());
        if (request.method.isEmpty())
            std::abort();
        bool ok = false;
        const qlonglong length = request.header("content-length").toLongLong(&ok);
        if (ok && length != request.body.size())
            std::abort();
        answer(session, exchange, request);
    });

    session->receive("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    for (QByteArrayView chunk : fuzzSplit(data, size)) {
        if (!session)
            break;
        session->receive(chunk);
        // What the session queued for the event loop: sends, refills, timers of zero.
        QCoreApplication::processEvents();
    }
    QCoreApplication::processEvents();
    delete session.data();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return 0;
}
