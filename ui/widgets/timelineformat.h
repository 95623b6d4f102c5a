#pragma once

#include "core/util/clock.h"

#include <QString>

namespace Cachescope {

// formatTimelineDuration() writes a duration for the timeline and its metrics panel with three
// significant digits in the unit that suits it ("850 µs", "12.3 ms", "4.56 s", "2 min 5 s"), with
// the default QLocale's decimal point. SI units are not translated.
[[nodiscard]] QString formatTimelineDuration(Duration d);

} // namespace Cachescope
