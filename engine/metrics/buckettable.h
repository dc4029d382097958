#pragma once

#include "stepmetrics.h"

#include <QString>

namespace kp {

// A compact table of a step's prompt-length buckets (StepMetrics::lengthBuckets), one line per
// populated bucket: requests, failures, req/s, mean and pNN TTFT (the highest configured percentile),
// mean TPOT and mean E2EL in ms. Empty when the step has no populated bucket.
QString lengthBucketTable(const StepMetrics& metrics);

} // namespace kp
