#include "kit/regionbands.h"

#include "kit/chartstyle.h"
#include "kit/uiformat.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace kp::ui {

void RegionBands::create(QChart* chart, int count)
{
    m_chart = chart;
    for (int i = 0; i < count; ++i) {
        Band b;
        b.upper = new QLineSeries(chart);
        b.lower = new QLineSeries(chart);
        b.area = new QAreaSeries(b.upper, b.lower);
        b.area->setPen(Qt::NoPen);
        b.area->setVisible(false);
        chart->addSeries(b.area);
        const auto markers = chart->legend()->markers(b.area);
        for (QLegendMarker* m : markers)
            m->setVisible(false);
        m_bands.push_back(b);
    }
}

void RegionBands::attach(QAbstractAxis* x, QAbstractAxis* y)
{
    for (const Band& b : m_bands) {
        if (x)
            b.area->attachAxis(x);
        b.area->attachAxis(y);
    }
}

void RegionBands::detach(QAbstractAxis* y)
{
    for (const Band& b : m_bands)
        b.area->detachAxis(y);
}

void RegionBands::update(const std::vector<SweepCurve::Span>& spans, double yMin, double yMax, int highlightedRegion)
{
    for (std::size_t i = 0; i < m_bands.size(); ++i) {
        const Band& b = m_bands[i];
        if (i >= spans.size()) {
            // Emptied too, so no stale zero meets a log axis.
            b.upper->clear();
            b.lower->clear();
            b.area->setVisible(false);
            continue;
        }
        const SweepCurve::Span& s = spans[i];
        b.upper->replace(QList<QPointF> { { s.from, yMax }, { s.to, yMax } });
        b.lower->replace(QList<QPointF> { { s.from, yMin }, { s.to, yMin } });
        b.area->setBrush(ChartStyle::region(s.kind, s.region == highlightedRegion));
        b.area->setPen(Qt::NoPen);
        b.area->setName(UiFormat::regionWord(s.kind));
        b.area->setVisible(true);
        const auto markers = m_chart->legend()->markers(b.area);
        for (QLegendMarker* m : markers)
            m->setVisible(false);
    }
}

int RegionBands::visibleCount() const
{
    int n = 0;
    for (const Band& b : m_bands)
        n += b.area->isVisible() ? 1 : 0;
    return n;
}

} // namespace kp::ui
