#pragma once

#include "profile/profile.h"
#include "sweep/safetyguard.h"

#include <QStringList>

class QWidget;

namespace kp::ui {

// Questions to put to the user before a sweep starts, one paragraph each: a key over plain HTTP to
// another machine, loads past the hard limits, a large sweep against another machine, TLS checks off.
// Empty when the sweep may start at once.
// overLimits: set to whether the plan goes past the load limits (a go-ahead then lifts them).
QStringList sweepStartQuestions(const Profile& profile, const SafetyLimits& limits = {}, bool* overLimits = nullptr);

// The limits in effect: SafetyLimits with "safety/confirm_above_requests" from QSettings when set.
SafetyLimits guiSafetyLimits();

// Asks sweepStartQuestions in one dialog; true when there is nothing to ask or the user goes ahead.
// allowHighLoad: set to true when the user went ahead past the load limits; otherwise every step,
// including the ones the sweep chooses as it runs, stays within them.
bool confirmSweepStart(QWidget* parent, const Profile& profile, bool* allowHighLoad = nullptr);

} // namespace kp::ui
