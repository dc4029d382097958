#include "compare/compareview.h"

#include "charts/comparechart.h"
#include "charts/paretochart.h"
#include "export/chartexport.h"
#include "export/comparereport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace kp::ui {

namespace {

const CompareMetric kMetrics[] = { CompareMetric::Ttft, CompareMetric::Tpot, CompareMetric::Itl, CompareMetric::E2el,
    CompareMetric::Throughput, CompareMetric::OutputThroughput, CompareMetric::PrefixCacheHitRate };

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new CompareChart(this))
    , m_metric(new QComboBox(this))
    , m_statistic(new QComboBox(this))
    , m_baseline(new QComboBox(this))
    , m_log(new QCheckBox(tr("Log scale"), this))
    , m_export(new QToolButton(this))
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_pareto(new ParetoChart(this))
    , m_deltas(new QTableWidget(this))
    , m_findings(new QTableWidget(this))
    , m_differences(new QTableWidget(this))
    , m_configurations(new QTableWidget(this))
{
    for (CompareMetric m : kMetrics)
        m_metric->addItem(CompareChart::metricWord(m), int(m));
    m_metric->setToolTip(tr("What the curves show against the offered load"));
    for (const char* s : { "p50", "p90", "p95", "p99", "p99.9", "mean" }) {
        const std::optional<CompareStatistic> stat = CompareStatistic::parse(QString::fromLatin1(s));
        if (stat)
            m_statistic->addItem(stat->label(), QString::fromLatin1(s));
    }
    m_statistic->setCurrentIndex(m_statistic->findData(QStringLiteral("p99")));
    m_statistic->setToolTip(tr("The latency statistic; a step that did not record it has no point"));
    m_baseline->setToolTip(tr("The run the others are measured against"));

    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* menu = new QMenu(m_export);
    menu->addAction(tr("Chart as PNG, SVG or PDF…"), this, &CompareView::exportChart);
    menu->addAction(tr("Copy chart"), this, &CompareView::copyChart);
    menu->addAction(tr("Comparison report…"), this, &CompareView::exportReport);
    m_export->setMenu(menu);

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        m_statistic->setEnabled(m_metric->currentData().toInt() <= int(CompareMetric::E2el));
        recompute();
    });
    connect(m_statistic, &QComboBox::currentIndexChanged, this, &CompareView::recompute);
    connect(m_baseline, &QComboBox::currentIndexChanged, this, &CompareView::recompute);
    connect(m_log, &QCheckBox::toggled, m_chart, &CompareChart::setLogScale);

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(6, 4, 6, 2);
    controls->addWidget(new QLabel(tr("Metric"), this));
    controls->addWidget(m_metric);
    controls->addWidget(m_statistic);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Baseline"), this));
    controls->addWidget(m_baseline, 1);
    controls->addWidget(m_log);
    controls->addWidget(m_export);

    m_configurations->setObjectName(QStringLiteral("serverConfigurations"));
    for (QTableWidget* t : { m_deltas, m_findings, m_differences, m_configurations }) {
        t->verticalHeader()->hide();
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
        t->setAlternatingRowColors(true);
        t->setWordWrap(false);
        t->horizontalHeader()->setStretchLastSection(true);
    }
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_deltas, tr("Deltas"));
    m_tabs->addTab(m_findings, tr("Knee and capacity"));
    m_tabs->addTab(m_differences, tr("What differs"));
    m_tabs->addTab(m_pareto, tr("Pareto front"));
    m_tabs->setTabToolTip(3, tr("Output tok/s per user against per GPU, one front per run"));
    // A server sweep's configurations: the tab is there only while its runs are shown.
    m_configurations->hide();
    m_summary->setWordWrap(true);
    m_summary->setContentsMargins(8, 2, 8, 2);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_summary);
    bottomLayout->addWidget(m_tabs, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(split, 1);
    recompute();
}

CompareView::~CompareView() = default;

CompareView::ReadRuns CompareView::readRuns(
    const QStringList& dirs, const std::atomic_bool* cancelled, const std::function<void(int, int)>& progress)
{
    ReadRuns out;
    const int total = int(dirs.size());
    if (progress)
        progress(0, total);
    for (const QString& dir : dirs) {
        if (cancelled && *cancelled)
            return {};
        SavedRunRead read = readSavedRun(dir);
        if (!read.ok()) {
            out.error = read.error;
            out.runs.clear();
            return out;
        }
        out.runs.push_back(std::move(*read.run));
        if (progress)
            progress(int(out.runs.size()), total);
    }
    // One server sweep's runs: its comparison too (the twin is fitted again, off the GUI thread).
    if (const QString group = serverGroupOf(dirs); !group.isEmpty() && !(cancelled && *cancelled))
        out.group = readServerComparison(group, dirs, nullptr);
    return out;
}

