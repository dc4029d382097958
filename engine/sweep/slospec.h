#pragma once

#include "profile/profile.h"

#include <QString>
#include <QStringList>
#include <QStringView>

namespace kp {

// The CLI's --slo: items "metric:percentile:limit" or "metric:limit", separated by spaces or commas,
// with metric ttft, tpot or e2el, percentile "p99" (or "99"), limit in ms ("500", "500ms", "0.5s");
// and "errors:1%" (or a fraction, "errors:0.01"). A Slo has one percentile: items without one use the
// percentile the others give, else slo's own (99 unless set). Sets what the items name and leaves slo
// unchanged on error; the message names the bad item and part.
QString parseSloSpec(QStringView spec, Slo& slo);
// Every --slo of a command line at once, so that conflicting percentiles are caught.
QString parseSloSpecs(const QStringList& specs, Slo& slo);

} // namespace kp
