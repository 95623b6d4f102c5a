#pragma once

#include <QString>

#include <chrono>
#include <optional>

namespace Cachescope {

// Durations as Cachescope writes and reads them: the one home of every duration format but the
// timeline's (ui/widgets/timelineformat, three significant digits in SI units for a plot).

// humanDuration() renders an age as kubectl does (apimachinery's HumanDuration): "45s",
// "3m20s", "42m", "5h12m", "20h", "3d4h", "200d", "2y45d". Up to a second in the future (clock
// skew between machines) renders as "0s", further as "<invalid>", as kubectl prints it.
[[nodiscard]] QString humanDuration(std::chrono::milliseconds duration);

// durationText() writes a duration the way kubectl writes ages, to the precision a reader of a
// finding or a metric needs: "850ms", "42s", "7m3s", "2h5m", "3d4h". Negative durations are
// written as zero.
[[nodiscard]] QString durationText(std::chrono::nanoseconds duration);

// parseDuration() reads a Go-style duration: "500ms", "30s", "5m", "1h", "1m30s"; a bare number
// is seconds. Returns nothing for anything else (a negative value, or one longer than 292 years,
// what a qint64 holds in nanoseconds).
[[nodiscard]] std::optional<std::chrono::milliseconds> parseDuration(const QString &text);

} // namespace Cachescope
