#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace Cachescope {

// ValueInterner shares one implicitly shared value (a QList of labels, of owner references)
// between the many objects whose value is the same: the pods of one ReplicaSet carry equal labels
// and equal owner references, and 100k pods should not hold 100k copies of either. It is
// StringInterner for composite values: the caller describes the value as bytes (its encoded
// parts, each ended by a separator that the parts cannot contain) and makes the value only when
// that description is new.
//
// Contract: forThread() is the calling thread's interner for T, created on first use and
// destroyed when the thread ends; like StringInterner it takes no lock and must not be handed to
// another thread. The values it returns are ordinary copies that outlive it and may cross threads.
// Cost: intern() is one hash of the description and a lookup; a miss adds a std::string and a
// T. The table is bounded by capacity() entries and starts over when full (no bookkeeping per
// hit; the values that repeat are back after one decode each).
template<typename T>
class ValueInterner final
{
public:
    ValueInterner() = default;
    ValueInterner(const ValueInterner &) = delete;
    ValueInterner &operator=(const ValueInterner &) = delete;

    static ValueInterner &forThread()
    {
        thread_local ValueInterner instance;
        return instance;
    }

    // intern() is the value described by description: the one made earlier for equal bytes since
    // the table last started over, or make() now.
    template<typename Make>
    [[nodiscard]] T intern(std::string_view description, Make &&make)
    {
        if (auto it = m_values.find(description); it != m_values.end()) {
            return it->second;
        }
        if (m_values.size() >= capacity()) {
            m_values.clear();
        }
        T value = std::forward<Make>(make)();
        m_values.emplace(std::string(description), value);
        return value;
    }

    [[nodiscard]] std::size_t size() const { return m_values.size(); }
    [[nodiscard]] static constexpr std::size_t capacity() { return 8192; }

private:
    struct Hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, T, Hash, std::equal_to<>> m_values;
};

} // namespace Cachescope
