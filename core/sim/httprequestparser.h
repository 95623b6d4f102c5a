#pragma once

#include "core/sim/httprequest.h"

#include <QByteArray>
#include <QByteArrayView>

namespace Cachescope::Sim {

// HttpRequestParser reads HTTP/1.1 requests out of the bytes of one connection, fed in any
// split: the request line and headers, then the body by Content-Length or chunked
// (Transfer-Encoding: chunked, extensions and trailers skipped). next() hands out one complete
// request at a time, in the order they arrived; the bytes of pipelined requests after it wait
// in the parser until the caller asks again, which is how HttpConnection answers in order.
//
// The trailer fields of a chunked body count against the head's limit (they are a header
// section), a chunk-size line against MaxChunkLineBytes.
//
// A request that breaks the limits or the syntax ends the parse: next() returns an Error with
// the status to answer (400, 413, 431) and returns it again on every later call, since the
// connection cannot tell where the next request would begin.
//
// A plain value with no socket, so the parse can be tested and fuzzed alone. Not thread-safe.
class HttpRequestParser
{
public:
    // Limits that keep a misbehaving client from growing our memory without bound; the real
    // apiserver refuses bodies above 3 MiB, we allow more for bulk tests.
    static constexpr qsizetype DefaultMaxHeadBytes = 64 * 1024;
    static constexpr qint64 DefaultMaxBodyBytes = 32 * 1024 * 1024;
    // A chunk-size line with its extensions, as Go's net/http bounds it.
    static constexpr qsizetype MaxChunkLineBytes = 4096;

    struct Result
    {
        enum class Kind { NeedMore, Request, Error };
        Kind kind = Kind::NeedMore;
        HttpRequest request; // Request
        bool closeAfterResponse = false; // Request: Connection: close, or HTTP/1.0 without keep-alive
        int errorStatus = 0; // Error
        QByteArray errorMessage; // Error
    };

    explicit HttpRequestParser(qsizetype maxHeadBytes = DefaultMaxHeadBytes, qint64 maxBodyBytes = DefaultMaxBodyBytes);

    // Appends bytes read from the connection; nothing is parsed until next().
    void feed(QByteArrayView bytes);
    // The next complete request, NeedMore while its bytes are incomplete, or the Error that
    // ended the parse.
    [[nodiscard]] Result next();
    // Bytes fed and not yet consumed by a request that next() returned.
    [[nodiscard]] bool hasBufferedBytes() const { return !m_buffer.isEmpty(); }

private:
    Result fail(int status, const QByteArray &message);
    // The request whose body is complete; the parse goes on with the next head.
    Result complete();

    enum class State { Head, FixedBody, ChunkSize, ChunkData, ChunkTrailer, Failed };

    qsizetype m_maxHeadBytes;
    qint64 m_maxBodyBytes;
    QByteArray m_buffer;
    State m_state = State::Head;
    HttpRequest m_request;
    bool m_closeAfterResponse = false;
    qint64 m_remaining = 0;
    qsizetype m_trailerBytes = 0; // of the current request's trailer fields
    int m_errorStatus = 0;
    QByteArray m_errorMessage;
};

} // namespace Cachescope::Sim
