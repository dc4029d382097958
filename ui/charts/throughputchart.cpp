#include "charts/throughputchart.h"

#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/uiformat.h"
#include "sweep/analysistext.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

ThroughputChart::ThroughputChart(const LiveRun* run, QWidget* parent)
    : ChartPanel(tr("Throughput"), parent)
    , m_run(run)
    , m_ideal(new QLineSeries(chart()))
    , m_achieved(new QLineSeries(chart()))
    , m_tokens(new QLineSeries(chart()))
    , m_knee(new QScatterSeries(chart()))
    , m_sloCapacity(new QScatterSeries(chart()))
    , m_ring(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
    , m_yTokens(new QValueAxis(chart()))
{
    QChart* c = chart();
    m_regions.create(c);
    for (QAbstractSeries* s :
        std::initializer_list<QAbstractSeries*> { m_ideal, m_tokens, m_achieved, m_knee, m_sloCapacity, m_ring })
        c->addSeries(s);
    m_ideal->setName(tr("ideal y = x"));
    m_achieved->setName(tr("achieved req/s"));
    m_tokens->setName(tr("output tok/s"));
    m_knee->setName(tr("knee"));
    m_sloCapacity->setName(tr("SLO capacity"));
    m_achieved->setPointsVisible(true);
    m_tokens->setPointsVisible(true);
    for (QValueAxis* a : { m_x, m_y, m_yTokens })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    c->addAxis(m_yTokens, Qt::AlignRight);
    m_y->setTitleText(tr("req/s"));
    m_yTokens->setTitleText(tr("tok/s"));
    m_regions.attach(m_x, m_y);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_ideal, m_achieved, m_knee, m_sloCapacity, m_ring }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_tokens->attachAxis(m_x);
    m_tokens->attachAxis(m_yTokens);
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_achieved, m_tokens }) {
        connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) {
            const int best = SweepCurve::nearestStep({ &m_achievedPoints }, p.x());
            if (best >= 0)
                Q_EMIT stepClicked(best);
        });
    }
    ThroughputChart::restyle(); // this class's own: the object is not fully built yet
    refresh();
}

void ThroughputChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleLine(m_ideal, ChartStyle::neutral(pal), 1.5, Qt::DotLine);
    ChartStyle::styleLine(m_achieved, ChartStyle::achieved(), 2.5);
    ChartStyle::styleLine(m_tokens, ChartStyle::tokens(), 2.0, Qt::DashLine);
    ChartStyle::styleMarker(m_knee, ChartStyle::knee(), 18, QScatterSeries::MarkerShapeTriangle, pal);
    ChartStyle::styleMarker(
        m_sloCapacity, ChartStyle::sloCapacity(), 16, QScatterSeries::MarkerShapeRotatedRectangle, pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 26);
    m_achieved->setMarkerSize(8);
    m_tokens->setMarkerSize(6);
}

void ThroughputChart::setHighlight(const ChartHighlight& highlight)
{
    m_highlight = highlight;
    refresh();
}

int ThroughputChart::pointCount() const
{
    return int(m_achieved->count());
}

void ThroughputChart::refresh()
{
    const std::vector<StepReport>& steps = m_run->steps();
    const AnalysisResult& analysis = m_run->analysis().result;
    const bool concurrency = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;

    const LoadMode axis = concurrency ? LoadMode::Concurrency : LoadMode::Rate;
    m_achievedPoints = SweepCurve::curve(steps, axis, [](const StepReport& s) { return s.metrics.requestThroughput; });
    const std::vector<SweepCurve::Point> tokens
        = SweepCurve::curve(steps, axis, [](const StepReport& s) { return s.metrics.outputThroughput; });
    m_achieved->replace(SweepCurve::toPoints(m_achievedPoints));
    m_tokens->replace(SweepCurve::toPoints(tokens));

    double xMax = 0, yMax = 0, tokMax = 0;
    for (const SweepCurve::Point& p : m_achievedPoints) {
        xMax = std::max(xMax, p.x);
        yMax = std::max(yMax, p.y);
    }
    for (const SweepCurve::Point& p : tokens)
        tokMax = std::max(tokMax, p.y);
    const bool haveData = !m_achievedPoints.empty();
    ChartStyle::setNiceRange(m_x, haveData ? xMax * 1.05 : 1.0);
    const double xRight = m_x->max();
    // Room for the ideal line as far as the offered load goes, so the gap to it shows.
    ChartStyle::setNiceRange(m_y, haveData ? std::max(yMax, concurrency ? 0.0 : xMax) * 1.05 : 1.0, 4);
    ChartStyle::setNiceRange(m_yTokens, haveData ? tokMax * 1.08 : 1.0, 4);
    m_x->setTitleText(concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"));

    if (haveData && !concurrency) {
        const double end = std::min(xRight, m_y->max());
        m_ideal->replace(QList<QPointF> { { 0, 0 }, { end, end } });
        m_ideal->setVisible(true);
    } else {
        m_ideal->clear();
        m_ideal->setVisible(false);
    }

    ChartStyle::markFinding(m_knee, m_achievedPoints, analysis.knee,
        QStringLiteral("%1 %2").arg(tr("knee"), UiFormat::load(analysis.knee.offered)));
    ChartStyle::markFinding(m_sloCapacity, m_achievedPoints, analysis.sloCapacity,
        QStringLiteral("%1 %2").arg(tr("SLO capacity"), UiFormat::load(analysis.sloCapacity.offered)));

    // Regions are shaded only over loads whose throughput is known: an unknown throughput (a file that
    // lacks it) says nothing about overload.
    std::vector<SweepCurve::Span> spans = SweepCurve::spans(analysis.regions, 0, xRight);
    std::erase_if(spans, [this](const SweepCurve::Span& span) {
        return std::none_of(m_achievedPoints.begin(), m_achievedPoints.end(),
            [&span](const SweepCurve::Point& p) { return p.x >= span.from && p.x <= span.to; });
    });
    m_regions.update(spans, 0, m_y->max(), m_highlight.topic == AnalysisTopic::Region ? m_highlight.regionIndex : -1);

    // Throughput findings point at the achieved curve.
    QList<QPointF> ring;
    auto ringAt = [&](const Finding& f) {
        if (f.found && std::isfinite(f.offered)) {
            if (const auto y = SweepCurve::valueAt(m_achievedPoints, f.offered))
                ring << QPointF(f.offered, *y);
        }
    };
    switch (m_highlight.topic) {
    case AnalysisTopic::Knee:
        ringAt(analysis.knee);
        break;
    case AnalysisTopic::SloCapacity:
        ringAt(analysis.sloCapacity);
        break;
    case AnalysisTopic::ThroughputKnee:
        ringAt(analysis.throughputKnee);
        break;
    case AnalysisTopic::Saturation:
        ringAt(analysis.saturation);
        break;
    case AnalysisTopic::Collapse:
        ringAt(analysis.collapse);
        break;
    case AnalysisTopic::Recommended:
        ringAt(analysis.recommended);
        break;
    default:
        break;
    }
    if (ring.isEmpty() && m_highlight.stepIndex >= 0) {
        for (const SweepCurve::Point& p : m_achievedPoints) {
            if (p.step == m_highlight.stepIndex)
                ring << QPointF(p.x, p.y);
        }
    }
    m_ring->replace(ring);
    // The markers look as on the load–latency chart, whose legend names them; this one is narrow.
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_ring, m_knee, m_sloCapacity })
        ChartStyle::showInLegend(chart(), s, false);

    setPlaceholder(haveData ? QString() : tr("Achieved req/s and output tok/s against the offered load."));
}

} // namespace kp::ui
