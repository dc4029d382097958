#pragma once

#include "stepmetrics.h"
#include "stepsetup.h"

#include <QByteArray>

namespace kp {

// Text forms of a sweep: one compact line per step for the terminal, and a CSV with fixed columns.
// Numbers are written the same whatever the locale.
class SweepTable
{
public:
    // "rate= 10 RPS= 9.87 Tok/s= 2534.10 TTFT_mean= 142.30ms TTFT_p99= 210.55ms" (no newline). Tok/s is the
    // output token throughput; " concurrency= N" follows the rate when a concurrency limit is set; the
    // last field shows p99, or the highest percentile computed when p99 was not asked for.
    static QByteArray compactLine(const StepSetup& setup, const StepMetrics& metrics);

    static QByteArray csvHeader(); // ends with '\n'
    static QByteArray csvRow(const StepSetup& setup, const StepMetrics& metrics); // ends with '\n'
};

} // namespace kp
