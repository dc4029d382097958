#pragma once

#include "export/chartexport.h"
#include "metrics/stepmetrics.h"

#include <QString>

#include <memory>
#include <optional>

namespace kp::ui {

class ChartPanel;
class LiveRun;
class LoadLatencyChart;
class ParetoChart;
class PrefixCacheChart;
class ThroughputChart;
struct RunMeta;

enum class ChartKind { Latency, Throughput, PrefixCache, Pareto };

// Which chart of a run, and how it is set up.
struct ChartOptions
{
    ChartKind kind = ChartKind::Latency;
    LatencyMetric metric = LatencyMetric::Ttft;
    std::optional<double> percentile; // the upper curve; unset: the analysed percentile
    bool logScale = false;

    static std::optional<ChartKind> kindFromKey(
        const QString& key); // "latency", "throughput", "prefix_cache", "pareto"
    static QString kindKey(ChartKind kind);
};

// The charts of a run made for export: the same LoadLatencyChart, ThroughputChart and PrefixCacheChart
// classes as the run view, never shown, fed by the same LiveRun, so that a file looks like the screen.
class ChartSet
{
public:
    explicit ChartSet(const LiveRun* run);
    ~ChartSet();
    ChartSet(const ChartSet&) = delete;
    ChartSet& operator=(const ChartSet&) = delete;

    // The chart, set up and redrawn for these options.
    ChartPanel* panel(const ChartOptions& options);
    // Title (chart and curve), the run's caption line, and the chart's own key.
    ChartCaption caption(const ChartOptions& options, const RunMeta& meta);

    LoadLatencyChart* latency();
    ThroughputChart* throughput();
    PrefixCacheChart* prefixCache();
    ParetoChart* pareto(); // shows the run's front

private:
    const LiveRun* m_run;
    std::unique_ptr<LoadLatencyChart> m_latency;
    std::unique_ptr<ThroughputChart> m_throughput;
    std::unique_ptr<PrefixCacheChart> m_prefixCache;
    std::unique_ptr<ParetoChart> m_pareto;
};

} // namespace kp::ui
