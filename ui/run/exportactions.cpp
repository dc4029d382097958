#include "run/exportactions.h"

#include "charts/gpuchart.h"
#include "charts/loadlatencychart.h"
#include "export/chartset.h"
#include "export/runreport.h"
#include "kit/jobtracker.h"
#include "kit/liverun.h"
#include "kit/openrun.h"
#include "kit/runmeta.h"
#include "run/runpage.h"
#include "runs/savedrun.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>

namespace kp::ui {

namespace {

QString fileStem(const RunMeta& meta)
{
    QString s = meta.name.toLower();
    static const QRegularExpression other(QStringLiteral("[^a-z0-9]+"));
    s.replace(other, QStringLiteral("-"));
    s = s.left(40);
    while (s.startsWith(u'-'))
        s.remove(0, 1);
    while (s.endsWith(u'-'))
        s.chop(1);
    return s.isEmpty() ? QStringLiteral("run") : s;
}

} // namespace

RunExportActions::RunExportActions(RunPage* page, QWidget* dialogParent)
    : QObject(page)
    , m_page(page)
    , m_metaJob(new JobTracker(this))
    , m_parent(dialogParent)
    , m_exportChart(new QAction(tr("Export load–latency &chart…"), this))
    , m_exportThroughput(new QAction(tr("Export &throughput chart…"), this))
    , m_exportPrefixCache(new QAction(tr("Export &prefix-cache chart…"), this))
    , m_exportGpu(new QAction(tr("Export &GPU chart…"), this))
    , m_exportPareto(new QAction(tr("Export Pa&reto chart…"), this))
    , m_copyChart(new QAction(tr("Cop&y chart"), this))
    , m_exportReport(new QAction(tr("Export &report…"), this))
{
    m_exportChart->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportChart->setToolTip(tr("The load–latency or throughput chart as PNG (1× or 2×), SVG or PDF (Ctrl+E)"));
    m_copyChart->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyChart->setToolTip(tr("The load–latency chart as an image on the clipboard"));
    m_exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportReport->setToolTip(
        tr("The run's report (HTML, Markdown, PDF) or its steps table (CSV, JSON), with no network references"));
    m_exportThroughput->setToolTip(tr("The throughput chart as PNG (1× or 2×), SVG or PDF"));
    m_exportPrefixCache->setToolTip(tr("The prefix-cache hit-rate chart as PNG (1× or 2×), SVG or PDF"));
    connect(m_exportChart, &QAction::triggered, this, [this] { exportChart(ChartKind::Latency); });
    connect(m_exportThroughput, &QAction::triggered, this, [this] { exportChart(ChartKind::Throughput); });
    connect(m_exportPrefixCache, &QAction::triggered, this, [this] { exportChart(ChartKind::PrefixCache); });
    m_exportGpu->setToolTip(tr("GPU utilisation and memory against load as PNG (1× or 2×), SVG or PDF"));
    connect(m_exportGpu, &QAction::triggered, this, [this] { exportChart(ChartKind::Gpu); });
    m_exportPareto->setToolTip(
        tr("Output tok/s per user against per GPU, the Pareto front marked, as PNG, SVG or PDF"));
    connect(m_exportPareto, &QAction::triggered, this, [this] { exportChart(ChartKind::Pareto); });
    connect(m_copyChart, &QAction::triggered, this, &RunExportActions::copyChart);
    connect(m_exportReport, &QAction::triggered, this, &RunExportActions::exportReport);
    connect(page->run(), &LiveRun::stepAdded, this, &RunExportActions::updateEnabled);
    connect(page->run(), &LiveRun::stateChanged, this, &RunExportActions::updateEnabled);
    connect(page->run(), &LiveRun::stateChanged, this, [this] {
        // Another run shown, or this one ended: its run.json is read at the next export.
        m_metaJob->cancel();
        m_savedMeta.reset();
        m_metaDir.clear();
    });
    updateEnabled();
}

void RunExportActions::updateEnabled()
{
    const bool any = !m_page->run()->steps().empty();
    m_exportChart->setEnabled(any);
    m_exportThroughput->setEnabled(any);
    m_exportPrefixCache->setEnabled(any);
    m_exportGpu->setEnabled(any && m_page->gpuChart()->hasData()); // a run without GPU figures has no such chart
    m_exportPareto->setEnabled(any);
    m_copyChart->setEnabled(any);
    m_exportReport->setEnabled(any && !m_page->run()->isActive());
}

QString RunExportActions::savedDir() const
{
    const LiveRun* run = m_page->run();
    const QString dir = run->hasInfo() ? run->info().runDirectory : QString();
    return !dir.isEmpty() && !run->isActive() && QFileInfo::exists(dir + QStringLiteral("/run.json")) ? dir : QString();
}

RunMeta RunExportActions::infoMeta() const
{
    // Not on disk yet, or still running: run.json's own keywords, which files (the steps JSON) keep.
    const LiveRun* run = m_page->run();
    const LiveRun::State state = run->state();
    const QString status = state == LiveRun::State::Finished ? QStringLiteral("finished")
        : state == LiveRun::State::Stopped                   ? QStringLiteral("stopped")
        : state == LiveRun::State::Failed                    ? QStringLiteral("failed")
                                                             : QStringLiteral("running");
    return RunMeta::fromInfo(run->info(), status);
}

RunMeta RunExportActions::currentMeta() const
{
    const QString dir = savedDir();
    if (!dir.isEmpty() && m_savedMeta && m_metaDir == dir)
        return *m_savedMeta;
    return infoMeta();
}

void RunExportActions::setSavedMeta(const QString& dir, const RunMeta& meta)
{
    m_metaJob->cancel();
    m_metaDir = dir;
    m_savedMeta = meta;
}

void RunExportActions::forgetSavedMeta(const QString& dir)
{
    if (dir != m_metaDir)
        return;
    m_metaJob->cancel();
    m_savedMeta.reset();
    m_metaDir.clear();
}

void RunExportActions::withMeta(std::function<void(const RunMeta&)> then)
{
    const QString dir = savedDir();
    if (dir.isEmpty() || (m_savedMeta && m_metaDir == dir)) {
        then(currentMeta());
        return;
    }
    m_metaJob->start(
        tr("Reading %1").arg(QFileInfo(dir).fileName()),
        [dir](const JobTracker::CancelFlag&) {
            const SavedRunRead read = readSavedRun(dir);
            return read.ok() ? std::optional<RunMeta>(runMeta(*read.run)) : std::nullopt;
        },
        [this, dir, then = std::move(then)](std::optional<RunMeta> meta) {
            if (meta) {
                m_metaDir = dir;
                m_savedMeta = std::move(meta);
            }
            then(currentMeta());
        });
}

QString RunExportActions::writeChart(ChartKind kind, const RunMeta& meta, const QString& path, qreal scale)
{
    ChartOptions options;
    options.kind = kind;
    options.metric = m_page->latencyChart()->metric();
    options.logScale = m_page->latencyChart()->logScale();
    ChartSet charts(m_page->run());
    ChartPanel* panel = charts.panel(options);
    QString error;
    if (!ChartExport::write(panel, charts.caption(options, meta),
            ChartExport::formatForPath(path).value_or(ChartFileFormat::Png), path, ChartExport::kDefaultSize, scale,
            &error))
        return error.isEmpty() ? path : error;
    return {};
}

void RunExportActions::exportChartTo(ChartKind kind, const QString& path, qreal scale)
{
    withMeta([this, kind, path, scale](
                 const RunMeta& meta) { Q_EMIT chartExported(path, writeChart(kind, meta, path, scale)); });
}

void RunExportActions::exportChart(ChartKind kind)
{
    withMeta([this, kind](const RunMeta& meta) {
        QString selected;
        const QString path = QFileDialog::getSaveFileName(m_parent, tr("Export chart"),
            QDir::home().filePath(
                fileStem(meta) + u'-' + ChartOptions::kindKey(kind).replace(u'_', u'-') + QStringLiteral(".png")),
            tr("PNG image (*.png);;PNG image at 2× for slides (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
            &selected);
        if (path.isEmpty())
            return;
        const qreal scale = selected.contains(QLatin1String("2×")) ? 2.0 : 1.0;
        const QString error = writeChart(kind, meta, path, scale);
        if (!error.isEmpty())
            QMessageBox::warning(m_parent, tr("Export chart"), error);
        Q_EMIT chartExported(path, error);
    });
}

void RunExportActions::copyChart()
{
    withMeta([this](const RunMeta& meta) {
        ChartOptions options;
        options.metric = m_page->latencyChart()->metric();
        options.logScale = m_page->latencyChart()->logScale();
        ChartSet charts(m_page->run());
        ChartPanel* panel = charts.panel(options);
        ChartExport::copyToClipboard(panel, charts.caption(options, meta));
        Q_EMIT chartCopied();
    });
}

void RunExportActions::exportReport()
{
    withMeta([this](const RunMeta& meta) {
        const QString path = QFileDialog::getSaveFileName(m_parent, tr("Export report"),
            QDir::home().filePath(fileStem(meta) + QStringLiteral(".html")),
            tr("HTML, self-contained (*.html);;Markdown with PNG charts beside it (*.md);;PDF (*.pdf);;Steps table "
               "as CSV (*.csv);;Steps table as JSON (*.json)"));
        if (path.isEmpty())
            return;
        QString error;
        const RunReport report(m_page->run(), meta);
        if (!report.write(reportFormatForPath(path).value_or(ReportFormat::Html), path, &error))
            QMessageBox::warning(m_parent, tr("Export report"), error);
    });
}

} // namespace kp::ui
