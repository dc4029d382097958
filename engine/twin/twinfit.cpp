#include "twin/twinfit_p.h"

#include "metrics/requestlatencies.h"
#include "metrics/stepintervals.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <utility>

// fitTwin: the measured steps (twinfitsteps.cpp) and the start values (twinfitstart.cpp), then the objective,
// the search, each parameter's range and the result's notes.

namespace kp::twin {

using namespace detail;

namespace {

// The objective: relative throughput error (weighted: it is what capacity planning reads) and the
// log-ratios of P50/P99 TTFT and P50 TPOT (the mean where a summary gives only the mean), averaged
// over the steps. Counts its evaluations: the search's budget.
class Objective
{
public:
    Objective(const MeasuredSteps& measured, const StartValues& start)
        : m_steps(measured.steps)
        // Summaries state their throughput more surely than anything else (a latency of the mean request stands
        // for a spread the twin does not see): it weighs four times as much again there.
        , m_throughputWeight(measured.haveRecords ? 4 : 16)
        , m_ttftWeights(m_steps.size(), 1.0)
        // The cache must hold the longest request the steps sent (the server served it).
        , m_kvFloor(int(std::ceil((measured.maxLen + 1) / (1 - start.params.kvWatermark))) + 2 * start.params.blockSize)
    {
        const std::vector<FitStep>& steps = m_steps;
        const std::vector<bool>& impossible = start.impossible;
        std::vector<double>& ttftWeights = m_ttftWeights;
        const bool fromSummary = start.fromSummary;
        // Past the measured peak a summary's TTFTs are those of the step's queue, which its mean request on the offered
        // rate's schedule says little about (the lengths' spread and the real send times decide how deep it gets):
        // there they weigh a quarter, the throughput as before.
        if (fromSummary) {
            std::size_t peakAt = 0;
            for (std::size_t i = 0; i < steps.size(); ++i) {
                if (steps[i].metrics.requestThroughput > steps[peakAt].metrics.requestThroughput)
                    peakAt = i;
            }
            for (std::size_t i = peakAt + 1; i < steps.size(); ++i)
                ttftWeights[i] = 0.25;
            for (std::size_t i = 0; i < steps.size(); ++i) {
                if (impossible[i])
                    ttftWeights[i] = 0.25;
            }
        }
    }

    double operator()(const sim::SimParams& q)
    {
        if (q.kvCapacityTokens < m_kvFloor)
            return std::numeric_limits<double>::infinity();
        ++m_evaluations;
        double e = 0;
        for (std::size_t i = 0; i < m_steps.size(); ++i)
            e += stepError(simulateFigures(q, m_steps[i]), m_steps[i].metrics, m_ttftWeights[i]);
        return e / double(m_steps.size());
    }

    int evaluations() const { return m_evaluations; }
    int kvFloor() const { return m_kvFloor; }

private:
    double stepError(const StepMetrics& pred, const StepMetrics& meas, double ttftWeight) const
    {
        const double throughputWeight = m_throughputWeight;
        double e = 0;
        if (meas.requestThroughput > 0) {
            const double r = (pred.requestThroughput - meas.requestThroughput) / meas.requestThroughput;
            e += throughputWeight * r * r;
        }
        const auto logTerm = [&e](double a, double b, double weight = 1) {
            if (isKnown(a) && isKnown(b) && a > 0 && b > 0) {
                const double l = std::log(a / b);
                e += weight * l * l;
            }
        };
        const auto mid = [](const LatencyStats& predicted, const LatencyStats& measured) {
            return meanOnly(measured) ? predicted.mean : pct(predicted, 50);
        };
        logTerm(mid(pred.ttft, meas.ttft), middle(meas.ttft), ttftWeight);
        logTerm(ttft(pred, 99), ttft(meas, 99), ttftWeight);
        logTerm(mid(pred.tpot, meas.tpot), middle(meas.tpot));
        return e;
    }

