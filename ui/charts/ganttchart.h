#pragma once

#include "kit/chartpanel.h"
#include "kit/stepreport.h"

#include <optional>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSet;
class QHorizontalStackedBarSeries;
class QSpinBox;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

// The requests scheduled in one second of a step, one bar each in schedule order: waiting to be sent
// (scheduled → sent), waiting for the first token (sent → first token), streaming (first token → end),
// and failures from their send to their end in the failure colour. Requests that queue behind others
// (head-of-line blocking) show as long first two parts.
class GanttChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit GanttChart(QWidget* parent = nullptr);

    // The step (copied; nullptr for none) and its second, clamped to the step's seconds.
    const StepReport* step() const { return m_step ? &*m_step : nullptr; }
    void setStep(const StepReport* step, int second = 0);
    void setSecond(int second);
    int second() const { return m_second; }
    int barCount() const; // requests drawn
    int failedCount() const; // of which failed
    QSpinBox* secondBox() const { return m_secondBox; }

protected:
    void restyle() override;

private:
    void redraw();

    std::optional<StepReport> m_step; // a copy: the run's list of steps may move while it is shown
    int m_second = 0;
    int m_failed = 0;
    QSpinBox* m_secondBox;
    QHorizontalStackedBarSeries* m_series;
    QBarSet* m_offset; // scheduled time from the step start: drawn transparent
    QBarSet* m_queued;
    QBarSet* m_waiting;
    QBarSet* m_streaming;
    QBarSet* m_failedSet;
    QValueAxis* m_x;
    QBarCategoryAxis* m_y;
};

} // namespace kp::ui
