#include "core/kube/logmerger.h"

#include "core/kube/logfollower.h"

#include <algorithm>
#include <iterator>

namespace Cachescope {

namespace {

// The kubelet writes RFC 3339 with nine fraction digits, always: times of one width compare as
// strings, as LogFollower compares them.
bool earlier(const QString &a, const QString &b)
{
    return a < b;
}

} // namespace

LogMerger::LogMerger(std::chrono::milliseconds window, qsizetype bound)
    : m_window(window)
    , m_bound(qMax<qsizetype>(1, bound))
{
}

void LogMerger::setBound(qsizetype bound)
{
    m_bound = qMax<qsizetype>(1, bound);
    enforceBound();
}

void LogMerger::addSource(const QString &source)
{
    if (!m_sources.contains(source))
        m_sources.insert(source, Source());
}

void LogMerger::removeSource(const QString &source)
{
    m_sources.remove(source);
}

void LogMerger::append(const QString &source, const QStringList &lines, qint64 nowMs)
{
    if (lines.isEmpty())
        return;
    Source &from = m_sources[source];
    const auto byTime = [](const Pending &a, const Pending &b) {
        return earlier(a.line.timestamp, b.line.timestamp) || (a.line.timestamp == b.line.timestamp && a.sequence < b.sequence);
    };
    const auto middle = qsizetype(m_pending.size());
    m_pending.reserve(m_pending.size() + size_t(lines.size()));
    for (const QString &raw : lines) {
        const auto [time, text] = LogFollower::splitTimestamp(raw);
        Pending pending;
        pending.line.source = source;
        // A line without a time (not one the kubelet wrote) stays with the one before it.
        pending.line.timestamp = time.isEmpty() ? from.newest : time.toString();
        pending.line.text = text.toString();
        pending.arrivedMs = nowMs;
        pending.sequence = m_sequence++;
        if (earlier(from.newest, pending.line.timestamp))
            from.newest = pending.line.timestamp;
        m_pending.push_back(std::move(pending));
    }
    from.delivered = true;
    // A source's batch is in order already; sorting it costs nothing then, and keeps a batch that
    // is not (a restarted container's clock) from breaking the merge.
    const auto batchBegin = m_pending.begin() + middle;
    if (!std::is_sorted(batchBegin, m_pending.end(), byTime))
        std::stable_sort(batchBegin, m_pending.end(), byTime);
    std::inplace_merge(m_pending.begin(), batchBegin, m_pending.end(), byTime);
    enforceBound();
}

void LogMerger::enforceBound()
{
    const qsizetype excess = qsizetype(m_pending.size()) - m_bound;
    if (excess <= 0)
        return;
    moveOut(excess, m_early);
    const qsizetype surplus = m_early.size() - m_bound;
    if (surplus > 0) {
        // A ring of `bound` lines would drop these as soon as the rest entered.
        m_early.remove(0, surplus);
        m_dropped += surplus;
    }
}

LogLines LogMerger::take(qint64 nowMs)
{
    if (m_pending.empty())
        return std::exchange(m_early, {});
    // What every source has passed: nothing earlier can come from any of them. With no source
    // left, nothing more can come at all.
    bool watermarkKnown = true;
    QString watermark;
    bool first = true;
    for (const Source &source : std::as_const(m_sources)) {
        if (!source.delivered) {
            watermarkKnown = false;
            break;
        }
        if (first || earlier(source.newest, watermark))
            watermark = source.newest;
        first = false;
    }
    const bool releaseAll = m_sources.isEmpty();
    // The newest time among lines that waited the window: everything up to it goes, so that
    // what has waited long enough leaves in order with what came before it.
    QString cutoff = watermarkKnown ? watermark : QString();
    bool anyDue = watermarkKnown;
    for (const Pending &pending : m_pending) {
        if (nowMs - pending.arrivedMs >= m_window.count() && (!anyDue || earlier(cutoff, pending.line.timestamp))) {
            cutoff = pending.line.timestamp;
            anyDue = true;
        }
    }
    // A line older than one already released is late whatever it waits for: out at once.
    if (!m_newestReleased.isEmpty() && (!anyDue || earlier(cutoff, m_newestReleased))) {
        cutoff = m_newestReleased;
        anyDue = true;
    }
    if (releaseAll)
        return release(qsizetype(m_pending.size()));
    if (!anyDue)
        return std::exchange(m_early, {});
    const auto end = std::upper_bound(
        m_pending.begin(), m_pending.end(), cutoff, [](const QString &time, const Pending &pending) { return earlier(time, pending.line.timestamp); });
    return release(qsizetype(std::distance(m_pending.begin(), end)));
}

LogLines LogMerger::takeAll()
{
    return release(qsizetype(m_pending.size()));
}

void LogMerger::moveOut(qsizetype count, LogLines &into)
{
    if (count <= 0)
        return;
    into.reserve(into.size() + count);
    for (qsizetype i = 0; i < count; ++i) {
        Pending &pending = m_pending[size_t(i)];
        if (earlier(pending.line.timestamp, m_newestReleased))
            ++m_late;
        into.append(std::move(pending.line));
    }
    // Sorted: the last moved out is the newest.
    if (earlier(m_newestReleased, into.constLast().timestamp))
        m_newestReleased = into.constLast().timestamp;
    m_pending.erase(m_pending.begin(), m_pending.begin() + count);
}

LogLines LogMerger::release(qsizetype count)
{
    LogLines released = std::exchange(m_early, {});
    moveOut(count, released);
    return released;
}

qint64 LogMerger::nextDueMs() const
{
    if (!m_early.isEmpty())
        return 0;
    if (m_pending.empty())
        return -1;
    qint64 oldest = m_pending.front().arrivedMs;
    for (const Pending &pending : m_pending)
        oldest = qMin(oldest, pending.arrivedMs);
    return oldest + m_window.count();
}

void LogMerger::clear()
{
    m_pending.clear();
    m_early.clear();
    m_sources.clear();
    m_newestReleased.clear();
    m_dropped = 0;
    m_late = 0;
}

} // namespace Cachescope
