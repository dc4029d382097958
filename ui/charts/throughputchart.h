#pragma once

#include "kit/chartpanel.h"
#include "kit/regionbands.h"
#include "kit/sweepcurve.h"

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QXYSeries;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;

// Offered load against what the server delivered: achieved req/s with the ideal y = x (rate mode),
// and output tok/s on the right axis; the knee and SLO capacity marked as on the load–latency chart.
class ThroughputChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit ThroughputChart(const LiveRun* run, QWidget* parent = nullptr);

    void refresh();
    void setHighlight(const ChartHighlight& highlight);
    int pointCount() const;

Q_SIGNALS:
    void stepClicked(int stepIndex);

protected:
    void restyle() override;

private:
    const LiveRun* m_run;
    ChartHighlight m_highlight;
    RegionBands m_regions;
    QLineSeries* m_ideal;
    QLineSeries* m_achieved;
    QLineSeries* m_tokens;
    QScatterSeries* m_knee;
    QScatterSeries* m_sloCapacity;
    QScatterSeries* m_ring;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_yTokens;
    std::vector<SweepCurve::Point> m_achievedPoints;
};

} // namespace kp::ui