    const std::vector<FitStep>& m_steps;
    double m_throughputWeight;
    std::vector<double> m_ttftWeights;
    int m_kvFloor;
    int m_evaluations = 0;
};

// Coordinate search in log space: each parameter tries a step up and down; a success widens its
// step, a failure halves it; integers move by at least one. Bounded by `budget` evaluations.
std::pair<sim::SimParams, double> localSearch(Objective& objective, const MeasuredSteps& measured,
    const StartValues& start, sim::SimParams x, double best, int budget)
{
    const bool searchPreEngine = start.searchPreEngine, searchApiServer = start.searchApiServer;
    const double t0 = measured.t0, apiScale = start.apiScale;
    std::array<double, ParamCount> stepLog;
    stepLog.fill(std::log(1.5));
    const double minStep = std::log(1.003);
    while (objective.evaluations() < budget) {
        bool moved = false, active = false;
        for (int i = 0; i < ParamCount && objective.evaluations() < budget; ++i) {
            if ((i == PreEngine || i == PreEngineSpread) && !searchPreEngine)
                continue;
            if (i == ApiServer && !searchApiServer)
                continue;
            if (stepLog[std::size_t(i)] < minStep && !isInteger(i))
                continue;
            if (isInteger(i) && stepLog[std::size_t(i)] < minStep / 4)
                continue;
            active = true;
            bool improved = false;
            for (const int sign : { +1, -1 }) {
                sim::SimParams q = x;
                const double v = get(x, i);
                double target = std::max(1e-9, v) * std::exp(sign * stepLog[std::size_t(i)]);
                // A latency at 0 tries a tenth of an iteration.
                if ((i == PreEngine || i == PreEngineSpread) && v <= 0)
                    target = sign > 0 ? 0.1 * t0 : 0.0;
                if (i == ApiServer && v <= 0)
                    target = sign > 0 ? 0.1 * apiScale : 0.0;
                set(q, i, target);
                if (isInteger(i) && get(q, i) == v)
                    set(q, i, v + sign * (i == KvCapacity ? x.blockSize : 1));
                if (get(q, i) == v)
                    continue;
                const double e = objective(q);
                if (e < best) {
                    best = e;
                    x = q;
                    improved = true;
                    break;
                }
            }
            if (improved) {
                stepLog[std::size_t(i)] = std::min(std::log(4.0), stepLog[std::size_t(i)] * 1.5);
                moved = true;
            } else {
                stepLog[std::size_t(i)] *= 0.5;
            }
        }
        if (!active || (!moved && *std::max_element(stepLog.begin(), stepLog.end()) < minStep / 4))
            break;
    }
    return std::pair(x, best);
}

struct Start
{
    sim::SimParams params;
    double error = 0;
    bool apiServer = false; // a variant with the API server's queue
};

// The summaries' starts of the global search: around their estimates, the batch limit at 1 to 1.6 times the requests
// running at the plateau by Little's law (a mean over the step, ramp and drain included: the peak batch is larger), set
// by max_num_seqs (a cache twice as large) or by the cache (max_num_seqs four times as large), each with the host's
// cost per waiting request at its estimate, a tenth and a hundredth of it, and at its estimate over the deepest queue
// (the heaviest step's P99 TTFT) where the heaviest step is host-bound.
std::vector<Start> searchStarts(const MeasuredSteps& measured, const StartValues& start, int kvFloor)
{
    const sim::SimParams& p = start.params;
    const SummaryEstimate& summary = start.summary;
    const double meanPrompt = measured.meanPrompt, meanOutput = measured.meanOutput;
    const bool searchApiServer = start.searchApiServer, apiServerRefused = start.apiServerRefused;
    const double apiScale = start.apiScale;
    std::vector<Start> starts;
    starts.push_back({ p, 0 });
    if (start.fromSummary && summary.running >= 1) {
        const sim::SimParams base = p;
        const double context = meanPrompt + meanOutput / 2 + p.blockSize / 2.0;
        const double waiting = summary.perWaitingMs;
        for (const double f : { 1.0, 1.25, 1.6 }) {
            const double running = std::max(1.0, f * summary.running);
            for (const bool cacheBound : { false, true }) {
                sim::SimParams q = base;
                set(q, MaxNumSeqs, cacheBound ? 4 * running : running);
                set(q, KvCapacity,
                    std::max<double>(kvFloor,
                        cacheBound ? running * context / (1 - q.kvWatermark)
                                   : 2 * running * (meanPrompt + meanOutput)));
                for (const double w : { 1.0, 0.1, 0.01 }) {
                    set(q, PerWaiting, waiting * w);
                    starts.push_back({ q, 0 });
                }
                if (summary.perWaitingDeepMs > 0) {
                    set(q, PerWaiting, summary.perWaitingDeepMs);
                    starts.push_back({ q, 0 });
                }
            }
        }
        // Each start again with an API server's queue: half the time its growth asks for, else (none asked) half
        // the time at which it alone would hold the peak. The best of these is searched besides the best two.
        if (searchApiServer && !apiServerRefused) {
            for (std::size_t k = 0, screened = starts.size(); k < screened; ++k) {
                sim::SimParams q = starts[k].params;
                set(q, ApiServer, q.apiServerMs > 0 ? q.apiServerMs / 2 : apiScale / 2);
                starts.push_back({ q, 0, true });
            }
        }
    }
    return starts;
}

struct Fitted
{
    sim::SimParams params;
    double error = 0; // the objective there
    bool fromRecordsStart = false; // the best start was the records' iteration fit
};

// Records: a local search from the iteration fit and, when that is off, from the percentile guesses.
// Summaries: a global search before the local one: several starts, each run once, and the local search
// from the best two.
Fitted searchFit(
    Objective& objective, const MeasuredSteps& measured, const StartValues& start, const FitOptions& options)
{
    const sim::SimParams& p = start.params;
    const auto search = [&](const sim::SimParams& x, double best, int budget) {
        return localSearch(objective, measured, start, x, best, budget);
    };
    sim::SimParams fitted = p;
    double best = 0;
    bool fromRecordsStart = start.hasRegression;
    if (!start.fromSummary) {
        // From the iteration fit and, when that is off, from the percentile guesses too: the better one wins.
        // Each search's budget counts from before its start's own evaluation.
        const int budget = objective.evaluations() + options.maxEvaluations;
        std::tie(fitted, best) = search(p, objective(p), budget);
        if (start.hasRegression && best > 0.01) {
            sim::SimParams heuristic = start.heuristic;
            heuristic.maxNumSeqs = p.maxNumSeqs;
            heuristic.kvCapacityTokens = p.kvCapacityTokens;
            const int otherBudget = objective.evaluations() + options.maxEvaluations;
            const auto [other, otherBest] = search(heuristic, objective(heuristic), otherBudget);
            if (otherBest < best) {
                fitted = other;
                best = otherBest;
                fromRecordsStart = false;
            }
        }
        return { fitted, best, fromRecordsStart };
    }
    std::vector<Start> starts = searchStarts(measured, start, objective.kvFloor());
    for (Start& s : starts)
        s.error = objective(s.params);
    std::stable_sort(starts.begin(), starts.end(), [](const Start& a, const Start& b) { return a.error < b.error; });
    std::vector<const Start*> chosen;
    // Starts that score the same (a parameter that did not matter there) are one start.
    for (const Start& s : starts) {
        const bool again = std::any_of(chosen.begin(), chosen.end(),
            [&s](const Start* c) { return std::abs(c->error - s.error) <= 1e-9 * std::max(1.0, s.error); });
        if (!again && chosen.size() < 2 && !s.apiServer)
            chosen.push_back(&s);
    }
    const auto variant = std::find_if(starts.begin(), starts.end(), [](const Start& s) { return s.apiServer; });
    if (variant != starts.end() && !chosen.empty() && chosen.front()->error > variant->error)
        chosen.insert(chosen.begin(), &*variant);
    else if (variant != starts.end())
        chosen.push_back(&*variant);
    if (!chosen.empty()) {
        fitted = chosen.front()->params;
        best = chosen.front()->error;
        const int perStart = std::max(1, options.maxEvaluations / 4);
        for (const Start* s : chosen) {
            const auto [x, e] = search(s->params, s->error, objective.evaluations() + perStart);
            if (e < best) {
                fitted = x;
                best = e;
            }
        }
        // The best of them searched on, with the rest of the budget.
        std::tie(fitted, best) = search(fitted, best, objective.evaluations() + options.maxEvaluations - perStart);
    }
    return { fitted, best, fromRecordsStart };
}

// The profile scan of parameter i around the fit p: the range over which the error stays below
// `threshold` when the parameter alone moves.
ParameterFit parameterRange(Objective& objective, const MeasuredSteps& measured, const StartValues& start,
    const sim::SimParams& p, int i, double threshold)
{
    const double t0 = measured.t0, f0 = measured.f0, apiScale = start.apiScale;
    static constexpr double factors[] = { 1.02, 1.05, 1.1, 1.2, 1.5, 2, 4 };
    ParameterFit f;
    f.key = QString::fromLatin1(fittedRows()[std::size_t(i)]->key);
    f.value = get(p, i);
    const bool latency = i == PreEngine || i == PreEngineSpread || i == ApiServer;
    if (latency && f.value <= 0) {
        // A latency at 0 cannot be scaled: tried at fractions of the lightest step's TTFT instead (the API
        // server's time: of the time at which it alone would hold the measured peak). It is bounded above where
        // the error passes the threshold, and by 0 below.
        const double scale = i == ApiServer ? apiScale : isKnown(f0) && f0 > 0 ? f0 : t0;
        double within = 0;
        for (const double fraction : { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0 }) {
            sim::SimParams q = p;
            set(q, i, fraction * scale);
            if (objective(q) > threshold) {
                f.hi = within;
                f.lo = 0.0;
                break;
            }
            within = get(q, i);
        }
    }
    for (const int sign : { +1, -1 }) {
        if (latency && f.value <= 0)
            break;
        std::optional<double> bound;
        double within = f.value;
        for (const double factor : factors) {
            sim::SimParams q = p;
            set(q, i, f.value * (sign > 0 ? factor : 1 / factor));
            if (isInteger(i) && get(q, i) == f.value)
                continue;
            if (objective(q) > threshold) {
                bound = within;
                break;
            }
            within = get(q, i);
        }
        (sign > 0 ? f.hi : f.lo) = bound;
    }
    f.identified = f.lo || f.hi;
    return f;
}

// Why parameter i starts where it did, and what its range says of it.
QString parameterNote(const ParameterFit& range, int i, const StartValues& start)
{
    const bool latency = i == PreEngine || i == PreEngineSpread || i == ApiServer;
    const QString &seqsNote = start.seqsNote, &costNote = start.costNote, &kvNote = start.kvNote,
                  &waitingNote = start.waitingNote, &apiServerNote = start.apiServerNote,
                  &preEngineNote = start.preEngineNote;
    ParameterFit f = range;
    if (i == MaxNumSeqs)
        f.note = seqsNote;
    else if (i <= PerKv)
        f.note = costNote;
    else if (i == KvCapacity)
        f.note = kvNote;
    else if (i == PerWaiting)
        f.note = waitingNote;
    else if (i == ApiServer)
        f.note = f.value > 0 ? apiServerNote
                             : QStringLiteral("0: the median TTFT does not grow with the load below saturation "
                                              "beyond what the server's iterations explain");
    else if (latency)
        f.note = f.value > 0 ? preEngineNote
                             : QStringLiteral("0: the lightest step's TTFT is what the server's iterations explain");
    if (!f.identified) {
        f.note = i == ApiServer && f.value <= 0
            ? QStringLiteral("the fit error does not change up to the time at which the API server alone would "
                             "hold the measured peak: the data do not identify it")
            : latency && f.value <= 0
            ? QStringLiteral("the fit error does not change up to the lightest step's TTFT: the data do not "
                             "identify it")
            : QStringLiteral("the fit error does not change over x1/4 to x4: the data do not identify it");
    } else if (!f.hi && latency) {
        f.note += QStringLiteral("; a lower bound only: more of it changes the fit too little");
    } else if (!f.hi) {
        f.note += (f.note.isEmpty() ? QString() : QStringLiteral("; "))
            + QStringLiteral("a lower bound only: it never limited the measured steps");
    }
    return f.note;
}

// A parameter the data cannot identify, kept at the simulator's default.
void addAssumed(Twin& twin, const sim::SimParams& p, const char* key, const QString& why)
{
    ParameterFit f;
    f.key = QString::fromLatin1(key);
    f.value = sim::findSimParameter(f.key)->get(p);
    f.identified = false;
    f.note = why;
    twin.parameters.push_back(f);
    twin.unidentified.append(f.key);
}

// Each step's measured figures beside the twin's, and the twin's figures in full (for the analysis).
std::vector<StepFitQuality> stepQuality(
    const std::vector<FitStep>& steps, const sim::SimParams& p, std::vector<StepMetrics>* predicted)
{
    std::vector<StepFitQuality> quality;
    const MetricsOptions metrics = fitMetricsOptions();
    for (const FitStep& s : steps) {
        const StepMetrics pred = simulateLoad(p, 1, s.mode, s.offered, s.requests, metrics);
        StepFitQuality q;
        q.mode = s.mode;
        q.offered = s.offered;
        q.measuredRps = s.metrics.requestThroughput;
        q.predictedRps = pred.requestThroughput;
        q.measuredTtftP50 = ttft(s.metrics, 50);
        q.predictedTtftP50 = ttft(pred, 50);
        q.measuredTtftP99 = ttft(s.metrics, 99);
        q.predictedTtftP99 = ttft(pred, 99);
        q.measuredTpotP50 = tpot(s.metrics);
        q.predictedTpotP50 = tpot(pred);
        quality.push_back(q);
        predicted->push_back(pred);
    }
    return quality;
}

// The bounds the twin's forecasts are read with: its figures for the measured steps within them, or said.
constexpr double kThroughputBound = 0.10;
constexpr double kTailBound = 0.25;

// How far a predicted figure lies outside the measured one's 95% interval, as predicted/end − 1 (0 inside it).
double offBy(double predicted, const Interval& measured)
{
    if (!isKnown(predicted) || !isKnown(measured.low) || !isKnown(measured.high) || measured.low <= 0)
        return 0;
    return predicted > measured.high ? predicted / measured.high - 1
        : predicted < measured.low   ? predicted / measured.low - 1
                                     : 0;
}

// The measured P99 TTFT's 95% interval: the step's own where it carries one (a run's bootstrap), else a seeded
// percentile bootstrap of its requests' TTFTs alone (bootstrapIntervals recomputes every figure of every resample,
// far more than this needs), widened to hold the point; the point alone for a summary. A P99 of a few hundred
// requests is their few slowest.
Interval tailInterval(const FitStep& s)
{
    const double point = ttft(s.metrics, 99);
    Interval out { point, point };
    if (const std::optional<Interval> own = s.metrics.intervals.find(u"p99_ttft_ms"); own && isKnown(point))
        return { std::min(point, own->low), std::max(point, own->high) };
    std::vector<double> ttfts;
    const MetricsOptions options = fitMetricsOptions();
    for (const RequestRecord& r : s.records) {
        if (const RequestLatencies l = RequestLatencies::of(r, options); l.hasTtft)
            ttfts.push_back(l.ttftMs);
    }
    if (ttfts.size() < 2 || !isKnown(point))
        return out;
    constexpr int kResamples = 200;
    std::mt19937_64 rng(kBootstrapSeed);
    std::uniform_int_distribution<std::size_t> pick(0, ttfts.size() - 1);
    std::vector<double> tails, sample(ttfts.size());
    for (int k = 0; k < kResamples; ++k) {
        for (double& v : sample)
            v = ttfts[pick(rng)];
        std::sort(sample.begin(), sample.end());
        tails.push_back(LatencyStats::numpyPercentile(sample, 99));
    }
    std::sort(tails.begin(), tails.end());
    out.low = std::min(point, LatencyStats::numpyPercentile(tails, 2.5));
    out.high = std::max(point, LatencyStats::numpyPercentile(tails, 97.5));
    return out;
}

// "10 req/s (+27%), 100 req/s (−31%)": the loads whose miss passes `bound`; empty where none does.
QString misses(const std::vector<StepFitQuality>& steps, const std::vector<double>& off, double bound)
{
    QStringList where;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (std::abs(off[i]) > bound)
            where << QStringLiteral("%1 (%2%3%)")
                         .arg(loadWord(steps[i].mode, steps[i].offered),
                             off[i] > 0 ? QStringLiteral("+") : QStringLiteral("−"))
                         .arg(std::lround(std::abs(off[i]) * 100));
    }
    return where.join(QStringLiteral(", "));
}

// A finding's load, or "none".
Sentence findingLoad(const Finding& f, LoadMode mode)
{
    return f.found ? Sentence::plain(loadWord(mode, f.offered)) : sentence("Twin", "none");
}

// Where the twin does not reproduce the measured steps: their throughput or P99 TTFT beyond the bounds, and the
// knee or saturation the project's analysis finds on the twin's figures for the same loads against the measured.
QList<Sentence> disagreements(const std::vector<FitStep>& steps, const std::vector<StepFitQuality>& quality,
    const std::vector<StepMetrics>& predicted, const AnalysisOptions& options)
{
    QList<Sentence> out;
    std::vector<double> throughputOff, tailOff;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepFitQuality& q = quality[i];
        throughputOff.push_back(offBy(q.predictedRps, { q.measuredRps, q.measuredRps }));
        tailOff.push_back(offBy(q.predictedTtftP99, tailInterval(steps[i])));
    }
    if (const QString where = misses(quality, throughputOff, kThroughputBound); !where.isEmpty()) {
        out << sentence("Twin",
            "The twin's throughput misses the measured by more than %1% at %2: its forecasts of "
            "throughput near those loads are no closer.")
                   .arg(std::lround(kThroughputBound * 100))
                   .arg(where);
    }
    if (const QString where = misses(quality, tailOff, kTailBound); !where.isEmpty()) {
        const bool intervals
            = std::any_of(steps.begin(), steps.end(), [](const FitStep& s) { return !s.records.empty(); });
        out << (intervals ? sentence("Twin",
                    "The twin's P99 TTFT misses the measured one's 95% interval (from the step's "
                    "requests) by more than %1% at %2: its forecasts of the tail near those "
                    "loads are no closer.")
                          : sentence("Twin",
                              "The twin's P99 TTFT misses the measured by more than %1% at %2: its "
                              "forecasts of the tail near those loads are no closer."))
                   .arg(std::lround(kTailBound * 100))
                   .arg(where);
    }
    std::vector<SweepPoint> measuredPoints, predictedPoints;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        SweepPoint point;
        point.offered = steps[i].offered;
        point.concurrencyMode = steps[i].mode == LoadMode::Concurrency;
        point.metrics = steps[i].metrics;
        measuredPoints.push_back(point);
        point.metrics = predicted[i];
        predictedPoints.push_back(point);
    }
    const AnalysisResult measured = KneeAnalysis::analyze(measuredPoints, options);
    const AnalysisResult twin = KneeAnalysis::analyze(predictedPoints, options);
    const LoadMode mode = steps.front().mode;
    const auto same
        = [](const Finding& a, const Finding& b) { return a.found == b.found && (!a.found || a.offered == b.offered); };
    if (!same(measured.knee, twin.knee)) {
        out << sentence("Twin",
            "The measured steps put the knee at %1, the twin's figures for them at %2: its "
            "forecast of where latency turns is that far off.")
                   .arg(findingLoad(measured.knee, mode), findingLoad(twin.knee, mode));
    }
    if (!same(measured.saturation, twin.saturation)) {
        out << sentence("Twin", "The measured steps saturate at %1, the twin's figures for them at %2.")
                   .arg(findingLoad(measured.saturation, mode), findingLoad(twin.saturation, mode));
    }
    return out;
}

