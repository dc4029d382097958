#include "export/chartset.h"

#include "charts/ganttchart.h"
#include "charts/gpuchart.h"
#include "charts/loadlatencychart.h"
#include "charts/paretochart.h"
#include "charts/prefixcachechart.h"
#include "charts/throughputchart.h"
#include "charts/timelinechart.h"
#include "charts/ttftbreakdownchart.h"
#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/runmeta.h"
#include "kit/uiformat.h"
#include "sweep/analysiswords.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

// A finding's entry in a chart's key (its marker's glyph in its colour, its name and load), or nothing
// when the analysis did not find it.
QString findingKey(
    const QColor& colour, const QString& glyph, const QString& name, const Finding& f, bool concurrencyMode)
{
    if (!f.found || !std::isfinite(f.offered))
        return {};
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
        .arg(colour.name(), glyph,
            (name + u' ' + (f.lowerBound ? QStringLiteral("≥ ") : QString()) + loadWord(f.offered, concurrencyMode))
                .toHtmlEscaped());
}

// A chart's key: its entries in order, the empty ones left out.
QString keyLine(const QStringList& entries)
{
    QStringList shown;
    for (const QString& e : entries) {
        if (!e.isEmpty())
            shown << e;
    }
    return shown.join(QStringLiteral(" &nbsp;·&nbsp; "));
}

// The knee's entry in a per-step chart's key (a triangle in the knee's colour and its load).
QString kneeKey(const AnalysisResult& a)
{
    return findingKey(ChartStyle::knee(), QStringLiteral("▲"), QCoreApplication::translate("kp::ui::ChartSet", "knee"),
        a.knee, a.concurrencyMode);
}

// The chart kinds by key, the first of a kind's keys the one it is written with.
struct KindKey
{
    ChartKind kind;
    QLatin1String key;
};
constexpr KindKey kKindKeys[] = {
    { ChartKind::Latency, QLatin1String("latency") },
    { ChartKind::Throughput, QLatin1String("throughput") },
    { ChartKind::PrefixCache, QLatin1String("prefix_cache") },
    { ChartKind::PrefixCache, QLatin1String("prefix-cache") },
    { ChartKind::Gpu, QLatin1String("gpu") },
    { ChartKind::TtftBreakdown, QLatin1String("ttft_breakdown") },
    { ChartKind::TtftBreakdown, QLatin1String("ttft-breakdown") },
    { ChartKind::Pareto, QLatin1String("pareto") },
    { ChartKind::Timeline, QLatin1String("timeline") },
    { ChartKind::TimelineLatency, QLatin1String("timeline_latency") },
    { ChartKind::TimelineServer, QLatin1String("timeline_server") },
    { ChartKind::Gantt, QLatin1String("gantt") },
};

constexpr bool everyKindHasAKey()
{
    for (int kind = 0; kind <= int(kLastChartKind); ++kind) {
        bool found = false;
        for (const KindKey& k : kKindKeys)
            found = found || int(k.kind) == kind;
        if (!found)
            return false;
    }
    return true;
}
static_assert(everyKindHasAKey(), "a ChartKind has no key in kKindKeys: kindKey() would answer \"\"");

// The chart in slot, made (offscreen, in the export palette) on first use.
template <typename Chart, typename... Args> Chart* made(std::unique_ptr<Chart>& slot, Args... args)
{
    if (!slot) {
        slot = std::make_unique<Chart>(args...);
        slot->setPalette(ChartExport::exportPalette());
    }
    return slot.get();
}

} // namespace

std::optional<ChartKind> ChartOptions::kindFromKey(const QString& key)
{
    for (const KindKey& k : kKindKeys) {
        if (key == k.key)
            return k.kind;
    }
    return std::nullopt;
}

QString ChartOptions::kindKey(ChartKind kind)
{
    for (const KindKey& k : kKindKeys) {
        if (k.kind == kind)
            return k.key;
    }
    return {};
}

bool ChartOptions::isStepChart(ChartKind kind)
{
    return kind == ChartKind::Timeline || kind == ChartKind::TimelineLatency || kind == ChartKind::TimelineServer
        || kind == ChartKind::Gantt;
}

ChartSet::ChartSet(const LiveRun* run)
    : m_run(run)
{ }

ChartSet::~ChartSet() = default;

LoadLatencyChart* ChartSet::latency()
{
    return made(m_latency, m_run);
}

