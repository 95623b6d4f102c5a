#pragma once

#include <QString>

#include <chrono>

namespace Cachescope {

// durationText() writes a duration the way kubectl writes ages, to the precision a reader of a
// finding or a metric needs: "850ms", "42s", "7m3s", "2h5m", "3d4h". Negative durations are
// written as zero.
[[nodiscard]] QString durationText(std::chrono::nanoseconds duration);

} // namespace Cachescope
