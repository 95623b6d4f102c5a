#include "core/util/rfc3339.h"

#include <QVarLengthArray>

#include <array>

namespace Cachescope {

namespace {

// digits() is the value of count ASCII digits at text[pos], or -1 if one of them is not a digit.
int digits(std::string_view text, std::size_t pos, std::size_t count)
{
    int value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9') {
            return -1;
        }
        value = value * 10 + (c - '0');
    }
    return value;
}

bool isLeapYear(int year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int daysInMonth(int year, int month)
{
    static constexpr std::array<int, 12> Days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeapYear(year) ? 29 : Days[std::size_t(month - 1)];
}

// daysFromCivil() counts days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
// days_from_civil): plain arithmetic instead of QDate, which keeps the parser off Qt's
// calendar code on the decode path of every object.
qint64 daysFromCivil(int year, int month, int day)
{
    year -= month <= 2 ? 1 : 0;
    const int era = (year >= 0 ? year : year - 399) / 400;
    const int yearOfEra = year - era * 400;
    const int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return qint64(era) * 146097 + dayOfEra - 719468;
}

// civilFromDays() is the inverse of daysFromCivil() (Hinnant's civil_from_days).
void civilFromDays(qint64 days, int *year, int *month, int *day)
{
    days += 719468;
    const qint64 era = (days >= 0 ? days : days - 146096) / 146097;
    const qint64 dayOfEra = days - era * 146097;
    const qint64 yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    const qint64 dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const qint64 monthIndex = (5 * dayOfYear + 2) / 153;
    *day = int(dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    *month = int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    *year = int(yearOfEra + era * 400 + (*month <= 2 ? 1 : 0));
}

} // namespace

std::optional<qint64> msecsSinceEpochFromRfc3339(std::string_view text)
{
    // The fixed part: `YYYY-MM-DDTHH:MM:SS` and at least a one-byte zone.
    if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':') {
        return std::nullopt;
    }
    const int year = digits(text, 0, 4);
    const int month = digits(text, 5, 2);
    const int day = digits(text, 8, 2);
    const int hour = digits(text, 11, 2);
    const int minute = digits(text, 14, 2);
    const int second = digits(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 ||
        second > 59) {
        return std::nullopt;
    }

    std::size_t pos = 19;
    int millis = 0;
    // Go reads a comma as the decimal mark too (time.Parse, since Go 1.17), and so did Qt's parser.
    if (text[pos] == '.' || text[pos] == ',') {
        const std::size_t first = ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            if (pos - first < 3) {
                millis = millis * 10 + (text[pos] - '0');
            }
            ++pos;
        }
        if (pos == first) {
            return std::nullopt;
        }
        for (std::size_t scale = pos - first; scale < 3; ++scale) {
            millis *= 10;
        }
    }

    int offsetMinutes = 0;
    if (pos + 1 == text.size() && text[pos] == 'Z') {
        // UTC.
    } else if (pos + 6 == text.size() && (text[pos] == '+' || text[pos] == '-') && text[pos + 3] == ':') {
        const int offsetHour = digits(text, pos + 1, 2);
        const int offsetMinute = digits(text, pos + 4, 2);
        if (offsetHour < 0 || offsetHour > 23 || offsetMinute < 0 || offsetMinute > 59) {
            return std::nullopt;
        }
        offsetMinutes = (offsetHour * 60 + offsetMinute) * (text[pos] == '-' ? -1 : 1);
    } else {
        return std::nullopt;
    }

    const qint64 seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - qint64(offsetMinutes) * 60;
    return seconds * 1000 + millis;
}

QDateTime dateTimeFromRfc3339(QStringView text)
{
    // A timestamp is ASCII and short: a buffer on the stack, no allocation.
    QVarLengthArray<char, 64> ascii(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c > 0x7f) {
            return {};
        }
        ascii[i] = char(c);
    }
    const std::optional<qint64> msecs = msecsSinceEpochFromRfc3339(std::string_view(ascii.constData(), std::size_t(ascii.size())));
    return msecs ? QDateTime::fromMSecsSinceEpoch(*msecs, Qt::UTC) : QDateTime();
}

QString rfc3339FromSecsSinceEpoch(qint64 secs)
{
    const qint64 days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    const qint64 secondOfDay = secs - days * 86400;
    int year = 0;
    int month = 0;
    int day = 0;
    civilFromDays(days, &year, &month, &day);
    const int fields[] = {year / 100, year % 100, month, day, int(secondOfDay / 3600), int(secondOfDay / 60 % 60), int(secondOfDay % 60)};
    // YYYY-MM-DDTHH:MM:SSZ: two digits per field, the separator after each.
    static constexpr char16_t Separators[] = {0, u'-', u'-', u'T', u':', u':', u'Z'};
    QString text(20, Qt::Uninitialized);
    char16_t *out = reinterpret_cast<char16_t *>(text.data());
    for (std::size_t i = 0; i < std::size(fields); ++i) {
        *out++ = char16_t(u'0' + fields[i] / 10);
        *out++ = char16_t(u'0' + fields[i] % 10);
        if (Separators[i])
            *out++ = Separators[i];
    }
    return text;
}

} // namespace Cachescope