ThroughputChart* ChartSet::throughput()
{
    return made(m_throughput, m_run);
}

PrefixCacheChart* ChartSet::prefixCache()
{
    return made(m_prefixCache, m_run);
}

GpuChart* ChartSet::gpu()
{
    return made(m_gpu, m_run);
}

TtftBreakdownChart* ChartSet::ttftBreakdown()
{
    return made(m_ttftBreakdown, m_run);
}

ParetoChart* ChartSet::pareto()
{
    ParetoChart* chart = made(m_pareto);
    chart->showRun(*m_run);
    return chart;
}

TimelineChart* ChartSet::timeline()
{
    return made(m_timeline);
}

GanttChart* ChartSet::gantt()
{
    return made(m_gantt);
}

ChartPanel* ChartSet::panel(const ChartOptions& options)
{
    if (options.kind == ChartKind::Pareto)
        return pareto();
    if (ChartOptions::isStepChart(options.kind)) {
        const auto& steps = m_run->steps();
        const StepReport* step
            = options.step >= 1 && options.step <= int(steps.size()) ? &steps[std::size_t(options.step - 1)] : nullptr;
        if (options.kind == ChartKind::Gantt) {
            GanttChart* chart = gantt();
            chart->setStep(step, options.second);
            return chart;
        }
        TimelineChart* chart = timeline();
        chart->setView(options.kind == ChartKind::TimelineLatency ? TimelineChart::View::Latency
                : options.kind == ChartKind::TimelineServer       ? TimelineChart::View::Server
                                                                  : TimelineChart::View::Requests);
        chart->setStep(step);
        return chart;
    }
    if (options.kind == ChartKind::PrefixCache) {
        PrefixCacheChart* chart = prefixCache();
        chart->refresh();
        return chart;
    }
    if (options.kind == ChartKind::Gpu) {
        GpuChart* chart = gpu();
        chart->refresh();
        return chart;
    }
    if (options.kind == ChartKind::TtftBreakdown) {
        TtftBreakdownChart* chart = ttftBreakdown();
        chart->refresh();
        return chart;
    }
    if (options.kind == ChartKind::Throughput) {
        ThroughputChart* chart = throughput();
        chart->refresh();
        return chart;
    }
    LoadLatencyChart* chart = latency();
    chart->setMetric(options.metric);
    chart->setLogScale(options.logScale);
    chart->setPercentile(options.percentile);
    return chart;
}

ChartCaption ChartSet::caption(const ChartOptions& options, const RunMeta& meta)
{
    ChartCaption c = measuredCaption(options, meta);
    if (meta.predicted())
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "%1 (predicted)").arg(c.title);
    return c;
}

