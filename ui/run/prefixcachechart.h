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

// The prefix-cache hit rate in percent against the offered load, one point per step: the server's
// figure (its /metrics counters or gauge) and the client's (cached tokens over input tokens, from the
// responses' usage) as two series, the knee marked as on the other charts. A step without a figure is
// left off, never drawn at 0.
class PrefixCacheChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit PrefixCacheChart(const LiveRun* run, QWidget* parent = nullptr);

    void refresh();
    void setHighlight(const ChartHighlight& highlight);
    // In percent, in load order.
    const std::vector<SweepCurve::Point>& serverPoints() const { return m_serverPoints; }
    const std::vector<SweepCurve::Point>& clientPoints() const { return m_clientPoints; }
    bool hasData() const { return !m_serverPoints.empty() || !m_clientPoints.empty(); }

Q_SIGNALS:
    void stepClicked(int stepIndex);

protected:
    void restyle() override;

private:
    const LiveRun* m_run;
    ChartHighlight m_highlight;
    QLineSeries* m_server;
    QLineSeries* m_client;
    QScatterSeries* m_knee;
    QScatterSeries* m_ring;
    QValueAxis* m_x;
    QValueAxis* m_y;
    std::vector<SweepCurve::Point> m_serverPoints;
    std::vector<SweepCurve::Point> m_clientPoints;
};

} // namespace kp::ui
