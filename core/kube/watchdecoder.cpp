#include "core/kube/watchdecoder.h"

#include "core/kube/jsonstringscan_p.h"

#include <simdjson.h>

#include <cstring>

#include <string_view>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString WatchEvent::typeName(Type type)
{
    switch (type) {
    case Type::Added:
        return u"ADDED"_s;
    case Type::Modified:
        return u"MODIFIED"_s;
    case Type::Deleted:
        return u"DELETED"_s;
    case Type::Bookmark:
        return u"BOOKMARK"_s;
    case Type::Error:
        return u"ERROR"_s;
    case Type::Malformed:
        break;
    }
    return u"MALFORMED"_s;
}

namespace {

WatchEvent malformed(const QString &why)
{
    WatchEvent event;
    event.type = WatchEvent::Type::Malformed;
    event.decodeError = why;
    return event;
}

bool isJsonWhitespace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

} // namespace

WatchDecoder::WatchDecoder(qsizetype maxFrameSize)
    : m_maxFrameSize(maxFrameSize)
{
}

QList<WatchEvent> WatchDecoder::feed(QByteArrayView bytes)
{
    QList<WatchEvent> events;
    const char *data = bytes.data();
    const qsizetype size = bytes.size();
    // Bytes of the current frame are copied in runs, not one by one: segmentStart is where the
    // run of this call began, or -1 when no frame bytes are being kept.
    const bool inFrame = m_state == State::InFrame || m_state == State::InString || m_state == State::InStringEscape;
    qsizetype segmentStart = inFrame && !m_skipping ? 0 : -1;
    qsizetype nextNewline = -1; // decodeLine()'s last search: the next '\n' at or after it, or size

    for (qsizetype i = 0; i < size; ++i) {
        const char c = data[i];
        switch (m_state) {
        case State::BetweenFrames:
        case State::Junk:
            if (c == '{') {
                if (m_state == State::Junk) {
                    events.append(malformed(u"unexpected bytes between watch events"_s));
                }
                if (const qsizetype lineEnd = decodeLine(data, i, size, &nextNewline, &events); lineEnd >= 0) {
                    m_state = State::BetweenFrames;
                    i = lineEnd; // the newline; the loop steps past it
                    continue;
                }
                m_state = State::InFrame;
                m_depth = 1;
                m_skipping = false;
                m_frame.clear();
                segmentStart = i;
            } else if (!isJsonWhitespace(c)) {
                m_state = State::Junk;
            }
            continue;
        case State::InString:
            i = nextQuoteOrBackslash(data + i, data + size) - data;
            if (i == size) {
                i = size - 1; // the string goes on in the next piece
                break;
            }
            m_state = data[i] == '\\' ? State::InStringEscape : State::InFrame;
            break;
        case State::InStringEscape:
            m_state = State::InString;
            break;
        case State::InFrame:
            if (c == '"') {
                m_state = State::InString;
            } else if (c == '{' || c == '[') {
                ++m_depth;
            } else if (c == '}' || c == ']') {
                if (--m_depth == 0) {
                    m_state = State::BetweenFrames;
                    if (!m_skipping) {
                        m_frame.append(data + segmentStart, i + 1 - segmentStart);
                        events.append(decodeFrame(m_frame));
                    }
                    m_frame.clear();
                    m_skipping = false;
                    segmentStart = -1;
                    continue;
                }
            }
            break;
        }
        if (!m_skipping && m_frame.size() + (i + 1 - segmentStart) > m_maxFrameSize) {
            events.append(malformed(u"watch event larger than the limit of %1 bytes; skipped"_s.arg(m_maxFrameSize)));
            m_skipping = true;
            m_frame.clear();
            m_frame.squeeze();
            segmentStart = -1;
        }
    }
    if (segmentStart >= 0 && !m_skipping) {
        m_frame.append(data + segmentStart, size - segmentStart);
    }
    return events;
}