void setWorkload(Twin& twin, const std::vector<FitStep>& steps)
{
    // The workload predictions replay: every step's requests in order (at most 5000), the median step size.
    std::vector<int> sizes;
    for (const FitStep& s : steps) {
        sizes.push_back(int(s.requests.size()));
        for (const TwinRequest& r : s.requests) {
            if (twin.workload.size() < 5000)
                twin.workload.push_back(TwinRequest { r.promptTokens, r.outputTokens, -1 });
        }
    }
    std::nth_element(sizes.begin(), sizes.begin() + std::ptrdiff_t(sizes.size() / 2), sizes.end());
    twin.requestsPerStep = sizes[sizes.size() / 2];
    twin.burstiness = steps.front().burstiness > 0 ? steps.front().burstiness : 1.0;
}

} // namespace

FitResult fitTwin(const std::vector<FitStep>& input, const QStringList& sourceRuns, const FitOptions& options)
{
    FitResult out;
    const std::optional<MeasuredSteps> measured = measuredSteps(input, &out.error);
    if (!measured)
        return out;
    const std::vector<FitStep>& steps = measured->steps;
    StartValues start = startValues(*measured, &out.notes);
    Objective objective(*measured, start);
    const Fitted fitted = searchFit(objective, *measured, start, options);
    if (start.hasRegression && !fitted.fromRecordsStart)
        start.costNote = QStringLiteral("started from the lightest step's TTFT and TPOT (a better fit than the one "
                                        "from the iteration times)");
    const sim::SimParams& p = fitted.params;
    const double best = fitted.error;

    Twin twin;
    twin.params = p;
    twin.fitError = best;
    twin.sourceRuns = sourceRuns;
    twin.uncertaintyMethod = QStringLiteral(
        "profile scan: the range over which the fit error stays within 10% of its minimum when the parameter alone "
        "moves (tested at x1.02, x1.05, x1.1, x1.2, x1.5, x2, x4 and their inverses); an open side is not bounded "
        "by the data");

    // The uncertainty scan.
    const double threshold = std::max(best * 1.1, best + 1e-4);
    for (int i = 0; i < ParamCount; ++i) {
        ParameterFit f = parameterRange(objective, *measured, start, p, i, threshold);
        f.note = parameterNote(f, i, start);
        if (!f.identified)
            twin.unidentified.append(f.key);
        twin.parameters.push_back(f);
    }
    addAssumed(twin, p, "max_num_batched_tokens",
        QStringLiteral("assumed: chunked prefill of prompts this short never reaches the budget"));
    addAssumed(twin, p, "block_size", QStringLiteral("assumed: vLLM's default"));
    addAssumed(twin, p, "kv_watermark", QStringLiteral("assumed: vLLM's default"));
    if (!measured->haveRecords) {
        out.notes.append(QStringLiteral("some steps have no request records (an imported summary): their requests "
                                        "are taken as equal to the mean prompt and output lengths, sent at the "
                                        "offered rate"));
    }

    std::vector<StepMetrics> predicted;
    twin.steps = stepQuality(steps, p, &predicted);
    twin.disagreements = disagreements(steps, twin.steps, predicted, options.analysis);
    for (const Sentence& d : twin.disagreements)
        out.notes.append(d.english());
    twin.evaluations = objective.evaluations();
    setWorkload(twin, steps);
    out.twin = std::move(twin);
    return out;
}

} // namespace kp::twin