ChartCaption ChartSet::measuredCaption(const ChartOptions& options, const RunMeta& meta)
{
    ChartCaption c;
    c.subtitle = meta.captionLine();
    if (options.kind == ChartKind::Pareto) {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Interactivity against throughput: the Pareto front");
        const ParetoChart* chart = pareto();
        QStringList keys;
        for (const ParetoSeries& s : chart->fronts()) {
            const std::vector<ParetoPoint> optimal = s.front.optimal();
            QStringList loads;
            for (const ParetoPoint& p : optimal)
                loads << UiFormat::load(p.offered);
            if (!optimal.empty())
                keys << QCoreApplication::translate("kp::ui::ChartSet", "on the front: %1 %2")
                            .arg(loads.join(QStringLiteral(", ")), UiFormat::loadUnit(s.mode))
                            .toHtmlEscaped();
            keys << QCoreApplication::translate("kp::ui::ChartSet", "%1 of %2 steps on the front")
                        .arg(int(optimal.size()))
                        .arg(int(s.front.points.size()) + s.front.leftOff);
            if (s.front.unit == ParetoUnit::Gpu)
                keys << QCoreApplication::translate("kp::ui::ChartSet", "%1 GPUs (%2)")
                            .arg(s.front.units)
                            .arg(s.front.unitSource)
                            .toHtmlEscaped();
            if (s.front.leftOff > 0)
                keys << QCoreApplication::translate("kp::ui::ChartSet",
                    "%n step(s) left off (no TPOT, cut short, or errors over 5%)", nullptr, s.front.leftOff);
        }
        keys << QCoreApplication::translate("kp::ui::ChartSet", "per user: 1000 / median TPOT");
        c.note = keys.join(QStringLiteral(" &nbsp;·&nbsp; "));
        return c;
    }
    if (ChartOptions::isStepChart(options.kind)) {
        // The chart's own title names the step, its load and the second; its legend names the series.
        c.title = panel(options)->title();
        return c;
    }
    if (options.kind == ChartKind::PrefixCache) {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Prefix-cache hit rate against offered load");
        const AnalysisResult& a = m_run->analysis().result;
        PrefixCacheChart* chart = prefixCache();
        chart->refresh();
        QStringList keys;
        if (!chart->serverPoints().empty())
            keys << QCoreApplication::translate("kp::ui::ChartSet", "server: its /metrics prefix-cache figures");
        if (!chart->clientPoints().empty())
            keys << QCoreApplication::translate(
                "kp::ui::ChartSet", "client: cached tokens the responses reported, over input tokens");
        c.note = keyLine(keys << kneeKey(a));
        return c;
    }
    if (options.kind == ChartKind::Gpu) {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "GPU utilisation and memory against offered load");
        const AnalysisResult& a = m_run->analysis().result;
        GpuChart* chart = gpu();
        chart->refresh();
        QStringList keys;
        // How many GPUs, and from which exporter URLs: the figures are theirs.
        int gpus = 0;
        QStringList urls;
        for (const StepReport& s : m_run->steps()) {
            if (!s.server.stats)
                continue;
            gpus = std::max(gpus, s.server.stats->gpuCount.value_or(0));
            for (const ServerStepStats& server : s.server.stats->servers) {
                if (server.gpuCount && !urls.contains(server.url))
                    urls << server.url;
            }
        }
        if (gpus > 0)
            keys << QCoreApplication::translate("kp::ui::ChartSet", "%1 GPUs").arg(gpus);
        if (!urls.isEmpty())
            keys << urls.join(QStringLiteral(", ")).toHtmlEscaped();
        if (chart->hasData())
            keys << QCoreApplication::translate(
                "kp::ui::ChartSet", "utilisation: mean over the GPUs; memory: the fullest GPU");
        c.note = keyLine(keys << kneeKey(a));
        return c;
    }
    if (options.kind == ChartKind::TtftBreakdown) {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Where TTFT goes against offered load");
        const AnalysisResult& a = m_run->analysis().result;
        TtftBreakdownChart* chart = ttftBreakdown();
        chart->refresh();
        QStringList keys;
        if (chart->hasData())
            keys << QCoreApplication::translate("kp::ui::ChartSet",
                "means per step: queue, prefill and decode from the server's histograms; client = the client's "
                "mean TTFT less queue and prefill (network, new connections, the client)")
                        .toHtmlEscaped();
        c.note = keyLine(keys << kneeKey(a));
        return c;
    }
    if (options.kind == ChartKind::Throughput) {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Throughput against offered load");
        // The markers look as on the load–latency chart, whose legend names them; this one says it here.
        const AnalysisResult& a = m_run->analysis().result;
        c.note = keyLine({ kneeKey(a),
            findingKey(ChartStyle::sloCapacity(), QStringLiteral("◆"),
                QCoreApplication::translate("kp::ui::ChartSet", "SLO capacity"), a.sloCapacity, a.concurrencyMode) });
        return c;
    }
    LoadLatencyChart* chart = latency();
    const QString metric = UiFormat::metricWord(options.metric);
    const QString wanted = UiFormat::percentileWord(chart->wantedPercentile());
    if (chart->everyRequestFailed()) {
        c.title
            = QCoreApplication::translate("kp::ui::ChartSet", "Load–latency · %1: every request failed").arg(metric);
    } else if (chart->percentile() == chart->wantedPercentile()) {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Load–latency · %1 and P50 %2")
                      .arg(wanted + u' ' + metric, metric);
    } else if (chart->percentile() == 50.0) {
        // A file with the median only: say which curve is drawn and which is missing.
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Load–latency · P50 %1 (the run has no %2)")
                      .arg(metric, wanted);
    } else {
        c.title = QCoreApplication::translate("kp::ui::ChartSet", "Load–latency · %1 and P50 %2 (the run has no %3)")
                      .arg(UiFormat::percentileWord(chart->percentile()) + u' ' + metric, metric, wanted);
    }
    c.note = chart->caption();
    return c;
}

} // namespace kp::ui