QList<WatchEvent> WatchDecoder::finish()
{
    QList<WatchEvent> events;
    switch (m_state) {
    case State::BetweenFrames:
        break;
    case State::Junk:
        events.append(malformed(u"unexpected bytes between watch events"_s));
        break;
    default:
        if (!m_skipping) {
            events.append(malformed(u"the stream ended inside a watch event (%1 bytes received of it)"_s.arg(m_frame.size())));
        }
        break;
    }
    m_state = State::BetweenFrames;
    m_depth = 0;
    m_skipping = false;
    m_frame.clear();
    return events;
}

qsizetype WatchDecoder::decodeLine(const char *data, qsizetype start, qsizetype size, qsizetype *nextNewline, QList<WatchEvent> *events)
{
    if (!m_linesAreFrames) {
        return -1;
    }
    // Each byte of a piece is searched once: frames without a newline in a large piece would
    // otherwise search the rest of the piece again for each one.
    if (*nextNewline < start) {
        const auto *newline = static_cast<const char *>(std::memchr(data + start, '\n', std::size_t(size - start)));
        *nextNewline = newline ? newline - data : size;
    }
    const qsizetype newline = *nextNewline;
    if (newline == size || newline - start > m_maxFrameSize) {
        return -1; // the frame goes on in the next piece, or is for the scan to skip
    }
    qsizetype end = newline;
    while (end > start && isJsonWhitespace(data[end - 1])) {
        --end;
    }
    bool notJson = false;
    WatchEvent event = decode(QByteArrayView(data + start, end - start), &notJson);
    if (notJson) {
        // Not one JSON object to the end of its line: pretty-printed events, several on a line,
        // or a broken one. The scan decides; this stream is not tried line by line again, so a
        // stream not framed by lines costs one wasted parse, not one per event.
        m_linesAreFrames = false;
        return -1;
    }
    events->append(std::move(event));
    return newline;
}

WatchEvent WatchDecoder::decodeFrame(QByteArrayView frame)
{
    bool notJson = false;
    return decode(frame, &notJson);
}

WatchEvent WatchDecoder::decode(QByteArrayView frame, bool *notJson)
{
    // One parser per thread: simdjson parsers keep their buffers between documents, and
    // every cluster decodes on its own worker thread.
    thread_local simdjson::dom::parser validator;
    thread_local simdjson::ondemand::parser reader;

    const simdjson::padded_string padded(frame.data(), size_t(frame.size()));
    // The DOM pass validates the whole frame (the on-demand reader below only checks what it
    // visits); the on-demand pass then hands out the object's bytes without copying them.
    simdjson::dom::element root;
    if (auto error = validator.parse(padded).get(root)) {
        *notJson = true;
        return malformed(u"watch event is not valid JSON: "_s + QLatin1String(simdjson::error_message(error)));
    }
    simdjson::dom::object top;
    if (root.get_object().get(top)) {
        *notJson = true;
        return malformed(u"watch event is not a JSON object"_s);
    }
    std::string_view type;
    if (top["type"].get_string().get(type)) {
        return malformed(u"watch event has no type"_s);
    }
    WatchEvent event;
    if (type == "ADDED") {
        event.type = WatchEvent::Type::Added;
    } else if (type == "MODIFIED") {
        event.type = WatchEvent::Type::Modified;
    } else if (type == "DELETED") {
        event.type = WatchEvent::Type::Deleted;
    } else if (type == "BOOKMARK") {
        event.type = WatchEvent::Type::Bookmark;
    } else if (type == "ERROR") {
        event.type = WatchEvent::Type::Error;
    } else {
        return malformed(u"watch event has unknown type \"%1\""_s.arg(QString::fromUtf8(type.data(), qsizetype(type.size())).left(40)));
    }
    if (!top["object"].is_object()) {
        return malformed(u"watch event %1 has no object"_s.arg(WatchEvent::typeName(event.type)));
    }

    simdjson::ondemand::document document;
    if (reader.iterate(padded).get(document)) {
        return malformed(u"watch event could not be read"_s);
    }
    simdjson::ondemand::object object;
    std::string_view raw;
    if (document.find_field_unordered("object").get_object().get(object) || object.raw_json().get(raw)) {
        return malformed(u"watch event object could not be read"_s);
    }
    event.object = QByteArray(raw.data(), qsizetype(raw.size()));
    return event;
}

} // namespace Cachescope
