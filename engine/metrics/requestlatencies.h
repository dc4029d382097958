#pragma once

#include "metrics/requestrecord.h"
#include "metrics/stepmetrics.h"

#include <cstddef>
#include <vector>

namespace kp {

// What one completed request with a send time (`st`) contributes to the latency distributions, in ms
// (METRICS.md): the one definition StepMetrics::fromRecords and the bootstrap over requests
// (bootstrapIntervals) share. Defined in stepmetrics.cpp.
struct RequestLatencies
{
    bool hasTtft = false; // it saw a choices event
    double ttftMs = 0.0;
    double e2elMs = 0.0;
    bool hasTpot = false; // a first token and more than one output token
    double tpotMs = 0.0; // 0 without one: the reference counts it as 0 for goodput
    bool good = false; // every configured SLO holds (false without SLOs)

    static RequestLatencies of(const RequestRecord& r, const MetricsOptions& options);
    // The gap before chunk i (i >= 1) of r: one ITL sample.
    static double itlMs(const RequestRecord& r, std::size_t i);
};

// Where np.percentile(p, method="linear") of `count` (> 0) sorted values reads: the ranks of its two
// neighbours and the fraction between them; numpyLerp combines the two values as numpy's _lerp does.
// LatencyStats::numpyPercentile is these two over a sorted vector. Defined in latencystats.cpp.
struct PercentileRank
{
    std::size_t lower = 0;
    std::size_t upper = 0;
    double fraction = 0.0;
};
PercentileRank numpyPercentileRank(std::size_t count, double p);
double numpyLerp(double lower, double upper, double fraction);
// Every rank the median and these percentiles of `count` (> 0) values read, increasing and unique, into
// ranks (cleared first). Defined in latencystats.cpp.
void statisticRanks(std::size_t count, const std::vector<double>& percentiles, std::vector<std::size_t>& ranks);

} // namespace kp
