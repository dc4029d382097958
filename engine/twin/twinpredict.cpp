#include "twin/twin.h"

#include "load/arrivalschedule.h"
#include "sim/simparameters.h"
#include "sim/simtimedriver.h"

#include <algorithm>
#include <cmath>

namespace kp::twin {

std::vector<RequestRecord> simulateRecords(
    const sim::SimParams& params, int replicas, LoadMode mode, double load, const std::vector<TwinRequest>& requests)
{
    sim::SimTimeDriver driver(params, replicas);
    // Each request once, in order: at its time (rate), or when a user's previous one ended (users).
    const auto send = [&](double atMs) {
        if (std::size_t(driver.sent()) >= requests.size())
            return;
        const TwinRequest& r = requests[std::size_t(driver.sent())];
        driver.sendAtModelMs(atMs, { r.promptTokens, r.outputTokens });
    };

    const bool closedLoop = mode == LoadMode::Concurrency;
    if (closedLoop) {
        const int users = int(std::clamp(load, 1.0, 1e6));
        for (int i = 0; i < users; ++i)
            send(0);
        driver.onRejected = [&send](qint64, double atMs) { send(atMs); };
        driver.onFinished = [&send](qint64, double endMs, qint64) { send(endMs); };
    } else {
        const bool replay = !requests.empty()
            && std::all_of(requests.begin(), requests.end(), [](const TwinRequest& r) { return r.sendMs >= 0; });
        if (replay) {
            for (std::size_t i = 0; i < requests.size(); ++i)
                send(requests[i].sendMs);
        } else {
            ArrivalOptions arrivals;
            arrivals.rate = load;
            for (qint64 at : ArrivalSchedule::offsetsNs(qint64(requests.size()), arrivals))
                send(double(at) / 1e6);
        }
    }
    driver.run();
    return driver.takeRecords();
}

StepMetrics simulateLoad(const sim::SimParams& params, int replicas, LoadMode mode, double load,
    const std::vector<TwinRequest>& requests, const MetricsOptions& metrics)
{
    const std::vector<RequestRecord> records = simulateRecords(params, replicas, mode, load, requests);
    const double durationS = double(StepMetrics::stepDurationNs(records)) / 1e9;
    return StepMetrics::fromRecords(records, durationS, metrics);
}

QString Adjustment::text() const
{
    return (multiply ? QStringLiteral("x") : QString()) + sim::simNumberText(value);
}

QStringList overridableParameters()
{
    return sim::adjustableSimParameters();
}

std::optional<Adjustment> parseAdjustment(const QString& assignment, const sim::SimParams& current, QString* error)
{
    const auto fail = [&](const QString& message) {
        *error = QStringLiteral("--set %1: %2").arg(assignment, message);
        return std::nullopt;
    };
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return fail(QStringLiteral("expected NAME=VALUE or NAME=xFACTOR (names: %1)")
                        .arg(overridableParameters().join(QStringLiteral(", "))));
    const QString name = assignment.left(eq).trimmed();
    QString value = assignment.mid(eq + 1).trimmed();
    const sim::SimParameter* parameter = sim::findSimParameter(name);
    if (!parameter || !parameter->adjustable)
        return fail(QStringLiteral("'%1' is not a parameter of the twin (parameters: %2)")
                        .arg(name, overridableParameters().join(QStringLiteral(", "))));
    Adjustment adjustment;
    adjustment.parameter = name;
    adjustment.multiply = value.startsWith(QLatin1Char('x')) || value.startsWith(QLatin1Char('X'));
    if (adjustment.multiply)
        value.remove(0, 1);
    bool ok = false;
    adjustment.value = value.toDouble(&ok);
    if (!ok || !std::isfinite(adjustment.value))
        return fail(QStringLiteral("'%1' is not a number; %2 must be %3, or xFACTOR for a multiple of its value (%4)")
                        .arg(value, name, sim::simParameterRange(*parameter),
                            QString::number(parameter->get(current), 'g', 12)));
    return adjustment;
}

QString applyAdjustment(sim::SimParams& params, const Adjustment& adjustment)
{
    const sim::SimParameter* parameter = sim::findSimParameter(adjustment.parameter);
    if (!parameter || !parameter->adjustable)
        return QStringLiteral("'%1' is not a parameter of the twin (parameters: %2)")
            .arg(adjustment.parameter, overridableParameters().join(QStringLiteral(", ")));
    const QString& name = adjustment.parameter;
    if (adjustment.multiply && !(adjustment.value > 0))
        return QStringLiteral("the factor must be above 0");
    double v = adjustment.multiply ? parameter->get(params) * adjustment.value : adjustment.value;
    if (parameter->type == sim::SimParameterType::Integer) {
        if (!adjustment.multiply && v != std::floor(v))
            return QStringLiteral("%1 must be %2").arg(name, sim::simParameterRange(*parameter));
        v = std::round(v);
    }
    if (!sim::simParameterValueError(*parameter, v).isEmpty())
        return QStringLiteral("%1 must be %2, got %3")
            .arg(name, sim::simParameterRange(*parameter), QString::number(v, 'g', 12));
    parameter->set(params, v);
    return {};
}

QString applyAdjustments(sim::SimParams& params, const std::vector<Adjustment>& adjustments)
{
    sim::SimParams next = params;
    for (const Adjustment& a : adjustments) {
        if (const QString error = applyAdjustment(next, a); !error.isEmpty())
            return error;
    }
    params = next;
    return {};
}

QString applyOverride(sim::SimParams& params, const QString& assignment)
{
    QString error;
    const std::optional<Adjustment> adjustment = parseAdjustment(assignment, params, &error);
    if (!adjustment)
        return error;
    if (const QString problem = applyAdjustment(params, *adjustment); !problem.isEmpty())
        return QStringLiteral("--set %1: %2").arg(assignment, problem);
    return {};
}

std::vector<SweepPoint> predict(const Twin& twin, const std::vector<PredictLoad>& loads, const PredictOptions& options)
{
    MetricsOptions metrics;
    metrics.percentiles = options.percentiles;
    std::vector<PredictLoad> sorted = loads;
    std::stable_sort(sorted.begin(), sorted.end(), [](const PredictLoad& a, const PredictLoad& b) {
        return a.mode != b.mode ? a.mode < b.mode : a.load < b.load;
    });
    const int count = options.requestsPerStep > 0 ? options.requestsPerStep : std::max(1, twin.requestsPerStep);
    const double burstiness = options.burstiness > 0 ? options.burstiness : twin.burstiness;
    std::vector<SweepPoint> points;
    for (const PredictLoad& load : sorted) {
        // The source's lengths in order, repeated; send times from the arrival schedule (rate) or none (users).
        std::vector<TwinRequest> requests;
        requests.reserve(std::size_t(count));
        for (int i = 0; i < count; ++i) {
            TwinRequest r = twin.workload.empty() ? TwinRequest { 200, 230, -1 }
                                                  : twin.workload[std::size_t(i) % twin.workload.size()];
            r.sendMs = -1;
            requests.push_back(r);
        }
        if (load.mode == LoadMode::Rate) {
            ArrivalOptions arrivals;
            arrivals.rate = load.load;
            arrivals.burstiness = burstiness;
            arrivals.seed = options.seed;
            const std::vector<qint64> at = ArrivalSchedule::offsetsNs(count, arrivals);
            for (std::size_t i = 0; i < at.size() && i < requests.size(); ++i)
                requests[i].sendMs = double(at[i]) / 1e6;
        }
        SweepPoint p;
        p.concurrencyMode = load.mode == LoadMode::Concurrency;
        p.offered = load.load;
        p.planned = count;
        p.metrics = simulateLoad(twin.params, options.replicas, load.mode, load.load, requests, metrics);
        points.push_back(std::move(p));
    }
    return points;
}

QString noRequestFits(const Twin& twin, const std::vector<SweepPoint>& points)
{
    qint64 failed = 0;
    for (const SweepPoint& p : points) {
        if (p.metrics.completed > 0)
            return {};
        failed += std::max<qint64>(0, p.metrics.failed);
    }
    if (points.empty() || failed == 0)
        return {};
    int largest = 0;
    for (const TwinRequest& r : twin.workload)
        largest = std::max(largest, r.promptTokens + r.outputTokens);
    QString text = QStringLiteral("no request completes at any load: all %1 predicted requests failed").arg(failed);
    if (largest > twin.params.kvCapacityTokens)
        text += QStringLiteral("; the KV cache holds %1 tokens (kv_capacity_tokens) and the largest request needs %2")
                    .arg(twin.params.kvCapacityTokens)
                    .arg(largest);
    return text;
}

} // namespace kp::twin
