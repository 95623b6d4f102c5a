#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>
#include <variant>

namespace Cachescope {

// ListPage is one decoded page of a list answer: the items' raw JSON in order, the list's
// resourceVersion, the continue token (empty on the last page) and remainingItemCount when the
// server gave one.
struct ListPage
{
    QList<QByteArray> items;
    QString resourceVersion;
    QString continueToken;
    std::optional<qint64> remainingItemCount;
};

// ListDecoder turns the bytes of a list answer (`{"kind":"PodList","metadata":{…},"items":[…]}`),
// in whatever pieces the network delivers them, into the raw JSON of each item as soon as its
// closing brace arrives, so that a list is decoded while it downloads and no complete body (an
// apiserver answers a resourceVersion "0" list whole: 100k pods are ~400 MB) is ever held.
// Only the item being received, the list's `metadata` and a member name are kept; members other
// than `items` and `metadata` are skipped without being buffered. Item boundaries are found by
// bracket depth outside strings; each item is validated later by whoever decodes it
// (KubeObject::fromJson), the list's own structure here.
//
// Failure behaviour: the first structural problem (not a JSON object, items not a list, an item
// that is not an object, an item larger than the limit, bytes after the list, brackets that do
// not match) makes failed() true with a one-line reason; feed() then ignores what follows, and
// finish() returns that reason. finish() also reports a list that ended early or has no items.
// Never throws or crashes on any input.
//
// Cost: linear in the bytes fed, one pass; memory bounded by the largest item plus the list's
// metadata (bufferedBytes()). Not thread-safe; one decoder per list answer.
class ListDecoder
{
public:
    static constexpr qsizetype defaultMaxItemSize = 64 * 1024 * 1024;

    explicit ListDecoder(qsizetype maxItemSize = defaultMaxItemSize);

    // feed() consumes the next bytes and returns the items they complete, in order.
    [[nodiscard]] QList<QByteArray> feed(QByteArrayView bytes);
    // finish() ends the answer: the list's resourceVersion, continue token and remainingItemCount
    // (the page has no items: they came from feed()), or why the answer is not a list.
    [[nodiscard]] std::variant<ListPage, QString> finish();

    [[nodiscard]] bool failed() const { return !m_error.isEmpty(); }
    [[nodiscard]] QString error() const { return m_error; }
    // bufferedBytes() is what the decoder holds now: a partial item, the metadata, a member name.
    [[nodiscard]] qsizetype bufferedBytes() const { return m_item.size() + m_metadata.size() + m_memberName.size(); }
    [[nodiscard]] qint64 bytesConsumed() const { return m_offset; }

    // decode() decodes a whole answer at once (small answers, tests).
    [[nodiscard]] static std::variant<ListPage, QString> decode(QByteArrayView body);

private:
    enum class Member { None, Items, Metadata, Other };
    // What a bracket at the top of the stack opened; the stack holds the list's own levels only
    // while inside an item (items track their depth alone: simdjson validates them later).
    static constexpr qsizetype maxDepth = 1024;

    void fail(const QString &why);
    void onStructural(char c, qsizetype index, const char *data, QList<QByteArray> &items);
    void startValue(char c);

    qsizetype m_maxItemSize;
    QString m_error;
    qint64 m_offset = 0; // bytes consumed before the current feed()
    bool m_started = false; // the list's '{' was seen
    bool m_done = false; // the list's '}' was seen
    bool m_inString = false;
    bool m_escape = false;
    QByteArray m_stack; // open brackets, '{' or '['
    // Depth 1 (the list object): whether a member name is expected, and which member's value is
    // being read.
    bool m_expectName = true;
    bool m_inName = false;
    bool m_valueStarted = false;
    Member m_member = Member::None;
    QByteArray m_memberName;
    bool m_sawItems = false;
    // Capturing: an item (base depth 2) or the metadata (base depth 1); -1 when not capturing.
    qsizetype m_captureBase = -1;
    bool m_capturingItem = false;
    QByteArray m_item;
    QByteArray m_metadata;
};

} // namespace Cachescope
