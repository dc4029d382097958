#pragma once

#include "kit/sweepcurve.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QChart;
class QLineSeries;
QT_END_NAMESPACE

namespace kp::ui {

// The linear, knee and overload regions as shaded bands behind a chart's curves. The bands are added
// to the chart first, so everything added later draws over them; they stay out of the legend.
class RegionBands
{
public:
    void create(QChart* chart, int count = 6);
    void attach(QAbstractAxis* x, QAbstractAxis* y);
    void detach(QAbstractAxis* y);
    // Shows one band per span from yMin to yMax; the highlighted region is drawn stronger.
    void update(const std::vector<SweepCurve::Span>& spans, double yMin, double yMax, int highlightedRegion);
    int visibleCount() const;

private:
    struct Band
    {
        QAreaSeries* area = nullptr;
        QLineSeries* upper = nullptr;
        QLineSeries* lower = nullptr;
    };
    QChart* m_chart = nullptr;
    std::vector<Band> m_bands;
};

} // namespace kp::ui
