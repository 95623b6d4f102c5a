#include "core/kube/listdecoder.h"

#include "core/kube/jsonstringscan_p.h"

#include <simdjson.h>

#include <cstring>
#include <string_view>
#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// Member names longer than this are none that the decoder looks for: only a prefix is kept.
constexpr qsizetype maxMemberName = 32;

QString fromUtf8(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace

ListDecoder::ListDecoder(qsizetype maxItemSize)
    : m_maxItemSize(maxItemSize)
{
}

void ListDecoder::fail(const QString &why)
{
    if (m_error.isEmpty()) {
        m_error = why;
    }
    m_item.clear();
    m_item.squeeze();
    m_metadata.clear();
    m_memberName.clear();
    m_captureBase = -1;
}

void ListDecoder::startValue(char c)
{
    // The first byte of a member's value in the list object.
    m_valueStarted = true;
    switch (m_member) {
    case Member::Items:
        m_sawItems = true;
        if (c != '[' && c != 'n') { // "items": null is an empty list from some servers
            fail(u"items is not a list"_s);
        }
        break;
    case Member::Metadata:
        if (c != '{' && c != 'n') {
            fail(u"metadata is not an object"_s);
        }
        break;
    case Member::None:
    case Member::Other:
        break;
    }
}

QList<QByteArray> ListDecoder::feed(QByteArrayView bytes)
{
    QList<QByteArray> items;
    if (failed()) {
        return items;
    }
    const char *data = bytes.data();
    const qsizetype size = bytes.size();
    // Captured bytes are copied in runs: segment is where this call's run began, or -1.
    qsizetype segment = m_captureBase >= 0 ? 0 : -1;

    for (qsizetype i = 0; i < size && !failed(); ++i) {
        char c = data[i];
        if (m_inString) {
            if (m_escape) {
                m_escape = false;
                if (m_inName && m_memberName.size() < maxMemberName) {
                    m_memberName.append(c);
                }
                continue;
            }
            // Most bytes of a list are inside strings: skip to the next quote or backslash.
            const qsizetype end = nextQuoteOrBackslash(data + i, data + size) - data;
            if (m_inName) {
                m_memberName.append(data + i, std::min(end - i, std::max<qsizetype>(0, maxMemberName - m_memberName.size())));
            }
            if (end == size) {
                break;
            }
            i = end;
            c = data[i];
            if (c == '\\') {
                m_escape = true;
                continue;
            }
            m_inString = false;
            if (m_inName) {
                m_inName = false;
                m_member = m_memberName == "items" ? Member::Items : m_memberName == "metadata" ? Member::Metadata : Member::Other;
                m_valueStarted = false;
            }
            continue;
        }

        const qsizetype depth = m_stack.size();
        switch (c) {
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            continue;
        case ':':
        case ',':
            if (!m_started || m_done) {
                fail(m_done ? u"unexpected bytes after the list"_s : u"not a JSON object"_s);
            } else if (depth == 1 && c == ',') {
                m_expectName = true;
                m_member = Member::None;
            }
            continue;
        case '{':
        case '[':
            if (!m_started) {
                if (c != '{') {
                    fail(u"not a JSON object"_s);
                    continue;
                }
                m_started = true;
                m_expectName = true;
            } else if (m_done) {
                fail(u"unexpected bytes after the list"_s);
                continue;
            } else if (depth == 1) {
                if (m_expectName || m_valueStarted) {
                    fail(u"the list is not well-formed JSON at byte %1"_s.arg(m_offset + i));
                    continue;
                }
                startValue(c);
                if (m_member == Member::Metadata && !failed()) {
                    segment = i;
                    m_captureBase = 1;
                    m_capturingItem = false;
                    m_metadata.clear();
                }
            } else if (depth == 2 && m_member == Member::Items && m_captureBase < 0) {
                if (c != '{') {
                    fail(u"an item is not an object"_s);
                    continue;
                }
                segment = i;
                m_captureBase = 2;
                m_capturingItem = true;
            }
            if (m_stack.size() >= maxDepth) {
                fail(u"the list is nested more than %1 levels deep"_s.arg(maxDepth));
                continue;
            }
            m_stack.append(c);
            continue;
        case '}':
        case ']': {
            if (!m_started || m_done) {
                fail(m_done ? u"unexpected bytes after the list"_s : u"not a JSON object"_s);
                continue;
            }
            const char open = m_stack.back();
            if ((open == '{') != (c == '}')) {
                fail(u"the list's brackets do not match at byte %1"_s.arg(m_offset + i));
                continue;
            }
            m_stack.chop(1);
            if (m_captureBase >= 0 && m_stack.size() == m_captureBase) {
                QByteArray &target = m_capturingItem ? m_item : m_metadata;
                target.append(data + segment, i + 1 - segment);
                segment = -1;
                m_captureBase = -1;
                if (m_capturingItem) {
                    if (m_item.size() > m_maxItemSize) {
                        fail(u"an item is larger than the limit of %1 bytes"_s.arg(m_maxItemSize));
                        continue;
                    }
                    items.append(std::exchange(m_item, {}));
                }
            }
            if (m_stack.isEmpty()) {
                m_done = true;
            }
            continue;
        }
        case '"':
            m_inString = true;
            if (!m_started || m_done) {
                fail(m_done ? u"unexpected bytes after the list"_s : u"not a JSON object"_s);
            } else if (depth == 1) {
                if (m_expectName) {
                    m_expectName = false;
                    m_inName = true;
                    m_memberName.clear();
                } else if (!m_valueStarted) {
                    startValue(c);
                }
            } else if (depth == 2 && m_member == Member::Items && m_captureBase < 0) {
                fail(u"an item is not an object"_s);
            }
            continue;
        default:
            // Numbers, true, false, null.
            if (!m_started || m_done) {
                fail(m_done ? u"unexpected bytes after the list"_s : u"not a JSON object"_s);
            } else if (depth == 1 && !m_expectName && !m_valueStarted) {
                startValue(c);
            } else if (depth == 2 && m_member == Member::Items && m_captureBase < 0) {
                fail(u"an item is not an object"_s);
            }
            continue;
        }
    }

    if (!failed() && segment >= 0) {
        QByteArray &target = m_capturingItem ? m_item : m_metadata;
        target.append(data + segment, size - segment);
        if (target.size() > m_maxItemSize) {
            fail(m_capturingItem ? u"an item is larger than the limit of %1 bytes"_s.arg(m_maxItemSize)
                                 : u"the list's metadata is larger than the limit of %1 bytes"_s.arg(m_maxItemSize));
        }
    }
    m_offset += size;
    return items;
}

std::variant<ListPage, QString> ListDecoder::finish()
{
    if (failed()) {
        return m_error;
    }
    if (!m_started) {
        return m_offset == 0 ? u"it is empty"_s : u"not a JSON object"_s;
    }
    if (!m_done) {
        return u"it ended inside the list, %1 bytes into it"_s.arg(m_offset);
    }
    if (!m_sawItems) {
        return u"it has no items"_s;
    }
    ListPage page;
    if (m_metadata.isEmpty()) {
        return page;
    }
    thread_local simdjson::ondemand::parser parser;
    const simdjson::padded_string padded(m_metadata.constData(), size_t(m_metadata.size()));
    simdjson::ondemand::document document;
    simdjson::ondemand::object metadata;
    if (parser.iterate(padded).get(document) || document.get_object().get(metadata)) {
        return u"its metadata is not valid JSON"_s;
    }
    for (auto member : metadata) {
        std::string_view key;
        if (member.unescaped_key().get(key)) {
            return u"its metadata is not valid JSON"_s;
        }
        std::string_view text;
        if (key == "resourceVersion" && !member.value().get_string().get(text)) {
            page.resourceVersion = fromUtf8(text);
        } else if (key == "continue" && !member.value().get_string().get(text)) {
            page.continueToken = fromUtf8(text);
        } else if (key == "remainingItemCount") {
            int64_t remaining = 0;
            if (!member.value().get_int64().get(remaining)) {
                page.remainingItemCount = remaining;
            }
        }
    }
    return page;
}

std::variant<ListPage, QString> ListDecoder::decode(QByteArrayView body)
{
    ListDecoder decoder;
    QList<QByteArray> items = decoder.feed(body);
    auto result = decoder.finish();
    if (auto *page = std::get_if<ListPage>(&result)) {
        page->items = std::move(items);
    }
    return result;
}

} // namespace Cachescope
