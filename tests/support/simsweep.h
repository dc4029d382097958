#pragma once

// A sweep in simulated time: the profile's plan, the planner, the arrival schedule, the metrics and the
// analysis exactly as a real sweep uses them, with the simulator's pure model (SimModel, the engine
// behind kneepoint-sim) in place of the server and its clock. For tests of what the planner and the
// analysis decide; the few tests about the real clock and the real client run against the server.

#include "load/arrivalschedule.h"
#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "sim/simtimedriver.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kp::testing {

// One step against the model. timeScale: model time runs that many times faster than the client's
// clock, as the server's time_scale does. Every request is sent on schedule (the client is never the
// bottleneck here); rate steps follow ArrivalSchedule, concurrency steps are closed loops that start no
// request after durationS.
inline StepResult simulateStep(
    const sim::SimParams& params, double timeScale, const StepConfig& step, const MetricsOptions& metricsOptions)
{
    sim::SimTimeDriver driver(params, 1, timeScale);
    const auto send = [&](qint64 atNs) {
        const Prompt& prompt = step.prompts[static_cast<std::size_t>(driver.sent()) % step.prompts.size()];
        driver.sendAtNs(atNs, { prompt.promptTokens, prompt.outputTokens });
    };
    const bool closedLoop = step.mode == LoadMode::Concurrency;
    const qint64 stopSendingNs
        = step.durationS > 0 ? static_cast<qint64>(step.durationS * 1e9) : std::numeric_limits<qint64>::max();
    if (closedLoop) {
        for (int i = 0; i < std::min(step.concurrency, step.numPrompts); ++i)
            send(0);
        driver.onFinished = [&](qint64, double, qint64 endNs) {
            if (endNs < stopSendingNs && driver.sent() < step.numPrompts)
                send(endNs);
        };
    } else {
        ArrivalOptions arrivals;
        arrivals.rate = step.rate;
        arrivals.burstiness = step.burstiness;
        arrivals.seed = step.seed;
        for (qint64 at : ArrivalSchedule::offsetsNs(step.numPrompts, arrivals))
            send(at);
    }
    driver.run();
    std::vector<RequestRecord> records = driver.takeRecords();

    StepResult result;
    result.config = step;
    result.config.prompts.clear();
    qint64 lastEnd = 0;
    for (const RequestRecord& r : records)
        lastEnd = std::max(lastEnd, r.endNs);
    result.durationS = double(lastEnd) / 1e9;
    result.metrics = StepMetrics::fromRecords(records, result.durationS, metricsOptions);
    result.records = std::move(records);
    return result;
}

struct SimulatedSweep
{
    std::vector<StepResult> results;
    std::vector<SweepPoint> points; // the steps on the sweep's own axis, as the CLI and the window analyse them
    QString stopReason;
};

// The profile's whole sweep, its planner choosing each step from the ones done, as SweepRunner does.
inline SimulatedSweep simulateSweep(const Profile& profile, const sim::SimParams& params, double timeScale)
{
    SimulatedSweep sweep;
    PreparedSweep prepared = prepareSweep(profile);
    if (!prepared.ok()) {
        qWarning() << prepared.error;
        return sweep;
    }
    SweepConfig& config = prepared.config;
    std::vector<StepOutcome> outcomes;
    while (const std::optional<PlannedStep> planned = config.planner.next(outcomes)) {
        const StepConfig step = SweepRunner::makeStep(config, *planned, int(outcomes.size()));
        StepResult result = simulateStep(params, timeScale, step, config.metrics);
        StepOutcome outcome;
        outcome.step.mode = step.mode;
        outcome.step.load = step.mode == LoadMode::Rate ? step.rate : step.concurrency;
        outcome.step.purpose = step.purpose;
        outcome.metrics = result.metrics;
        outcomes.push_back(std::move(outcome));
        if (result.config.mode == profile.load.mode)
            sweep.points.push_back(SweepPoint::fromResult(result));
        sweep.results.push_back(std::move(result));
    }
    sweep.stopReason = config.planner.stopReason();
    return sweep;
}

} // namespace kp::testing
