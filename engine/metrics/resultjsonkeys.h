#pragma once

// The spellings result files share between ResultJson's writer (resultjson.cpp) and its reader
// (resultjsonread.cpp): UTF-8 conversions and a latency metric's key ("ttft", "itl", ...).

#include "metrics/stepmetrics.h"

#include <QString>

#include <string>

namespace kp::resultkeys {

inline std::string utf8(const QString& text)
{
    return text.toStdString();
}

inline QString fromUtf8(const std::string& text)
{
    return QString::fromStdString(text);
}

inline std::string metricKey(LatencyMetric metric)
{
    return utf8(latencyMetricKey(metric));
}

} // namespace kp::resultkeys
