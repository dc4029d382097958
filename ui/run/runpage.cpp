#include "run/runpage.h"

#include "charts/ganttchart.h"
#include "charts/gpuchart.h"
#include "charts/loadlatencychart.h"
#include "charts/paretochart.h"
#include "charts/prefixcachechart.h"
#include "charts/throughputchart.h"
#include "charts/timelinechart.h"
#include "charts/ttftbreakdownchart.h"
#include "kit/chartstyle.h"
#include "kit/forecast.h"
#include "kit/liverun.h"
#include "kit/stepstablemodel.h"
#include "kit/sweepcontroller.h"
#include "kit/uiformat.h"
#include "run/errorsmodel.h"
#include "run/histogramchart.h"
#include "run/livestepchart.h"
#include "run/serverpanel.h"
#include "run/soakchart.h"
#include "run/soakpanel.h"
#include "run/stepdetails.h"
#include "run/whatifpanel.h"
#include "sweep/analysistext.h"

#include <QAction>
#include <QDataStream>
#include <QDesktopServices>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIODevice>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kp::ui {

namespace {

enum Tab { StepsTab, AnalysisTab, WhatIfTab, ErrorsTab, LogTab, ServerTab, TimelineTab, ParetoTab, SoakTab };

constexpr int kTopicRole = Qt::UserRole;
constexpr int kStepRole = Qt::UserRole + 1;
constexpr int kRegionRole = Qt::UserRole + 2;
constexpr int kForecastRole = Qt::UserRole + 3; // the forecast's lines, replaced as it changes
constexpr quint32 kStateVersion = 1;

} // namespace

