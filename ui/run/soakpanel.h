#pragma once

#include "kit/ratetimeline.h"

#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTableView;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;
class SoakChart;
class SoakWindowsModel;
struct StepReport;

// A soak on the run page: a line with where it stands (windows closed, elapsed and left while it runs;
// the whole soak's totals once it ended), the windows' table, and the SoakChart, which the page shows
// in the load–latency chart's place. While the soak step runs it shows the LiveRun's windows as they
// close and its per-second timeline; otherwise the selected step's windows (a saved soak's from its
// windows.jsonl), or the last soak step's. Redrawn on a timer, never per snapshot.
class SoakPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kRedrawMs = 500;

    explicit SoakPanel(const LiveRun* run, QWidget* parent = nullptr);

    SoakChart* chart() const { return m_chart; }
    SoakWindowsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QString summaryText() const;
    // The step picked in the steps table (null: none); its windows when it has some.
    void setStep(const StepReport* step);
    void refresh();

private:
    void showWindowsOf(const StepReport* step);
    QString liveSummary() const;
    QString totalsSummary(const StepReport& step) const;

    const LiveRun* m_run;
    SoakChart* m_chart;
    SoakWindowsModel* m_model;
    QTableView* m_view;
    QLabel* m_summary;
    QTimer m_timer;
    bool m_dirty = true;
    int m_selected = -1; // step index picked in the table
    int m_shown = -1; // the step whose windows the model holds
    bool m_live = false; // the model follows the running step
    RateTimeline m_savedSeconds; // the shown saved step's seconds (from its records' timeline)
    int m_savedSecondsStep = -1;
};

} // namespace kp::ui
