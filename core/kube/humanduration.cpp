#include "core/kube/humanduration.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString humanDuration(std::chrono::milliseconds duration)
{
    const qint64 seconds = std::max<qint64>(0, duration.count() / 1000);
    const qint64 minutes = seconds / 60;
    const qint64 hours = minutes / 60;
    const qint64 days = hours / 24;
    if (seconds < 60 * 2) {
        return u"%1s"_s.arg(seconds);
    }
    if (minutes < 10) {
        return seconds % 60 == 0 ? u"%1m"_s.arg(minutes) : u"%1m%2s"_s.arg(minutes).arg(seconds % 60);
    }
    if (minutes < 60 * 3) {
        return u"%1m"_s.arg(minutes);
    }
    if (hours < 8) {
        return minutes % 60 == 0 ? u"%1h"_s.arg(hours) : u"%1h%2m"_s.arg(hours).arg(minutes % 60);
    }
    if (hours < 48) {
        return u"%1h"_s.arg(hours);
    }
    if (hours < 24 * 8) {
        return hours % 24 == 0 ? u"%1d"_s.arg(days) : u"%1d%2h"_s.arg(days).arg(hours % 24);
    }
    if (days < 365 * 2) {
        return u"%1d"_s.arg(days);
    }
    const qint64 years = days / 365;
    if (days < 365 * 8) {
        return days % 365 == 0 ? u"%1y"_s.arg(years) : u"%1y%2d"_s.arg(years).arg(days % 365);
    }
    return u"%1y"_s.arg(years);
}

} // namespace Cachescope