RunPage::RunPage(SweepController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_run(new LiveRun(controller, this))
    , m_latency(new LoadLatencyChart(m_run, this))
    , m_forecaster(new Forecaster(this))
    , m_throughput(new ThroughputChart(m_run, this))
    , m_prefixCache(new PrefixCacheChart(m_run, this))
    , m_gpu(new GpuChart(m_run, this))
    , m_cacheOrGpu(new QTabWidget(this))
    , m_pareto(new ParetoChart(this))
    , m_live(new LiveStepChart(m_run, this))
    , m_timeline(new TimelineChart(this))
    , m_gantt(new GanttChart(this))
    , m_progress(new QLabel(this))
    , m_stepBar(new QProgressBar(this))
    , m_tabs(new QTabWidget(this))
    , m_whatIf(new WhatIfPanel(m_run, this))
    , m_soak(new SoakPanel(m_run, this))
    , m_mainChart(new QStackedWidget(this))
    , m_stepsModel(new StepsTableModel(this))
    , m_stepsProxy(new StepsSortProxy(this))
    , m_stepsView(new QTableView(this))
    , m_details(new StepDetails(this))
    , m_analysis(new QListWidget(this))
    , m_peak(new QLineEdit(this))
    , m_redundancy(new QLineEdit(this))
    , m_planMessage(new QLabel(this))
    , m_errorsModel(new ErrorsModel(this))
    , m_errorsProxy(new QSortFilterProxyModel(this))
    , m_errorsView(new QTableView(this))
    , m_log(new QPlainTextEdit(this))
    , m_repeatAction(new QAction(tr("Repeat step"), this))
    , m_betweenAction(new QAction(tr("Add step between"), this))
    , m_vertical(new QSplitter(Qt::Vertical, this))
    , m_charts(new QSplitter(Qt::Horizontal, this))
    , m_rightCharts(new QSplitter(Qt::Vertical, this))
    , m_stepsSplitter(new QSplitter(Qt::Horizontal, this))
{
    m_repeatAction->setToolTip(tr("Run the selected step's load again, next (measures its spread)"));
    m_betweenAction->setToolTip(
        tr("Run a load halfway between the two selected steps (or the selected one and the next higher), next"));

    m_rightCharts->addWidget(m_throughput);
    // The prefix cache and the GPUs share a slot: the column already stacks three charts. The GPU tab
    // comes forward by itself when it has figures (an exporter is scraped on purpose; a vLLM
    // server reports a prefix-cache rate, often 0%, whenever it runs), until the user picks a tab.
    m_cacheOrGpu->setDocumentMode(true);
    m_cacheOrGpu->setTabPosition(QTabWidget::South);
    m_cacheOrGpu->addTab(m_prefixCache, tr("Prefix cache"));
    m_cacheOrGpu->addTab(m_gpu, tr("GPUs"));
    m_ttftBreakdown = new TtftBreakdownChart(m_run, this);
    m_cacheOrGpu->addTab(m_ttftBreakdown, tr("TTFT breakdown"));
    connect(m_cacheOrGpu->tabBar(), &QTabBar::tabBarClicked, this, [this] { m_cacheOrGpuChosen = true; });
    m_rightCharts->addWidget(m_cacheOrGpu);
    m_rightCharts->addWidget(m_live);
    m_rightCharts->setChildrenCollapsible(false);
    // A soak is one step: its windows against time take the load–latency chart's place.
    m_mainChart->addWidget(m_latency);
    m_mainChart->addWidget(m_soak->chart());
    m_charts->addWidget(m_mainChart);
    m_charts->addWidget(m_rightCharts);
    m_charts->setStretchFactor(0, 3);
    m_charts->setStretchFactor(1, 2);
    m_charts->setChildrenCollapsible(false);

    m_progress->setTextFormat(Qt::RichText);
    m_progress->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_progress->setOpenExternalLinks(false);
    connect(
        m_progress, &QLabel::linkActivated, this, [](const QString& link) { QDesktopServices::openUrl(QUrl(link)); });
    m_stepBar->setMaximumWidth(160);
    m_stepBar->setMaximumHeight(14);
    m_stepBar->setTextVisible(false);
    m_stepBar->hide();
    auto* progressRow = new QHBoxLayout;
    progressRow->setContentsMargins(8, 4, 8, 4);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_stepBar);
    buildServerSweepLine(progressRow);

    m_analysis->setWordWrap(true);
    m_analysis->setTextElideMode(Qt::ElideNone);
    m_analysis->setResizeMode(QListView::Adjust);
    m_analysis->setSpacing(2);
    m_analysis->setToolTip(tr("Click a sentence to mark what it is about on the charts"));
    connect(m_analysis, &QListWidget::itemClicked, this, &RunPage::onAnalysisClicked);
    connect(
        m_analysis, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) { onAnalysisClicked(item); });

    m_errorsProxy->setSourceModel(m_errorsModel);
    m_errorsProxy->setSortRole(ErrorsModel::SortRole);
    m_errorsView->setModel(m_errorsProxy);
    m_errorsView->setSortingEnabled(true);
    m_errorsView->sortByColumn(ErrorsModel::Count, Qt::DescendingOrder);
    m_errorsView->verticalHeader()->hide();
    m_errorsView->horizontalHeader()->setStretchLastSection(true);
    m_errorsView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_errorsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_errorsView->setWordWrap(false);

    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(10000);
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);

    m_tabs->setDocumentMode(true);
    m_tabs->insertTab(StepsTab, buildStepsTab(), tr("Steps"));
    m_tabs->insertTab(AnalysisTab, buildAnalysisTab(), tr("Analysis"));
    m_tabs->insertTab(WhatIfTab, m_whatIf, tr("What if"));
    m_tabs->setTabToolTip(WhatIfTab,
        tr("The server's twin fitted to the finished run: predict other settings, faster GPUs or more replicas"));
    m_tabs->insertTab(ErrorsTab, m_errorsView, tr("Errors"));
    m_tabs->insertTab(LogTab, m_log, tr("Log"));
    m_tabs->insertTab(ServerTab, new ServerPanel(m_run, this), tr("Server"));
    m_tabs->insertTab(TimelineTab, buildTimelineTab(), tr("Timeline"));
    m_tabs->insertTab(ParetoTab, m_pareto, tr("Pareto"));
    m_tabs->setTabToolTip(
        ParetoTab, tr("Interactivity against throughput per GPU: the steps no other step beats on both"));
    m_tabs->insertTab(SoakTab, m_soak, tr("Soak"));
    m_tabs->setTabToolTip(SoakTab, tr("The soak's windows as they close, and its totals"));
    m_tabs->setTabVisible(SoakTab, false);

    // The twin is fitted when its tab is first looked at, not for every run shown.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == WhatIfTab)
            m_whatIf->fitIfNeeded();
    });

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->setSpacing(0);
    bottomLayout->addLayout(progressRow);
    bottomLayout->addWidget(m_tabs, 1);
    m_vertical->addWidget(m_charts);
    m_vertical->addWidget(bottom);
    m_vertical->setStretchFactor(0, 5);
    m_vertical->setStretchFactor(1, 4);
    m_vertical->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_vertical);

    connect(m_run, &LiveRun::stateChanged, this, [this](LiveRun::State state) {
        if (state == LiveRun::State::Preparing)
            clearRun();
        if (m_tabs->currentIndex() == WhatIfTab)
            m_whatIf->fitIfNeeded();
        updateProgress();
        updateActions();
        m_latency->refresh();
    });
    connect(m_run, &LiveRun::runStarted, this, [this] {
        // The forecast fits the steps of this run only; the plan's loads are those it predicts ahead.
        const RunInfo& info = m_run->info();
        std::vector<double> planned;
        for (const PlannedStep& step : info.preview) {
            if (step.mode == info.profile.load.mode)
                planned.push_back(step.load);
        }
        m_forecaster->reset(info.profile.load.mode, info.analysisOptions, planned);
        m_stepsModel->setPercentile(m_run->info().analysisOptions.percentile);
        m_stepsModel->setMode(m_run->info().profile.load.mode);
        showSoak(info.profile.load.soak);
        m_latency->refresh();
        m_throughput->refresh();
        refreshCacheOrGpu();
        refreshPareto();
    });
    connect(m_run, &LiveRun::stepStarted, this, [this] { updateProgress(); });
    connect(m_run, &LiveRun::stepAdded, this, &RunPage::onStepAdded);
    connect(m_run, &LiveRun::stepAdded, m_forecaster,
        [this](int row) { m_forecaster->addStep(m_run->steps()[std::size_t(row)]); });
    connect(m_forecaster, &Forecaster::changed, this, [this] {
        m_latency->refresh();
        updateForecastItems();
    });
    m_latency->setForecaster(m_forecaster);
    connect(m_run, &LiveRun::analysisChanged, this, &RunPage::onAnalysisChanged);
    connect(m_run, &LiveRun::failuresChanged, this, &RunPage::onFailuresChanged);
    connect(m_run, &LiveRun::liveChanged, this, &RunPage::updateProgress);
    connect(m_run, &LiveRun::logLine, m_log, &QPlainTextEdit::appendPlainText);
    connect(m_latency, &LoadLatencyChart::stepClicked, this, &RunPage::selectStep);
    connect(m_throughput, &ThroughputChart::stepClicked, this, &RunPage::selectStep);
    connect(m_prefixCache, &PrefixCacheChart::stepClicked, this, &RunPage::selectStep);
    connect(m_gpu, &GpuChart::stepClicked, this, &RunPage::selectStep);
    connect(m_ttftBreakdown, &TtftBreakdownChart::stepClicked, this, &RunPage::selectStep);
    connect(m_pareto, &ParetoChart::stepClicked, this, &RunPage::selectStep);

    // The elapsed time moves on between snapshots (and through a paused sweep).
    m_clock.setInterval(500);
    connect(&m_clock, &QTimer::timeout, this, [this] {
        if (m_run->isActive())
            updateProgress();
    });
    m_clock.start();
    updateProgress();
    updateActions();
}

