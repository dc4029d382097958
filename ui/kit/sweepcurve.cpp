#include "kit/sweepcurve.h"

#include <algorithm>
#include <cmath>

namespace kp::ui {

std::vector<SweepCurve::Point> SweepCurve::curve(const std::vector<StepReport>& steps, LoadMode axis,
    const std::function<std::optional<double>(const StepReport&)>& value)
{
    std::vector<Point> points;
    for (const StepReport& s : steps) {
        const double x = s.offered();
        if (!std::isfinite(x) || x <= 0 || s.config.mode != axis)
            continue;
        // An unknown figure (NaN) is left off the curve, never drawn at 0.
        if (const std::optional<double> y = value(s); y && std::isfinite(*y))
            points.push_back({ x, *y, s.index() });
    }
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    return points;
}

std::vector<SweepCurve::Point> SweepCurve::latency(
    const std::vector<StepReport>& steps, LoadMode axis, LatencyMetric metric, double percentile)
{
    return curve(
        steps, axis, [&](const StepReport& s) { return percentileValue(s.metrics.stats(metric), percentile); });
}

std::vector<SweepCurve::Point> SweepCurve::ttfc(const std::vector<StepReport>& steps, LoadMode axis, double percentile)
{
    return curve(
        steps, axis, [&](const StepReport& s) { return percentileValue(s.metrics.firstContentTtft, percentile); });
}

std::vector<SweepCurve::Point> SweepCurve::meanByLoad(const std::vector<Point>& points)
{
    std::vector<Point> out;
    int n = 0;
    for (const Point& p : points) {
        if (!out.empty() && out.back().x == p.x) {
            ++n;
            out.back().y += (p.y - out.back().y) / n;
        } else {
            out.push_back(p);
            n = 1;
        }
    }
    return out;
}

QList<QPointF> SweepCurve::toPoints(const std::vector<Point>& points)
{
    QList<QPointF> list;
    list.reserve(qsizetype(points.size()));
    for (const Point& p : points)
        list.append(QPointF(p.x, p.y));
    return list;
}

int SweepCurve::nearestStep(std::initializer_list<const std::vector<Point>*> curves, double x)
{
    int best = -1;
    double bestDistance = 0;
    for (const std::vector<Point>* curve : curves) {
        for (const Point& p : *curve) {
            const double d = std::abs(p.x - x);
            if (best < 0 || d < bestDistance) {
                best = p.step;
                bestDistance = d;
            }
        }
    }
    return best;
}

std::optional<QPointF> SweepCurve::kneeMark(const std::vector<Point>& points, const Finding& knee)
{
    if (!knee.found || !std::isfinite(knee.offered))
        return std::nullopt;
    const std::optional<double> y = valueAt(points, knee.offered);
    if (!y)
        return std::nullopt;
    return QPointF(knee.offered, *y);
}

QList<QPointF> SweepCurve::ringMarks(
    const std::vector<Point>& points, const ChartHighlight& highlight, const std::optional<QPointF>& kneeMark)
{
    QList<QPointF> ring;
    if (highlight.topic == AnalysisTopic::Knee && kneeMark)
        ring << *kneeMark;
    if (ring.isEmpty() && highlight.stepIndex >= 0) {
        for (const Point& p : points) {
            if (p.step == highlight.stepIndex)
                ring << QPointF(p.x, p.y);
        }
    }
    return ring;
}

std::optional<double> SweepCurve::valueAt(const std::vector<Point>& points, double x)
{
    if (points.empty())
        return std::nullopt;
    if (x <= points.front().x)
        return points.front().y;
    if (x >= points.back().x)
        return points.back().y;
    for (std::size_t i = 1; i < points.size(); ++i) {
        const Point& a = points[i - 1];
        const Point& b = points[i];
        if (x <= b.x) {
            if (b.x == a.x)
                return b.y;
            return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
        }
    }
    return points.back().y;
}

std::vector<SweepCurve::Span> SweepCurve::spans(const std::vector<Region>& regions, double xMin, double xMax)
{
    std::vector<Span> out;
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& r = regions[i];
        Span s;
        s.kind = r.kind;
        s.region = int(i);
        s.from = i == 0 ? xMin : (regions[i - 1].toOffered + r.fromOffered) / 2;
        s.to = i + 1 == regions.size() ? xMax : (r.toOffered + regions[i + 1].fromOffered) / 2;
        if (std::isfinite(s.from) && std::isfinite(s.to) && s.to > s.from)
            out.push_back(s);
    }
    return out;
}

double SweepCurve::niceCeiling(double value)
{
    if (!(value > 0) || !std::isfinite(value))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 }) {
        if (m * magnitude >= value * (1 - 1e-12))
            return m * magnitude;
    }
    return 10 * magnitude;
}

double SweepCurve::niceStep(double value, int ticks)
{
    if (!(value > 0) || !std::isfinite(value) || ticks < 1)
        return 1.0;
    const double raw = value / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 }) {
        if (m * magnitude >= raw * (1 - 1e-12))
            return m * magnitude;
    }
    return 10 * magnitude;
}

} // namespace kp::ui
