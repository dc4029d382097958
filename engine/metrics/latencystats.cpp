#include "latencystats.h"

#include "requestlatencies.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace kp {

bool LatencyStats::reported() const
{
    // A file's figure without its count (the reference's keys) is a statement, a 0.0 included; our own
    // statistics of no sample are zeros with count 0.
    const bool stated = count == kUnknownCount;
    const auto value = [stated](double v) { return isKnown(v) && (stated || v != 0.0); };
    if (count > 0 || value(mean) || value(median))
        return true;
    return std::any_of(percentiles.begin(), percentiles.end(), [&](const auto& pv) { return value(pv.second); });
}

LatencyStats LatencyStats::unknown()
{
    LatencyStats s;
    s.count = kUnknownCount;
    s.mean = s.median = s.stddev = s.min = s.max = kUnknown;
    return s;
}

bool LatencyStats::operator==(const LatencyStats& other) const
{
    const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    if (count != other.count || !same(mean, other.mean) || !same(median, other.median) || !same(stddev, other.stddev)
        || !same(min, other.min) || !same(max, other.max) || percentiles.size() != other.percentiles.size())
        return false;
    for (std::size_t i = 0; i < percentiles.size(); ++i) {
        if (percentiles[i].first != other.percentiles[i].first
            || !same(percentiles[i].second, other.percentiles[i].second))
            return false;
    }
    return true;
}

std::optional<double> LatencyStats::percentile(double p) const
{
    for (const auto& [percent, value] : percentiles) {
        if (percent == p)
            return value;
    }
    return std::nullopt;
}

QString LatencyStats::percentileWord(double p)
{
    if (std::isfinite(p) && p == std::trunc(p) && std::abs(p) < 1e15)
        return QString::number(static_cast<qint64>(p));
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, p);
    return QString::fromLatin1(buffer, result.ptr - buffer);
}

std::optional<double> LatencyStats::percentileFromWord(QStringView word)
{
    bool ok = false;
    const double p = word.toDouble(&ok);
    if (!ok || !std::isfinite(p) || p < 0.0 || p > 100.0)
        return std::nullopt;
    return p;
}

double LatencyStats::numpySum(const double* values, std::size_t count)
{
    // numpy's pairwise_sum: 8 partial sums below a block of 128 values, halving above it. Matching it keeps
    // means and deviations within the last bit of what numpy prints for the same samples.
    constexpr std::size_t blockSize = 128;
    if (count < 8) {
        double sum = -0.0;
        for (std::size_t i = 0; i < count; ++i)
            sum += values[i];
        return sum;
    }
    if (count <= blockSize) {
        double r[8];
        for (std::size_t j = 0; j < 8; ++j)
            r[j] = values[j];
        std::size_t i = 8;
        for (; i < count - (count % 8); i += 8) {
            for (std::size_t j = 0; j < 8; ++j)
                r[j] += values[i + j];
        }
        double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < count; ++i)
            sum += values[i];
        return sum;
    }
    std::size_t half = count / 2;
    half -= half % 8;
    return numpySum(values, half) + numpySum(values + half, count - half);
}

void statisticRanks(std::size_t count, const std::vector<double>& percentiles, std::vector<std::size_t>& ranks)
{
    ranks.clear();
    ranks.push_back(count / 2);
    if (count % 2 == 0)
        ranks.push_back(count / 2 - 1);
    for (double p : percentiles) {
        const PercentileRank rank = numpyPercentileRank(count, p);
        ranks.push_back(rank.lower);
        ranks.push_back(rank.upper);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
}

PercentileRank numpyPercentileRank(std::size_t count, double p)
{
    const double q = std::clamp(p, 0.0, 100.0) / 100.0;
    // method="linear": virtual index (n - 1) * q between its floor and the next rank.
    const double index = static_cast<double>(count - 1) * q;
    const double lowerIndex = std::floor(index);
    PercentileRank rank;
    rank.lower = static_cast<std::size_t>(lowerIndex);
    rank.upper = std::min(rank.lower + 1, count - 1);
    rank.fraction = index - lowerIndex;
    return rank;
}

double numpyLerp(double lower, double upper, double fraction)
{
    // numpy's _lerp computes from the upper neighbour when the fraction is at least one half.
    const double diff = upper - lower;
    return fraction >= 0.5 ? upper - diff * (1.0 - fraction) : lower + diff * fraction;
}

double LatencyStats::numpyPercentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0.0;
    const PercentileRank rank = numpyPercentileRank(sorted.size(), p);
    return numpyLerp(sorted[rank.lower], sorted[rank.upper], rank.fraction);
}

double LatencyStats::numpyMedian(const std::vector<double>& sorted)
{
    if (sorted.empty())
        return 0.0;
    const std::size_t n = sorted.size();
    if (n % 2 == 1)
        return sorted[n / 2];
    // np.median averages the two middle values with np.mean.
    const double pair[2] = { sorted[n / 2 - 1], sorted[n / 2] };
    return numpySum(pair, 2) / 2.0;
}

LatencyStats LatencyStats::compute(std::vector<double> valuesMs, const std::vector<double>& percentiles)
{
    LatencyStats stats;
    stats.count = static_cast<qint64>(valuesMs.size());
    stats.percentiles.reserve(percentiles.size());
    if (valuesMs.empty()) {
        for (double p : percentiles)
            stats.percentiles.emplace_back(p, 0.0);
        return stats;
    }

    const std::size_t count = valuesMs.size();
    const auto n = static_cast<double>(count);
    // Mean and deviation follow the samples' own order, as numpy's reduction does; then the ranks are
    // selected (nth_element on this one copy, each selection in the part past the previous one) rather
    // than sorted: the same order statistics, in linear time.
    stats.mean = numpySum(valuesMs.data(), count) / n;
    std::vector<double> squares;
    squares.reserve(count);
    for (double v : valuesMs) {
        const double d = v - stats.mean;
        squares.push_back(d * d);
    }
    stats.stddev = std::sqrt(numpySum(squares.data(), squares.size()) / n);
    const auto [min, max] = std::minmax_element(valuesMs.begin(), valuesMs.end());
    stats.min = *min;
    stats.max = *max;

    // The ranks every statistic reads, in increasing order.
    std::vector<std::size_t> ranks;
    statisticRanks(count, percentiles, ranks);
    // Each selection puts its rank in place and partitions the rest, so the next one only looks past it.
    // With many ranks one sort costs less than their selections; both leave the same values at the ranks.
    constexpr std::size_t kMostSelections = 12;
    if (ranks.size() > kMostSelections) {
        std::sort(valuesMs.begin(), valuesMs.end());
    } else {
        std::size_t from = 0;
        for (std::size_t rank : ranks) {
            const auto first = valuesMs.begin() + static_cast<std::ptrdiff_t>(from);
            const auto at = valuesMs.begin() + static_cast<std::ptrdiff_t>(rank);
            if (rank == from)
                std::iter_swap(at, std::min_element(first, valuesMs.end()));
            else
                std::nth_element(first, at, valuesMs.end());
            from = rank + 1;
        }
    }
    if (count % 2 == 1) {
        stats.median = valuesMs[count / 2];
    } else {
        // np.median averages the two middle values with np.mean.
        const double pair[2] = { valuesMs[count / 2 - 1], valuesMs[count / 2] };
        stats.median = numpySum(pair, 2) / 2.0;
    }
    for (double p : percentiles) {
        const PercentileRank rank = numpyPercentileRank(count, p);
        stats.percentiles.emplace_back(p, numpyLerp(valuesMs[rank.lower], valuesMs[rank.upper], rank.fraction));
    }
    return stats;
}

} // namespace kp
