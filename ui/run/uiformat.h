#pragma once

#include "metrics/stepmetrics.h"
#include "profile/profile.h"
#include "sweep/kneeanalysis.h"

#include <QString>

namespace kp::ui {

// Numbers as the window shows them: sensible precision, units where the column or axis does not
// carry them, the user's locale for grouping.
class UiFormat
{
public:
    static QString metricWord(LatencyMetric metric); // "TTFT", "TPOT", "ITL", "E2EL"
    static QString percentileWord(double percentile); // "P99", "P99.9", "P50"
    static QString ms(double value); // "0.82", "18.7", "211", "12,345"
    static QString throughput(double value); // req/s: "9.87", "146.2", "1,205"
    static QString tokens(double value); // tok/s: whole numbers
    static QString load(double value); // "40", "7.5", "∞"
    static QString loadUnit(LoadMode mode); // "req/s", "users"
    static QString regionWord(RegionKind kind); // "linear", "knee", "overload", in the window's language
    static QString clock(double seconds); // "00:41", "1:02:10"
    static QString percent(double fraction); // "1.5%", "0.02%"
};

} // namespace kp::ui
