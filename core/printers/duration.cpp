#include "core/printers/duration.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString humanDuration(std::chrono::milliseconds duration)
{
    // Whole seconds truncated toward zero, as Go's int(d.Seconds()): -1.9 s is still "0s".
    const qint64 truncated = duration.count() / 1000;
    if (truncated < -1) {
        return u"<invalid>"_s;
    }
    const qint64 seconds = std::max<qint64>(0, truncated);
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

std::optional<std::chrono::milliseconds> parseDuration(const QString &text)
{
    // At most what a qint64 holds in nanoseconds (292 years), so that the duration converts to
    // any std::chrono unit; a larger one, infinity or NaN is no duration (converting it to an
    // integer would be undefined).
    constexpr double MaxMs = double(std::numeric_limits<qint64>::max() / 1'000'000);
    const auto fits = [](double ms) {
        return std::isfinite(ms) && ms >= 0 && ms <= MaxMs;
    };
    bool isNumber = false;
    const double seconds = text.toDouble(&isNumber);
    if (isNumber) {
        return fits(seconds * 1000) ? std::optional(std::chrono::milliseconds(qint64(seconds * 1000))) : std::nullopt;
    }
    static const QRegularExpression part(u"(\\d+(?:\\.\\d+)?)(ms|s|m|h)"_s);
    double total = 0;
    qsizetype position = 0;
    auto it = part.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        if (match.capturedStart() != position) {
            return std::nullopt;
        }
        position = match.capturedEnd();
        const double value = match.captured(1).toDouble();
        const QString unit = match.captured(2);
        const double factor = unit == u"ms"_s ? 1 : unit == u"s"_s ? 1000 : unit == u"m"_s ? 60000 : 3600000;
        total += std::floor(value * factor);
        if (!fits(total)) {
            return std::nullopt;
        }
    }
    if (position == 0 || position != text.size()) {
        return std::nullopt;
    }
    return std::chrono::milliseconds(qint64(total));
}

} // namespace Cachescope
