#pragma once

#include "kit/sweepcurve.h"
#include "sweep/analysistext.h"
#include "sweep/kneeanalysis.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QPen>
#include <QPointF>

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QScatterSeries;
class QValueAxis;
class QXYSeries;
QT_END_NAMESPACE

namespace kp::ui {

// One colour per meaning, the same in every chart, table and export: P50 and P99, the SLO line, the
// knee and SLO-capacity markers, the regions, throughput, failures. Hues from the Okabe–Ito set, which
// stay apart for colour-blind readers and on dark backgrounds.
class ChartStyle
{
public:
    static QColor p50() { return QColor(0x00, 0x72, 0xB2); }
    static QColor p99() { return QColor(0xE6, 0x9F, 0x00); }
    static QColor slo() { return QColor(0xD5, 0x5E, 0x00); }
    static QColor knee() { return QColor(0xCC, 0x79, 0xA7); }
    static QColor sloCapacity() { return QColor(0x00, 0x9E, 0x73); }
    static QColor achieved() { return QColor(0x56, 0xB4, 0xE9); }
    static QColor tokens() { return QColor(0x8C, 0x56, 0x4B); }
    static QColor failure() { return QColor(0xD6, 0x27, 0x28); }
    static QColor request() { return QColor(0x00, 0x72, 0xB2, 110); }
    static QColor region(RegionKind kind, bool highlighted = false);
    static QColor regionSolid(RegionKind kind); // for legends and icons
    static QColor neutral(const QPalette& palette); // ideal line, in-flight line, excluded steps
    static QColor highlight(const QPalette& palette);

    static bool isDark(const QPalette& palette);
    // Background, axes, grid, legend and titles from the palette (light or dark), with the fonts a
    // 1280×800 window can read.
    static void apply(QChart* chart, const QPalette& palette);
    static void styleLine(
        QXYSeries* series, const QColor& color, qreal width = 2.0, Qt::PenStyle style = Qt::SolidLine);
    static void styleMarker(
        QScatterSeries* series, const QColor& color, qreal size, int shape, const QPalette& palette);
    static void styleRing(QScatterSeries* series, const QColor& color, qreal size);
    // A finding (the knee, the SLO capacity) marked on the curve at its load, the marker named so; hidden
    // when the analysis found none or the curve is empty. Returns where the marker stands.
    static std::optional<QPointF> markFinding(QScatterSeries* marker, const std::vector<SweepCurve::Point>& curve,
        const Finding& finding, const QString& name);
    // The series' entries in the chart's legend shown or hidden.
    static void showInLegend(QChart* chart, QAbstractSeries* series, bool shown);
    // From 0 to a round number at or above max, with ticks at round intervals ("0, 25, 50, … 125").
    static void setNiceRange(QValueAxis* axis, double max, int ticks = 5);
    // The same from a round number at or below min.
    static void setNiceRange(QValueAxis* axis, double min, double max, int ticks);
    // Sets the vertical axes' ranges again for the chart's plot height: a short plot gets fewer ticks
    // rather than labels elided to "…". Called when the plot area changes (ChartPanel does so).
    static void refitVerticalAxes(QChart* chart);

    // Small icons for lists (the analysis sentences): the marker or colour the sentence points at.
    static QIcon topicIcon(AnalysisTopic topic, RegionKind region = RegionKind::Linear);
};

} // namespace kp::ui
