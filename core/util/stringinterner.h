#pragma once

#include <QString>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace Cachescope {

// StringInterner shares one QString between the many objects that carry the same
// low-cardinality text (kinds, apiVersions, namespaces, label keys and values, node names,
// phases): 100k pods in a few namespaces should not hold 100k copies of "default".
//
// Contract: forThread() is the calling thread's interner, created on first use and destroyed
// when the thread ends; it must not be handed to another thread. Interners of different threads
// share nothing, so interning takes no lock: decoding runs on each cluster's worker thread, and a
// shared table would put a lock on the hottest path of the cache. The QStrings it returns are
// ordinary implicitly shared values that outlive the interner and may cross threads freely.
// Cost: intern() is one hash of the UTF-8 text and a lookup; a miss adds a QString and a
// std::string. The table is bounded by capacity() entries and starts over when full, because
// high-cardinality text (names, uids) would otherwise grow it forever; callers should still
// intern only text that repeats.
class StringInterner final
{
public:
    StringInterner() = default;
    Q_DISABLE_COPY_MOVE(StringInterner)

    static StringInterner &forThread();

    // intern() is text (UTF-8) as a QString, the same QString data as for every earlier call with
    // equal text since the table last started over.
    [[nodiscard]] QString intern(std::string_view text);

    [[nodiscard]] std::size_t size() const { return m_strings.size(); }
    [[nodiscard]] static constexpr std::size_t capacity() { return 8192; }

private:
    struct Hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, QString, Hash, std::equal_to<>> m_strings;
};

} // namespace Cachescope
