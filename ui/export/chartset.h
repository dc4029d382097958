#pragma once

#include "export/chartexport.h"
#include "metrics/stepmetrics.h"

#include <QString>

#include <memory>
#include <optional>

namespace kp::ui {

class ChartPanel;
class GanttChart;
class GpuChart;
class LiveRun;
class LoadLatencyChart;
class ParetoChart;
class PrefixCacheChart;
class ThroughputChart;
class TimelineChart;
class TtftBreakdownChart;
struct RunMeta;

// Timeline*: one step second by second (TimelineChart's views); Gantt: the requests of one of its seconds.
enum class ChartKind {
    Latency,
    Throughput,
    PrefixCache,
    Gpu,
    TtftBreakdown,
    Pareto,
    Timeline,
    TimelineLatency,
    TimelineServer,
    Gantt // the last: kLastChartKind
};
// Every kind up to this one has a key (chartset.cpp checks it when it compiles): a kind added after it moves it.
inline constexpr ChartKind kLastChartKind = ChartKind::Gantt;

// Which chart of a run, and how it is set up.
struct ChartOptions
{
    ChartKind kind = ChartKind::Latency;
    LatencyMetric metric = LatencyMetric::Ttft;
    std::optional<double> percentile; // the upper curve; unset: the analysed percentile
    bool logScale = false;
    int step = 0; // Timeline*, Gantt: the step's number (1-based, as in the steps table)
    int second = 0; // Gantt: the second of the step

    // "latency", "throughput", "prefix_cache", "gpu", "ttft_breakdown", "pareto", "timeline", "timeline_latency",
    // "timeline_server", "gantt"
    static std::optional<ChartKind> kindFromKey(const QString& key);
    static bool isStepChart(ChartKind kind); // Timeline*, Gantt
    static QString kindKey(ChartKind kind);
};

// The charts of a run made for export: the same LoadLatencyChart, ThroughputChart, PrefixCacheChart, GpuChart
// (...) classes as the run view, never shown, fed by the same LiveRun, so that a file looks like the screen.
class ChartSet
{
public:
    explicit ChartSet(const LiveRun* run);
    ~ChartSet();
    ChartSet(const ChartSet&) = delete;
    ChartSet& operator=(const ChartSet&) = delete;

    // The chart, set up and redrawn for these options. A step chart of a step number the run does not
    // have shows no step (the caller checks the number first).
    ChartPanel* panel(const ChartOptions& options);
    // Title (chart and curve), the run's caption line, and the chart's own key.
    // A predicted run's title ends in "(predicted)".
    ChartCaption caption(const ChartOptions& options, const RunMeta& meta);

    LoadLatencyChart* latency();
    ThroughputChart* throughput();
    PrefixCacheChart* prefixCache();
    GpuChart* gpu();
    TtftBreakdownChart* ttftBreakdown();
    ParetoChart* pareto(); // shows the run's front
    TimelineChart* timeline();
    GanttChart* gantt();

private:
    ChartCaption measuredCaption(const ChartOptions& options, const RunMeta& meta);
    const LiveRun* m_run;
    std::unique_ptr<LoadLatencyChart> m_latency;
    std::unique_ptr<ThroughputChart> m_throughput;
    std::unique_ptr<PrefixCacheChart> m_prefixCache;
    std::unique_ptr<GpuChart> m_gpu;
    std::unique_ptr<TtftBreakdownChart> m_ttftBreakdown;
    std::unique_ptr<ParetoChart> m_pareto;
    std::unique_ptr<TimelineChart> m_timeline;
    std::unique_ptr<GanttChart> m_gantt;
};

} // namespace kp::ui
