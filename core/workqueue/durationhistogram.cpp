#include "core/workqueue/durationhistogram.h"

#include <algorithm>
#include <cmath>

namespace Cachescope {

namespace {
constexpr double FirstBoundNs = 1000.0; // 1 µs: below it a queue operation cannot be told apart from noise
}

Duration DurationHistogram::bucketUpperBound(int i)
{
    if (i <= 0) {
        return Duration(static_cast<Duration::rep>(FirstBoundNs));
    }
    if (i >= BucketCount - 1) {
        return Duration::max();
    }
    return Duration(static_cast<Duration::rep>(FirstBoundNs * std::exp2(static_cast<double>(i) / BucketsPerDoubling)));
}

int DurationHistogram::bucketFor(Duration d)
{
    const double ns = static_cast<double>(d.count());
    if (ns < FirstBoundNs) {
        return 0;
    }
    // Bucket i holds [bound(i-1), bound(i)); floor(log2) * 4 + 1 lands on it without a search.
    const int i = static_cast<int>(std::floor(std::log2(ns / FirstBoundNs) * BucketsPerDoubling)) + 1;
    return std::clamp(i, 1, BucketCount - 1);
}

void DurationHistogram::observe(Duration d)
{
    d = std::max(d, Duration(0));
    ++m_buckets[static_cast<size_t>(bucketFor(d))];
    if (m_count == 0) {
        m_min = d;
        m_max = d;
    } else {
        m_min = std::min(m_min, d);
        m_max = std::max(m_max, d);
    }
    ++m_count;
    m_sum += d;
}

Duration DurationHistogram::mean() const
{
    return m_count == 0 ? Duration(0) : Duration(m_sum.count() / static_cast<Duration::rep>(m_count));
}

Duration DurationHistogram::quantile(double q) const
{
    if (m_count == 0) {
        return Duration(0);
    }
    q = std::clamp(q, 0.0, 1.0);
    const double rank = q * static_cast<double>(m_count);
    quint64 below = 0;
    for (int i = 0; i < BucketCount; ++i) {
        const quint64 inBucket = m_buckets[static_cast<size_t>(i)];
        if (inBucket == 0 || static_cast<double>(below + inBucket) < rank) {
            below += inBucket;
            continue;
        }
        // Interpolate linearly inside the bucket, as Prometheus' histogram_quantile() does, but
        // within the exact extremes so that the open-ended first and last buckets stay honest.
        const double lower = i == 0 ? 0.0 : static_cast<double>(bucketUpperBound(i - 1).count());
        const double upper = i == BucketCount - 1 ? static_cast<double>(m_max.count()) : static_cast<double>(bucketUpperBound(i).count());
        const double fraction = (rank - static_cast<double>(below)) / static_cast<double>(inBucket);
        const auto estimate = Duration(static_cast<Duration::rep>(lower + (upper - lower) * fraction));
        return std::clamp(estimate, m_min, m_max);
    }
    return m_max;
}

} // namespace Cachescope
