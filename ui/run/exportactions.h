#pragma once

#include "export/chartset.h"
#include "kit/runmeta.h"

#include <QObject>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QWidget;
QT_END_NAMESPACE

namespace kp::ui {

class JobTracker;
class RunPage;

// The run view's export commands: a chart to PNG (1× or 2×), SVG or PDF, a chart to the clipboard, and
// the run's report (HTML, Markdown, PDF) or steps table (CSV, JSON). The chart is the one the run view
// shows, with its metric and scale, drawn again at the export size. The run's name, date and notes
// come from its run.json, read in the background once per run shown (and again after it is edited).
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

    // The run's name, date, target and notes: from its run directory when it has one and it has been
    // read (setSavedMeta, or the read the export commands start), else from the run's info.
    RunMeta currentMeta() const;
    // What the window read from the saved run it shows (OpenedRun::meta), so that exports need not read it.
    void setSavedMeta(const QString& dir, const RunMeta& meta);
    // The run's run.json changed (renamed, tagged, notes): read again at the next export.
    void forgetSavedMeta(const QString& dir);
    void updateEnabled();

    // The chart to a file, as File ▸ Export chart does after its dialog; chartExported says how it went.
    void exportChartTo(ChartKind kind, const QString& path, qreal scale = 1.0);

Q_SIGNALS:
    void chartExported(const QString& path, const QString& error); // error empty when written
    void chartCopied();

private:
    void exportChart(ChartKind kind);
    void copyChart();
    void exportReport();
    QString savedDir() const; // the shown run's directory when it is saved and finished, else empty
    RunMeta infoMeta() const;
    // then(meta) now when the meta is known, else once run.json is read in the background.
    void withMeta(std::function<void(const RunMeta&)> then);
    QString writeChart(ChartKind kind, const RunMeta& meta, const QString& path, qreal scale);

    RunPage* m_page;
    JobTracker* m_metaJob;
    QString m_metaDir;
    std::optional<RunMeta> m_savedMeta; // m_metaDir's
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
