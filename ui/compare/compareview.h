#pragma once

#include "runs/comparison.h"
#include "runs/savedrun.h"
#include "serve/servercomparison.h"

#include <QStringList>
#include <QWidget>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;
class QTableWidget;
class QToolButton;
QT_END_NAMESPACE

namespace kp::ui {

class CompareChart;
class ParetoChart;
struct ChartCaption;
struct ReportTable;

// Two or more saved runs side by side: their curves overlaid (metric and statistic chosen above the
// chart), the deltas against a chosen baseline at equal offered load, the knee, saturation and SLO
// capacity of each, and what differs in their settings and environments. The chart and the whole
// comparison export like a run's. The runs of one server sweep also show the group's comparison: each
// configuration's knee, SLO capacity, capacity per GPU and Pareto front, the best configuration's
// sentence, and the twin fitted on one configuration drawn dashed beside each other one, with its error.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    // Reads the runs; error names the run that could not be read.
    bool openRuns(const QStringList& dirs, QString* error);
    // The reading half of openRuns, for a background job: the runs, or the first error (named file).
    struct ReadRuns
    {
        std::vector<SavedRun> runs;
        QString error;
        // When the runs are one server sweep's (serverGroupOf): the group's comparison, the twin's check
        // included.
        std::optional<ServerComparison> group;
    };
    // progress(done, total): told after each run is read.
    static ReadRuns readRuns(const QStringList& dirs, const std::atomic_bool* cancelled = nullptr,
        const std::function<void(int, int)>& progress = {});
    void setRuns(std::vector<SavedRun> runs); // forgets a server sweep's comparison
    const std::vector<SavedRun>& runs() const { return m_runs; }
    // The runs (set first) are a server sweep's: its comparison beside theirs; the runs are named after
    // their configurations. nullopt: none.
    void setServerComparison(std::optional<ServerComparison> group);
    const std::optional<ServerComparison>& serverComparison() const { return m_group; }
    QTableWidget* configurationsTable() const { return m_configurations; }
    QString summaryText() const;
    const Comparison& comparison() const { return m_comparison; }

    void setMetric(CompareMetric metric);
    void setStatistic(const CompareStatistic& statistic);
    void setBaseline(int run);

    CompareChart* chart() const { return m_chart; }
    ParetoChart* paretoChart() const { return m_pareto; }
    QComboBox* metricBox() const { return m_metric; }
    QComboBox* statisticBox() const { return m_statistic; }
    QComboBox* baselineBox() const { return m_baseline; }
    QTableWidget* deltasTable() const { return m_deltas; }
    QTableWidget* findingsTable() const { return m_findings; }
    QTableWidget* differencesTable() const { return m_differences; }

    // File dialogs, then ChartExport / CompareReport.
    void exportChart();
    void copyChart();
    void exportReport();

private:
    void recompute();
    void showGroup();
    static void fill(QTableWidget* table, const ReportTable& data);
    // chart (made offscreen) set up as the one on screen, for a file or the clipboard; its caption.
    ChartCaption exportedChart(CompareChart* chart) const;

    std::vector<SavedRun> m_runs;
    Comparison m_comparison;
    CompareChart* m_chart;
    QComboBox* m_metric;
    QComboBox* m_statistic;
    QComboBox* m_baseline;
    QCheckBox* m_log;
    QToolButton* m_export;
    QLabel* m_summary;
    QTabWidget* m_tabs;
    ParetoChart* m_pareto;
    QTableWidget* m_deltas;
    QTableWidget* m_findings;
    QTableWidget* m_differences;
    QTableWidget* m_configurations;
    std::optional<ServerComparison> m_group;
};

} // namespace kp::ui
