#pragma once

#include "core/controller/finding.h"

#include <QList>
#include <QString>

#include <utility>

namespace Cachescope {

// ProcessResult is what a ProcessFunction returns for one key: success, possibly with findings
// about the object (an empty list means the object is fine and clears its earlier findings), or
// an error. A retryable error sends the key back through the rate limiter until the
// controller's maxRetries; a non-retryable one drops the key at once (client-go controllers do
// the same with errors that waiting cannot fix, e.g. a malformed key). A plain value.
struct ProcessResult
{
    enum class Outcome : quint8 {
        Ok,
        Error,
    };

    Outcome outcome = Outcome::Ok;
    QString message; // the error, for Error
    bool retryable = true; // for Error
    QList<Finding> findings; // for Ok

    [[nodiscard]] static ProcessResult ok(QList<Finding> findings = {})
    {
        ProcessResult result;
        result.findings = std::move(findings);
        return result;
    }
    [[nodiscard]] static ProcessResult error(QString message, bool retryable = true)
    {
        ProcessResult result;
        result.outcome = Outcome::Error;
        result.message = std::move(message);
        result.retryable = retryable;
        return result;
    }

    [[nodiscard]] bool isError() const { return outcome == Outcome::Error; }
};

} // namespace Cachescope
