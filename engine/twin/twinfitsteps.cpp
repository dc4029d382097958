#include "twin/twinfit_p.h"

#include "runs/importers.h"
#include "runs/savedrun.h"
#include "runs/steptimeline.h"

#include <algorithm>
#include <cmath>

// The measured steps as the fit reads them: a saved run's or other tools' steps turned into FitSteps, the
// figures it compares, and the checks that they can identify the model at all.

namespace kp::twin {

namespace detail {

MetricsOptions fitMetricsOptions()
{
    MetricsOptions m;
    m.percentiles = { 50, 90, 99 };
    return m;
}

double pct(const LatencyStats& s, double p)
{
    if (!s.reported() || s.count == 0)
        return kUnknown;
    if (const std::optional<double> v = s.percentile(p))
        return *v;
    if (p == 50)
        return s.median;
    return kUnknown;
}

double ttft(const StepMetrics& m, double p)
{
    return pct(m.ttft, p);
}
double tpot(const StepMetrics& m)
{
    return pct(m.tpot, 50);
}

bool meanOnly(const LatencyStats& s)
{
    return !isKnown(pct(s, 50)) && s.reported() && s.count != 0 && isKnown(s.mean);
}
double middle(const LatencyStats& s)
{
    return meanOnly(s) ? s.mean : pct(s, 50);
}

QString num(double v, int precision)
{
    return QString::number(v, 'g', precision);
}

QString loadWord(LoadMode mode, double load)
{
    return mode == LoadMode::Concurrency ? QStringLiteral("%1 users").arg(num(load))
                                         : QStringLiteral("%1 req/s").arg(num(load));
}

std::optional<MeasuredSteps> measuredSteps(const std::vector<FitStep>& input, QString* error)
{
    MeasuredSteps measured;
    std::vector<FitStep>& steps = measured.steps;
    for (const FitStep& s : input) {
        if (s.metrics.completed >= 1 && !s.requests.empty() && std::isfinite(s.offered) && s.offered > 0)
            steps.push_back(s);
    }
    if (steps.size() < 3) {
        *error = QStringLiteral("only %1 usable step%2 (completed requests at a finite load); a fit needs at least "
                                "3, one of them past saturation: sweep more loads")
                     .arg(steps.size())
                     .arg(steps.size() == 1 ? QString() : QStringLiteral("s"));
        return std::nullopt;
    }
    std::stable_sort(
        steps.begin(), steps.end(), [](const FitStep& a, const FitStep& b) { return a.offered < b.offered; });
    const LoadMode mode = steps.front().mode;
    for (const FitStep& s : steps) {
        if (s.mode != mode) {
            *error = QStringLiteral("the steps mix request rates and user counts (%1 and %2); fit one kind of sweep")
                         .arg(loadWord(steps.front().mode, steps.front().offered), loadWord(s.mode, s.offered));
            return std::nullopt;
        }
    }

    // Contradictory steps: a rate step cannot serve more than it was offered, beyond the Poisson
    // spread of its arrivals (three standard deviations of its request count).
    if (mode == LoadMode::Rate) {
        for (const FitStep& s : steps) {
            const double n = double(s.metrics.completed);
            if (s.metrics.requestThroughput > s.offered * (1 + 3 / std::sqrt(n))) {
                *error = QStringLiteral("the step at %1 measured %2 req/s, above the offered rate by more than "
                                        "its arrivals' spread: the steps contradict each other (check the offered "
                                        "rate the file gives for it, or leave the step out)")
                             .arg(loadWord(mode, s.offered), num(s.metrics.requestThroughput));
                return std::nullopt;
            }
        }
    }
    // The linear region alone identifies no limit: the share of the offered load served never fell
    // (the first step's share is the reference: a step's tail, its last requests' latency, lowers it a little).
    const double firstShare = steps.front().metrics.requestThroughput / steps.front().offered;
    const bool saturated = std::any_of(steps.begin(), steps.end(),
        [firstShare](const FitStep& s) { return s.metrics.requestThroughput / s.offered < 0.9 * firstShare; });
    if (!saturated) {
        const double top = steps.back().offered;
        const QString unit = mode == LoadMode::Concurrency ? QStringLiteral("users") : QStringLiteral("req/s");
        *error = QStringLiteral("the sweep never reached saturation (throughput kept rising with load up to %1 "
                                "%2); add loads above %1 %2")
                     .arg(num(top), unit);
        return std::nullopt;
    }

    const bool haveRecords = std::all_of(steps.begin(), steps.end(), [](const FitStep& s) { return s.fromRecords; });
    // The first step that served less than 90% of the share of its load the first step served.
    std::size_t saturatedAt = steps.size();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].metrics.requestThroughput / steps[i].offered < 0.9 * firstShare) {
            saturatedAt = i;
            break;
        }
    }

    // The requests' lengths, and the lightest step's TPOT and TTFT: it is nearly alone on the server, so its
    // TPOT is about one decode iteration and its TTFT one prefill.
    const FitStep& low = steps.front();
    double promptSum = 0, outputSum = 0, maxLen = 0, maxPrompt = 0;
    std::size_t count = 0;
    for (const FitStep& s : steps) {
        for (const TwinRequest& r : s.requests) {
            promptSum += r.promptTokens;
            outputSum += r.outputTokens;
            maxLen = std::max(maxLen, double(r.promptTokens + r.outputTokens));
            maxPrompt = std::max(maxPrompt, double(r.promptTokens));
            ++count;
        }
    }
    const double meanPrompt = std::max(1.0, promptSum / double(count));
    const double meanOutput = std::max(1.0, outputSum / double(count));
    double t0 = middle(low.metrics.tpot);
    const double f0 = middle(low.metrics.ttft);
    if (!(t0 > 0))
        t0 = isKnown(f0) && f0 > 0 ? f0 / 2 : 10.0;

    measured.mode = mode;
    measured.haveRecords = haveRecords;
    measured.saturatedAt = saturatedAt;
    measured.meanPrompt = meanPrompt;
    measured.meanOutput = meanOutput;
    measured.maxLen = maxLen;
    measured.maxPrompt = maxPrompt;
    measured.t0 = t0;
    measured.f0 = f0;
    return measured;
}

} // namespace detail