bool CompareView::openRuns(const QStringList& dirs, QString* error)
{
    ReadRuns read = readRuns(dirs);
    if (!read.error.isEmpty()) {
        if (error)
            *error = read.error;
        return false;
    }
    setRuns(std::move(read.runs));
    return true;
}

void CompareView::setServerComparison(std::optional<ServerComparison> group)
{
    m_group = std::move(group);
    if (m_group)
        nameRunsByConfiguration(m_runs, *m_group);
    {
        const QSignalBlocker block(m_baseline);
        for (int i = 0; i < m_baseline->count() && i < int(m_runs.size()); ++i)
            m_baseline->setItemText(i, m_runs[std::size_t(i)].name);
    }
    showGroup();
    recompute();
}

void CompareView::showGroup()
{
    const int tab = m_tabs->indexOf(m_configurations);
    if (!m_group) {
        if (tab >= 0)
            m_tabs->removeTab(tab);
        m_chart->setPredictions({});
        return;
    }
    fill(m_configurations, CompareReport::serverTable(*m_group));
    if (tab < 0)
        m_tabs->insertTab(0, m_configurations, tr("Configurations"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_configurations),
        tr("The server sweep's configurations: knee, SLO capacity, per GPU, the Pareto front and the twin's check"));
    m_tabs->setCurrentWidget(m_configurations);
    m_chart->setPredictions(twinPredictions(*m_group, m_runs));
}

QString CompareView::summaryText() const
{
    return m_summary->text();
}

void CompareView::setRuns(std::vector<SavedRun> runs)
{
    m_runs = std::move(runs);
    if (m_group) {
        m_group.reset();
        showGroup();
    }
    {
        const QSignalBlocker block(m_baseline);
        m_baseline->clear();
        for (std::size_t i = 0; i < m_runs.size(); ++i)
            m_baseline->addItem(m_runs[i].name, int(i));
        m_baseline->setCurrentIndex(m_runs.empty() ? -1 : 0);
    }
    recompute();
    // Runs imported from files that lack the chosen statistic (an old SGLang file has medians only):
    // the highest statistic they have, rather than an empty chart.
    const auto anyPoint = [this] {
        for (const CompareCurve& c : m_comparison.curves) {
            for (const ComparePoint& point : c.points) {
                if (point.value && std::isfinite(*point.value))
                    return true;
            }
        }
        return false;
    };
    if (m_runs.empty() || anyPoint())
        return;
    const int chosen = m_statistic->currentIndex();
    for (const char* key : { "p99.9", "p99", "p95", "p90", "p50", "mean" }) {
        const int index = m_statistic->findData(QString::fromLatin1(key));
        if (index < 0 || index == chosen)
            continue;
        m_statistic->setCurrentIndex(index); // recomputes
        if (anyPoint())
            return;
    }
    m_statistic->setCurrentIndex(chosen);
}

void CompareView::setMetric(CompareMetric metric)
{
    m_metric->setCurrentIndex(m_metric->findData(int(metric)));
}

void CompareView::setStatistic(const CompareStatistic& statistic)
{
    int index = m_statistic->findText(statistic.label());
    if (index < 0) {
        m_statistic->addItem(statistic.label(), statistic.label().toLower());
        index = m_statistic->count() - 1;
    }
    m_statistic->setCurrentIndex(index);
}

void CompareView::setBaseline(int run)
{
    m_baseline->setCurrentIndex(run);
}

void CompareView::fill(QTableWidget* table, const ReportTable& data)
{
    table->clear();
    table->setColumnCount(int(data.header.size()));
    table->setHorizontalHeaderLabels(data.header);
    table->setRowCount(int(data.rows.size()));
    for (int r = 0; r < int(data.rows.size()); ++r) {
        const QStringList& row = data.rows[r];
        for (int c = 0; c < int(row.size()); ++c) {
            auto* item = new QTableWidgetItem(row[c]);
            if (c < data.numeric.size() && data.numeric[c])
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(row[c]);
            table->setItem(r, c, item);
        }
    }
    table->resizeColumnsToContents();
    for (int c = 0; c < table->columnCount(); ++c)
        table->setColumnWidth(c, std::min(table->columnWidth(c), 360));
}

