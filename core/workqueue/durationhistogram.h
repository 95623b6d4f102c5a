#pragma once

#include "core/util/clock.h"

#include <QtGlobal>

#include <array>

namespace Cachescope {

// DurationHistogram records durations (queue latency, work duration) in fixed log-spaced buckets,
// four per doubling from 1 µs to about 2^34 µs (5 hours), plus an underflow and an overflow
// bucket. quantile() estimates p50/p99 from the buckets (within ~10 %: the width of a bucket),
// clamped to the exact minimum and maximum seen, so a histogram of one value answers exactly.
// A value type (about 1.2 KiB); not thread-safe on its own: the queue guards it with its lock
// and hands out copies in QueueMetrics.
class DurationHistogram
{
public:
    static constexpr int BucketsPerDoubling = 4;
    static constexpr int Doublings = 34;
    // [0] underflow (< 1 µs), [1 .. Doublings * BucketsPerDoubling] the log buckets, [last] overflow.
    static constexpr int BucketCount = Doublings * BucketsPerDoubling + 2;

    void observe(Duration d);

    [[nodiscard]] quint64 count() const { return m_count; }
    [[nodiscard]] Duration sum() const { return m_sum; }
    [[nodiscard]] Duration min() const { return m_min; }
    [[nodiscard]] Duration max() const { return m_max; }
    [[nodiscard]] Duration mean() const;
    // quantile(0.5) is the median, quantile(0.99) the p99; zero when nothing was observed.
    [[nodiscard]] Duration quantile(double q) const;

    // The upper bound of bucket i (exclusive), for drawing or export; Duration::max() for the last.
    [[nodiscard]] static Duration bucketUpperBound(int i);
    [[nodiscard]] quint64 bucketCount(int i) const { return m_buckets.at(static_cast<size_t>(i)); }

private:
    [[nodiscard]] static int bucketFor(Duration d);

    std::array<quint64, BucketCount> m_buckets{};
    quint64 m_count = 0;
    Duration m_sum{0};
    Duration m_min{0};
    Duration m_max{0};
};

} // namespace Cachescope