RunPage::~RunPage() = default;

QWidget* RunPage::buildStepsTab()
{
    m_stepsProxy->setSourceModel(m_stepsModel);
    m_stepsProxy->setSortRole(StepsTableModel::SortRole);
    m_stepsView->setModel(m_stepsProxy);
    m_stepsView->setSortingEnabled(true);
    m_stepsView->sortByColumn(StepsTableModel::Step, Qt::AscendingOrder);
    m_stepsView->verticalHeader()->hide();
    m_stepsView->verticalHeader()->setDefaultSectionSize(m_stepsView->fontMetrics().height() + 6);
    m_stepsView->horizontalHeader()->setStretchLastSection(true);
    m_stepsView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_stepsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stepsView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_stepsView->setAlternatingRowColors(true);
    m_stepsView->setWordWrap(false);
    m_stepsView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_stepsView->addAction(m_repeatAction);
    m_stepsView->addAction(m_betweenAction);
    connect(m_stepsView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunPage::onSelectionChanged);

    connect(m_repeatAction, &QAction::triggered, this, [this] {
        const QList<int> steps = selectedSteps();
        if (steps.size() == 1)
            m_run->repeatStep(steps.constFirst());
    });
    connect(m_betweenAction, &QAction::triggered, this, [this] {
        QList<int> steps = selectedSteps();
        if (steps.size() == 1) {
            // The selected step and the done step with the next higher load.
            const auto& all = m_run->steps();
            const double load = all[std::size_t(steps.constFirst())].offered();
            int next = -1;
            for (const StepReport& s : all) {
                if (s.offered() > load && std::isfinite(s.offered())
                    && (next < 0 || s.offered() < all[std::size_t(next)].offered()))
                    next = s.index();
            }
            if (next >= 0)
                steps << next;
        }
        if (steps.size() == 2)
            m_run->addStepBetween(steps[0], steps[1]);
    });

    auto* repeatButton = new QToolButton(this);
    repeatButton->setDefaultAction(m_repeatAction);
    auto* betweenButton = new QToolButton(this);
    betweenButton->setDefaultAction(m_betweenAction);
    auto* hint = new QLabel(tr("Select steps to repeat one or add a load between two while the sweep runs."), this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto* actions = new QHBoxLayout;
    actions->setContentsMargins(4, 2, 4, 2);
    actions->addWidget(repeatButton);
    actions->addWidget(betweenButton);
    actions->addWidget(hint, 1);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addLayout(actions);
    leftLayout->addWidget(m_stepsView, 1);
    m_stepsSplitter->addWidget(left);
    m_stepsSplitter->addWidget(m_details);
    m_stepsSplitter->setStretchFactor(0, 1);
    m_stepsSplitter->setStretchFactor(1, 0);
    // The summary block is 51 monospace columns wide.
    const int summaryWidth
        = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).horizontalAdvance(QString(52, u'0')) + 30;
    m_stepsSplitter->setSizes({ 1000, summaryWidth });
    m_stepsSplitter->setChildrenCollapsible(false);
    return m_stepsSplitter;
}

