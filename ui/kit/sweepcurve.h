#pragma once

#include "kit/stepreport.h"
#include "metrics/stepmetrics.h"
#include "sweep/analysistext.h"

#include <QList>
#include <QPointF>

#include <functional>
#include <initializer_list>
#include <optional>
#include <vector>

namespace kp::ui {

// What the analysis tab asks a chart to point at.
struct ChartHighlight
{
    AnalysisTopic topic = AnalysisTopic::Note;
    int stepIndex = -1;
    int regionIndex = -1;
    bool isEmpty() const { return topic == AnalysisTopic::Note && stepIndex < 0 && regionIndex < 0; }
};

// The points the charts draw, from the finished steps: pure functions, so they are tested on their own.
class SweepCurve
{
public:
    struct Point
    {
        double x = 0; // offered load: req/s or users
        double y = 0;
        int step = -1;
    };
    struct Span
    {
        RegionKind kind = RegionKind::Linear;
        double from = 0;
        double to = 0;
        int region = -1;
    };

    // Steps on the sweep's axis (an auto plan's one-user floor is not a point of a rate curve) with a
    // finite offered load and a value, in load order (steps of equal load in run order).
    static std::vector<Point> curve(const std::vector<StepReport>& steps, LoadMode axis,
        const std::function<std::optional<double>(const StepReport&)>& value);
    static std::vector<Point> latency(
        const std::vector<StepReport>& steps, LoadMode axis, LatencyMetric metric, double percentile);
    // Time to first content token (StepMetrics::firstContentTtft) at that percentile.
    static std::vector<Point> ttfc(const std::vector<StepReport>& steps, LoadMode axis, double percentile);
    // One point per load: the mean of the steps run at that load (repeats), the first one's step index.
    static std::vector<Point> meanByLoad(const std::vector<Point>& points);
    static QList<QPointF> toPoints(const std::vector<Point>& points);
    // The step of the point nearest in load to x over these curves; -1 when they are empty.
    static int nearestStep(std::initializer_list<const std::vector<Point>*> curves, double x);
    // Linear interpolation along the curve (clamped to its ends); nullopt for an empty curve.
    static std::optional<double> valueAt(const std::vector<Point>& points, double x);
    // Where a chart marks the knee (or another finding: the SLO capacity): on this curve at its load;
    // nullopt when it was not found or the curve is empty.
    static std::optional<QPointF> kneeMark(const std::vector<Point>& points, const Finding& knee);
    // The ring a highlight draws: the knee's mark when the analysis points at the knee, else the
    // highlighted step's points on this curve; empty when nothing of the curve is highlighted.
    static QList<QPointF> ringMarks(
        const std::vector<Point>& points, const ChartHighlight& highlight, const std::optional<QPointF>& kneeMark);
    // The regions as shaded bands that meet halfway between the steps of neighbouring regions; the
    // first starts at xMin, the last ends at xMax.
    static std::vector<Span> spans(const std::vector<Region>& regions, double xMin, double xMax);
    // A round upper bound for an axis: 1, 2, 2.5 or 5 × 10^k at or above value.
    static double niceCeiling(double value);
    // A round tick interval (1, 2, 2.5 or 5 × 10^k) giving at most `ticks` intervals up to value.
    static double niceStep(double value, int ticks = 5);
};

} // namespace kp::ui
