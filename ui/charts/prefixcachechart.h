#pragma once

#include "kit/stepfigurechart.h"

namespace kp::ui {

// The prefix-cache hit rate in percent against the offered load, one point per step: the server's
// figure (its /metrics counters or gauge) and the client's (cached tokens over input tokens, from the
// responses' usage) as two series, the knee marked as on the other charts. A step without a figure is
// left off, never drawn at 0.
class PrefixCacheChart : public StepFigureChart
{
    Q_OBJECT
public:
    explicit PrefixCacheChart(const LiveRun* run, QWidget* parent = nullptr);

    // In percent, in load order.
    const std::vector<SweepCurve::Point>& serverPoints() const { return firstPoints(); }
    const std::vector<SweepCurve::Point>& clientPoints() const { return secondPoints(); }

private:
    static Spec spec();
};

} // namespace kp::ui
