#pragma once

#include "run/chartpanel.h"
#include "run/sweepcurve.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;

// The GPUs against the offered load, one point per step, from a GPU exporter's metrics (DCGM or AMD,
// or the simulator's --gpus): mean utilisation in percent on the left axis, the fullest GPU's memory
// used in GiB on the right, the knee marked as on the other charts. A step without a figure is left
// off, never drawn at 0.
class GpuChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit GpuChart(const LiveRun* run, QWidget* parent = nullptr);

    void refresh();
    void setHighlight(const ChartHighlight& highlight);
    // In load order: utilisation in percent, memory in GiB.
    const std::vector<SweepCurve::Point>& utilisationPoints() const { return m_utilPoints; }
    const std::vector<SweepCurve::Point>& memoryPoints() const { return m_memoryPoints; }
    bool hasData() const { return !m_utilPoints.empty() || !m_memoryPoints.empty(); }

Q_SIGNALS:
    void stepClicked(int stepIndex);

protected:
    void restyle() override;

private:
    const LiveRun* m_run;
    ChartHighlight m_highlight;
    QLineSeries* m_util;
    QLineSeries* m_memory;
    QScatterSeries* m_knee;
    QScatterSeries* m_ring;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_yMemory;
    std::vector<SweepCurve::Point> m_utilPoints;
    std::vector<SweepCurve::Point> m_memoryPoints;
};

} // namespace kp::ui