using namespace detail;

FitStep fitStepFromRecords(LoadMode mode, double offered, double burstiness, const std::vector<RequestRecord>& records)
{
    FitStep s;
    s.mode = mode;
    s.offered = offered;
    s.burstiness = burstiness;
    s.fromRecords = true;
    const double durationS = double(StepMetrics::stepDurationNs(records)) / 1e9;
    s.metrics = StepMetrics::fromRecords(records, durationS, fitMetricsOptions());
    for (const RequestRecord& r : records) {
        if (r.failure != FailureClass::None || r.firstTokenNs < 0 || r.outputTokens < 1 || r.promptTokens < 1)
            continue;
        s.records.push_back(r);
        const qint64 at = r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs;
        s.requests.push_back(TwinRequest { r.promptTokens, r.outputTokens, at >= 0 ? double(at) / 1e6 : -1 });
    }
    std::stable_sort(s.requests.begin(), s.requests.end(),
        [](const TwinRequest& a, const TwinRequest& b) { return a.sendMs < b.sendMs; });
    return s;
}

FitStep fitStepFromSummary(LoadMode mode, double offered, double burstiness, const StepMetrics& m)
{
    // The lengths' means, sent on the arrival schedule of the offered rate.
    FitStep fs;
    fs.mode = mode;
    fs.offered = offered;
    fs.burstiness = burstiness;
    fs.metrics = m;
    if (m.completed < 1)
        return fs;
    const int prompt = int(std::max<qint64>(1, m.totalInputTokens / m.completed));
    const int output = int(std::max<qint64>(1, m.totalOutputTokens / m.completed));
    fs.requests.assign(std::size_t(m.completed + std::max<qint64>(0, m.failed)), TwinRequest { prompt, output, -1 });
    // A table without end-to-end latencies (vLLM's default) gives no concurrency: Little's law gives it from
    // the throughput and a request's time in the system, TTFT + TPOT × (output − 1), marked derived.
    const double e2el = middle(m.ttft) + middle(m.tpot) * (output - 1);
    if (!isKnown(m.meanConcurrency) && isKnown(e2el) && m.requestThroughput > 0) {
        fs.metrics.meanConcurrency = m.requestThroughput * e2el / 1000;
        if (std::find(fs.metrics.derived.begin(), fs.metrics.derived.end(), QStringLiteral("concurrency"))
            == fs.metrics.derived.end())
            fs.metrics.derived.push_back(QStringLiteral("concurrency"));
    }
    return fs;
}

