#pragma once

#include "kit/stepfigurechart.h"

namespace kp::ui {

// The GPUs against the offered load, one point per step, from a GPU exporter's metrics (DCGM or AMD,
// or the simulator's --gpus): mean utilisation in percent on the left axis, the fullest GPU's memory
// used in GiB on the right, the knee marked as on the other charts. A step without a figure is left
// off, never drawn at 0.
class GpuChart : public StepFigureChart
{
    Q_OBJECT
public:
    explicit GpuChart(const LiveRun* run, QWidget* parent = nullptr);

    // In load order: utilisation in percent, memory in GiB.
    const std::vector<SweepCurve::Point>& utilisationPoints() const { return firstPoints(); }
    const std::vector<SweepCurve::Point>& memoryPoints() const { return secondPoints(); }

private:
    static Spec spec();
};

} // namespace kp::ui
