#pragma once

#include "core/util/clock.h"

#include <QMetaType>
#include <QString>

namespace Cachescope {

// TimelineSpan is one interval of a key's life in a workqueue, as TimelineModel builds it from
// the queue's event feed. A plain value; `key` shares its text with the feed.
struct TimelineSpan
{
    enum class Kind : quint8 {
        Waiting, // added, waiting for a worker (Added or Requeued until Got)
        Processing, // a worker has it (Got until Done)
        Backoff, // waiting for its delay to pass (RateLimited or AddedAfter until DelayReady)
    };

    quint64 id = 0; // the model's serial number of the span, increasing with its start
    QString key;
    TimePoint start;
    // For an open span (still running) the model reports its own now(); plannedEnd tells when a
    // backoff is due.
    TimePoint end;
    TimePoint plannedEnd; // Backoff: when its delay ends; otherwise equal to end
    Kind kind = Kind::Waiting;
    bool open = false;
    // Processing: the attempt failed (addRateLimited() during processing, or an error noted);
    // Backoff: it is a retry after a failure (RateLimited) rather than a plain addAfter().
    bool failed = false;
    int worker = -1; // Processing: the worker that got the key, -1 when unknown
    // Processing and Waiting: 1 for the first attempt, n+1 after n rate-limited requeues;
    // Backoff: the requeue count the limiter reported.
    int attempt = 1;
    QString error; // Processing: the error noted for this attempt, if any

    [[nodiscard]] Duration duration() const { return end - start; }
};

// TimelineMark is an instant in a key's life that is not a span of its own.
struct TimelineMark
{
    enum class Kind : quint8 {
        Merged, // an add merged into the waiting key (dedup)
        AddedWhileProcessing, // added while a worker had it: it runs again after Done
        Requeued, // Done found it dirty and queued it again
        Forgotten, // the rate limiter forgot it (success, or the last of its retries)
        GivenUp, // forgotten right after a failed attempt: the controller gave up on it
        Rejected, // added after shutdown, ignored
    };

    QString key;
    TimePoint time;
    Kind kind = Kind::Merged;
    int worker = -1; // AddedWhileProcessing, Forgotten, GivenUp: the worker processing it, if any
};

// TimelineLane identifies one row of the timeline: a worker's or a key's.
struct TimelineLane
{
    enum class Mode : quint8 { Worker, Key };

    Mode mode = Mode::Key;
    QString key; // Mode::Key
    int worker = -1; // Mode::Worker; -1 collects processing by workers that gave no id

    friend bool operator==(const TimelineLane &a, const TimelineLane &b)
    {
        return a.mode == b.mode && (a.mode == Mode::Key ? a.key == b.key : a.worker == b.worker);
    }
};

} // namespace Cachescope

Q_DECLARE_METATYPE(Cachescope::TimelineSpan)
