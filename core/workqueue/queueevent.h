#pragma once

#include "core/util/clock.h"

#include <QLatin1String>
#include <QString>

namespace Cachescope {

// QueueEventType is what happened to a key in a workqueue, as the timeline draws it.
enum class QueueEventType : quint8 {
    Added, // the key was not waiting and is now queued
    AddedWhileProcessing, // the key is being processed: marked dirty, it is queued again at Done
    Merged, // the key was already waiting: this add merged into it (client-go's dedup)
    Got, // a worker took the key (worker says which, -1 when unknown)
    Done, // the worker finished the key
    Requeued, // Done found the key dirty and queued it again
    AddedAfter, // addAfter(): the key waits delay before it is added
    RateLimited, // addRateLimited(): the limiter chose delay; requeues is its count after this failure
    DelayReady, // a delayed key's time came: it is added now (an Added or Merged follows)
    Forgotten, // the rate limiter stopped tracking the key
    Rejected, // an add or addAfter after shutdown, ignored
    ShutDown, // the queue began shutting down (key is empty)
};

// queueEventTypeName() is the enumerator's name ("Added", "RateLimited", …), for logs, the CLI
// and tests; not translated.
[[nodiscard]] QLatin1String queueEventTypeName(QueueEventType type);

// QueueEvent is one entry of a queue's event feed (see QueueEventLog). A plain value.
struct QueueEvent
{
    quint64 sequence = 0; // position in the feed: consecutive, starting at 0
    TimePoint time; // on the queue's clock
    QueueEventType type = QueueEventType::Added;
    QString key;
    int worker = -1;
    Duration delay{0}; // AddedAfter, RateLimited
    int requeues = 0; // RateLimited
};

} // namespace Cachescope
