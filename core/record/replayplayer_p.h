#pragma once

#include "core/cache/listerwatcher.h"
#include "core/record/recordedcache.h"
#include "core/record/recordedinput.h"

#include <QElapsedTimer>

#include <atomic>
#include <functional>

namespace Cachescope {

// ReplayPlayer is the cursor a ReplayListerWatcher and its watch sessions share: the inputs in
// order, the next one to hand over, the state handed over so far, and the replay clock that
// says when an input is due (its recorded offset from the first, divided by the speed).
// Shared (std::shared_ptr) so a session may outlive the ListerWatcher. One thread.
class ReplayPlayer
{
public:
    QList<RecordedInput> inputs;
    qsizetype next = 0;
    RecordedCache cache;
    bool syntheticFirstList = false; // a start instant: the first list answers with `cache`
    qint64 stopSeq = -1;
    double speed = 1.0;
    std::atomic<qint64> position{0};
    std::atomic<bool> finished{false};
    std::function<void()> finishedCallback;

    // peek() is the next input, or null at the end or past stopSeq.
    const RecordedInput *peek() const;
    // consume() hands the next input over: applied to the cache, position advanced.
    const RecordedInput &consume();
    // dueInMs() is how long until `input` is due (0: now).
    qint64 dueInMs(const RecordedInput &input);
    // checkFinished() reports the end once, when nothing is left to hand over.
    void checkFinished();
    // syntheticPage() is the state handed over so far, as one page.
    ObjectListPage syntheticPage() const;

private:
    QElapsedTimer m_clock;
    qint64 m_baseMonoNs = 0;
};

} // namespace Cachescope