void RunPage::clearRun()
{
    m_stepsModel->clear();
    m_errorsModel->setGroups({});
    m_details->setStep(nullptr, 99);
    m_timeline->setStep(nullptr);
    m_gantt->setStep(nullptr);
    m_analysis->clear();
    m_followLatest = true;
    setHighlight({});
    m_tabs->setTabText(ErrorsTab, tr("Errors"));
    m_latency->refresh();
    m_throughput->refresh();
    refreshCacheOrGpu();
    refreshPareto();
    m_live->redraw();
}

void RunPage::showSoak(bool soak)
{
    m_mainChart->setCurrentWidget(soak ? static_cast<QWidget*>(m_soak->chart()) : static_cast<QWidget*>(m_latency));
    m_tabs->setTabVisible(SoakTab, soak);
    if (soak)
        m_tabs->setCurrentIndex(SoakTab);
    else if (m_tabs->currentIndex() == SoakTab)
        m_tabs->setCurrentIndex(StepsTab);
}

void RunPage::onStepAdded(int row)
{
    const bool follow = m_followLatest;
    m_stepsModel->append(m_run->steps()[std::size_t(row)]);
    if (row == 0)
        m_stepsView->resizeColumnsToContents();
    m_latency->refresh();
    m_throughput->refresh();
    refreshCacheOrGpu();
    refreshPareto();
    updateProgress();
    updateActions();
    if (follow)
        selectStep(m_run->steps()[std::size_t(row)].index());
    m_followLatest = follow;
}

QWidget* RunPage::buildTimelineTab()
{
    // The selected step second by second, and the requests of the second clicked on it.
    connect(m_timeline, &TimelineChart::secondClicked, m_gantt, &GanttChart::setSecond);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_timeline);
    splitter->addWidget(m_gantt);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    return splitter;
}

QWidget* RunPage::buildAnalysisTab()
{
    // Capacity planning: a peak demand and a redundancy policy; the plan joins the analysis.
    m_peak->setObjectName(QStringLiteral("plan.peak"));
    m_peak->setPlaceholderText(tr("e.g. 1000 req/s or 250k tok/s"));
    m_peak->setClearButtonEnabled(true);
    m_peak->setToolTip(tr("The peak demand to plan servers for: requests per second (1000, 1000 req/s) or output "
                          "tokens per second (250k tok/s)"));
    m_redundancy->setObjectName(QStringLiteral("plan.redundancy"));
    m_redundancy->setPlaceholderText(tr("e.g. N+2 or 20%"));
    m_redundancy->setToolTip(tr("Servers added for failures and maintenance: N+k spare servers, or a percentage"));
    m_planMessage->setObjectName(QStringLiteral("plan.message"));
    m_planMessage->setWordWrap(true);
    m_planMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QSettings settings;
    m_peak->setText(settings.value(QStringLiteral("results/peak_demand")).toString());
    m_redundancy->setText(settings.value(QStringLiteral("results/redundancy")).toString());
    connect(m_peak, &QLineEdit::textChanged, this, &RunPage::onCapacityDemandEdited);
    connect(m_redundancy, &QLineEdit::textChanged, this, &RunPage::onCapacityDemandEdited);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 4);
    bar->setSpacing(6);
    auto* title = new QLabel(tr("Capacity plan:"));
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    bar->addWidget(title);
    bar->addWidget(new QLabel(tr("peak demand")));
    bar->addWidget(m_peak, 2);
    bar->addWidget(new QLabel(tr("redundancy")));
    bar->addWidget(m_redundancy, 1);
    auto* tab = new QWidget;
    auto* v = new QVBoxLayout(tab);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    v->addLayout(bar);
    m_planMessage->setContentsMargins(8, 0, 8, 4);
    m_planMessage->hide();
    v->addWidget(m_planMessage);
    v->addWidget(m_analysis, 1);
    onCapacityDemandEdited();
    return tab;
}

