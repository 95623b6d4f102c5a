#include "core/sim/httprequestparser.h"

#include <utility>

namespace Cachescope::Sim {

namespace {

constexpr qsizetype NotYet = -1;
constexpr qsizetype TooLong = -2;

// boundedFind() is where `terminator` starts in `buffer` when at most `limit` bytes come before
// it. NotYet while it has not arrived but still could within the limit (it may start in the last
// bytes received), TooLong once it no longer can, so a line or head is bounded however its bytes
// arrive: whole, or a byte at a time.
qsizetype boundedFind(const QByteArray &buffer, QByteArrayView terminator, qsizetype limit)
{
    const qsizetype at = buffer.indexOf(terminator);
    if (at < 0)
        return buffer.size() > limit + terminator.size() - 1 ? TooLong : NotYet;
    return at > limit ? TooLong : at;
}

} // namespace

HttpRequestParser::HttpRequestParser(qsizetype maxHeadBytes, qint64 maxBodyBytes)
    : m_maxHeadBytes(maxHeadBytes)
    , m_maxBodyBytes(maxBodyBytes)
{
}

void HttpRequestParser::feed(QByteArrayView bytes)
{
    if (m_state != State::Failed)
        m_buffer.append(bytes);
}

HttpRequestParser::Result HttpRequestParser::fail(int status, const QByteArray &message)
{
    m_state = State::Failed;
    m_errorStatus = status;
    m_errorMessage = message;
    m_buffer.clear();
    m_request = HttpRequest{};
    return next();
}

HttpRequestParser::Result HttpRequestParser::complete()
{
    Result result;
    result.kind = Result::Kind::Request;
    result.request = std::exchange(m_request, HttpRequest{});
    result.closeAfterResponse = m_closeAfterResponse;
    m_state = State::Head;
    return result;
}

HttpRequestParser::Result HttpRequestParser::next()
{
    for (;;) {
        switch (m_state) {
        case State::Failed: {
            Result result;
            result.kind = Result::Kind::Error;
            result.errorStatus = m_errorStatus;
            result.errorMessage = m_errorMessage;
            return result;
        }
        case State::Head: {
            const qsizetype end = boundedFind(m_buffer, "\r\n\r\n", m_maxHeadBytes);
            if (end == TooLong)
                return fail(431, "request header too large");
            if (end == NotYet)
                return {};
            const QByteArray head = m_buffer.left(end);
            m_buffer.remove(0, end + 4);
            const QList<QByteArray> lines = head.split('\n');
            const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
            if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1."))
                return fail(400, "malformed request line");
            m_request = HttpRequest{};
            m_request.method = requestLine.at(0);
            m_request.setTarget(requestLine.at(1));
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray &line = lines.at(i);
                const qsizetype colon = line.indexOf(':');
                if (colon <= 0)
                    continue;
                m_request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
            }
            const bool http10 = requestLine.at(2) == "HTTP/1.0";
            const QByteArray connection = m_request.header("connection").toLower();
            m_closeAfterResponse = connection.contains("close") || (http10 && !connection.contains("keep-alive"));
            if (m_request.header("transfer-encoding").toLower().contains("chunked")) {
                m_state = State::ChunkSize;
                break;
            }
            bool ok = true;
            const QByteArray lengthHeader = m_request.header("content-length");
            m_remaining = lengthHeader.isEmpty() ? 0 : lengthHeader.toLongLong(&ok);
            if (!ok || m_remaining < 0 || m_remaining > m_maxBodyBytes)
                return fail(413, "bad or too large content-length");
            m_state = State::FixedBody;
            break;
        }
        case State::FixedBody: {
            const qint64 take = qMin<qint64>(m_remaining, m_buffer.size());
            m_request.body.append(m_buffer.left(take));
            m_buffer.remove(0, take);
            m_remaining -= take;
            if (m_remaining > 0)
                return {};
            return complete();
        }
        case State::ChunkSize: {
            const qsizetype eol = boundedFind(m_buffer, "\r\n", MaxChunkLineBytes);
            if (eol == TooLong)
                return fail(400, "chunk size line too long");
            if (eol == NotYet)
                return {};
            QByteArray sizeField = m_buffer.left(eol);
            m_buffer.remove(0, eol + 2);
            const qsizetype semicolon = sizeField.indexOf(';');
            if (semicolon >= 0)
                sizeField.truncate(semicolon);
            bool ok = false;
            m_remaining = sizeField.trimmed().toLongLong(&ok, 16);
            // Compared as what is left of the limit: a size near 2^63 added to the body would
            // overflow.
            if (!ok || m_remaining < 0 || m_remaining > m_maxBodyBytes - m_request.body.size())
                return fail(400, "bad chunk size");
            m_trailerBytes = 0;
            m_state = m_remaining == 0 ? State::ChunkTrailer : State::ChunkData;
            break;
        }
        case State::ChunkData: {
            // The chunk's data plus its closing CRLF must be here before we consume it.
            if (m_buffer.size() < m_remaining + 2)
                return {};
            if (m_buffer.at(m_remaining) != '\r' || m_buffer.at(m_remaining + 1) != '\n')
                return fail(400, "chunk data not followed by CRLF");
            m_request.body.append(m_buffer.left(m_remaining));
            m_buffer.remove(0, m_remaining + 2);
            m_state = State::ChunkSize;
            break;
        }
        case State::ChunkTrailer: {
            // Trailer fields count against the head's limit, all of them together.
            const qsizetype eol = boundedFind(m_buffer, "\r\n", m_maxHeadBytes - m_trailerBytes);
            if (eol == TooLong)
                return fail(431, "trailer fields too large");
            if (eol == NotYet)
                return {};
            m_trailerBytes += eol + 2;
            m_buffer.remove(0, eol + 2);
            // The empty line after the trailer fields ends the request.
            if (eol == 0)
                return complete();
            break;
        }
        }
    }
}

} // namespace Cachescope::Sim
