#pragma once

#include "sweep/kneeanalysis.h"

#include <QJsonObject>

namespace kp {

struct CapacityPlan;

// analysis.json. knee, throughput_knee, saturation, collapse, slo_capacity, recommended: {"offered",
// "achieved", "reason", ...} or null with the reason under "reasons"; regions, steps, notes, text;
// capacity_plan (null unless a plan is given). Always worded in English, under any language.
QJsonObject analysisJson(const AnalysisResult& result, const CapacityPlan* plan = nullptr);

} // namespace kp
