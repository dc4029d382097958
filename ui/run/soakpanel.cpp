#include "run/soakpanel.h"

#include "kit/liverun.h"
#include "kit/uiformat.h"
#include "run/errorsmodel.h"
#include "run/soakchart.h"
#include "run/soakwindowsmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace kp::ui {

namespace {

// A mean latency of the whole soak, "—" when no request gave one.
QString meanMs(const LatencyStats& s)
{
    return s.count > 0 ? UiFormat::ms(s.mean) : UiFormat::unknown();
}

} // namespace

SoakPanel::SoakPanel(const LiveRun* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_chart(new SoakChart(this))
    , m_model(new SoakWindowsModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
{
    m_summary->setObjectName(QStringLiteral("soak.summary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setContentsMargins(8, 4, 8, 4);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(SoakWindowsModel::SortRole);
    m_view->setModel(proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(SoakWindowsModel::Window, Qt::AscendingOrder);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);

    connect(run, &LiveRun::runStarted, this, [this] {
        m_selected = m_shown = m_savedSecondsStep = -1;
        m_live = false;
        m_model->setWindows({});
        m_dirty = true;
        refresh();
    });
    connect(run, &LiveRun::stepStarted, this, [this] { m_dirty = true; });
    connect(run, &LiveRun::windowAdded, this, [this](int index) {
        // Rows are added as windows close; the chart and the line follow on the timer.
        if (m_live && index == m_model->rowCount())
            m_model->append(m_run->liveWindows()[std::size_t(index)]);
        m_dirty = true;
    });
    connect(run, &LiveRun::stepAdded, this, [this] { m_dirty = true; });
    connect(run, &LiveRun::liveChanged, this, [this] { m_dirty = true; });
    connect(run, &LiveRun::stateChanged, this, [this] { m_dirty = true; });
    m_timer.setInterval(kRedrawMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty && (isVisible() || m_chart->isVisible()))
            refresh();
    });
    m_timer.start();
    refresh();
}

void SoakPanel::setStep(const StepReport* step)
{
    m_selected = step ? step->index() : -1;
    m_dirty = true;
    refresh();
}

QString SoakPanel::summaryText() const
{
    return m_summary->text();
}

void SoakPanel::refresh()
{
    m_dirty = false;
    const std::optional<StepConfig>& current = m_run->currentStep();
    if (current && current->windowS > 0) {
        if (!m_live || m_shown != current->index) {
            m_model->setWindows(m_run->liveWindows());
            m_live = true;
            m_shown = current->index;
        }
        const double span = m_run->hasInfo() ? m_run->info().profile.load.soakDurationS : current->durationS;
        m_chart->setData(m_run->liveWindows(), &m_run->timeline(), span);
        m_summary->setText(liveSummary());
        return;
    }
    m_live = false;
    const StepReport* step = nullptr;
    for (const StepReport& s : m_run->steps()) {
        if (s.windows.empty())
            continue;
        if (s.index() == m_selected) {
            step = &s;
            break;
        }
        step = &s; // the last soak step, unless the selected one is one
    }
    showWindowsOf(step);
}

void SoakPanel::showWindowsOf(const StepReport* step)
{
    if (!step) {
        if (m_shown != -1 || m_model->rowCount() > 0)
            m_model->setWindows({});
        m_shown = -1;
        m_chart->setData({}, nullptr, 0);
        m_summary->setText(m_run->isSoak() && m_run->isActive()
                ? tr("The soak's windows show here as they close.").toHtmlEscaped()
                : tr("A soak profile (load mode \"soak\") shows its windows here.").toHtmlEscaped());
        return;
    }
    if (m_shown != step->index() || m_model->windows().size() != step->windows.size()) {
        m_model->setWindows(step->windows);
        m_shown = step->index();
    }
    const RateTimeline* seconds = nullptr;
    if (m_run->timelineStep() == step->index() && !m_run->timeline().buckets().empty()) {
        seconds = &m_run->timeline();
    } else if (!step->timeline.isEmpty()) {
        // A saved soak: its seconds from the records' timeline, bounded the same way.
        if (m_savedSecondsStep != step->index()) {
            m_savedSeconds.clear();
            qint64 completed = 0, failed = 0;
            for (const TimelineSecond& s : step->timeline.seconds) {
                completed += s.completed;
                failed += s.failed;
                m_savedSeconds.add(s.second + 0.999, completed, failed, int(s.inFlight));
            }
            // Closed at the step's end: a last second it ended inside is not drawn as a whole one.
            m_savedSeconds.add(step->durationS, completed, failed, 0);
            m_savedSecondsStep = step->index();
        }
        seconds = &m_savedSeconds;
    }
    m_chart->setData(step->windows, seconds, step->durationS);
    m_summary->setText(totalsSummary(*step));
}

QString SoakPanel::liveSummary() const
{
    const LiveSnapshot& s = m_run->lastSnapshot();
    const Load& load = m_run->info().profile.load;
    const double windowS = m_run->currentStep()->windowS;
    const int planned = windowS > 0 ? int(std::ceil(load.soakDurationS / windowS - 1e-9)) : 0;
    const int closed = int(m_run->liveWindows().size());
    const QLocale locale;
    QStringList parts;
    parts << tr("%1 of %2 windows closed (%3 s each)").arg(closed).arg(planned).arg(locale.toString(windowS));
    parts << tr("%1 elapsed").arg(UiFormat::clock(s.elapsedS));
    parts << tr("%1 left").arg(UiFormat::clock(std::max(0.0, load.soakDurationS - s.elapsedS)));
    parts << tr("%1 completed, %2 failed so far").arg(locale.toString(s.completed), locale.toString(s.failed));
    QStringList escaped;
    for (const QString& part : parts)
        escaped << part.toHtmlEscaped();
    return QStringLiteral("<b>%1</b> · %2")
        .arg(tr("Soak at %1").arg(UiFormat::loadText(*m_run->currentStep())).toHtmlEscaped(),
            escaped.join(QStringLiteral(" · ")));
}

QString SoakPanel::totalsSummary(const StepReport& step) const
{
    const StepMetrics& m = step.metrics;
    const QLocale locale;
    QStringList failures;
    for (const auto& [failure, count] : m.failuresByClass) {
        if (count > 0)
            failures << tr("%1 × %2").arg(ErrorsModel::classTitle(failure), UiFormat::count(count));
    }
    QStringList parts;
    parts << tr("%1 s at %2").arg(locale.toString(step.durationS, 'f', 1), step.load);
    parts << (failures.isEmpty()
            ? tr("%1 completed, %2 failed").arg(UiFormat::count(m.completed), UiFormat::count(m.failed))
            : tr("%1 completed, %2 failed (%3)")
                  .arg(UiFormat::count(m.completed), UiFormat::count(m.failed), UiFormat::joined(failures)));
    parts << tr("%1 req/s").arg(UiFormat::throughput(m.requestThroughput));
    parts << tr("%1 output tok/s").arg(UiFormat::tokens(m.outputThroughput));
    parts << tr("mean TTFT %1 ms, ITL %2 ms, E2EL %3 ms").arg(meanMs(m.ttft), meanMs(m.itl), meanMs(m.e2el));
    parts << tr("E2EL max %1 ms").arg(m.e2el.count > 0 ? UiFormat::ms(m.e2el.max) : UiFormat::unknown());
    const int n = int(step.windows.size());
    parts << (step.windows.back().partial ? tr("%1 windows, the last partial").arg(n) : tr("%1 windows").arg(n));
    QStringList escaped;
    for (const QString& part : parts)
        escaped << part.toHtmlEscaped();
    QString notes = tr("Percentiles are per window: the soak keeps no percentile of all its requests.");
    if (step.timeline.isEmpty() && !step.noTimeline.isEmpty())
        notes += QLatin1Char(' ') + tr("No requests per second: %1.").arg(step.noTimeline);
    return QStringLiteral("<b>%1</b> · %2<br/>%3")
        .arg((step.partial ? tr("Whole soak (stopped)") : tr("Whole soak")).toHtmlEscaped(),
            escaped.join(QStringLiteral(" · ")), notes.toHtmlEscaped());
}

} // namespace kp::ui
