#pragma once

#include <QMutex>

#include <QtGlobal>

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Cachescope {

// JsonKeyDictionary numbers the object keys (member names) that cached JSON carries, so that
// StoredJson can keep a key as a small number instead of its text: in a pod, keys are half the
// bytes ("terminationMessagePolicy", "lastTransitionTime", ...), and the same few hundred keys
// repeat in every object of a cluster.
//
// Contract: one per process (instance()); a key's number never changes and is never reused, so
// stored objects stay valid for the life of the process and can be expanded on any thread.
// Numbers are handed out to keys of at most MaxKeyBytes bytes while fewer than MaxKeys are known;
// after that, idOf() answers std::nullopt for new keys and StoredJson keeps them as text. The
// bound makes a hostile object (a ConfigMap with a million distinct keys) cost at most ~40 MB
// here, and it cannot make a stored object wrong, only less compact.
// Thread: any. key() takes no lock (entries are written once, before their number is handed out,
// and an object holding the number reaches another thread only through a synchronising handoff);
// idOf() answers the keys a thread has seen from a per-thread table, and takes a mutex only for
// a key that thread meets for the first time.
// Cost: idOf() is one hash lookup for a known key; key() is two array reads.
class JsonKeyDictionary final
{
public:
    static constexpr quint32 MaxKeys = 1U << 18;
    static constexpr std::size_t MaxKeyBytes = 96;

    static JsonKeyDictionary &instance();
    Q_DISABLE_COPY_MOVE(JsonKeyDictionary)

    // idOf() is key's number, given now if key is new and there is room.
    [[nodiscard]] std::optional<quint32> idOf(std::string_view key);
    // key() is the text numbered id; id must have come from idOf().
    [[nodiscard]] std::string_view key(quint32 id) const { return m_blocks[id / BlockKeys].load(std::memory_order_acquire)[id % BlockKeys]; }
    // size() is how many keys are numbered.
    [[nodiscard]] quint32 size() const { return m_size.load(std::memory_order_acquire); }

private:
    JsonKeyDictionary() = default;
    ~JsonKeyDictionary() = default;

    static constexpr quint32 BlockKeys = 4096;
    static constexpr std::size_t ArenaBytes = 64 * 1024;

    struct Hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
    };
    using Table = std::unordered_map<std::string_view, quint32, Hash, std::equal_to<>>;

    std::optional<quint32> add(std::string_view key);

    std::array<std::atomic<std::string_view *>, MaxKeys / BlockKeys> m_blocks{};
    std::atomic<quint32> m_size = 0;
    QMutex m_mutex; // guards m_table, m_arenas and appending to m_blocks
    Table m_table; // the views point into m_arenas' blocks, which are never freed or moved
    std::vector<std::unique_ptr<char[]>> m_arenas; // the keys' bytes
    std::size_t m_arenaLeft = 0; // free bytes at the end of m_arenas.back()
};

} // namespace Cachescope
