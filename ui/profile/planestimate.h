#pragma once

#include "profile/profile.h"
#include "sweep/sweepplanner.h"

#include <QString>

#include <optional>
#include <vector>

namespace kp::ui {

// One step of the plan with what can be known about it before anything runs.
struct StepEstimate
{
    PlannedStep step;
    bool loadKnown = true; // false for auto steps whose load is chosen from measured floor and ceiling
    std::optional<qint64> requests; // measured requests; nullopt: depends on the server
    std::optional<double> sendingS; // time to send them at the offered rate; nullopt: depends on the server
};

// What a sweep will cost, as far as the profile says: the coarse pass, without refinement and
// repeats (those depend on the results). Mirrors how SweepRunner sizes steps.
struct PlanEstimate
{
    std::vector<StepEstimate> steps;
    qint64 requests = 0; // known requests, warm-up excluded
    int unknownRequestSteps = 0; // steps whose request count depends on the server
    qint64 warmupRequests = 0;
    double sendingS = 0; // known sending time
    double cooldownS = 0;
    int unknownDurationSteps = 0; // steps whose duration depends on the server
    bool randomDataset = true;
    qint64 inputTokens = 0; // random dataset: known requests × (prefix_len + input_len)
    qint64 outputTokens = 0; // random dataset: known requests × output_len (a maximum without ignore_eos)
    int refineSteps = 0; // at most this many more, when refinement is on
    int repeats = 0; // this many more (of every load, or of the best one when the SLO has a limit)

    double knownDurationS() const { return sendingS + cooldownS; }
};

PlanEstimate estimatePlan(const Profile& profile);

// "6.5 s", "48 s", "4 min 12 s", "1 h 05 min".
QString formatDuration(double seconds);
// "1,350"; above 99,999 "581 k", "1.35 M", "2.1 G" (three significant digits).
QString formatCount(qint64 count);

} // namespace kp::ui
