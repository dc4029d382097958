#pragma once

#include "kit/chartpanel.h"
#include "kit/stepreport.h"
#include "kit/sweepcurve.h"

#include <QColor>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;

// A chart of two figures per step against the offered load (or users), one point per step, with the
// knee marked as on the other charts and the highlighted step ringed. A step without a figure is left
// off, never drawn at 0. The first figure is on a percent axis (0–100); the second shares it, or has an
// axis of its own on the right. The knee sits on the first curve, else on the second.
class StepFigureChart : public ChartPanel
{
    Q_OBJECT
public:
    struct Figure
    {
        QString name; // the legend's
        std::function<std::optional<double>(const StepReport&)> value;
        QColor colour;
        double width = 2.5;
        Qt::PenStyle style = Qt::SolidLine;
    };
    struct Spec
    {
        QString title;
        Figure first;
        Figure second;
        QString secondAxisTitle; // empty: the second figure shares the first's percent axis
        QString waitingText; // the placeholder before any step
        QString noFiguresText; // the placeholder when no step has either figure
    };

    StepFigureChart(const LiveRun* run, Spec spec, QWidget* parent = nullptr);

    void refresh();
    void setHighlight(const ChartHighlight& highlight);
    // In load order.
    const std::vector<SweepCurve::Point>& firstPoints() const { return m_firstPoints; }
    const std::vector<SweepCurve::Point>& secondPoints() const { return m_secondPoints; }
    bool hasData() const { return !m_firstPoints.empty() || !m_secondPoints.empty(); }

Q_SIGNALS:
    void stepClicked(int stepIndex);

protected:
    void restyle() override;

private:
    const LiveRun* m_run;
    Spec m_spec;
    ChartHighlight m_highlight;
    QLineSeries* m_first;
    QLineSeries* m_second;
    QScatterSeries* m_knee;
    QScatterSeries* m_ring;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_ySecond = nullptr; // when the second figure has an axis of its own
    std::vector<SweepCurve::Point> m_firstPoints;
    std::vector<SweepCurve::Point> m_secondPoints;
};

} // namespace kp::ui
