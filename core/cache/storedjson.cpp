#include "core/cache/storedjson_p.h"

#include "core/cache/jsonkeydictionary_p.h"

#include <cstring>
#include <vector>

namespace Cachescope::StoredJson {

namespace {

// Encoder follows just enough of the JSON structure to know where a member name is expected:
// after '{' and after ',' inside an object.
class Encoder
{
public:
    // The stored form is appended to out, which the caller owns.
    explicit Encoder(QByteArray &out)
        : m_out(out)
    {
    }

    void feed(std::string_view text)
    {
        const char *const data = text.data();
        const std::size_t size = text.size();
        std::size_t i = 0;
        while (i < size) {
            // Up to the next string: structure, numbers, literals and whitespace, copied as a run.
            const void *quote = std::memchr(data + i, '"', size - i);
            const std::size_t runEnd = quote ? std::size_t(static_cast<const char *>(quote) - data) : size;
            if (runEnd > i) {
                m_out.append(data + i, qsizetype(runEnd - i));
                for (std::size_t k = i; k < runEnd; ++k) {
                    structural(data[k]);
                }
                i = runEnd;
            }
            if (i == size) {
                return;
            }
            const std::size_t close = closingQuote(data, size, i + 1);
            if (close == std::string_view::npos) {
                // Not JSON we can follow (cannot happen after validation): keep the rest as it is.
                m_out.append(data + i, qsizetype(size - i));
                m_lost = true;
                return;
            }
            if (m_expectKey && !m_lost && close + 1 < size && data[close + 1] == ':') {
                if (const std::optional<quint32> id = m_dictionary.idOf(std::string_view(data + i + 1, close - i - 1))) {
                    m_out.append(KeyMarker);
                    appendVarint(*id);
                    m_expectKey = false;
                    i = close + 2;
                    continue;
                }
            }
            m_out.append(data + i, qsizetype(close + 1 - i));
            m_expectKey = false;
            i = close + 1;
        }
    }

private:
    // closingQuote() is the index of the quote that ends the string whose body starts at from: the
    // first quote not escaped by an odd run of backslashes.
    static std::size_t closingQuote(const char *data, std::size_t size, std::size_t from)
    {
        std::size_t at = from;
        while (at < size) {
            const void *found = std::memchr(data + at, '"', size - at);
            if (!found) {
                return std::string_view::npos;
            }
            const std::size_t quote = std::size_t(static_cast<const char *>(found) - data);
            std::size_t backslashes = 0;
            while (quote - backslashes > from && data[quote - backslashes - 1] == '\\') {
                ++backslashes;
            }
            if (backslashes % 2 == 0) {
                return quote;
            }
            at = quote + 1;
        }
        return std::string_view::npos;
    }

    void structural(char c)
    {
        switch (c) {
        case '{':
            m_objects.push_back(true);
            m_expectKey = true;
            break;
        case '[':
            m_objects.push_back(false);
            m_expectKey = false;
            break;
        case '}':
        case ']':
            if (!m_objects.empty()) {
                m_objects.pop_back();
            }
            m_expectKey = false;
            break;
        case ',':
            m_expectKey = !m_objects.empty() && m_objects.back();
            break;
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            break;
        default:
            m_expectKey = false;
            break;
        }
    }

    void appendVarint(quint32 value)
    {
        while (value >= 0x80) {
            m_out.append(char((value & 0x7f) | 0x80));
            value >>= 7;
        }
        m_out.append(char(value));
    }

    QByteArray &m_out;
    JsonKeyDictionary &m_dictionary = JsonKeyDictionary::instance();
    std::vector<bool> m_objects; // per open container: an object (true) or a list
    bool m_expectKey = false;
    bool m_lost = false;
};

} // namespace

bool canEncode(std::string_view text)
{
    return std::memchr(text.data(), KeyMarker, text.size()) == nullptr;
}

QByteArray encode(std::string_view first, std::string_view second)
{
    // Encoded into a per-thread buffer, then copied at its exact size: a buffer of the input's
    // size per object, freed once squeezed, would interleave short-lived blocks with the cached
    // ones and fragment the heap.
    thread_local QByteArray scratch;
    scratch.resize(0); // keeps the capacity, unlike clear()
    Encoder encoder(scratch);
    encoder.feed(first);
    encoder.feed(second);
    QByteArray stored(scratch.constData(), scratch.size());
    if (scratch.capacity() > 1024 * 1024) {
        scratch = QByteArray(); // a huge object's buffer is not kept for the next
    }
    return stored;
}

QByteArray expand(const QByteArray &stored, qsizetype jsonSize)
{
    const JsonKeyDictionary &dictionary = JsonKeyDictionary::instance();
    // Written in place into a buffer of the known size; should the size be wrong, it grows.
    QByteArray json(jsonSize, Qt::Uninitialized);
    qsizetype written = 0;
    const auto put = [&json, &written](const char *bytes, qsizetype count) {
        if (written + count > json.size()) {
            json.resize(written + count);
        }
        std::memcpy(json.data() + written, bytes, std::size_t(count));
        written += count;
    };
    const char *at = stored.constData();
    const char *const end = at + stored.size();
    while (at < end) {
        const void *found = std::memchr(at, KeyMarker, std::size_t(end - at));
        const char *marker = found ? static_cast<const char *>(found) : end;
        put(at, marker - at);
        if (marker == end) {
            break;
        }
        at = marker + 1;
        quint32 id = 0;
        for (int shift = 0; at < end && shift < 32; shift += 7) {
            const auto byte = quint8(*at++);
            id |= quint32(byte & 0x7f) << shift;
            if (!(byte & 0x80)) {
                break;
            }
        }
        if (id >= dictionary.size()) {
            break; // not a number this process gave out: cannot happen for bytes encode() made
        }
        const std::string_view key = dictionary.key(id);
        put("\"", 1);
        put(key.data(), qsizetype(key.size()));
        put("\":", 2);
    }
    json.resize(written);
    return json;
}

} // namespace Cachescope::StoredJson
