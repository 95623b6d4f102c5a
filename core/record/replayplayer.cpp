#include "core/record/replayplayer_p.h"

#include "core/cache/objectlist.h"

namespace Cachescope {

const RecordedInput *ReplayPlayer::peek() const
{
    if (next >= inputs.size()) {
        return nullptr;
    }
    const RecordedInput &input = inputs.at(next);
    if (stopSeq >= 0 && input.seq > stopSeq) {
        return nullptr;
    }
    return &input;
}

const RecordedInput &ReplayPlayer::consume()
{
    const RecordedInput &input = inputs.at(next++);
    cache.apply(input);
    position.store(input.seq);
    return input;
}

qint64 ReplayPlayer::dueInMs(const RecordedInput &input)
{
    if (!m_clock.isValid()) {
        // The clock starts with the first input asked for: the recording's pace counts from there.
        m_clock.start();
        m_baseMonoNs = input.monoNs;
    }
    if (speed <= 0) {
        return 0;
    }
    const double offsetMs = double(input.monoNs - m_baseMonoNs) / 1e6 / speed;
    return std::max<qint64>(0, qint64(offsetMs) - m_clock.elapsed());
}

void ReplayPlayer::checkFinished()
{
    if (peek() != nullptr || finished.exchange(true)) {
        return;
    }
    if (finishedCallback) {
        finishedCallback();
    }
}

ObjectListPage ReplayPlayer::syntheticPage() const
{
    ObjectListPage page;
    QList<KubeObject> items;
    items.reserve(cache.entries().size());
    for (const RecordedCache::Entry &entry : cache.entries()) {
        if (entry.object.isValid()) {
            items.append(entry.object);
        }
    }
    page.items = sortedForListing(items);
    page.resourceVersion = cache.resourceVersion();
    return page;
}

} // namespace Cachescope
