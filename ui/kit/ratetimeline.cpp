#include "kit/ratetimeline.h"

#include <algorithm>
#include <cmath>

namespace kp::ui {

void RateTimeline::clear()
{
    m_bucketS = 1.0;
    m_buckets.clear();
    m_completed = m_failed = 0;
    m_lastS = 0.0;
}

void RateTimeline::add(double atS, qint64 completedTotal, qint64 failedTotal, int inFlight)
{
    if (!(atS >= 0.0))
        return;
    auto bucket = [this](double s) { return std::size_t(std::floor(s / m_bucketS)); };
    while (bucket(atS) >= std::size_t(kMaxBuckets)) {
        // Neighbours merge: half as many buckets, each twice as long.
        std::vector<Bucket> merged((m_buckets.size() + 1) / 2);
        for (std::size_t i = 0; i < m_buckets.size(); ++i) {
            Bucket& into = merged[i / 2];
            into.completed += m_buckets[i].completed;
            into.failed += m_buckets[i].failed;
            into.maxInFlight = std::max(into.maxInFlight, m_buckets[i].maxInFlight);
        }
        m_buckets = std::move(merged);
        m_bucketS *= 2.0;
    }
    const std::size_t at = bucket(atS);
    if (m_buckets.size() <= at)
        m_buckets.resize(at + 1);
    Bucket& b = m_buckets[at];
    b.completed += std::max<qint64>(0, completedTotal - m_completed);
    b.failed += std::max<qint64>(0, failedTotal - m_failed);
    b.maxInFlight = std::max(b.maxInFlight, inFlight);
    m_completed = std::max(m_completed, completedTotal);
    m_failed = std::max(m_failed, failedTotal);
    m_lastS = std::max(m_lastS, atS);
}

int RateTimeline::closedBuckets() const
{
    return int(std::min<std::size_t>(m_buckets.size(), std::size_t(std::floor(m_lastS / m_bucketS))));
}

} // namespace kp::ui
