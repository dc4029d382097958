#include "kit/chartstyle.h"

#include "kit/sweepcurve.h"
#include "sweep/analysistext.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QScatterSeries>
#include <QScopeGuard>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace kp::ui {

QColor ChartStyle::region(RegionKind kind, bool highlighted)
{
    QColor c = regionSolid(kind);
    c.setAlpha(highlighted ? 110 : 38);
    return c;
}

QColor ChartStyle::regionSolid(RegionKind kind)
{
    switch (kind) {
    case RegionKind::Linear:
        return QColor(0x00, 0x9E, 0x73);
    case RegionKind::Knee:
        return QColor(0xF0, 0xB4, 0x00);
    case RegionKind::Overload:
        return QColor(0xD6, 0x27, 0x28);
    }
    return {};
}

QColor ChartStyle::neutral(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xA0, 0xA0, 0xA0) : QColor(0x70, 0x70, 0x70);
}

QColor ChartStyle::highlight(const QPalette& palette)
{
    return palette.color(QPalette::Text);
}

bool ChartStyle::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

void ChartStyle::apply(QChart* chart, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(isDark(palette) ? 45 : 30);
    QColor axisLine = text;
    axisLine.setAlpha(120);
    QFont font = QApplication::font();
    QFont small = font;
    small.setPointSizeF(std::max(7.0, font.pointSizeF() - 1.0));
    QFont title = font;
    title.setBold(true);

    chart->setBackgroundBrush(palette.brush(QPalette::Base));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->setTitleFont(title);
    chart->setMargins(QMargins(4, 4, 4, 2));
    chart->layout()->setContentsMargins(2, 2, 2, 2); // small charts need every line for their plot
    chart->legend()->setLabelColor(text);
    chart->legend()->setFont(small);
    chart->legend()->setBackgroundVisible(false);
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsColor(text);
        axis->setLabelsFont(small);
        axis->setTitleBrush(text);
        axis->setTitleFont(small);
        axis->setGridLineColor(grid);
        axis->setMinorGridLineColor(grid);
        axis->setLinePenColor(axisLine);
    }
}

void ChartStyle::styleLine(QXYSeries* series, const QColor& color, qreal width, Qt::PenStyle style)
{
    QPen pen(color);
    pen.setWidthF(width);
    pen.setStyle(style);
    pen.setCapStyle(Qt::RoundCap);
    series->setPen(pen);
    series->setColor(color);
}

void ChartStyle::styleMarker(
    QScatterSeries* series, const QColor& color, qreal size, int shape, const QPalette& palette)
{
    series->setMarkerShape(QScatterSeries::MarkerShape(shape));
    series->setMarkerSize(size);
    series->setColor(color);
    series->setBrush(color);
    QPen border(palette.color(QPalette::Base));
    border.setWidthF(1.5);
    series->setBorderColor(palette.color(QPalette::Base));
    series->setPen(border);
}

void ChartStyle::styleRing(QScatterSeries* series, const QColor& color, qreal size)
{
    series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    series->setMarkerSize(size);
    series->setBrush(Qt::NoBrush);
    QPen pen(color);
    pen.setWidthF(2.5);
    series->setPen(pen);
    series->setBorderColor(color);
}

std::optional<QPointF> ChartStyle::markFinding(
    QScatterSeries* marker, const std::vector<SweepCurve::Point>& curve, const Finding& finding, const QString& name)
{
    const std::optional<QPointF> at = SweepCurve::kneeMark(curve, finding);
    if (at) {
        marker->replace(QList<QPointF> { *at });
        marker->setName(name);
        marker->setVisible(true);
    } else {
        marker->clear();
        marker->setVisible(false);
    }
    return at;
}

void ChartStyle::showInLegend(QChart* chart, QAbstractSeries* series, bool shown)
{
    const auto markers = chart->legend()->markers(series);
    for (QLegendMarker* m : markers)
        m->setVisible(shown);
}

