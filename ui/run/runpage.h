#pragma once

#include "kit/sweepcurve.h"

#include <QByteArray>
#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPlainTextEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
QT_END_NAMESPACE

namespace kp::ui {

class ErrorsModel;
class Forecaster;
class LiveRun;
class GanttChart;
class GpuChart;
class TtftBreakdownChart;
class LiveStepChart;
class LoadLatencyChart;
class ParetoChart;
class PrefixCacheChart;
class SoakPanel;
class StepDetails;
class StepsTableModel;
class SweepController;
class ThroughputChart;
class TimelineChart;
class WhatIfPanel;

// The live and finished sweep: the load–latency and throughput charts, the current step, the
// progress line, and tabs with the steps (and the selected step in full), the analysis, the errors
// and the log. Everything it shows comes from the LiveRun it keeps for the controller.
class RunPage : public QWidget
{
    Q_OBJECT
public:
    explicit RunPage(SweepController* controller, QWidget* parent = nullptr);
    ~RunPage() override;

    LiveRun* run() const { return m_run; }
    LoadLatencyChart* latencyChart() const { return m_latency; }
    Forecaster* forecaster() const { return m_forecaster; }
    ThroughputChart* throughputChart() const { return m_throughput; }
    PrefixCacheChart* prefixCacheChart() const { return m_prefixCache; }
    GpuChart* gpuChart() const { return m_gpu; }
    TtftBreakdownChart* ttftBreakdownChart() const { return m_ttftBreakdown; }
    QTabWidget* cacheOrGpuTabs() const { return m_cacheOrGpu; }
    ParetoChart* paretoChart() const { return m_pareto; }
    LiveStepChart* liveChart() const { return m_live; }
    TimelineChart* timelineChart() const { return m_timeline; }
    GanttChart* ganttChart() const { return m_gantt; }
    StepsTableModel* stepsModel() const { return m_stepsModel; }
    ErrorsModel* errorsModel() const { return m_errorsModel; }
    StepDetails* details() const { return m_details; }
    QTabWidget* tabs() const { return m_tabs; }
    WhatIfPanel* whatIf() const { return m_whatIf; }
    SoakPanel* soakPanel() const { return m_soak; } // its chart takes the load–latency chart's place in a soak
    QListWidget* analysisList() const { return m_analysis; }
    QLineEdit* peakDemandEdit() const { return m_peak; }
    QLineEdit* redundancyEdit() const { return m_redundancy; }
    QAction* repeatAction() const { return m_repeatAction; }
    QAction* addBetweenAction() const { return m_betweenAction; }
    QString progressText() const;
    QString serverSweepText() const; // which combination of a server sweep runs; empty otherwise

    void selectStep(int stepIndex);
    QByteArray saveState() const; // splitters, chart options, the current tab
    bool restoreState(const QByteArray& state);

private:
    QWidget* buildStepsTab();
    QWidget* buildAnalysisTab();
    QWidget* buildTimelineTab();
    void buildServerSweepLine(QHBoxLayout* row);
    void onCapacityDemandEdited();
    void clearRun();
    void onStepAdded(int row);
    void onAnalysisChanged();
    void updateForecastItems();
    void refreshPareto();
    void refreshCacheOrGpu();
    void onFailuresChanged();
    void onSelectionChanged();
    void onAnalysisClicked(QListWidgetItem* item);
    void updateProgress();
    void updateActions();
    void showSoak(bool soak);
    void setHighlight(const ChartHighlight& highlight);
    QList<int> selectedSteps() const;

    SweepController* m_controller;
    LiveRun* m_run;
    LoadLatencyChart* m_latency;
    Forecaster* m_forecaster;
    ThroughputChart* m_throughput;
    PrefixCacheChart* m_prefixCache;
    GpuChart* m_gpu;
    QTabWidget* m_cacheOrGpu;
    bool m_cacheOrGpuChosen = false;
    TtftBreakdownChart* m_ttftBreakdown = nullptr; // a third tab of that slot
    ParetoChart* m_pareto;
    LiveStepChart* m_live;
    TimelineChart* m_timeline;
    GanttChart* m_gantt;
    QLabel* m_progress;
    QProgressBar* m_stepBar;
    QTabWidget* m_tabs;
    WhatIfPanel* m_whatIf;
    SoakPanel* m_soak;
    QStackedWidget* m_mainChart; // the load–latency chart, or a soak's chart
    StepsTableModel* m_stepsModel;
    QSortFilterProxyModel* m_stepsProxy;
    QTableView* m_stepsView;
    StepDetails* m_details;
    QListWidget* m_analysis;
    QLineEdit* m_peak;
    QLineEdit* m_redundancy;
    QLabel* m_planMessage;
    ErrorsModel* m_errorsModel;
    QSortFilterProxyModel* m_errorsProxy;
    QTableView* m_errorsView;
    QPlainTextEdit* m_log;
    QAction* m_repeatAction;
    QAction* m_betweenAction;
    QSplitter* m_vertical;
    QSplitter* m_charts;
    QSplitter* m_rightCharts;
    QSplitter* m_stepsSplitter;
    QTimer m_clock;
    bool m_followLatest = true;
    QLabel* m_serverSweep = nullptr; // a server sweep's combination and its server, above the progress line
};

} // namespace kp::ui
