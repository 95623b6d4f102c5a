#pragma once

#include <QByteArrayView>
#include <QList>

#include <cstddef>
#include <cstdint>

// fuzzSplit() cuts a fuzzer input into the chunks a stream decoder is fed: the first byte seeds
// the chunk lengths (1 to 64 bytes, or the whole rest when it is 0), so every split of the
// same bytes is reachable and the corpus stays plain text after that byte.
inline QList<QByteArrayView> fuzzSplit(const uint8_t *data, size_t size)
{
    QList<QByteArrayView> chunks;
    if (size == 0)
        return chunks;
    uint32_t state = data[0];
    const char *bytes = reinterpret_cast<const char *>(data + 1);
    qsizetype rest = qsizetype(size - 1);
    while (rest > 0) {
        qsizetype length = rest;
        if (state != 0) {
            state = state * 1103515245u + 12345u;
            length = qMin<qsizetype>(rest, 1 + (state >> 16) % 64);
        }
        chunks.append(QByteArrayView(bytes, length));
        bytes += length;
        rest -= length;
    }
    return chunks;
}