void ChartStyle::setNiceRange(QValueAxis* axis, double max, int ticks)
{
    setNiceRange(axis, 0, max, ticks);
}

void ChartStyle::setNiceRange(QValueAxis* axis, double min, double max, int ticks)
{
    if (!std::isfinite(min) || min < 0)
        min = 0;
    if (!std::isfinite(max) || !(max > min))
        max = min + 1;
    axis->setProperty("kp_nice_min", min);
    axis->setProperty("kp_nice_max", max);
    axis->setProperty("kp_nice_ticks", ticks);
    // On a vertical axis, as many intervals as labels fit in the plot's height, one line and a half each.
    QChart* chart = nullptr;
    for (QObject* o = axis->parent(); o && !chart; o = o->parent())
        chart = qobject_cast<QChart*>(o);
    if (chart && axis->orientation() == Qt::Vertical) {
        const double height = chart->plotArea().height();
        const double line = QFontMetricsF(axis->labelsFont()).height() * 1.5;
        if (height > 0 && line > 0)
            ticks = std::clamp(int(height / line) - 1, 1, ticks);
    }
    const double step = SweepCurve::niceStep(max - min, ticks);
    const double bottom = std::floor(min / step + 1e-9) * step;
    const double top = std::ceil(max / step - 1e-9) * step;
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(bottom);
    axis->setTickInterval(step);
    axis->setRange(bottom, top);
}

void ChartStyle::refitVerticalAxes(QChart* chart)
{
    // Setting a range lays the chart out again, which can change its plot area and so call this again
    // from within. Once is enough: with labels whose width flips between two layouts the calls nested
    // until the stack ran out.
    if (chart->property("kp_refitting").toBool())
        return;
    chart->setProperty("kp_refitting", true);
    const auto done = qScopeGuard([chart] { chart->setProperty("kp_refitting", false); });
    const auto axes = chart->axes(Qt::Vertical);
    for (QAbstractAxis* a : axes) {
        auto* axis = qobject_cast<QValueAxis*>(a);
        if (axis && axis->property("kp_nice_ticks").isValid()) {
            setNiceRange(axis, axis->property("kp_nice_min").toDouble(), axis->property("kp_nice_max").toDouble(),
                axis->property("kp_nice_ticks").toInt());
        }
    }
}

QIcon ChartStyle::topicIcon(AnalysisTopic topic, RegionKind region)
{
    const int size = 16;
    QPixmap pixmap(size * 2, size * 2);
    pixmap.setDevicePixelRatio(2.0);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    const QRectF box(2, 2, size - 4, size - 4);
    switch (topic) {
    case AnalysisTopic::Knee: {
        QPainterPath path;
        path.moveTo(box.center().x(), box.top());
        path.lineTo(box.bottomRight());
        path.lineTo(box.bottomLeft());
        path.closeSubpath();
        p.setBrush(knee());
        p.drawPath(path);
        break;
    }
    case AnalysisTopic::SloCapacity: {
        QPainterPath path;
        path.moveTo(box.center().x(), box.top());
        path.lineTo(box.right(), box.center().y());
        path.lineTo(box.center().x(), box.bottom());
        path.lineTo(box.left(), box.center().y());
        path.closeSubpath();
        p.setBrush(sloCapacity());
        p.drawPath(path);
        break;
    }
    case AnalysisTopic::Region:
        p.setBrush(regionSolid(region));
        p.drawRect(box);
        break;
    case AnalysisTopic::ThroughputKnee:
    case AnalysisTopic::Saturation:
    case AnalysisTopic::Collapse:
    case AnalysisTopic::Recommended:
        p.setBrush(achieved());
        p.drawEllipse(box);
        break;
    case AnalysisTopic::CapacityPlan:
    case AnalysisTopic::Note:
    case AnalysisTopic::Server:
        p.setBrush(QColor(0x90, 0x90, 0x90));
        p.drawEllipse(box.adjusted(3, 3, -3, -3));
        break;
    }
    return QIcon(pixmap);
}

} // namespace kp::ui
