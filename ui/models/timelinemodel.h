#pragma once

#include "core/workqueue/queueevent.h"
#include "ui/models/timelinemetrics.h"
#include "ui/models/timelinespan.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace Cachescope {

class Queue;

// TimelineModel turns a workqueue's event feed (QueueEventLog) into the spans and marks the
// timeline draws: per key, waiting in the queue (Added/Requeued → Got), processing (Got → Done,
// with the worker), waiting in backoff (RateLimited/AddedAfter → DelayReady), and marks for
// merged adds, adds during processing, requeues, forgets and give-ups; per worker, the
// processing spans. It also samples the queue's metrics for the panel under the timeline.
//
// Feeding: setQueue() polls the queue's feed on a timer (since(last), ~30 times a second:
// as often as a frame is worth drawing, while the feed's ring holds ~16 s at 1k events/s);
// ingest() takes events directly (tests, recordings). changed() follows each batch.
// Thread: GUI thread (or whichever thread owns it); the queue is read through its thread-safe
// feed and metrics(), never locked by the model for longer than a copy.
// Ownership: the queue is not owned and must outlive the model or be detached (setQueue(nullptr)).
// Memory: bounded. Spans and marks live in rings (spanCapacity, markCapacity); the oldest are
// dropped first. Key lanes that no longer hold a live span are swept away.
// Time: events are kept in feed order; an event whose time is earlier than its predecessor's
// (two threads reading the clock just before taking the queue's lock) is moved to that time, so
// spans never run backwards.
// Cost: ingest is O(1) amortised per event; spansIn()/visitSpans() are O(log n + k) for k spans
// returned, because the spans of one kind in one lane never overlap and are kept in start order;
// lanes(Key) sorts the keys by last activity (O(n log n)), cached until the next change.
class TimelineModel final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineModel)

public:
    using LaneMode = TimelineLane::Mode;

    static constexpr qsizetype DefaultSpanCapacity = 200000;
    static constexpr qsizetype DefaultMarkCapacity = 100000;
    static constexpr qsizetype DefaultMaxKeyLanes = 10000;
    // The window of the rolling quantiles in metrics().
    static constexpr Duration RecentWindow = std::chrono::seconds(10);

    explicit TimelineModel(QObject *parent = nullptr, qsizetype spanCapacity = DefaultSpanCapacity, qsizetype markCapacity = DefaultMarkCapacity);
    ~TimelineModel() override;

    // setQueue() starts reading queue's feed from its current end (history already in its ring
    // is read too) and polling it; nullptr stops. Spans already built stay.
    void setQueue(Queue *queue);
    [[nodiscard]] Queue *queue() const { return m_queue; }
    // The polling interval; 0 stops the timer (tests call poll() themselves).
    void setPollInterval(std::chrono::milliseconds interval);

    // poll() drains the queue's feed, samples its metrics and emits changed().
    void poll();
    // ingest() builds spans from events in feed order (their sequence numbers are not checked).
    void ingest(const QList<QueueEvent> &events);
    // noteError() attaches error to the key's running (or else latest) processing span and
    // marks it failed; a controller that knows why an attempt failed calls it.
    void noteError(const QString &key, const QString &error);
    void clear();

    // workerCount: worker lanes 0 .. n-1 exist even while idle.
    void setWorkerCount(int workers);
    [[nodiscard]] int workerCount() const { return m_workerCount; }
    // At most this many key lanes, the most recently active first.
    void setMaxKeyLanes(qsizetype lanes);

    // now() is the latest time the model knows: the queue's clock at the last poll, or the
    // latest event ingested. Open spans end here.
    [[nodiscard]] TimePoint now() const { return m_now; }
    // The start of the oldest span still kept (now() when there is none).
    [[nodiscard]] TimePoint oldest() const;

    [[nodiscard]] QList<TimelineLane> lanes(LaneMode mode) const;
    // Spans of lane intersecting [t0, t1], in start order per kind (waiting, processing, backoff).
    [[nodiscard]] QList<TimelineSpan> spansIn(const TimelineLane &lane, TimePoint t0, TimePoint t1) const;
    // The same without building a list, for the painter. The span passed is valid only during the call.
    void visitSpans(const TimelineLane &lane, TimePoint t0, TimePoint t1, const std::function<void(const TimelineSpan &)> &visit) const;
    [[nodiscard]] QList<TimelineMark> marksIn(const TimelineLane &lane, TimePoint t0, TimePoint t1) const;
    // The span of lane under time t, or else the nearest within slop (a span thinner than a
    // pixel); where kinds overlap, processing wins over backoff over waiting. For hover and clicks.
    [[nodiscard]] std::optional<TimelineSpan> spanAt(const TimelineLane &lane, TimePoint t, Duration slop = Duration(0)) const;

    // The last sample of the queue's metrics with the rolling figures; the rolling quantiles are
    // also kept up to date by ingest() without a queue.
    [[nodiscard]] TimelineMetrics metrics() const { return m_metrics; }

    [[nodiscard]] qsizetype spanCount() const;
    [[nodiscard]] qsizetype spanCapacity() const { return static_cast<qsizetype>(m_spans.size()); }
    [[nodiscard]] qsizetype markCount() const;
    [[nodiscard]] qsizetype keyCount() const { return m_keys.size(); }
    [[nodiscard]] quint64 eventsIngested() const { return m_eventsIngested; }

