#pragma once

#include "profile/profile.h"

#include <QString>
#include <QStringList>
#include <QStringView>

namespace kp {

// The CLI's --slo: items "metric:percentile:limit" or "metric:limit", separated by spaces or commas,
// with metric ttft, ttfc (time to first content token), tpot or e2el, percentile "p99" (or "99"), limit in ms ("500",
// "500ms", "0.5s"); and "errors:1%" (or a fraction, "errors:0.01"). Where every item that names a percentile names the
// same one, it is the SLO's percentile, for all its limits (ttft:p95:500 tpot:50: both at P95); where they differ
// (ttft:p90:300 tpot:p99:50), each such limit keeps its own and the others use slo's percentile (99 unless
// set). Sets what the items name and leaves slo unchanged on error; the message names the bad item and part.
QString parseSloSpec(QStringView spec, Slo& slo);
// Every --slo of a command line at once, so that their percentiles are settled together.
QString parseSloSpecs(const QStringList& specs, Slo& slo);

} // namespace kp
