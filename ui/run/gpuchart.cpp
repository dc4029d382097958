#include "run/gpuchart.h"

#include "run/chartstyle.h"
#include "run/liverun.h"
#include "run/uiformat.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

GpuChart::GpuChart(const LiveRun* run, QWidget* parent)
    : ChartPanel(tr("GPUs"), parent)
    , m_run(run)
    , m_util(new QLineSeries(chart()))
    , m_memory(new QLineSeries(chart()))
    , m_knee(new QScatterSeries(chart()))
    , m_ring(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
    , m_yMemory(new QValueAxis(chart()))
{
    QChart* c = chart();
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_util, m_memory, m_knee, m_ring })
        c->addSeries(s);
    m_util->setName(tr("utilisation %"));
    m_memory->setName(tr("memory used (GiB)"));
    m_knee->setName(tr("knee"));
    for (QValueAxis* a : { m_x, m_y, m_yMemory })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    c->addAxis(m_yMemory, Qt::AlignRight);
    m_y->setTitleText(QStringLiteral("%"));
    m_yMemory->setTitleText(tr("GiB"));
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_util, m_knee, m_ring }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_memory->attachAxis(m_x);
    m_memory->attachAxis(m_yMemory);
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    for (QLineSeries* s : { m_util, m_memory }) {
        connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) {
            const int best = SweepCurve::nearestStep({ &m_utilPoints, &m_memoryPoints }, p.x());
            if (best >= 0)
                Q_EMIT stepClicked(best);
        });
    }
    GpuChart::restyle(); // this class's own: the object is not fully built yet
    refresh();
}

void GpuChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleLine(m_util, ChartStyle::p50(), 2.5);
    ChartStyle::styleLine(m_memory, ChartStyle::tokens(), 2.0, Qt::DashLine);
    ChartStyle::styleMarker(m_knee, ChartStyle::knee(), 18, QScatterSeries::MarkerShapeTriangle, pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 26);
    for (QLineSeries* s : { m_util, m_memory }) {
        s->setPointsVisible(true);
        s->setMarkerSize(8);
    }
}

void GpuChart::setHighlight(const ChartHighlight& highlight)
{
    m_highlight = highlight;
    refresh();
}

void GpuChart::refresh()
{
    const std::vector<StepReport>& steps = m_run->steps();
    const AnalysisResult& analysis = m_run->analysis().result;
    const bool concurrency = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;
    const LoadMode axis = concurrency ? LoadMode::Concurrency : LoadMode::Rate;
    m_utilPoints = SweepCurve::curve(steps, axis, [](const StepReport& s) -> std::optional<double> {
        return s.server.stats ? s.server.stats->gpuUtilisationMean : std::nullopt;
    });
    m_memoryPoints = SweepCurve::curve(steps, axis, [](const StepReport& s) -> std::optional<double> {
        if (!s.server.stats || !s.server.stats->gpuFbUsedMaxMiB)
            return std::nullopt;
        return *s.server.stats->gpuFbUsedMaxMiB / 1024.0;
    });
    m_util->replace(SweepCurve::toPoints(m_utilPoints));
    m_memory->replace(SweepCurve::toPoints(m_memoryPoints));
    m_util->setVisible(!m_utilPoints.empty());
    m_memory->setVisible(!m_memoryPoints.empty());

    double xMax = 0;
    double memoryMax = 0;
    for (const auto* points : { &m_utilPoints, &m_memoryPoints }) {
        for (const SweepCurve::Point& p : *points)
            xMax = std::max(xMax, p.x);
    }
    for (const SweepCurve::Point& p : m_memoryPoints)
        memoryMax = std::max(memoryMax, p.y);
    ChartStyle::setNiceRange(m_x, hasData() ? xMax * 1.05 : 1.0);
    ChartStyle::setNiceRange(m_y, 100.0, 4); // the whole scale: a GPU at 40% reads as 40% of the height
    ChartStyle::setNiceRange(m_yMemory, memoryMax > 0 ? memoryMax * 1.1 : 1.0, 4);
    m_yMemory->setVisible(!m_memoryPoints.empty());
    m_x->setTitleText(concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"));

    // The knee sits on the utilisation curve, else on the memory's: how busy the GPUs were there.
    const bool onUtil = !m_utilPoints.empty();
    const std::vector<SweepCurve::Point>& onCurve = onUtil ? m_utilPoints : m_memoryPoints;
    QValueAxis* kneeAxis = onUtil ? m_y : m_yMemory;
    for (QScatterSeries* s : { m_knee, m_ring }) {
        for (QAbstractAxis* a : s->attachedAxes()) {
            if (a != m_x && a != kneeAxis)
                s->detachAxis(a);
        }
        if (!s->attachedAxes().contains(kneeAxis))
            s->attachAxis(kneeAxis);
    }
    const Finding& knee = analysis.knee;
    std::optional<double> kneeY;
    if (knee.found && std::isfinite(knee.offered))
        kneeY = SweepCurve::valueAt(onCurve, knee.offered);
    if (kneeY) {
        m_knee->replace(QList<QPointF> { { knee.offered, *kneeY } });
        m_knee->setName(QStringLiteral("%1 %2").arg(tr("knee"), UiFormat::load(knee.offered)));
        m_knee->setVisible(true);
    } else {
        m_knee->clear();
        m_knee->setVisible(false);
    }

    QList<QPointF> ring;
    if (m_highlight.topic == AnalysisTopic::Knee && kneeY)
        ring << QPointF(knee.offered, *kneeY);
    if (ring.isEmpty() && m_highlight.stepIndex >= 0) {
        for (const SweepCurve::Point& p : onCurve) {
            if (p.step == m_highlight.stepIndex)
                ring << QPointF(p.x, p.y);
        }
    }
    m_ring->replace(ring);
    for (QLegendMarker* m : chart()->legend()->markers(m_ring))
        m->setVisible(false);
    for (QLineSeries* s : { m_util, m_memory }) {
        for (QLegendMarker* m : chart()->legend()->markers(s))
            m->setVisible(s->isVisible());
    }

    if (hasData())
        setPlaceholder(QString());
    else if (steps.empty())
        setPlaceholder(tr("GPU utilisation and memory against the offered load, as steps finish."));
    else
        setPlaceholder(tr("No GPU figures: add a DCGM or AMD exporter URL to target.metrics_urls, or run the "
                          "simulator with --gpus N."));
}

} // namespace kp::ui
