// fuzz_timetext: the parsers of times and durations that read what users and servers write:
// parseDuration() (--at +OFFSET, --for, --timeout, a controller's parameters) and the RFC 3339
// parser (every object's timestamps, --at TIME). A duration is never negative nor longer than a
// qint64 of nanoseconds and prints; a parsed timestamp is the same instant as a QDateTime and,
// printed to the second and read again, the same second.
#include "core/printers/duration.h"
#include "core/util/rfc3339.h"

#include <chrono>
#include <cstdlib>
#include <limits>
#include <string_view>

using namespace Cachescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    const QString text = QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));

    if (const auto duration = parseDuration(text)) {
        if (duration->count() < 0 || duration->count() > std::numeric_limits<qint64>::max() / 1'000'000)
            std::abort();
        (void)durationText(std::chrono::duration_cast<std::chrono::nanoseconds>(*duration));
    }

    const auto msecs = msecsSinceEpochFromRfc3339(bytes);
    const QDateTime instant = dateTimeFromRfc3339(text);
    // The two forms agree where the bytes are the text (valid UTF-8 round-trips).
    if (text.toUtf8() == QByteArray(bytes.data(), qsizetype(bytes.size()))) {
        if (msecs.has_value() != instant.isValid())
            std::abort();
        if (msecs && *msecs != instant.toMSecsSinceEpoch())
            std::abort();
    }
    if (msecs && *msecs >= 0 && *msecs / 1000 <= 253402300799) { // years 1970 to 9999
        const QByteArray printed = rfc3339FromSecsSinceEpoch(*msecs / 1000).toLatin1();
        const auto again = msecsSinceEpochFromRfc3339(std::string_view(printed.constData(), size_t(printed.size())));
        if (!again || *again != (*msecs / 1000) * 1000)
            std::abort();
    }
    return 0;
}
