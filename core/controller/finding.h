#pragma once

#include <QDateTime>
#include <QLatin1String>
#include <QString>

namespace Cachescope {

// FindingSeverity ranks what a controller found about an object.
enum class FindingSeverity : quint8 {
    Info,
    Warning,
    Error,
};

// findingSeverityName() is "Info", "Warning" or "Error": for the CLI, logs and tests; the UI
// translates its own labels.
[[nodiscard]] QLatin1String findingSeverityName(FindingSeverity severity);

// Finding is one problem a process function found in one object: a short machine-readable
// reason (like an Event's reason: "NotReady", "DanglingOwner"), a sentence for people and the
// time it was first seen. A plain value.
struct Finding
{
    FindingSeverity severity = FindingSeverity::Warning;
    QString reason;
    QString message;
    QDateTime time; // when it was first seen (FindingsStore keeps the earliest of repeated findings)

    // sameProblem() ignores the time: a finding seen again on the next pass is the same one.
    [[nodiscard]] bool sameProblem(const Finding &other) const { return severity == other.severity && reason == other.reason && message == other.message; }
};

} // namespace Cachescope
