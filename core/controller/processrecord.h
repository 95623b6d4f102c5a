#pragma once

#include "core/util/clock.h"

#include <QLatin1String>
#include <QString>

namespace Cachescope {

// ProcessOutcome is how one attempt at a key ended, and what the controller did with the key.
enum class ProcessOutcome : quint8 {
    Succeeded, // ok (with or without findings): forgotten
    Retrying, // retryable error below maxRetries: addRateLimited()
    GaveUp, // retryable error at maxRetries: forgotten, given up
    Dropped, // non-retryable error: forgotten at once
};

// processOutcomeName() is the enumerator's name, for the CLI, logs and tests; not translated.
[[nodiscard]] QLatin1String processOutcomeName(ProcessOutcome outcome);

// ProcessRecord is one attempt of a controller's worker at one key: what the workqueue's event
// feed cannot say (the attempt number, the error message, the findings). Times are on the
// queue's clock, so a timeline can lay records over the queue's Got and Done events.
// A plain value.
struct ProcessRecord
{
    quint64 sequence = 0; // position in the ProcessLog, consecutive from 0
    QString key;
    int worker = -1;
    int attempt = 0; // failures of the key before this attempt
    TimePoint started;
    TimePoint finished;
    ProcessOutcome outcome = ProcessOutcome::Succeeded;
    QString message; // the error, when it failed
    int findings = 0; // findings reported, when it succeeded
};

} // namespace Cachescope
