#pragma once

#include "kit/chartpanel.h"
#include "kit/stepreport.h"

#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

// One finished step second by second (StepTimeline): what was offered, completed and failed, the
// requests in flight and the output tokens; the TTFT and ITL of the requests that ended in each second;
// and the server's running and waiting requests, KV-cache usage and prefix-cache hit rate. A click on
// the plot picks a second (secondClicked), for the Gantt view. Seconds without a figure are left out.
class TimelineChart : public ChartPanel
{
    Q_OBJECT
public:
    enum class View { Requests, Latency, Server };
    Q_ENUM(View)

    explicit TimelineChart(QWidget* parent = nullptr);

    // The step to show (copied; nullptr for none).
    const StepReport* step() const { return m_step ? &*m_step : nullptr; }
    void setStep(const StepReport* step);
    View timelineView() const { return m_view; }
    void setView(View view);
    // The series as drawn: their names and point counts (for tests and the export's key).
    QStringList seriesNames() const;
    int pointCount(const QString& seriesName) const;

    static QString viewKey(View view); // "requests", "latency", "server"
    static QString viewWord(View view); // in the window's language

Q_SIGNALS:
    void secondClicked(int second);

protected:
    void restyle() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();

    std::optional<StepReport> m_step; // a copy: the run's list of steps may move while it is shown
    View m_view = View::Requests;
    QComboBox* m_viewBox;
    std::vector<QLineSeries*> m_left; // up to four series on the left axis
    std::vector<QLineSeries*> m_right; // up to two on the right axis
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_y2;
};

} // namespace kp::ui
