#include "core/controller/durationtext.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString durationText(std::chrono::nanoseconds duration)
{
    using namespace std::chrono;
    if (duration.count() < 0) {
        duration = nanoseconds(0);
    }
    if (duration < microseconds(1)) {
        return u"%1ns"_s.arg(duration.count());
    }
    if (duration < milliseconds(1)) {
        return u"%1µs"_s.arg(duration_cast<microseconds>(duration).count());
    }
    if (duration < seconds(1)) {
        return u"%1ms"_s.arg(duration_cast<milliseconds>(duration).count());
    }
    if (duration < seconds(10)) {
        // Sub-second precision matters for backoffs and work durations of a few seconds.
        return u"%1s"_s.arg(double(duration_cast<milliseconds>(duration).count()) / 1000.0, 0, 'f', 2);
    }
    const qint64 total = duration_cast<seconds>(duration).count();
    const qint64 days = total / 86400;
    const qint64 hours = total % 86400 / 3600;
    const qint64 minutes = total % 3600 / 60;
    const qint64 secs = total % 60;
    if (days > 0) {
        return hours > 0 ? u"%1d%2h"_s.arg(days).arg(hours) : u"%1d"_s.arg(days);
    }
    if (hours > 0) {
        return minutes > 0 ? u"%1h%2m"_s.arg(hours).arg(minutes) : u"%1h"_s.arg(hours);
    }
    if (minutes > 0) {
        return secs > 0 ? u"%1m%2s"_s.arg(minutes).arg(secs) : u"%1m"_s.arg(minutes);
    }
    return u"%1s"_s.arg(secs);
}

} // namespace Cachescope