void RunPage::onCapacityDemandEdited()
{
    const QString peakText = m_peak->text().trimmed();
    const QString redundancyText = m_redundancy->text().trimmed();
    QSettings settings;
    settings.setValue(QStringLiteral("results/peak_demand"), peakText);
    settings.setValue(QStringLiteral("results/redundancy"), redundancyText);
    QStringList problems;
    std::optional<PeakDemand> peak;
    bool peakBad = false;
    if (!peakText.isEmpty()) {
        PeakDemand parsed;
        peakBad = !parsePeakDemand(peakText, parsed).isEmpty() || !(parsed.value > 0);
        if (peakBad)
            problems << tr("\"%1\" is not a demand: write 1000, 1000 req/s or 250k tok/s").arg(peakText);
        else
            peak = parsed;
    }
    Redundancy redundancy;
    const bool redundancyBad = !redundancyText.isEmpty() && !parseRedundancy(redundancyText, redundancy).isEmpty();
    if (redundancyBad) {
        problems << tr("\"%1\" is not a redundancy: write N+2, 20% or none").arg(redundancyText);
        redundancy = {};
    }
    for (const auto& [edit, bad] : { std::pair { m_peak, peakBad }, std::pair { m_redundancy, redundancyBad } }) {
        edit->setProperty("kpInvalid", bad);
        edit->setStyleSheet(bad ? QStringLiteral("QLineEdit { border: 1px solid #d62728; }") : QString());
    }
    m_planMessage->setText(problems.join(u'\n'));
    m_planMessage->setVisible(!problems.isEmpty());
    m_run->setCapacityDemand(problems.isEmpty() ? peak : std::nullopt, redundancy);
    m_controller->setCapacityDemand(problems.isEmpty() ? peak : std::nullopt, redundancy);
}

void RunPage::refreshCacheOrGpu()
{
    m_prefixCache->refresh();
    m_gpu->refresh();
    m_ttftBreakdown->refresh();
    if (!m_cacheOrGpuChosen)
        m_cacheOrGpu->setCurrentWidget(
            m_gpu->hasData() ? static_cast<QWidget*>(m_gpu) : static_cast<QWidget*>(m_prefixCache));
}

void RunPage::refreshPareto()
{
    m_pareto->showRun(*m_run);
}

void RunPage::onAnalysisChanged()
{
    // The percentile the analysis uses: the asked one, or the highest the steps report when none has it.
    m_stepsModel->setPercentile(m_run->analysis().result.options.percentile);
    m_latency->refresh();
    m_throughput->refresh();
    refreshCacheOrGpu();
    refreshPareto();
    m_analysis->clear();
    // The capacity plan first, when a peak demand is given: it answers how many servers the peak needs.
    if (const std::optional<CapacityPlan>& plan = m_run->capacityPlan()) {
        const QString text = plan->sentence(); // with the arithmetic, or why there is no plan
        auto* item = new QListWidgetItem(ChartStyle::topicIcon(AnalysisTopic::CapacityPlan), text, m_analysis);
        item->setData(kTopicRole, int(AnalysisTopic::CapacityPlan));
        item->setData(kStepRole, -1);
        item->setData(kRegionRole, -1);
        item->setToolTip(plan->ok() ? plan->arithmetic.text() : text);
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
    }
    const RunAnalysis& a = m_run->analysis();
    for (const AnalysisSentence& s : a.sentences) {
        RegionKind kind = RegionKind::Linear;
        if (s.regionIndex >= 0 && s.regionIndex < int(a.result.regions.size()))
            kind = a.result.regions[std::size_t(s.regionIndex)].kind;
        auto* item = new QListWidgetItem(ChartStyle::topicIcon(s.topic, kind), s.text, m_analysis);
        item->setData(kTopicRole, int(s.topic));
        item->setData(kStepRole, s.stepIndex);
        item->setData(kRegionRole, s.regionIndex);
        item->setToolTip(s.text);
    }
    updateForecastItems();
    updateProgress();
}

