#include "ui/models/timelinemodel.h"

#include "core/workqueue/queue.h"

#include <QThread>

#include <algorithm>

using namespace std::chrono_literals;

namespace Cachescope {
namespace {

constexpr int kindIndex(TimelineSpan::Kind kind)
{
    return static_cast<int>(kind);
}

// Rates are averaged over about two seconds: long enough that a 30 Hz poll does not make the
// panel flicker, short enough that a burst shows within a blink.
constexpr Duration RateWindow = 2s;

// Enough for 10 s at 5k spans/s; beyond that the window is shorter, memory stays bounded.
constexpr size_t MaxRecentSamples = 50000;

Duration quantile(std::vector<Duration> &values, double q)
{
    if (values.empty()) {
        return Duration(0);
    }
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

// The feed holds ~16 s at 1k events/s; a frame's worth of polling keeps far ahead of it.
constexpr std::chrono::milliseconds DefaultPollInterval{33};

} // namespace

TimelineModel::TimelineModel(QObject *parent, qsizetype spanCapacity, qsizetype markCapacity)
    : QObject(parent)
    , m_spans(static_cast<size_t>(std::max<qsizetype>(spanCapacity, 1)))
    , m_marks(static_cast<size_t>(std::max<qsizetype>(markCapacity, 1)))
    , m_workers(1)
{
    m_nextSweep = (m_spans.size() + m_marks.size()) / 4 + 1;
    m_pollTimer.setInterval(DefaultPollInterval);
    connect(&m_pollTimer, &QTimer::timeout, this, &TimelineModel::poll);
}

TimelineModel::~TimelineModel() = default;

void TimelineModel::setQueue(Queue *queue)
{
    m_queue = queue;
    m_nextSequence = 0;
    m_samples.clear();
    m_metrics = {};
    if (m_queue && m_pollTimer.interval() > 0) {
        m_pollTimer.start();
    } else {
        m_pollTimer.stop();
    }
}

void TimelineModel::setPollInterval(std::chrono::milliseconds interval)
{
    m_pollTimer.setInterval(interval);
    if (interval.count() <= 0) {
        m_pollTimer.stop();
    } else if (m_queue) {
        m_pollTimer.start();
    }
}

void TimelineModel::poll()
{
    // The painter reads the rings without a lock: only the model's own thread may change them.
    Q_ASSERT(thread() == QThread::currentThread());
    if (!m_queue) {
        return;
    }
    const QueueEventLog::Batch batch = m_queue->eventLog()->since(m_nextSequence);
    m_nextSequence = batch.nextSequence;
    m_metrics.eventsMissed += batch.missed;
    for (const QueueEvent &event : batch.entries) {
        apply(event);
    }
    if (!batch.entries.isEmpty()) {
        m_keyLaneCacheValid = false;
    }
    sampleMetrics();
    updateRecent();
    Q_EMIT changed();
}

void TimelineModel::ingest(const QList<QueueEvent> &events)
{
    Q_ASSERT(thread() == QThread::currentThread());
    for (const QueueEvent &event : events) {
        apply(event);
    }
    if (!events.isEmpty()) {
        m_keyLaneCacheValid = false;
        updateRecent();
        Q_EMIT changed();
    }
}

void TimelineModel::updateRecent()
{
    const TimePoint from = m_now - RecentWindow;
    std::vector<Duration> values;
    const auto roll = [&](std::deque<std::pair<TimePoint, Duration>> &samples, qsizetype &count, Duration &p50, Duration &p99) {
        while (!samples.empty() && (samples.front().first < from || samples.size() > MaxRecentSamples)) {
            samples.pop_front();
        }
        values.clear();
        values.reserve(samples.size());
        for (const auto &sample : samples) {
            values.push_back(sample.second);
        }
        count = static_cast<qsizetype>(values.size());
        p50 = quantile(values, 0.5);
        p99 = quantile(values, 0.99);
    };
    m_metrics.recentWindow = RecentWindow;
    roll(m_recentLatency, m_metrics.recentLatencyCount, m_metrics.recentLatencyP50, m_metrics.recentLatencyP99);
    roll(m_recentWork, m_metrics.recentWorkCount, m_metrics.recentWorkP50, m_metrics.recentWorkP99);
}

void TimelineModel::sampleMetrics()
{
    const QueueMetrics queueMetrics = m_queue->metrics();
    m_now = std::max(m_now, queueMetrics.takenAt);
    m_hasTime = true;
    m_samples.push_back(Sample{queueMetrics.takenAt, queueMetrics.adds, queueMetrics.retries});
    while (m_samples.size() > 2 && m_samples[1].at <= queueMetrics.takenAt - RateWindow) {
        m_samples.pop_front();
    }
    m_metrics.valid = true;
    m_metrics.queue = queueMetrics;
    const Sample &first = m_samples.front();
    const Sample &last = m_samples.back();
    const double seconds = std::chrono::duration<double>(last.at - first.at).count();
    if (seconds > 0) {
        m_metrics.addsPerSecond = static_cast<double>(last.adds - first.adds) / seconds;
        m_metrics.retriesPerSecond = static_cast<double>(last.retries - first.retries) / seconds;
    }
}

void TimelineModel::clear()
{
    m_spans.assign(m_spans.size(), TimelineSpan());
    m_marks.assign(m_marks.size(), TimelineMark());
    m_nextSpan = 0;
    m_nextMark = 0;
    m_nextSweep = (m_spans.size() + m_marks.size()) / 4 + 1;
    m_keys.clear();
    m_workers.assign(1, Lane());
    m_keyLaneCacheValid = false;
    m_eventsIngested = 0;
    m_recentLatency.clear();
    m_recentWork.clear();
    updateRecent();
    Q_EMIT changed();
}

void TimelineModel::setWorkerCount(int workers)
{
    m_workerCount = std::max(workers, 0);
    if (m_workers.size() < static_cast<size_t>(m_workerCount) + 1) {
        m_workers.resize(static_cast<size_t>(m_workerCount) + 1);
    }
}

void TimelineModel::setMaxKeyLanes(qsizetype lanes)
{
    m_maxKeyLanes = std::max<qsizetype>(lanes, 0);
    m_keyLaneCacheValid = false;
}

bool TimelineModel::isLive(quint64 id) const
{
    return id != NoSpan && id < m_nextSpan && m_nextSpan - id <= m_spans.size();
}

TimelineSpan &TimelineModel::span(quint64 id)
{
    return m_spans[id % m_spans.size()];
}

const TimelineSpan &TimelineModel::span(quint64 id) const
{
    return m_spans[id % m_spans.size()];
}

TimelineModel::Lane &TimelineModel::workerLane(int worker)
{
    const size_t index = static_cast<size_t>(std::max(worker, -1) + 1);
    if (index >= m_workers.size()) {
        m_workers.resize(index + 1);
    }
    return m_workers[index];
}

quint64 TimelineModel::openSpan(Lane &lane, const QString &key, TimelineSpan::Kind kind, TimePoint t, int worker, int attempt)
{
    // Two opens in a row mean the feed lost the event between them; closing the first keeps the
    // spans of a kind from overlapping, which the range lookup relies on.
    closeSpan(lane, kind, t);
    const quint64 id = m_nextSpan++;
    TimelineSpan &s = span(id);
    s = TimelineSpan();
    s.id = id;
    s.key = key;
    s.start = t;
    s.end = TimePoint::max();
    s.plannedEnd = TimePoint::max();
    s.kind = kind;
    s.open = true;
    s.worker = worker;
    s.attempt = attempt;
    lane.spans[kindIndex(kind)].push_back(id);
    lane.open[kindIndex(kind)] = id;
    if (kind == TimelineSpan::Kind::Processing) {
        Lane &w = workerLane(worker);
        // A worker runs one key at a time; a lost Done must not leave its lane overlapping.
        if (w.open[kindIndex(kind)] != NoSpan && w.open[kindIndex(kind)] != id) {
            closeSpan(w, kind, t);
        }
        w.spans[kindIndex(kind)].push_back(id);
        w.open[kindIndex(kind)] = id;
        w.lastActivity = t;
        lane.lastProcessing = id;
    }
    return id;
}

void TimelineModel::closeSpan(Lane &lane, TimelineSpan::Kind kind, TimePoint t)
{
    quint64 &open = lane.open[kindIndex(kind)];
    if (open == NoSpan) {
        return;
    }
    const quint64 id = std::exchange(open, NoSpan);
    if (!isLive(id)) {
        return;
    }
    TimelineSpan &s = span(id);
    if (!s.open) {
        return;
    }
    s.open = false;
    s.end = std::max(t, s.start);
    if (kind != TimelineSpan::Kind::Backoff) {
        s.plannedEnd = s.end;
        (kind == TimelineSpan::Kind::Waiting ? m_recentLatency : m_recentWork).emplace_back(s.end, s.end - s.start);
    }
    if (kind == TimelineSpan::Kind::Processing) {
        Lane &w = workerLane(s.worker);
        if (w.open[kindIndex(kind)] == id) {
            w.open[kindIndex(kind)] = NoSpan;
        }
    }
}

void TimelineModel::addMark(Lane &lane, const QString &key, TimelineMark::Kind kind, TimePoint t, int worker)
{
    const quint64 id = m_nextMark++;
    TimelineMark &m = m_marks[id % m_marks.size()];
    m.key = key;
    m.time = t;
    m.kind = kind;
    m.worker = worker;
    lane.marks.push_back(id);
}

void TimelineModel::apply(const QueueEvent &event)
{
    using Kind = TimelineSpan::Kind;
    ++m_eventsIngested;
    const TimePoint t = m_hasTime ? std::max(event.time, m_lastEventTime) : event.time;
    m_lastEventTime = t;
    m_hasTime = true;
    m_now = std::max(m_now, t);

    if (event.type == QueueEventType::ShutDown) {
        // The delaying queue drops its waiting keys at shutdown: no DelayReady will come.
        for (Lane &lane : m_keys) {
            closeSpan(lane, Kind::Backoff, t);
        }
        return;
    }

    Lane &lane = m_keys[event.key];
    lane.lastActivity = t;
    const auto runningWorker = [&]() {
        const quint64 id = lane.open[kindIndex(Kind::Processing)];
        return isLive(id) ? span(id).worker : -1;
    };

    switch (event.type) {
    case QueueEventType::Added:
        openSpan(lane, event.key, Kind::Waiting, t, -1, lane.requeues + 1);
        break;
    case QueueEventType::Requeued:
        addMark(lane, event.key, TimelineMark::Kind::Requeued, t, -1);
        openSpan(lane, event.key, Kind::Waiting, t, -1, lane.requeues + 1);
        break;
    case QueueEventType::AddedWhileProcessing:
        addMark(lane, event.key, TimelineMark::Kind::AddedWhileProcessing, t, runningWorker());
        break;
    case QueueEventType::Merged:
        addMark(lane, event.key, TimelineMark::Kind::Merged, t, -1);
        break;
    case QueueEventType::Got:
        closeSpan(lane, Kind::Waiting, t);
        lane.retriedSinceGot = false;
        openSpan(lane, event.key, Kind::Processing, t, event.worker, lane.requeues + 1);
        break;
    case QueueEventType::Done:
        closeSpan(lane, Kind::Processing, t);
        break;
    case QueueEventType::RateLimited:
    case QueueEventType::AddedAfter: {
        const bool rateLimited = event.type == QueueEventType::RateLimited;
        if (rateLimited) {
            lane.requeues = event.requeues;
            lane.retriedSinceGot = true;
            if (const quint64 id = lane.open[kindIndex(Kind::Processing)]; isLive(id)) {
                span(id).failed = true;
            }
        }
        if (event.delay <= Duration(0)) {
            break; // added at once: an Added or Merged follows
        }
        const TimePoint due = event.delay > TimePoint::max() - t ? TimePoint::max() : t + event.delay;
        if (const quint64 id = lane.open[kindIndex(Kind::Backoff)]; isLive(id)) {
            // The delaying queue keeps the sooner of two ready times for a waiting key.
            TimelineSpan &s = span(id);
            s.plannedEnd = std::min(s.plannedEnd, due);
            s.failed = s.failed || rateLimited;
            break;
        }
        const quint64 id = openSpan(lane, event.key, Kind::Backoff, t, -1, rateLimited ? event.requeues : lane.requeues);
        span(id).plannedEnd = due;
        span(id).failed = rateLimited;
        break;
    }
    case QueueEventType::DelayReady:
        closeSpan(lane, Kind::Backoff, t);
        break;
    case QueueEventType::Forgotten: {
        bool gaveUp = false;
        if (isLive(lane.lastProcessing) && !lane.retriedSinceGot) {
            gaveUp = span(lane.lastProcessing).failed;
        }
        addMark(lane, event.key, gaveUp ? TimelineMark::Kind::GivenUp : TimelineMark::Kind::Forgotten, t, runningWorker());
        lane.requeues = 0;
        break;
    }
    case QueueEventType::Rejected:
        addMark(lane, event.key, TimelineMark::Kind::Rejected, t, -1);
        break;
    case QueueEventType::ShutDown:
        break;
    }

    if (m_nextSpan + m_nextMark >= m_nextSweep) {
        sweep();
    }
}

void TimelineModel::noteError(const QString &key, const QString &error)
{
    const auto it = m_keys.find(key);
    if (it == m_keys.end()) {
        return;
    }
    quint64 id = it->open[kindIndex(TimelineSpan::Kind::Processing)];
    if (!isLive(id)) {
        id = it->lastProcessing;
    }
    if (!isLive(id)) {
        return;
    }
    span(id).failed = true;
    span(id).error = error;
    Q_EMIT changed();
}

void TimelineModel::sweep()
{
    // Dropping ids that the rings overwrote keeps the lanes' memory bounded by the rings; a key
    // left with nothing to show is removed. Done every quarter of the rings' capacity, so the
    // walk over all lanes costs O(1) per event amortised.
    m_nextSweep = m_nextSpan + m_nextMark + (m_spans.size() + m_marks.size()) / 4 + 1;
    const quint64 firstSpan = m_nextSpan > m_spans.size() ? m_nextSpan - m_spans.size() : 0;
    const quint64 firstMark = m_nextMark > m_marks.size() ? m_nextMark - m_marks.size() : 0;
    const auto prune = [&](Lane &lane) {
        bool empty = true;
        for (IdList &ids : lane.spans) {
            ids.dropBefore(firstSpan);
            empty = empty && ids.empty();
        }
        lane.marks.dropBefore(firstMark);
        return empty && lane.marks.empty();
    };
    for (Lane &lane : m_workers) {
        prune(lane);
    }
    for (auto it = m_keys.begin(); it != m_keys.end();) {
        if (prune(*it)) {
            it = m_keys.erase(it);
        } else {
            ++it;
        }
    }
    m_keyLaneCacheValid = false;
}

TimePoint TimelineModel::oldest() const
{
    if (m_nextSpan == 0) {
        return m_now;
    }
    const quint64 first = m_nextSpan > m_spans.size() ? m_nextSpan - m_spans.size() : 0;
    return span(first).start;
}

QList<TimelineLane> TimelineModel::lanes(LaneMode mode) const
{
    QList<TimelineLane> result;
    if (mode == LaneMode::Worker) {
        const bool unknownUsed = !m_workers.front().spans[kindIndex(TimelineSpan::Kind::Processing)].empty();
        const int count = std::max(m_workerCount, static_cast<int>(m_workers.size()) - 1);
        result.reserve(count + 1);
        for (int w = 0; w < count; ++w) {
            result.append(TimelineLane{LaneMode::Worker, {}, w});
        }
        if (unknownUsed) {
            result.append(TimelineLane{LaneMode::Worker, {}, -1});
        }
        return result;
    }
    if (!m_keyLaneCacheValid) {
        std::vector<std::pair<TimePoint, const QString *>> order;
        order.reserve(static_cast<size_t>(m_keys.size()));
        for (auto it = m_keys.cbegin(); it != m_keys.cend(); ++it) {
            order.emplace_back(it->lastActivity, &it.key());
        }
        const size_t keep = std::min(order.size(), static_cast<size_t>(m_maxKeyLanes));
        // Most recent first; ties by key so the order is stable from one frame to the next.
        const auto recentFirst = [](const auto &a, const auto &b) {
            return a.first != b.first ? a.first > b.first : *a.second < *b.second;
        };
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(), recentFirst);
        m_keyLaneCache.clear();
        m_keyLaneCache.reserve(static_cast<qsizetype>(keep));
        for (size_t i = 0; i < keep; ++i) {
            m_keyLaneCache.append(TimelineLane{LaneMode::Key, *order[i].second, -1});
        }
        m_keyLaneCacheValid = true;
    }
    return m_keyLaneCache;
}

const TimelineModel::Lane *TimelineModel::findLane(const TimelineLane &lane) const
{
    if (lane.mode == LaneMode::Worker) {
        const size_t index = static_cast<size_t>(std::max(lane.worker, -1) + 1);
        return index < m_workers.size() ? &m_workers[index] : nullptr;
    }
    const auto it = m_keys.constFind(lane.key);
    return it == m_keys.cend() ? nullptr : &*it;
}

void TimelineModel::visitSpans(const TimelineLane &lane, TimePoint t0, TimePoint t1, const std::function<void(const TimelineSpan &)> &visit) const
{
    const Lane *l = findLane(lane);
    if (!l) {
        return;
    }
    const quint64 firstLive = m_nextSpan > m_spans.size() ? m_nextSpan - m_spans.size() : 0;
    for (const auto &ids : l->spans) {
        const auto live = std::lower_bound(ids.begin(), ids.end(), firstLive);
        // Within one kind the spans do not overlap, so their ends ascend like their starts (an
        // open span's stored end is TimePoint::max()): the first visible span is found by bisection.
        auto it = std::partition_point(live, ids.end(), [&](quint64 id) { return span(id).end < t0; });
        for (; it != ids.end(); ++it) {
            const TimelineSpan &s = span(*it);
            if (s.start > t1) {
                break;
            }
            if (s.open) {
                TimelineSpan copy = s;
                copy.end = std::max(m_now, s.start);
                if (copy.kind != TimelineSpan::Kind::Backoff) {
                    copy.plannedEnd = copy.end;
                }
                visit(copy);
            } else {
                visit(s);
            }
        }
    }
}

QList<TimelineSpan> TimelineModel::spansIn(const TimelineLane &lane, TimePoint t0, TimePoint t1) const
{
    QList<TimelineSpan> result;
    visitSpans(lane, t0, t1, [&](const TimelineSpan &s) { result.append(s); });
    return result;
}

QList<TimelineMark> TimelineModel::marksIn(const TimelineLane &lane, TimePoint t0, TimePoint t1) const
{
    QList<TimelineMark> result;
    const Lane *l = findLane(lane);
    if (!l) {
        return result;
    }
    const quint64 firstLive = m_nextMark > m_marks.size() ? m_nextMark - m_marks.size() : 0;
    const auto live = std::lower_bound(l->marks.begin(), l->marks.end(), firstLive);
    auto it = std::partition_point(live, l->marks.end(), [&](quint64 id) { return m_marks[id % m_marks.size()].time < t0; });
    for (; it != l->marks.end(); ++it) {
        const TimelineMark &m = m_marks[*it % m_marks.size()];
        if (m.time > t1) {
            break;
        }
        result.append(m);
    }
    return result;
}

std::optional<TimelineSpan> TimelineModel::spanAt(const TimelineLane &lane, TimePoint t, Duration slop) const
{
    // Processing is drawn on top, so it wins where kinds overlap; within the slop (a span too
    // thin to hit exactly) the nearest span wins.
    const auto rank = [](TimelineSpan::Kind kind) {
        switch (kind) {
        case TimelineSpan::Kind::Processing:
            return 0;
        case TimelineSpan::Kind::Backoff:
            return 1;
        case TimelineSpan::Kind::Waiting:
            return 2;
        }
        return 3;
    };
    std::optional<TimelineSpan> best;
    Duration bestDistance = Duration::max();
    visitSpans(lane, t - slop, t + slop, [&](const TimelineSpan &s) {
        const Duration distance = t < s.start ? s.start - t : (t > s.end ? t - s.end : Duration(0));
        if (!best || distance < bestDistance || (distance == bestDistance && rank(s.kind) < rank(best->kind))) {
            best = s;
            bestDistance = distance;
        }
    });
    return best;
}

qsizetype TimelineModel::spanCount() const
{
    return static_cast<qsizetype>(std::min<quint64>(m_nextSpan, m_spans.size()));
}

qsizetype TimelineModel::markCount() const
{
    return static_cast<qsizetype>(std::min<quint64>(m_nextMark, m_marks.size()));
}

} // namespace Cachescope
