#pragma once

#include <QByteArray>

#include <string_view>

namespace Cachescope {

// StoredJson is the form in which KubeObjectData keeps an object's JSON: the bytes as received
// (minus what the transform cut), except that each member name written `"key":` is replaced by
// the byte KeyMarker and the key's JsonKeyDictionary number as a varint (7 bits a byte, low
// first, high bit = more). Keys are half of a pod's bytes and the same few hundred repeat in every
// object; with them numbered bench_cache's pods of 1,999 bytes are kept in 1,107.
//
// Contract: expand(encode(a, b)) is exactly a followed by b, byte for byte, whatever the input;
// whitespace, escapes and number spellings are kept. encode() numbers a key only where it is
// sure to find one (a string followed directly by ':' where a member name is expected); anything
// else, including text it cannot follow, is kept as it is. Input that holds the marker byte
// itself (never valid JSON, where control characters must be escaped) is not encoded:
// canEncode() is false and the caller keeps the plain bytes.
// Cost: encode() is one pass over the input with one hash lookup per key; expand() is a memchr
// for the marker and a copy per key, 4.1 us for a pod (bench_cache, loaded machine).
namespace StoredJson {

inline constexpr char KeyMarker = '\x01';

[[nodiscard]] bool canEncode(std::string_view text);
// encode() is the stored form of `first` followed by `second` (the text on either side of a
// member the transform cut out; `second` is empty when nothing was cut).
[[nodiscard]] QByteArray encode(std::string_view first, std::string_view second);
// expand() is the JSON that stored holds; jsonSize is its length (the caller keeps it).
[[nodiscard]] QByteArray expand(const QByteArray &stored, qsizetype jsonSize);

} // namespace StoredJson

} // namespace Cachescope