void RunPage::updateForecastItems()
{
    for (int i = m_analysis->count() - 1; i >= 0; --i) {
        if (m_analysis->item(i)->data(kForecastRole).toBool())
            delete m_analysis->takeItem(i);
    }
    auto add = [this](const QString& text, int step) {
        auto* item = new QListWidgetItem(ChartStyle::topicIcon(AnalysisTopic::Note), text, m_analysis);
        item->setData(kTopicRole, int(AnalysisTopic::Note));
        item->setData(kStepRole, step);
        item->setData(kRegionRole, -1);
        item->setData(kForecastRole, true);
        item->setToolTip(text);
        item->setForeground(palette().color(QPalette::PlaceholderText));
    };
    if (const QString sentence = m_forecaster->sentence(); !sentence.isEmpty())
        add(sentence, -1);
    for (const ForecastCheck& check : m_forecaster->checks())
        add(check.sentence(), check.stepIndex);
}

void RunPage::onFailuresChanged()
{
    m_errorsModel->setGroups(m_run->failures());
    const qint64 n = m_run->failureCount();
    m_tabs->setTabText(ErrorsTab, n > 0 ? tr("Errors (%1)").arg(n) : tr("Errors"));
    m_errorsView->resizeColumnsToContents();
    // Messages can be long; the tooltip has the whole one, the hint gets the rest of the width.
    const int exampleWidth = std::min(m_errorsView->columnWidth(ErrorsModel::Example), m_tabs->width() * 2 / 5);
    m_errorsView->setColumnWidth(ErrorsModel::Example, std::max(200, exampleWidth));
}

QList<int> RunPage::selectedSteps() const
{
    QList<int> steps;
    const QModelIndexList rows = m_stepsView->selectionModel()->selectedRows();
    for (const QModelIndex& index : rows)
        steps << index.data(StepsTableModel::StepIndexRole).toInt();
    std::sort(steps.begin(), steps.end());
    return steps;
}

void RunPage::onSelectionChanged()
{
    const QList<int> steps = selectedSteps();
    const int last = int(m_run->steps().size()) - 1;
    m_followLatest = steps.isEmpty() || (steps.size() == 1 && steps.constFirst() == last);
    const StepReport* step = nullptr;
    if (!steps.isEmpty()) {
        const int index = steps.constLast();
        if (index >= 0 && index < int(m_run->steps().size()))
            step = &m_run->steps()[std::size_t(index)];
    }
    m_details->setStep(step, m_stepsModel->percentile());
    m_soak->setStep(step);
    if (!step || !m_timeline->step() || m_timeline->step()->index() != step->index()) {
        m_timeline->setStep(step);
        m_gantt->setStep(step, 0);
    }
    ChartHighlight h;
    h.stepIndex = step ? step->index() : -1;
    setHighlight(h);
    updateActions();
}

