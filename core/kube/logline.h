#pragma once

#include <QList>
#include <QString>

namespace Cachescope {

// LogLine is one line of a container's log as a view holds it: where it came from (empty in a
// single container's view, "pod/container" in a workload's merged one), the kubelet's RFC 3339
// timestamp (empty when the line has none) and its text. A plain value type; the strings are
// implicitly shared, so a source named once costs one pointer per line, not a copy.
struct LogLine
{
    QString source;
    QString timestamp;
    QString text;

    friend bool operator==(const LogLine &, const LogLine &) = default;
};

using LogLines = QList<LogLine>;

} // namespace Cachescope
