#include "ui/widgets/timelineformat.h"

#include <QLocale>

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString formatTimelineDuration(Duration d)
{
    const QLocale locale;
    const bool negative = d < Duration(0);
    const double ns = std::abs(static_cast<double>(d.count()));
    const QString sign = negative ? u"−"_s : QString();
    const auto number = [&](double value) {
        // Three significant digits, without trailing zeros ("1.5", "12.3", "850").
        const int decimals = value >= 100 ? 0 : (value >= 10 ? 1 : 2);
        QString text = locale.toString(value, 'f', decimals);
        if (decimals > 0) {
            const QString point = locale.decimalPoint();
            while (text.endsWith(u'0')) {
                text.chop(1);
            }
            if (text.endsWith(point)) {
                text.chop(point.size());
            }
        }
        return text;
    };
    if (ns < 1e3) {
        return sign + number(ns) + u" ns"_s;
    }
    if (ns < 1e6) {
        return sign + number(ns / 1e3) + u" µs"_s;
    }
    if (ns < 1e9) {
        return sign + number(ns / 1e6) + u" ms"_s;
    }
    if (ns < 60e9) {
        return sign + number(ns / 1e9) + u" s"_s;
    }
    const qint64 seconds = static_cast<qint64>(ns / 1e9);
    return sign + locale.toString(seconds / 60) + u" min "_s + locale.toString(seconds % 60) + u" s"_s;
}

} // namespace Cachescope