std::vector<FitStep> fitSteps(const ImportedCurve& curve, QStringList* notes)
{
    std::vector<FitStep> steps;
    for (const ImportedFileStep& step : curve.steps) {
        const QString where = QStringLiteral("%1: step at %2").arg(step.sourceFile, loadWord(step.mode, step.offered));
        FitStep fs;
        // Records that keep their send times replay exactly; the others (latencies only) and summaries
        // are sent as the mean lengths at the offered rate.
        if (!step.records.empty() && !step.recordsWithoutSendTimes)
            fs = fitStepFromRecords(step.mode, step.offered, step.setup.burstiness, step.records);
        else
            fs = fitStepFromSummary(step.mode, step.offered, step.setup.burstiness, step.metrics);
        if (fs.metrics.completed < 1) {
            notes->append(QStringLiteral("%1: left out, no request completed").arg(where));
            continue;
        }
        steps.push_back(std::move(fs));
    }
    return steps;
}

std::vector<FitStep> fitSteps(const SavedRun& run, QStringList* notes)
{
    std::vector<FitStep> steps;
    for (const SavedStep& step : run.steps) {
        const QString where = QStringLiteral("%1: step %2 (%3)").arg(run.id).arg(step.index).arg(step.load);
        if (step.partial || step.clientBound) {
            notes->append(QStringLiteral("%1: left out, %2")
                              .arg(where,
                                  step.partial ? QStringLiteral("it was stopped before every request ended")
                                               : QStringLiteral("the client could not keep to the schedule")));
            continue;
        }
        FitStep fs;
        if (!step.requestsPath.isEmpty()) {
            std::vector<RequestRecord> records;
            QString error;
            QStringList skipped;
            const bool read = readRequestRecords(step.requestsPath, &records, &error, &skipped);
            for (const QString& s : skipped)
                notes->append(QStringLiteral("%1: %2").arg(where, s));
            if (!read) {
                notes->append(QStringLiteral("%1: left out, %2").arg(where, error));
                continue;
            }
            // Only the records within the step's time, as on its timeline: the fit replays the sends
            // and simulates every iteration up to the last, so one wrong time (1e9 s) would run on.
            const qint64 bound = StepTimeline::boundNs(step.metrics.durationS);
            const auto outside = std::stable_partition(records.begin(), records.end(),
                [bound](const RequestRecord& r) { return StepTimeline::within(r, bound); });
            if (outside != records.end()) {
                notes->append(QStringLiteral("%1: %2: %3 record%4 with a time past %5 s into the step (its duration, "
                                             "%6 s for the drain) left out")
                                  .arg(where, step.requestsPath)
                                  .arg(records.end() - outside)
                                  .arg(records.end() - outside == 1 ? QString() : QStringLiteral("s"))
                                  .arg(bound / 1000000000)
                                  .arg(StepTimeline::kDrainMarginS));
                records.erase(outside, records.end());
            }
            fs = fitStepFromRecords(step.mode, step.offered, step.setup.burstiness, records);
        } else {
            if (step.metrics.completed < 1) {
                notes->append(QStringLiteral("%1: left out, no request completed").arg(where));
                continue;
            }
            fs = fitStepFromSummary(step.mode, step.offered, step.setup.burstiness, step.metrics);
        }
        fs.server = step.server;
        if (fs.metrics.completed < 1) {
            notes->append(QStringLiteral("%1: left out, no request completed").arg(where));
            continue;
        }
        steps.push_back(std::move(fs));
    }
    return steps;
}

} // namespace kp::twin
