#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace Cachescope {

// ChunkedVector is an array indexed like a vector whose elements never move: it holds them in
// chunks of 2^ChunkBits, and grows by adding chunks. A std::vector that grows by doubling moves
// every element into fresh memory at each doubling; for a million elements of a hundred bytes
// that is a hundred megabytes copied and as many fresh pages faulted in at once, a pause of
// hundreds of milliseconds on whichever call made it grow.
//
// Contract: resize() default-constructs the elements it adds and resets those it drops to a
// default element (their chunk is freed once it holds none in use); references stay valid
// until the element is dropped.
// Thread: none of its own; distinct elements may be written from distinct threads.
// Cost: operator[] is a shift, a mask and two loads; resize() is O(elements added or dropped).
template<typename T, int ChunkBits = 12>
class ChunkedVector
{
public:
    static constexpr std::size_t ChunkSize = std::size_t(1) << ChunkBits;

    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }

    T &operator[](std::size_t i) { return m_chunks[i >> ChunkBits][i & (ChunkSize - 1)]; }
    const T &operator[](std::size_t i) const { return m_chunks[i >> ChunkBits][i & (ChunkSize - 1)]; }

    void resize(std::size_t size)
    {
        for (std::size_t i = size; i < m_size; ++i) {
            (*this)[i] = T();
        }
        const std::size_t chunks = (size + ChunkSize - 1) >> ChunkBits;
        if (chunks < m_chunks.size()) {
            m_chunks.resize(chunks);
        }
        while (m_chunks.size() < chunks) {
            m_chunks.push_back(std::make_unique<T[]>(ChunkSize));
        }
        m_size = size;
    }

    // clear() drops every element and frees every chunk.
    void clear()
    {
        m_chunks.clear();
        m_chunks.shrink_to_fit();
        m_size = 0;
    }

private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    std::size_t m_size = 0;
};

} // namespace Cachescope
