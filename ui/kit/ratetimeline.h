#pragma once

#include <QtGlobal>

#include <vector>

namespace kp::ui {

// A running step second by second from its snapshots' counters, in bounded memory: buckets of one
// second until there are kMaxBuckets, then each pair of neighbours merges and a bucket spans twice as
// long, so an hour's step (or a day's) keeps at most kMaxBuckets buckets, the whole step at the
// resolution that fits.
class RateTimeline
{
public:
    static constexpr int kMaxBuckets = 1200;

    struct Bucket
    {
        qint64 completed = 0; // requests that ended in it (by the snapshots' counters)
        qint64 failed = 0;
        int maxInFlight = 0;
    };

    void clear();
    // A snapshot at atS seconds in the step with its running totals; counts before the first one are
    // the step's (from 0).
    void add(double atS, qint64 completedTotal, qint64 failedTotal, int inFlight);

    double bucketS() const { return m_bucketS; }
    const std::vector<Bucket>& buckets() const { return m_buckets; }
    double lastS() const { return m_lastS; }
    // The buckets that have ended (the last one fills until the next snapshot past its end).
    int closedBuckets() const;

private:
    double m_bucketS = 1.0;
    std::vector<Bucket> m_buckets;
    qint64 m_completed = 0;
    qint64 m_failed = 0;
    double m_lastS = 0.0;
};

} // namespace kp::ui
