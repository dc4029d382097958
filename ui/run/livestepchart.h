#pragma once

#include "kit/chartpanel.h"

#include <QTimer>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;

// The step that runs now: each finished request's TTFT at the moment it ended (failures at the time
// they failed), and the requests in flight, so warm-up, drift and a growing queue show while it runs.
// Redrawn on a fixed timer from the run's bounded history, however fast snapshots come.
class LiveStepChart : public ChartPanel
{
    Q_OBJECT
public:
    static constexpr int kRedrawMs = 250;

    explicit LiveStepChart(const LiveRun* run, QWidget* parent = nullptr);

    void redraw();
    int sampleCount() const;
    int inFlightCount() const;

protected:
    void restyle() override;

private:
    const LiveRun* m_run;
    QTimer m_timer;
    bool m_dirty = true;
    QLineSeries* m_ok;
    QLineSeries* m_failed;
    QLineSeries* m_inFlight;
    QLineSeries* m_slo;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_yInFlight;
};

} // namespace kp::ui
