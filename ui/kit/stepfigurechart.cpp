#include "kit/stepfigurechart.h"

#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/uiformat.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

StepFigureChart::StepFigureChart(const LiveRun* run, Spec spec, QWidget* parent)
    : ChartPanel(spec.title, parent)
    , m_run(run)
    , m_spec(std::move(spec))
    , m_first(new QLineSeries(chart()))
    , m_second(new QLineSeries(chart()))
    , m_knee(new QScatterSeries(chart()))
    , m_ring(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
{
    QChart* c = chart();
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_first, m_second, m_knee, m_ring })
        c->addSeries(s);
    m_first->setName(m_spec.first.name);
    m_second->setName(m_spec.second.name);
    m_knee->setName(tr("knee"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_y->setTitleText(QStringLiteral("%")); // the chart's title names it: the right column is narrow
    if (!m_spec.secondAxisTitle.isEmpty()) {
        m_ySecond = new QValueAxis(chart());
        c->addAxis(m_ySecond, Qt::AlignRight);
        m_ySecond->setTitleText(m_spec.secondAxisTitle);
    }
    for (QValueAxis* a : { m_x, m_y, m_ySecond }) {
        if (a)
            a->setLabelFormat(QStringLiteral("%g"));
    }
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_first, m_second, m_knee, m_ring }) {
        s->attachAxis(m_x);
        s->attachAxis(s == m_second && m_ySecond ? m_ySecond : m_y);
    }
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    for (QLineSeries* s : { m_first, m_second }) {
        connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) {
            const int best = SweepCurve::nearestStep({ &m_firstPoints, &m_secondPoints }, p.x());
            if (best >= 0)
                Q_EMIT stepClicked(best);
        });
    }
    StepFigureChart::restyle(); // this class's own: the object is not fully built yet
    refresh();
}

void StepFigureChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleLine(m_first, m_spec.first.colour, m_spec.first.width, m_spec.first.style);
    ChartStyle::styleLine(m_second, m_spec.second.colour, m_spec.second.width, m_spec.second.style);
    ChartStyle::styleMarker(m_knee, ChartStyle::knee(), 18, QScatterSeries::MarkerShapeTriangle, pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 26);
    for (QLineSeries* s : { m_first, m_second }) {
        s->setPointsVisible(true);
        s->setMarkerSize(8);
    }
}

void StepFigureChart::setHighlight(const ChartHighlight& highlight)
{
    m_highlight = highlight;
    refresh();
}

void StepFigureChart::refresh()
{
    const std::vector<StepReport>& steps = m_run->steps();
    const AnalysisResult& analysis = m_run->analysis().result;
    const bool concurrency = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;
    const LoadMode axis = concurrency ? LoadMode::Concurrency : LoadMode::Rate;
    m_firstPoints = SweepCurve::curve(steps, axis, m_spec.first.value);
    m_secondPoints = SweepCurve::curve(steps, axis, m_spec.second.value);
    m_first->replace(SweepCurve::toPoints(m_firstPoints));
    m_second->replace(SweepCurve::toPoints(m_secondPoints));
    m_first->setVisible(!m_firstPoints.empty());
    m_second->setVisible(!m_secondPoints.empty());

    double xMax = 0;
    for (const auto* points : { &m_firstPoints, &m_secondPoints }) {
        for (const SweepCurve::Point& p : *points)
            xMax = std::max(xMax, p.x);
    }
    ChartStyle::setNiceRange(m_x, hasData() ? xMax * 1.05 : 1.0);
    ChartStyle::setNiceRange(m_y, 100.0, 4); // the whole scale: a share that fell reads as far as it fell
    if (m_ySecond) {
        double secondMax = 0;
        for (const SweepCurve::Point& p : m_secondPoints)
            secondMax = std::max(secondMax, p.y);
        ChartStyle::setNiceRange(m_ySecond, secondMax > 0 ? secondMax * 1.1 : 1.0, 4);
        m_ySecond->setVisible(!m_secondPoints.empty());
    }
    m_x->setTitleText(concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"));

    // The knee sits on the first curve, else on the second (on its axis).
    const bool onFirst = !m_firstPoints.empty();
    const std::vector<SweepCurve::Point>& onCurve = onFirst ? m_firstPoints : m_secondPoints;
    QValueAxis* kneeAxis = onFirst || !m_ySecond ? m_y : m_ySecond;
    for (QScatterSeries* s : { m_knee, m_ring }) {
        for (QAbstractAxis* a : s->attachedAxes()) {
            if (a != m_x && a != kneeAxis)
                s->detachAxis(a);
        }
        if (!s->attachedAxes().contains(kneeAxis))
            s->attachAxis(kneeAxis);
    }
    const std::optional<QPointF> kneeAt = ChartStyle::markFinding(
        m_knee, onCurve, analysis.knee, QStringLiteral("%1 %2").arg(tr("knee"), UiFormat::load(analysis.knee.offered)));
    m_ring->replace(SweepCurve::ringMarks(onCurve, m_highlight, kneeAt));
    ChartStyle::showInLegend(chart(), m_ring, false);
    for (QLineSeries* s : { m_first, m_second })
        ChartStyle::showInLegend(chart(), s, s->isVisible());

    if (hasData())
        setPlaceholder(QString());
    else if (steps.empty())
        setPlaceholder(m_spec.waitingText);
    else
        setPlaceholder(m_spec.noFiguresText);
}

} // namespace kp::ui
