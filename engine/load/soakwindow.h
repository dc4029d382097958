#pragma once

#include "metrics/stepmetrics.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>

#include <map>
#include <vector>

namespace kp {

// One window of a soak step (StepConfig::windowS): the requests that ended in [startS, endS) on the step's
// clock, with the step's formulas over them and the window's length.
struct SoakWindow
{
    int step = 0;
    int index = 0; // 0-based, in time order
    double startS = 0.0;
    double endS = 0.0;
    qint64 sent = 0; // requests that went out in the window
    bool partial = false; // the step ended inside it (its last window, or a stop)
    StepMetrics metrics; // StepMetrics::fromRecords over its requests, duration endS - startS

    // One line of steps/NNN.windows.jsonl (no newline): counts, failures by class, throughputs and each
    // latency's mean, P50 and P99 (and the step's other percentiles); null where no request gave one.
    QJsonObject toJson() const;
    static SoakWindow fromJson(const QJsonObject& object); // counts and the figures the line holds
};

// What a window is computed with: the step's options, P99 always (the window line reports it), no
// length buckets (a figure per window and bucket is more than a soak reads).
MetricsOptions soakWindowOptions(MetricsOptions options);

// The whole soak step from its windows, without their records: counts, failures by class, tokens,
// throughputs, goodput and each latency's count, mean, spread, minimum and maximum are exact (the spread
// from each window's mean and spread); medians and percentiles of the whole step are unknown, since a
// percentile of percentiles is none: each window has its own. Peaks are the highest window's.
class SoakTotals
{
public:
    void add(const StepMetrics& window);
    StepMetrics total(double durationS, const MetricsOptions& options) const;
    int windows() const { return m_windows; }

private:
    struct Moments
    {
        qint64 count = 0;
        double sum = 0.0;
        double sumSquares = 0.0; // of the values: count * (stddev² + mean²) per window
        double min = 0.0;
        double max = 0.0;
        void add(const LatencyStats& s);
        LatencyStats stats(const std::vector<double>& percentiles) const;
    };
    int m_windows = 0;
    qint64 m_completed = 0;
    qint64 m_failed = 0;
    std::map<FailureClass, qint64> m_failures;
    qint64 m_inputTokens = 0;
    qint64 m_outputTokens = 0;
    qint64 m_goodCompleted = 0;
    bool m_goodput = false;
    double m_e2elSumS = 0.0; // for the mean concurrency (Little's law)
    double m_maxOutputTokensPerS = 0.0;
    qint64 m_maxConcurrent = 0;
    Moments m_ttft, m_tpot, m_itl, m_e2el;
    // The plain counters, summed; an unknown one (kUnknownCount) stays unknown until a window knows it.
    StepMetrics m_counts;
};

} // namespace kp

Q_DECLARE_METATYPE(kp::SoakWindow)
