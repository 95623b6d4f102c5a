#pragma once

#include "core/kube/logline.h"

#include <QHash>
#include <QStringList>

#include <chrono>
#include <vector>

namespace Cachescope {

// LogMerger puts the lines of several logs (a workload's pods and containers, one LogFollower
// each, every line with the kubelet's timestamp) into one stream in time order, as stern shows
// them. Lines arrive in per-source batches, each source in its own order; the merger holds them
// in a small reorder window and releases them, sorted by timestamp (equal times in the order
// they arrived), with take():
// - a line is released once every source has delivered a line at or after its time (nothing
//   earlier can come from them: each log is in order), or once it has waited window() (a quiet
//   source holds nothing back longer than that);
// - what take() releases is in time order with everything released before, except a *late*
//   line: one that reached the merger more than window() after a line with a later time had
//   reached it (a stream that stalled or reconnected, a pod followed late with a past of its own),
//   or that comes from a source joined after later lines were released. A late line is released
//   at once, where it arrived, and counted in lateCount(); lines are never reordered after
//   release, as the view's ring is append-only.
// A source that joins (addSource(), or its first append()) holds every line back until it
// delivers its first lines or the window passes; one that leaves (removeSource(): its pod is
// gone) holds nothing back any more, and its pending lines are still released in order.
//
// Memory: at most bound() pending lines (the view's ring size). Past it the oldest pending lines
// are released early, ahead of the window (the next take() returns them first, in order): held
// back they would only push newer lines out; dropped, they would leave a hole in their source's
// lines between what the ring holds and what comes next. Of more than bound() lines released
// early, the oldest are dropped and counted in droppedCount(), as the ring would drop them.
// So at most twice bound() lines wait between two take()s. Cost: append() is linear in the
// pending lines (a merge), take() too.
// Time is the caller's monotonic clock in milliseconds (tests pass their own).
// A plain class, not thread-safe: its owner's thread.
class LogMerger final
{
public:
    static constexpr std::chrono::milliseconds DefaultWindow{500};
    static constexpr qsizetype DefaultBound = 10000;

    explicit LogMerger(std::chrono::milliseconds window = DefaultWindow, qsizetype bound = DefaultBound);

    [[nodiscard]] std::chrono::milliseconds window() const { return m_window; }
    void setWindow(std::chrono::milliseconds window) { m_window = window; }
    [[nodiscard]] qsizetype bound() const { return m_bound; }
    // setBound() releases the oldest pending lines beyond the new bound early (at least 1).
    void setBound(qsizetype bound);

    void addSource(const QString &source);
    void removeSource(const QString &source);
    [[nodiscard]] bool hasSource(const QString &source) const { return m_sources.contains(source); }
    [[nodiscard]] qsizetype sourceCount() const { return m_sources.size(); }

    // append() takes a batch of one source's lines as LogFollower delivers them ("TIMESTAMP
    // TEXT"), arrived at nowMs. A line without a timestamp sorts with its source's line before.
    void append(const QString &source, const QStringList &lines, qint64 nowMs);
    // take() releases the lines that are due at nowMs, in time order.
    [[nodiscard]] LogLines take(qint64 nowMs);
    // takeAll() releases every pending line in time order (the view stops following).
    [[nodiscard]] LogLines takeAll();
    // nextDueMs() is when the oldest pending line has waited the window (0: lines released early
    // wait; -1: none pending), so a timer need not tick while nothing waits.
    [[nodiscard]] qint64 nextDueMs() const;

    // pendingCount() is how many lines wait in the window; earlyCount() how many were released
    // early and wait for take().
    [[nodiscard]] qsizetype pendingCount() const { return qsizetype(m_pending.size()); }
    [[nodiscard]] qsizetype earlyCount() const { return m_early.size(); }
    [[nodiscard]] qint64 droppedCount() const { return m_dropped; }
    [[nodiscard]] qint64 lateCount() const { return m_late; }
    // clear() forgets the sources, pending lines and counts.
    void clear();

private:
    struct Pending
    {
        LogLine line;
        qint64 arrivedMs = 0;
        quint64 sequence = 0; // arrival order, for equal times
    };
    struct Source
    {
        QString newest; // the time of its newest line
        bool delivered = false;
    };

    LogLines release(qsizetype count);
    void moveOut(qsizetype count, LogLines &into);
    void enforceBound();

    std::chrono::milliseconds m_window;
    qsizetype m_bound;
    std::vector<Pending> m_pending; // sorted by (timestamp, sequence)
    LogLines m_early; // released early (past the bound), for the next take()
    QHash<QString, Source> m_sources;
    QString m_newestReleased;
    quint64 m_sequence = 0;
    qint64 m_dropped = 0;
    qint64 m_late = 0;
};

} // namespace Cachescope