Q_SIGNALS:
    void changed();

private:
    static constexpr quint64 NoSpan = ~quint64(0);
    static constexpr int KindCount = 3;

    // An ascending list of ids that drops from the front: a vector and an offset, so a lane of a
    // few spans costs a few words (a std::deque allocates ~600 bytes as soon as it exists, which
    // for 10k keys is most of the model's memory).
    struct IdList
    {
        std::vector<quint64> ids;
        size_t head = 0;

        [[nodiscard]] auto begin() const { return ids.cbegin() + static_cast<std::ptrdiff_t>(head); }
        [[nodiscard]] auto end() const { return ids.cend(); }
        [[nodiscard]] bool empty() const { return head == ids.size(); }
        void push_back(quint64 id) { ids.push_back(id); }
        // Drops the ids below first; compacts once the dropped part is the larger half.
        void dropBefore(quint64 first)
        {
            while (head < ids.size() && ids[head] < first) {
                ++head;
            }
            if (empty()) {
                ids = {};
                head = 0;
            } else if (head * 2 >= ids.size()) {
                ids.erase(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(head));
                head = 0;
            }
        }
    };

    struct Lane
    {
        // Span ids per TimelineSpan::Kind, ascending; spans of one kind never overlap.
        IdList spans[KindCount];
        IdList marks;
        quint64 open[KindCount] = {NoSpan, NoSpan, NoSpan}; // Key lanes: the running spans
        quint64 lastProcessing = NoSpan; // Key lanes
        int requeues = 0; // Key lanes: the limiter's count, from RateLimited, reset by Forgotten
        bool retriedSinceGot = false; // Key lanes: a RateLimited since the last Got (a retry, not a give-up)
        TimePoint lastActivity;
    };

    void apply(const QueueEvent &event);
    [[nodiscard]] bool isLive(quint64 id) const;
    [[nodiscard]] TimelineSpan &span(quint64 id);
    [[nodiscard]] const TimelineSpan &span(quint64 id) const;
    quint64 openSpan(Lane &lane, const QString &key, TimelineSpan::Kind kind, TimePoint t, int worker, int attempt);
    void closeSpan(Lane &lane, TimelineSpan::Kind kind, TimePoint t);
    void addMark(Lane &lane, const QString &key, TimelineMark::Kind kind, TimePoint t, int worker);
    [[nodiscard]] Lane &workerLane(int worker);
    [[nodiscard]] const Lane *findLane(const TimelineLane &lane) const;
    void sweep();
    void sampleMetrics();
    void updateRecent();

    Queue *m_queue = nullptr; // not owned
    QTimer m_pollTimer;
    quint64 m_nextSequence = 0;

    std::vector<TimelineSpan> m_spans; // ring, slot = id % capacity
    quint64 m_nextSpan = 0;
    std::vector<TimelineMark> m_marks; // ring, slot = id % capacity
    quint64 m_nextMark = 0;
    quint64 m_nextSweep = 0;

    QHash<QString, Lane> m_keys;
    std::vector<Lane> m_workers; // [0] is worker -1, [w + 1] worker w
    int m_workerCount = 0;
    qsizetype m_maxKeyLanes = DefaultMaxKeyLanes;
    mutable QList<TimelineLane> m_keyLaneCache;
    mutable bool m_keyLaneCacheValid = false;

    TimePoint m_now;
    TimePoint m_lastEventTime;
    bool m_hasTime = false;
    quint64 m_eventsIngested = 0;

    struct Sample
    {
        TimePoint at;
        quint64 adds = 0;
        quint64 retries = 0;
    };
    std::deque<Sample> m_samples;
    // (end, duration) of the waiting and processing spans closed within RecentWindow of now.
    std::deque<std::pair<TimePoint, Duration>> m_recentLatency;
    std::deque<std::pair<TimePoint, Duration>> m_recentWork;
    TimelineMetrics m_metrics;
};

} // namespace Cachescope
