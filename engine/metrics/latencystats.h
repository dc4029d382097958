#pragma once

#include <QString>
#include <QStringView>

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace kp {

// A figure that a result file does not give: NaN for values, -1 for counts. Steps Kneepoint measured
// itself know every figure; a step read from another tool's file knows what the file says or what its
// own fields give. Unknown figures are written as null and shown as "—", never as 0.
inline constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
inline constexpr qint64 kUnknownCount = -1;
inline bool isKnown(double value)
{
    return !std::isnan(value);
}
inline bool isKnown(qint64 value)
{
    return value >= 0;
}

// Summary statistics of one latency distribution, in milliseconds, computed the way the reference
// computes them with numpy: np.mean, np.median, np.std (population, ddof 0) and np.percentile
// (linear interpolation between closest ranks). An empty sample gives 0 for every statistic, as the
// reference's `np.mean(values or 0)` does.
struct LatencyStats
{
    qint64 count = 0; // kUnknownCount when a file gives statistics without their count
    double mean = 0.0;
    double median = 0.0;
    double stddev = 0.0;
    double min = 0.0;
    double max = 0.0;
    std::vector<std::pair<double, double>> percentiles; // (percentile in [0, 100], value in ms), as requested

    // The value for percentile p when it was requested.
    std::optional<double> percentile(double p) const;
    // Whether it holds values: samples were counted, or the statistics came from a file that gives
    // none of its counts (the reference's result JSON), where a stated 0.0 is a value. A step that
    // measured nothing has zeros and count 0.
    bool reported() const;
    // Every statistic unknown (a file without this metric); see kUnknown.
    static LatencyStats unknown();

    // How the reference spells a percentile in keys and labels: "99", "99.9" (Python's str of the float).
    static QString percentileWord(double p);
    static std::optional<double> percentileFromWord(QStringView word);

    static LatencyStats compute(std::vector<double> valuesMs, const std::vector<double>& percentiles);

    // numpy-compatible building blocks, exposed so that they can be tested on their own.
    static double numpySum(const double* values, std::size_t count); // pairwise summation, as np.add.reduce
    static double numpyPercentile(const std::vector<double>& sorted, double p);
    static double numpyMedian(const std::vector<double>& sorted);

    // Unknown values (NaN) compare equal to each other.
    bool operator==(const LatencyStats& other) const;
};

} // namespace kp