void RunPage::selectStep(int stepIndex)
{
    for (int row = 0; row < m_stepsProxy->rowCount(); ++row) {
        const QModelIndex index = m_stepsProxy->index(row, 0);
        if (index.data(StepsTableModel::StepIndexRole).toInt() == stepIndex) {
            m_stepsView->selectionModel()->select(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_stepsView->scrollTo(index);
            return;
        }
    }
}

void RunPage::onAnalysisClicked(QListWidgetItem* item)
{
    if (!item)
        return;
    ChartHighlight h;
    h.topic = AnalysisTopic(item->data(kTopicRole).toInt());
    h.stepIndex = item->data(kStepRole).toInt();
    h.regionIndex = item->data(kRegionRole).toInt();
    setHighlight(h);
}

void RunPage::setHighlight(const ChartHighlight& highlight)
{
    m_latency->setHighlight(highlight);
    m_throughput->setHighlight(highlight);
    m_prefixCache->setHighlight(highlight);
    m_gpu->setHighlight(highlight);
    m_ttftBreakdown->setHighlight(highlight);
    m_pareto->setHighlightStep(highlight.stepIndex);
}

void RunPage::updateActions()
{
    const bool canAdd = m_run->isActive() && m_run->state() != LiveRun::State::Stopping && m_run->hasInfo();
    const QList<int> steps = selectedSteps();
    m_repeatAction->setEnabled(canAdd && steps.size() == 1);
    m_betweenAction->setEnabled(canAdd && (steps.size() == 1 || steps.size() == 2));
}

void RunPage::buildServerSweepLine(QHBoxLayout* row)
{
    m_serverSweep = new QLabel(this);
    m_serverSweep->setObjectName(QStringLiteral("serverSweepLine"));
    m_serverSweep->setTextFormat(Qt::RichText);
    m_serverSweep->hide();
    m_serverSweep->setContentsMargins(0, 0, 18, 0); // apart from the progress, and gone with the line
    row->insertWidget(0, m_serverSweep);
    connect(m_controller, &SweepController::runningChanged, m_serverSweep, [this](bool running) {
        if (running)
            m_serverSweep->hide();
    });
    connect(m_controller, &SweepController::serverSweepChanged, this, [this](const ServerSweepStatus& s) {
        QString what;
        QColor colour = palette().color(QPalette::WindowText);
        switch (s.phase) {
        case ServerSweepStatus::Phase::Starting:
            what = tr("starting the server");
            break;
        case ServerSweepStatus::Phase::Ready:
            what = tr("server ready after %1 s at %2").arg(QLocale().toString(s.readyS, 'f', 1), s.detail);
            colour = ChartStyle::sloCapacity();
            break;
        case ServerSweepStatus::Phase::Failed:
            what = tr("failed: %1").arg(s.detail);
            colour = ChartStyle::failure();
            break;
        case ServerSweepStatus::Phase::Stopping:
            what = tr("stopping the server");
            break;
        }
        m_serverSweep->setText(tr("<span style=\"color:%1\">●</span> <b>Server sweep %2 of %3: %4</b> · %5")
                                   .arg(colour.name())
                                   .arg(s.index + 1)
                                   .arg(s.count)
                                   .arg(s.label.toHtmlEscaped(), what.toHtmlEscaped()));
        m_serverSweep->setToolTip(s.phase == ServerSweepStatus::Phase::Failed ? s.detail : s.groupDir);
        m_serverSweep->show();
    });
    connect(m_controller, &SweepController::serverSweepFinished, this, [this](const ServerSweepResult& r) {
        m_serverSweep->setText(r.interrupted
                ? tr("<b>Server sweep stopped</b> · %n configuration(s) measured", nullptr, int(r.runDirs.size()))
                : tr("<b>Server sweep finished</b> · %n configuration(s) measured", nullptr, int(r.runDirs.size())));
        m_serverSweep->setToolTip(r.comparison.bestSentence);
    });
}

QString RunPage::serverSweepText() const
{
    return m_serverSweep && !m_serverSweep->isHidden() ? m_serverSweep->text() : QString();
}

QString RunPage::progressText() const
{
    return m_progress->text();
}

void RunPage::updateProgress()
{
    const RunProgress p = m_run->progress();
    const LiveRun::State state = m_run->state();
    QStringList parts;
    auto stepWords = [&p] {
        return p.stepCount > 0 ? tr("Step %1 of %2").arg(p.step).arg(p.stepCount) : tr("Step %1").arg(p.step);
    };
    auto findings = [this] {
        QStringList words;
        const AnalysisResult& a = m_run->analysis().result;
        const LoadMode mode = m_run->info().profile.load.mode;
        if (a.knee.found)
            words << QStringLiteral("<span style=\"color:%1\">▲</span> %2")
                         .arg(ChartStyle::knee().name(),
                             tr("knee %1 %2").arg(UiFormat::load(a.knee.offered), UiFormat::loadUnit(mode)));
        if (a.sloCapacity.found)
            words << QStringLiteral("<span style=\"color:%1\">◆</span> %2")
                         .arg(ChartStyle::sloCapacity().name(),
                             tr("SLO capacity %1%2 %3")
                                 .arg(a.sloCapacity.lowerBound ? QStringLiteral("≥ ") : QString(),
                                     UiFormat::load(a.sloCapacity.offered), UiFormat::loadUnit(mode)));
        return words;
    };
    bool showBar = false;
    switch (state) {
    case LiveRun::State::Idle:
        parts << tr("Ready: pick a profile and press Run (Ctrl+R).").toHtmlEscaped();
        break;
    case LiveRun::State::Preparing:
        parts << tr("Preparing: starting the target and checking that it answers…").toHtmlEscaped();
        break;
    case LiveRun::State::Running:
    case LiveRun::State::Pausing:
    case LiveRun::State::Stopping:
        if (p.step > 0 && !p.load.isEmpty()) {
            parts << QStringLiteral("<b>%1</b>").arg(stepWords().toHtmlEscaped()) << p.load.toHtmlEscaped();
            if (p.warmingUp)
                parts << tr("warming up");
            else if (p.total > 0)
                parts << tr("%1/%2 requests").arg(QLocale().toString(p.done), QLocale().toString(p.total));
            else
                parts << tr("%1 requests").arg(QLocale().toString(p.done));
            parts << tr("%1 in flight").arg(p.inFlight);
            showBar = p.total > 0 && !p.warmingUp;
        } else {
            parts << tr("Between steps").toHtmlEscaped();
        }
        parts << tr("%1 elapsed").arg(UiFormat::clock(p.elapsedS));
        if (p.etaS)
            parts << (p.etaCoversRun ? tr("ETA %1").arg(UiFormat::clock(*p.etaS))
                                     : tr("this step ends in %1").arg(UiFormat::clock(*p.etaS)));
        if (state == LiveRun::State::Pausing)
            parts << tr("pausing after this step");
        if (state == LiveRun::State::Stopping)
            parts << tr("stopping…");
        parts << findings();
        break;
    case LiveRun::State::Paused:
        parts << QStringLiteral("<b>%1</b>").arg(tr("Paused after step %1").arg(p.step).toHtmlEscaped())
              << tr("%1 elapsed").arg(UiFormat::clock(p.elapsedS)) << tr("Resume to go on, or Stop to end the sweep")
              << findings();
        break;
    case LiveRun::State::Finished:
    case LiveRun::State::Stopped: {
        const int n = int(m_run->steps().size());
        parts << QStringLiteral("<b>%1</b>")
                     .arg((state == LiveRun::State::Finished ? tr("Finished: %1").arg(LiveRun::stepsWord(n))
                                                             : tr("Stopped: %1 kept").arg(LiveRun::stepsWord(n)))
                              .toHtmlEscaped())
              << tr("in %1").arg(UiFormat::clock(p.elapsedS)) << findings();
        if (m_run->hasInfo())
            parts << QStringLiteral("<a href=\"%1\">%2</a>")
                         .arg(QUrl::fromLocalFile(m_run->info().runDirectory).toString(QUrl::FullyEncoded),
                             tr("open the run folder"));
        break;
    }
    case LiveRun::State::Failed:
        parts << QStringLiteral("<span style=\"color:%1\"><b>%2</b> %3</span>")
                     .arg(ChartStyle::failure().name(), tr("Failed:"),
                         m_run->lastError().section(u'\n', 0, 0).toHtmlEscaped())
              << tr("details in the Log tab");
        break;
    }
    m_progress->setText(parts.join(QStringLiteral(" · ")));
    if (state == LiveRun::State::Failed)
        m_progress->setToolTip(m_run->lastError());
    else
        m_progress->setToolTip({});
    m_stepBar->setVisible(showBar);
    if (showBar) {
        m_stepBar->setRange(0, int(std::min<qint64>(p.total, std::numeric_limits<int>::max())));
        m_stepBar->setValue(int(std::min(p.done, p.total)));
    }
}

QByteArray RunPage::saveState() const
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << kStateVersion << m_vertical->saveState() << m_charts->saveState() << m_rightCharts->saveState()
        << m_stepsSplitter->saveState() << (m_latency->showsTtfc() ? -1 : int(m_latency->metric()))
        << m_latency->logScale() << m_tabs->currentIndex() << int(m_details->histogram()->metric());
    return bytes;
}

