#pragma once

#include <QDateTime>
#include <QStringView>

#include <optional>
#include <string_view>

namespace Cachescope {

// RFC 3339 timestamps as Kubernetes writes them (Go's time.RFC3339 and RFC3339Micro, as
// metav1.Time and metav1.MicroTime marshal): the one parser of timestamps for the cache, the
// printers, the simulator and the exec credential plugin.
//
// Accepted, as Go's time.Parse accepts them: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of one
// or more digits after a dot or a comma (`.123`, `.123456`), then `Z` or an offset `+HH:MM` /
// `-HH:MM`; month days and leap years are checked, hour 24 and leap seconds are not times.
// Everything else is malformed, though Qt's ISO parser, used here before, took some of it: a
// missing zone (Qt read local time), a date alone, lowercase `t`/`z`, a space for `T`, offsets
// without a colon, surrounding whitespace. Precision is the millisecond; further fraction digits
// are truncated as Go's UnixMilli() truncates (Qt rounded: `.9996` was the next second).
// Thread-safe, no allocation, no QDateTime::fromString() (an order of magnitude slower): every
// decoded object carries timestamps.

// msecsSinceEpochFromRfc3339() is the instant as milliseconds since the Unix epoch, or nothing
// when the text is malformed.
[[nodiscard]] std::optional<qint64> msecsSinceEpochFromRfc3339(std::string_view text);

// dateTimeFromRfc3339() is the instant as a UTC QDateTime, invalid when the text is malformed.
[[nodiscard]] QDateTime dateTimeFromRfc3339(QStringView text);

// rfc3339FromSecsSinceEpoch() writes an instant as `YYYY-MM-DDTHH:MM:SSZ`, the form Kubernetes
// writes metav1.Time in: the same text as QDateTime::toString(Qt::ISODate) of the UTC instant
// (years 0 to 9999), without Qt's calendar and formatting code, which was an eighth of the
// simulator's time populating a million pods (every pod carries several timestamps).
[[nodiscard]] QString rfc3339FromSecsSinceEpoch(qint64 secs);

} // namespace Cachescope
