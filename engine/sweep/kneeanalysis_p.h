#pragma once

// Internal to kneepoint_sweep: the parts of KneeAnalysis::analyze. kneecurve.cpp turns steps into the
// curve (points, repeats merged, each point judged against the SLO); kneeanalysis.cpp assesses the steps and
// finds saturation, the knees and collapse; kneecapacity.cpp finds the SLO capacity and the recommended
// point; kneeregions.cpp cuts the curve into regions; kneenotes.cpp says what the sweep's workload means for
// the findings. Each finding is worded where it is found: its sentence names the figures that decided it.

#include "metrics/phrase.h"
#include "sweep/analysiswords.h"
#include "sweep/kneeanalysis.h"

#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace kp::analysis {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A step in which no request completed has no latency, whatever zeros its file holds for one; a
// figure the file lacks is none either.
std::optional<double> latencyAt(const StepMetrics& step, const LatencyStats& stats, double percentile);

// The 95 % interval of the step's latency figure, as its file keys it ("p99_ttft_ms", "median_tpot_ms").
std::optional<Interval> latencyInterval(const StepMetrics& step, LatencyMetric metric, double percentile);

// Requests a step reports as ended and failed; a count its file lacks adds nothing.
qint64 endedRequests(const StepMetrics& m);

double errorRateOf(const StepMetrics& m);

// One load level on a curve: a step, or the mean of steps run at the same load.
struct CurvePoint
{
    double x = 0.0;
    double thr = 0.0;
    // What an unsaturated server would show: the reference's throughput counts until the last request
    // ends, so a step of n requests at rate x reads n / (n/x + drain) even far below the knee.
    double expected = 0.0;
    double requests = 0.0; // completed + failed
    // Concurrency mode: the rate the client also paced the requests to (kUnknown: none).
    double rateLimit = kUnknown;
    int concurrencyCap = 0; // rate mode: the client's cap on requests in flight; 0 none
    double e2elMeanS = 0.0;
    double tok = 0.0;
    double errorRate = 0.0;
    std::optional<double> latency; // the analysed metric
    std::optional<Interval> latencyCi; // its 95 % interval, where the step measured one
    std::optional<double> ttft; // at the SLO's percentile
    std::optional<double> tpot;
    std::optional<double> e2el;
    std::optional<double> ttfc; // time to first content token
    std::vector<int> steps;

    int step() const { return steps.empty() ? -1 : steps.front(); }
};

// A curve as the knee's numerics take it: the loads in x, one figure of each point in y.
template <typename Figure>
void curveColumns(const std::vector<CurvePoint>& c, std::vector<double>& x, std::vector<double>& y, Figure figure)
{
    for (const CurvePoint& p : c) {
        x.push_back(p.x);
        y.push_back(figure(p));
    }
}

// One point per load: repeats at the same load become their mean.
std::vector<CurvePoint> mergeByLoad(std::vector<CurvePoint> points);

double lerp(double a, double b, double t);

struct SloCheck
{
    SloLimit limit = SloLimit::None;
    double max = 0.0;
    std::optional<double> value;
    double percentile = 99; // of a latency limit
};

std::vector<SloCheck> sloChecks(const Slo& slo, double implicitMaxErrorRate, const CurvePoint& point);

struct SloJudgement
{
    bool judged = true; // every value the SLO needs is there
    bool pass = true;
    Sentence firstMiss; // "P99 TTFT 812 ms > 500 ms"
    QList<Sentence> missing; // labels of the values the step lacks
};

SloJudgement judgeSlo(const Slo& slo, double implicitMaxErrorRate, const CurvePoint& point);

class Analyzer
{
public:
    Analyzer(const std::vector<SweepPoint>& points, const AnalysisOptions& options);

    AnalysisResult run();

private:
    enum class Use { Unusable, Erroneous, Reliable };

    bool concurrency() const { return m_result.concurrencyMode; }
    Sentence load(double x) const { return words::load(x, concurrency()); }
    QString metric() const { return words::metric(m_options.metric, m_options.percentile); }

    // The steps and the curve, and how they are named (kneeanalysis.cpp).
    Sentence stepName(int index) const;
    Sentence higherLoads() const;
    bool neverSaturated() const { return !m_result.saturation.found && !m_usable.empty(); }
    CurvePoint curvePoint(int index) const;
    Finding finding(const CurvePoint& c, Sentence reason) const;
    static Finding absent(Sentence reason);

    // The findings, in the order run() makes them (kneeanalysis.cpp).
    void assess();
    Sentence leftOutSentence(bool includeLatency) const;
    void findPeak();
    void setExpected(std::vector<CurvePoint>& c) const;
    void findSaturation();
    Sentence oneLoadSaturation(const CurvePoint& p) const;
    Sentence drainNote(const CurvePoint& p) const;
    Sentence neverSaturatedSuffix() const;
    Sentence loadRange(double from, double to) const;
    bool above(const CurvePoint& b, const CurvePoint& a) const;
    Sentence latencyWithInterval(const CurvePoint& p) const;
    std::optional<double> sloLimitOnMetric() const;
    void setKneeCurve();
    std::optional<Sentence> unconfirmed(
        const std::vector<CurvePoint>& c, std::size_t k, const Sentence& noKneeIn) const;
    void findKnee();
    void findThroughputKnee();
    void findCollapse();
    SloJudgement judge(const CurvePoint& point) const { return judgeSlo(m_options.slo, m_options.maxErrorRate, point); }

    // The SLO capacity and the recommended operating point (kneecapacity.cpp).
    Sentence sloText() const;
    void findSloCapacity();
    void findRecommended();

    // The regions and their sentences (kneeregions.cpp).
    Sentence latencyRange(std::size_t first, std::size_t last) const;
    Sentence linearReason(std::size_t first, std::size_t last) const;
    Sentence kneeReason(std::size_t first, std::size_t last) const;
    Sentence overloadReason(std::size_t first, std::size_t last) const;
    void buildRegions();

    const std::vector<SweepPoint>& m_points;
    AnalysisOptions m_options;
    AnalysisResult m_result;
    std::vector<CurvePoint> m_usable; // reliable and erroneous steps: throughput, saturation, collapse, SLO
    std::vector<CurvePoint> m_reliable; // the throughput knee
    std::vector<CurvePoint> m_latency; // reliable steps that report the metric: the latency knee
    QList<Sentence> m_leftOut; // "step 5 (45 req/s): client-bound"
    QList<Sentence> m_leftOutLatency;
    bool m_noLatency = false;
    bool m_singleLoad = false; // every usable step ran at one load: no trend to read
    std::vector<CurvePoint> m_kneeCurve; // m_latency without its outlier steps
    std::vector<double> m_outlierX; // the loads of those outliers
};

// What the sweep's workload means for the findings (kneenotes.cpp).

// When no step reports the latency metric at the asked percentile (a foreign file that kept only its
// median, or only P90), the highest percentile that a step does report.
std::optional<double> reportedPercentileInstead(const std::vector<SweepPoint>& points, const AnalysisOptions& options);

// Output-length accounting over the sweep: answers shorter than their max_tokens, said when they are
// more than a few. With ignore_eos a short answer means the server did not honour it.
std::optional<Sentence> shortOutputNote(const std::vector<SweepPoint>& points);

// How much of the sweep the prefix cache served, and whether prompts repeating is why: said where the
// cache served a fifth of the input or more, or where requests re-sent a prompt, since a knee measured
// on such a workload is more optimistic than traffic without that reuse.
std::optional<Sentence> cacheNote(const std::vector<SweepPoint>& points, const AnalysisResult& result);

} // namespace kp::analysis
