#pragma once

#include "kit/chartpanel.h"
#include "kit/soakwindowfigures.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class RateTimeline;

// A soak against time: each closed window's throughput, failures per second and TTFT and ITL P50 and
// P99 at its middle, the partial last window ringed, and under them the step's completions second by
// second. Bounded however long the soak: past kMaxWindowPoints windows, neighbours share a point (their
// throughput over their joint time, the highest of their latencies), and the seconds come from a
// RateTimeline, which merges its own.
class SoakChart : public ChartPanel
{
    Q_OBJECT
public:
    static constexpr int kMaxWindowPoints = 600;

    explicit SoakChart(QWidget* parent = nullptr);

    // spanS: where the time axis ends (the soak's planned length while it runs); perSecond may be null.
    void setData(const std::vector<SoakWindowFigures>& windows, const RateTimeline* perSecond, double spanS);
    int windowPoints() const; // points on the per-window throughput line
    int windowsPerPoint() const { return m_perPoint; }
    int secondPoints() const; // points on the per-second line
    bool showsPartial() const; // the partial window is ringed

    // Windows merged to at most maxPoints: counts summed, throughputs over the merged time, each latency
    // the highest known of the merged windows; *perPoint the windows in each.
    static std::vector<SoakWindowFigures> merged(
        const std::vector<SoakWindowFigures>& windows, int maxPoints, int* perPoint);

protected:
    void restyle() override;

private:
    QLineSeries* m_ttftP50;
    QLineSeries* m_ttftP99;
    QLineSeries* m_itlP50;
    QLineSeries* m_itlP99;
    QLineSeries* m_rps;
    QLineSeries* m_failed;
    QLineSeries* m_perSecond;
    QScatterSeries* m_partial;
    QValueAxis* m_x;
    QValueAxis* m_ms;
    QValueAxis* m_perS;
    int m_perPoint = 1;
};

} // namespace kp::ui
