#pragma once

#include <QString>

#include <chrono>

namespace Cachescope {

// humanDuration() renders an age as kubectl does (apimachinery's HumanDuration): "45s",
// "3m20s", "42m", "5h12m", "20h", "3d4h", "200d", "2y45d". Negative durations (clock skew)
// render as "0s".
QString humanDuration(std::chrono::milliseconds duration);

} // namespace Cachescope