bool RunPage::restoreState(const QByteArray& state)
{
    QDataStream in(state);
    quint32 version = 0;
    QByteArray vertical, charts, right, steps;
    int metric = 0, tab = 0, histogramMetric = 0;
    bool log = false;
    in >> version;
    if (version != kStateVersion)
        return false;
    in >> vertical >> charts >> right >> steps >> metric >> log >> tab >> histogramMetric;
    if (in.status() != QDataStream::Ok)
        return false;
    m_vertical->restoreState(vertical);
    m_charts->restoreState(charts);
    m_rightCharts->restoreState(right);
    m_stepsSplitter->restoreState(steps);
    if (metric >= int(LatencyMetric::Ttft) && metric <= int(LatencyMetric::E2el))
        m_latency->setMetric(LatencyMetric(metric));
    else if (metric == -1) // TTFC
        m_latency->setShowsTtfc(true);
    m_latency->setLogScale(log);
    if (tab >= 0 && tab < m_tabs->count() && m_tabs->isTabVisible(tab))
        m_tabs->setCurrentIndex(tab);
    if (histogramMetric >= int(LatencyMetric::Ttft) && histogramMetric <= int(LatencyMetric::E2el))
        m_details->histogram()->setMetric(LatencyMetric(histogramMetric));
    return true;
}

} // namespace kp::ui
