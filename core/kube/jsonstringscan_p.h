#pragma once

#include <cstring>

namespace Cachescope {

// nextQuoteOrBackslash() is where the body of a JSON string that starts at `from` stops being
// plain text: the first '"' or '\\' before `end`, or `end`. The framing decoders (WatchDecoder,
// ListDecoder) spend most of their bytes inside strings, and two memchr() scans are several times
// faster than a byte-at-a-time state machine there.
inline const char *nextQuoteOrBackslash(const char *from, const char *end)
{
    const auto *quote = static_cast<const char *>(std::memchr(from, '"', std::size_t(end - from)));
    const char *limit = quote ? quote : end;
    const auto *backslash = static_cast<const char *>(std::memchr(from, '\\', std::size_t(limit - from)));
    return backslash ? backslash : limit;
}

} // namespace Cachescope
