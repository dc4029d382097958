#pragma once

// Internal to kneepoint_twin: the stages of fitTwin and what they share. twinfitsteps.cpp reads the
// measured steps and checks that they can be fitted, twinfitstart.cpp derives the start values from their
// records and summaries, twinfitmodel.cpp runs the model for one step's figures, and twinfit.cpp searches,
// bounds each parameter and words the result.

#include "sim/simparameters.h"
#include "twin/twin.h"

#include <QString>
#include <QStringList>

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace kp::twin::detail {

// The figures of a step the fit reads (twinfitsteps.cpp).
MetricsOptions fitMetricsOptions();
double pct(const LatencyStats& s, double p);
double ttft(const StepMetrics& m, double p);
double tpot(const StepMetrics& m);
// What a summary gives of a distribution's middle: the median, else the mean (vLLM's tables often quote
// the mean TPOT alone).
bool meanOnly(const LatencyStats& s);
double middle(const LatencyStats& s);
QString num(double v, int precision = 3);
QString loadWord(LoadMode mode, double load);

// The parameters the search moves, in the order it moves them: rows of the simulator's parameter table
// (twinfitmodel.cpp).
enum Param {
    TBase,
    PerDecode,
    PerPrefill,
    PerKv,
    PerWaiting,
    MaxNumSeqs,
    KvCapacity,
    PreEngine,
    PreEngineSpread,
    ApiServer,
    ParamCount
};

const std::array<const sim::SimParameter*, ParamCount>& fittedRows();
double get(const sim::SimParams& p, int i);
// Sets parameter i, clamped into its range (a cost that must be above 0 to 1e-6 at least), rounding the
// integer ones (the KV cache to whole blocks, at least one).
void set(sim::SimParams& p, int i, double v);
bool isInteger(int i);

// The figures the fit compares: one step through the model in simulated time (twinfitmodel.cpp).
StepMetrics simulateFigures(const sim::SimParams& params, const FitStep& step);

// The steps a fit uses, in load order, and what it reads off them before it starts (twinfitsteps.cpp).
struct MeasuredSteps
{
    std::vector<FitStep> steps; // completed requests at a finite load, sorted by the load
    LoadMode mode = LoadMode::Rate;
    bool haveRecords = false; // every step has request records
    std::size_t saturatedAt = 0; // the first step that served less than 90% of the first step's share
    double meanPrompt = 1, meanOutput = 1; // tokens, over every request of every step
    double maxLen = 0, maxPrompt = 0; // the longest request (prompt and output) and prompt
    double t0 = 0; // the lightest step's TPOT (its middle), else a guess from its TTFT
    double f0 = kUnknown; // the lightest step's TTFT (its middle)
};

// Empty, with `error` saying why, when the steps cannot identify the model: fewer than three, loads of
// both kinds, a rate step serving more than it was offered, or a sweep that never saturated.
std::optional<MeasuredSteps> measuredSteps(const std::vector<FitStep>& input, QString* error);

// What the steps' summaries say about the server, records or not (twinfitstart.cpp: fromSummaries).
struct SummaryEstimate
{
    bool ok = false;
    double tBaseMs = 0, perDecodeMs = 0, perKvTokenMs = 0, perPrefillTokenMs = 0, perWaitingMs = 0;
    double running = 0; // the most requests running at once (derived)
    double runningAt = 0; // at this load
    double peak = 0; // the highest throughput, req/s
    double lightTtft = kUnknown;
    double outsideMs = 0; // of the lightest TTFT, what the server's iterations do not explain (when prefillCapped)
    double preEngineMs = 0, preEngineSpreadMs = 0; // outsideMs as the latency before the engine
    double perWaitingDeepMs = 0; // the host's cost over the deepest queue (the heaviest step's P99 TTFT); 0: none
    bool prefillCapped = false; // the lightest step's TTFT says more prefill than the peak leaves room for
    bool hostBound = false;
};

// Where the search starts, what it moves besides the costs and the limits, and why each start is what it
// is (twinfitstart.cpp).
struct StartValues
{
    sim::SimParams params; // the start
    sim::SimParams heuristic; // the percentile guesses before the iteration fit: records' second start
    SummaryEstimate summary;
    bool fromSummary = false; // the start comes from the summaries (some step has no records)
    bool hasRegression = false; // the costs come from a least-squares fit of the records' iterations
    bool searchPreEngine = false; // the lightest step's TTFT asks for a latency before the engine
    bool searchApiServer = false; // the TTFT's growth below saturation asks for an API server's queue
    bool apiServerRefused = false; // the TTFT's growth is more than one API server's queue can give
    double apiScale = 0; // ms: the API server's time at which it alone would hold the measured peak
    std::vector<bool> impossible; // per step: a summary stating more throughput than a server can measure
    // Why each parameter starts where it does; said with its range.
    QString seqsNote, kvNote, costNote, waitingNote, preEngineNote, apiServerNote;
};

// The first estimates; what the fit should say of them goes to `notes`.
StartValues startValues(const MeasuredSteps& measured, QStringList* notes);

} // namespace kp::twin::detail
