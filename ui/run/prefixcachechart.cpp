#include "run/prefixcachechart.h"

#include "run/chartstyle.h"
#include "run/liverun.h"
#include "run/uiformat.h"
#include "sweep/serveranalysis.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

PrefixCacheChart::PrefixCacheChart(const LiveRun* run, QWidget* parent)
    : ChartPanel(tr("Prefix-cache hit rate"), parent)
    , m_run(run)
    , m_server(new QLineSeries(chart()))
    , m_client(new QLineSeries(chart()))
    , m_knee(new QScatterSeries(chart()))
    , m_ring(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
{
    QChart* c = chart();
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_server, m_client, m_knee, m_ring })
        c->addSeries(s);
    m_server->setName(tr("server"));
    m_client->setName(tr("client (cached tokens)"));
    m_knee->setName(tr("knee"));
    for (QValueAxis* a : { m_x, m_y })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_y->setTitleText(QStringLiteral("%")); // the chart's title names it: the right column is narrow
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_server, m_client, m_knee, m_ring }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    for (QLineSeries* s : { m_server, m_client }) {
        connect(s, &QXYSeries::clicked, this, [this](const QPointF& p) {
            const int best = SweepCurve::nearestStep({ &m_serverPoints, &m_clientPoints }, p.x());
            if (best >= 0)
                Q_EMIT stepClicked(best);
        });
    }
    PrefixCacheChart::restyle(); // this class's own: the object is not fully built yet
    refresh();
}

void PrefixCacheChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleLine(m_server, ChartStyle::p50(), 2.5);
    ChartStyle::styleLine(m_client, ChartStyle::p99(), 2.0, Qt::DashLine);
    ChartStyle::styleMarker(m_knee, ChartStyle::knee(), 18, QScatterSeries::MarkerShapeTriangle, pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 26);
    for (QLineSeries* s : { m_server, m_client }) {
        s->setPointsVisible(true);
        s->setMarkerSize(8);
    }
}

void PrefixCacheChart::setHighlight(const ChartHighlight& highlight)
{
    m_highlight = highlight;
    refresh();
}

void PrefixCacheChart::refresh()
{
    const std::vector<StepReport>& steps = m_run->steps();
    const AnalysisResult& analysis = m_run->analysis().result;
    const bool concurrency = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;
    const LoadMode axis = concurrency ? LoadMode::Concurrency : LoadMode::Rate;
    auto percent = [](std::optional<double> rate) -> std::optional<double> {
        return rate ? std::optional<double>(*rate * 100.0) : std::nullopt;
    };
    m_serverPoints
        = SweepCurve::curve(steps, axis, [&](const StepReport& s) { return percent(serverHitRate(s.server.stats)); });
    m_clientPoints
        = SweepCurve::curve(steps, axis, [&](const StepReport& s) { return percent(clientHitRate(s.metrics)); });
    m_server->replace(SweepCurve::toPoints(m_serverPoints));
    m_client->replace(SweepCurve::toPoints(m_clientPoints));
    m_server->setVisible(!m_serverPoints.empty());
    m_client->setVisible(!m_clientPoints.empty());

    double xMax = 0;
    for (const auto* points : { &m_serverPoints, &m_clientPoints }) {
        for (const SweepCurve::Point& p : *points)
            xMax = std::max(xMax, p.x);
    }
    ChartStyle::setNiceRange(m_x, hasData() ? xMax * 1.05 : 1.0);
    ChartStyle::setNiceRange(m_y, 100.0, 4); // the whole scale: a rate that fell reads as far as it fell
    m_x->setTitleText(concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"));

    // The knee sits on the server's curve, else on the client's: how much of the prefixes the cache
    // still served there.
    const std::vector<SweepCurve::Point>& onCurve = m_serverPoints.empty() ? m_clientPoints : m_serverPoints;
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
    for (QLineSeries* s : { m_server, m_client }) {
        for (QLegendMarker* m : chart()->legend()->markers(s))
            m->setVisible(s->isVisible());
    }

    if (hasData())
        setPlaceholder(QString());
    else if (steps.empty())
        setPlaceholder(tr("The prefix-cache hit rate against the offered load, as steps finish."));
    else
        setPlaceholder(tr("No prefix-cache figures: the server reported no cached tokens."));
}

} // namespace kp::ui
