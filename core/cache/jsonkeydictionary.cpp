#include "core/cache/jsonkeydictionary_p.h"

#include <QMutexLocker>

#include <cstring>
#include <utility>
#include <vector>

namespace Cachescope {

JsonKeyDictionary &JsonKeyDictionary::instance()
{
    // Never destroyed: objects expanded while the process exits (a thread still printing) must
    // find their keys.
    static JsonKeyDictionary *const dictionary = new JsonKeyDictionary;
    return *dictionary;
}

namespace {

// SeenKeys is a thread's table of the keys it has numbered: open addressing over a power-of-two
// array, hashed from a key's length and its first and last eight bytes. A decode looks up every
// key of every object here (~80 a pod), and std::unordered_map's string hash and prime modulo
// were a tenth of the client's time at 100k pods. Its views point into the dictionary's own
// bytes, which live as long as the process.
class SeenKeys
{
public:
    std::optional<quint32> find(std::string_view key) const
    {
        for (std::size_t at = hash(key) & m_mask;; at = (at + 1) & m_mask) {
            const Slot &slot = m_slots[at];
            if (!slot.data) {
                return std::nullopt;
            }
            if (slot.size == key.size() && std::memcmp(slot.data, key.data(), key.size()) == 0) {
                return slot.id;
            }
        }
    }

    void insert(std::string_view key, quint32 id)
    {
        if ((m_used + 1) * 2 > m_slots.size()) {
            grow();
        }
        place(key, id);
        ++m_used;
    }

private:
    struct Slot
    {
        const char *data = nullptr;
        std::size_t size = 0;
        quint32 id = 0;
    };

    static std::size_t hash(std::string_view key)
    {
        quint64 head = 0;
        quint64 tail = 0;
        if (key.size() >= 8) {
            std::memcpy(&head, key.data(), 8);
            std::memcpy(&tail, key.data() + key.size() - 8, 8);
        } else if (!key.empty()) {
            std::memcpy(&head, key.data(), key.size());
        }
        quint64 h = (head * 0x9E3779B97F4A7C15ULL) ^ (tail * 0xC2B2AE3D27D4EB4FULL) ^ key.size();
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ULL;
        return std::size_t(h ^ (h >> 32));
    }

    void place(std::string_view key, quint32 id)
    {
        std::size_t at = hash(key) & m_mask;
        while (m_slots[at].data) {
            at = (at + 1) & m_mask;
        }
        m_slots[at] = Slot{key.data(), key.size(), id};
    }

    void grow()
    {
        std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(m_slots.size() * 2));
        m_mask = m_slots.size() - 1;
        for (const Slot &slot : old) {
            if (slot.data) {
                place(std::string_view(slot.data, slot.size), slot.id);
            }
        }
    }

    std::vector<Slot> m_slots = std::vector<Slot>(1024);
    std::size_t m_mask = 1023;
    std::size_t m_used = 0;
};

} // namespace

std::optional<quint32> JsonKeyDictionary::idOf(std::string_view key)
{
    if (key.size() > MaxKeyBytes) {
        return std::nullopt;
    }
    thread_local SeenKeys seen;
    if (const std::optional<quint32> id = seen.find(key)) {
        return id;
    }
    const std::optional<quint32> id = add(key);
    if (id) {
        seen.insert(this->key(*id), *id);
    }
    return id;
}

std::optional<quint32> JsonKeyDictionary::add(std::string_view key)
{
    QMutexLocker locker(&m_mutex);
    if (const auto it = m_table.find(key); it != m_table.end()) {
        return it->second;
    }
    const quint32 id = m_size.load(std::memory_order_relaxed);
    if (id >= MaxKeys) {
        return std::nullopt;
    }
    if (m_arenaLeft < key.size()) {
        m_arenas.push_back(std::make_unique<char[]>(ArenaBytes));
        m_arenaLeft = ArenaBytes;
    }
    char *bytes = m_arenas.back().get() + (ArenaBytes - m_arenaLeft);
    if (!key.empty()) {
        std::memcpy(bytes, key.data(), key.size());
    }
    m_arenaLeft -= key.size();
    const std::string_view stored(bytes, key.size());
    std::string_view *block = m_blocks[id / BlockKeys].load(std::memory_order_relaxed);
    if (!block) {
        block = new std::string_view[BlockKeys];
        m_blocks[id / BlockKeys].store(block, std::memory_order_release);
    }
    block[id % BlockKeys] = stored;
    m_table.emplace(stored, id);
    m_size.store(id + 1, std::memory_order_release);
    return id;
}

} // namespace Cachescope
