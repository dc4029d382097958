#pragma once

#include "export/chartset.h"

#include <QObject>

QT_BEGIN_NAMESPACE
class QAction;
class QWidget;
QT_END_NAMESPACE

namespace kp::ui {

class RunPage;
struct RunMeta;

// The run view's export commands: a chart to PNG (1× or 2×), SVG or PDF, a chart to the clipboard, and
// the run's report (HTML, Markdown, PDF) or steps table (CSV, JSON). The chart is the one the run view
// shows, with its metric and scale, drawn again at the export size.
class RunExportActions : public QObject
{
    Q_OBJECT
public:
    RunExportActions(RunPage* page, QWidget* dialogParent);

    QAction* exportChartAction() const { return m_exportChart; }
    QAction* exportThroughputAction() const { return m_exportThroughput; }
    QAction* exportPrefixCacheAction() const { return m_exportPrefixCache; }
    QAction* exportGpuAction() const { return m_exportGpu; }
    QAction* exportParetoAction() const { return m_exportPareto; }
    QAction* copyChartAction() const { return m_copyChart; }
    QAction* exportReportAction() const { return m_exportReport; }

    // The run's name, date, target and notes: from its run directory when it has one.
    RunMeta currentMeta() const;
    void updateEnabled();

private:
    void exportChart(ChartKind kind);
    void copyChart();
    void exportReport();

    RunPage* m_page;
    QWidget* m_parent;
    QAction* m_exportChart;
    QAction* m_exportThroughput;
    QAction* m_exportPrefixCache;
    QAction* m_exportGpu;
    QAction* m_exportPareto;
    QAction* m_copyChart;
    QAction* m_exportReport;
};

} // namespace kp::ui
