#pragma once

#include "metrics/stepintervals.h"
#include "runs/comparison.h"
#include "runs/savedrun.h"

#include <QByteArray>
#include <QJsonArray>
#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace kp {

// A regression gate: conditions on how a metric changed from a base run to a new one
// (`kneepoint-cli compare BASE NEW --fail-if 'ttft.p99>+10%'`), judged with the runs' confidence intervals.

enum class GateMetricKind {
    Latency, // ttft, tpot, itl, e2el with a statistic: ms, at each load
    Throughput, // request_throughput: req/s, at each load
    OutputThroughput, // tok/s, at each load
    Goodput, // req/s that met the goodput SLO, at each load
    ErrorRate, // failed ÷ (completed + failed), in percent, at each load
    SloCapacity, // the analysis' findings: a load (req/s or users) per run
    Knee,
    Saturation,
    PeakThroughput, // req/s per run
};

struct GateCondition
{
    QString text; // as written, trimmed: "ttft.p99>+10%"
    QString metric; // "ttft.p99", "slo_capacity"
    GateMetricKind kind = GateMetricKind::Latency;
    CompareMetric latency = CompareMetric::Ttft; // Latency kind
    CompareStatistic statistic; // Latency kind
    bool above = true; // '>': the condition holds when the change is above the threshold; '<': below it
    double threshold = 0.0; // percent (relative) or in the metric's unit (absolute: ms, req/s, tok/s, points)
    bool relative = true;
    bool operator==(const GateCondition&) const = default;
};

// "METRIC>CHANGE" or "METRIC<CHANGE". METRIC: ttft|tpot|itl|e2el.(mean|median|pNN), throughput,
// output_throughput, goodput, error_rate, slo_capacity, knee, saturation, peak_throughput. CHANGE: a
// signed percentage (+10%, -5%: relative to BASE) or an amount in the metric's unit (+25ms, +0.5s,
// -2 for req/s, +1 for error_rate's percentage points). nullopt with *error naming the condition and
// what is wrong.
std::optional<GateCondition> parseGateCondition(QStringView text, QString* error);

enum class GateOutcome {
    Pass, // the condition does not hold
    Fail, // it holds, outside the runs' confidence intervals
    Noise, // it holds, but the two runs' 95 % intervals overlap there
    Unknown, // a run lacks the figure, or the runs share no load
};
QString gateOutcomeWord(GateOutcome outcome); // "pass", "FAIL", "noise", "unknown"

struct GateVerdict
{
    GateCondition condition;
    GateOutcome outcome = GateOutcome::Unknown;
    std::optional<double> base, next; // the values compared (mean over a load's trials)
    std::optional<double> change; // percent when relative, else in the metric's unit
    std::optional<double> offered; // the load where a per-load metric was judged
    bool interpolated = false; // BASE's value interpolated between its neighbouring loads
    std::optional<Interval> baseInterval, nextInterval;
    QString reason; // Unknown: why
    QString line; // "FAIL ttft.p99: +14.2% (310 → 354 ms at 20 req/s) > +10%"
};

// Judges every condition. A per-load metric is judged at each load of NEW that BASE measured (or
// spans, interpolated linearly), and the verdict reports the load that decides it: a load where the
// condition holds outside the intervals (FAIL), else one where it holds inside them (noise), else the
// load nearest to holding (pass).
std::vector<GateVerdict> evaluateGate(
    const SavedRun& base, const SavedRun& next, const std::vector<GateCondition>& conditions);

// Any FAIL; with unknownFails (compare --fail-on-unknown) also any unknown verdict: a gate that could
// judge nothing (the runs share no load, a run lacks the figure) must not pass silently.
bool gateFailed(const std::vector<GateVerdict>& verdicts, bool unknownFails = false);

// JUnit XML: one testsuite, one testcase per condition; FAIL as <failure>, unknown as <skipped> (as
// <failure> of type "unknown" with unknownFails), the verdict line as the testcase's <system-out>.
QByteArray gateJunitXml(
    const std::vector<GateVerdict>& verdicts, const SavedRun& base, const SavedRun& next, bool unknownFails = false);
QJsonArray gateJson(const std::vector<GateVerdict>& verdicts);

} // namespace kp
