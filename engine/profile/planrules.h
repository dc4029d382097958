#pragma once

#include "profile/profile.h"

#include <QStringView>

#include <algorithm>
#include <cmath>

// The rules of load.plan that more than one place needs: the planner that chooses the steps, the runner
// that sends them, the window's preview and the safety check that count them, and the validator.
namespace kp::planrules {

// An auto plan without load.plan.steps fills the range between floor and ceiling with this many steps.
inline constexpr int kDefaultAutoSteps = 8;
// The ceiling step's burst must outlast the server's ramp to read its ceiling.
inline constexpr int kMinCeilingRequests = 300;
// The floor step sends one request at a time: a tenth of num_prompts, at least this many, gives the floor.
inline constexpr int kMinFloorRequests = 8;

// The coarse steps an auto plan adds once floor and ceiling are measured.
inline int autoSteps(const Plan& plan)
{
    return plan.steps > 0 ? plan.steps : kDefaultAutoSteps;
}

// Users of an auto plan's i-th coarse step (from 1) in concurrency mode: doubling from the floor's one user.
inline double autoConcurrency(int i)
{
    return std::pow(2.0, i);
}

// The requests a step of this purpose ("floor", "ceiling", "coarse", ...) sends for num_prompts.
inline int stepPrompts(int numPrompts, QStringView purpose)
{
    if (purpose == u"floor")
        return std::min(numPrompts, std::max(kMinFloorRequests, numPrompts / 10));
    if (purpose == u"ceiling")
        return std::max(numPrompts, kMinCeilingRequests);
    return numPrompts;
}

} // namespace kp::planrules