void CompareView::recompute()
{
    const CompareMetric metric = CompareMetric(m_metric->currentData().toInt());
    const std::optional<CompareStatistic> stat = CompareStatistic::parse(m_statistic->currentData().toString());
    const int baseline = std::max(0, m_baseline->currentIndex());
    m_summary->setTextFormat(m_group && !m_runs.empty() ? Qt::RichText : Qt::PlainText);
    if (m_runs.empty()) {
        m_comparison = {};
    } else {
        m_comparison = compareRuns(m_runs, baseline, metric, stat.value_or(CompareStatistic {}));
    }
    m_chart->setComparison(m_runs.empty() ? nullptr : &m_comparison);
    m_pareto->setEmptyText(m_runs.empty() ? QString()
                                          : tr("No run has a step to place: steps need answers of two tokens or "
                                               "more (for TPOT), every request ended, and errors under 5%."));
    m_pareto->setFronts(compareParetoFronts(m_runs));
    m_chart->setTitle(m_runs.empty() ? tr("Comparison") : tr("Comparison · %1").arg(m_chart->curveTitle()));
    m_export->setEnabled(m_runs.size() >= 2);
    if (m_runs.empty()) {
        m_summary->setText(tr("Select two or more runs on the Runs page and press Compare."));
        fill(m_deltas, {});
        fill(m_findings, {});
        fill(m_differences, {});
        return;
    }
    const CompareReport report(&m_runs, &m_comparison);
    fill(m_deltas, report.deltasTable());
    fill(m_findings, report.findingsTable());
    fill(m_differences, report.differencesTable());
    m_tabs->setTabText(m_tabs->indexOf(m_differences),
        m_comparison.differences.empty() ? tr("What differs")
                                         : tr("What differs (%1)").arg(m_comparison.differences.size()));
    m_summary->setText(tr("%1 runs; deltas against %2 at equal offered load (interpolated between the baseline's "
                          "steps, never extrapolated).")
                           .arg(m_runs.size())
                           .arg(m_runs[std::size_t(baseline)].name));
    if (m_group) {
        QString twin;
        if (m_group->twinSource >= 0)
            twin = tr(" Dashed: the twin fitted on %1, set to each other configuration.")
                       .arg(m_group->runs[std::size_t(m_group->twinSource)].outcome.combination.label());
        m_summary->setText(
            QStringLiteral("<b>%1</b>%2<br>%3")
                .arg(m_group->bestSentence.toHtmlEscaped(), twin.toHtmlEscaped(), m_summary->text().toHtmlEscaped()));
    }
}

void CompareView::exportChart()
{
    if (m_runs.size() < 2)
        return;
    QString selected;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("comparison.png"),
        tr("PNG image (*.png);;PNG image at 2× (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    const std::optional<ChartFileFormat> format = ChartExport::formatForPath(path);
    CompareChart chart;
    const ChartCaption caption = exportedChart(&chart);
    QString error;
    if (!ChartExport::write(&chart, caption, format.value_or(ChartFileFormat::Png), path, ChartExport::kDefaultSize,
            selected.contains(QLatin1String("2×")) ? 2.0 : 1.0, &error))
        QMessageBox::warning(this, tr("Export chart"), error);
}

void CompareView::copyChart()
{
    if (m_runs.size() < 2)
        return;
    CompareChart chart;
    ChartExport::copyToClipboard(&chart, exportedChart(&chart));
}

ChartCaption CompareView::exportedChart(CompareChart* chart) const
{
    chart->setLogScale(m_chart->logScale());
    chart->setComparison(&m_comparison);
    if (m_group)
        chart->setPredictions(twinPredictions(*m_group, m_runs));
    ChartCaption caption;
    caption.title = tr("Comparison · %1").arg(chart->curveTitle());
    QStringList names;
    for (const SavedRun& r : m_runs)
        names << r.name;
    caption.subtitle = names.join(QStringLiteral(" · "));
    return caption;
}

void CompareView::exportReport()
{
    if (m_runs.size() < 2)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Comparison report"), QStringLiteral("comparison.html"),
        tr("HTML, self-contained (*.html);;Markdown with PNG charts (*.md);;PDF (*.pdf);;CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    CompareReport report(&m_runs, &m_comparison);
    if (m_group)
        report.setServerComparison(&*m_group);
    if (!report.write(reportFormatForPath(path).value_or(ReportFormat::Html), path, &error))
        QMessageBox::warning(this, tr("Comparison report"), error);
}

} // namespace kp::ui
