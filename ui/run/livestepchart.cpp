#include "run/livestepchart.h"

#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/sweepcurve.h"
#include "kit/uiformat.h"
#include "sweep/sweepplan.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

namespace kp::ui {

LiveStepChart::LiveStepChart(const LiveRun* run, QWidget* parent)
    : ChartPanel(tr("Current step"), parent)
    , m_run(run)
    , m_ok(new QLineSeries(chart()))
    , m_failed(new QLineSeries(chart()))
    , m_inFlight(new QLineSeries(chart()))
    , m_slo(new QLineSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
    , m_yInFlight(new QValueAxis(chart()))
{
    QChart* c = chart();
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_slo, m_inFlight, m_ok, m_failed })
        c->addSeries(s);
    m_ok->setName(tr("TTFT per request"));
    m_failed->setName(tr("failed"));
    m_inFlight->setName(tr("in flight"));
    m_slo->setName(tr("SLO"));
    for (QValueAxis* a : { m_x, m_y, m_yInFlight })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    c->addAxis(m_yInFlight, Qt::AlignRight);
    m_x->setTitleText(tr("Time in step (s)"));
    m_y->setTitleText(tr("TTFT (ms)"));
    m_yInFlight->setTitleText(tr("In flight"));
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_ok, m_failed, m_slo }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_inFlight->attachAxis(m_x);
    m_inFlight->attachAxis(m_yInFlight);
    c->legend()->setMarkerShape(QLegend::MarkerShapeCircle);

    connect(run, &LiveRun::liveChanged, this, [this] { m_dirty = true; });
    m_timer.setInterval(kRedrawMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty && isVisible())
            redraw();
    });
    m_timer.start();
    LiveStepChart::restyle(); // this class's own: the object is not fully built yet
    redraw();
}

void LiveStepChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    // Points without the line: a line series paints its points in one go, where a scatter series keeps
    // one scene item per point, several times slower for the thousands a busy step has.
    for (auto [series, colour] :
        { std::pair { m_ok, ChartStyle::request() }, std::pair { m_failed, ChartStyle::failure() } }) {
        QPen pen(colour);
        pen.setStyle(Qt::NoPen);
        series->setPen(pen);
        series->setColor(colour);
        series->setPointsVisible(true);
        series->setMarkerSize(4);
    }
    ChartStyle::styleLine(m_inFlight, ChartStyle::neutral(pal), 1.5);
    ChartStyle::styleLine(m_slo, ChartStyle::slo(), 1.5, Qt::DashLine);
}

int LiveStepChart::sampleCount() const
{
    return int(m_ok->count() + m_failed->count());
}

int LiveStepChart::inFlightCount() const
{
    return int(m_inFlight->count());
}

void LiveStepChart::redraw()
{
    m_dirty = false;
    QList<QPointF> ok, failed, inFlight;
    double tMax = m_run->lastSnapshot().elapsedS, yMax = 0, nMax = 0;
    // The run keeps the last kMaxLiveSamples of each: once a long step (a soak) has dropped older ones,
    // the axis starts where both histories are whole and scrolls on with the step.
    const auto& samples = m_run->liveSamples();
    const auto& inFlightHistory = m_run->liveInFlight();
    double tMin = 0;
    if (samples.size() >= LiveRun::kMaxLiveSamples)
        tMin = samples.front().atS;
    if (inFlightHistory.size() >= LiveRun::kMaxLiveSamples)
        tMin = std::max(tMin, inFlightHistory.front().x());
    for (const LatencySample& s : samples) {
        if (s.atS < tMin)
            continue;
        tMax = std::max(tMax, s.atS);
        if (s.ok && s.ttftMs > 0) {
            ok << QPointF(s.atS, s.ttftMs);
            yMax = std::max(yMax, s.ttftMs);
        } else if (!s.ok) {
            failed << QPointF(s.atS, s.e2elMs);
            yMax = std::max(yMax, s.e2elMs);
        }
    }
    for (const QPointF& p : inFlightHistory) {
        if (p.x() < tMin)
            continue;
        inFlight << p;
        nMax = std::max(nMax, p.y());
    }
    m_ok->replace(ok);
    m_failed->replace(failed);
    m_inFlight->replace(inFlight);
    m_failed->setVisible(!failed.isEmpty());

    const bool haveData = !ok.isEmpty() || !failed.isEmpty() || !inFlight.isEmpty();
    const double slo = m_run->hasInfo() ? m_run->info().profile.slo.ttftMs.value_or(0.0) : 0.0;
    // As on the load–latency chart: the SLO line only while it does not squash the points.
    const bool haveSlo = slo > 0 && haveData && slo <= 4 * yMax;
    if (haveSlo)
        yMax = std::max(yMax, slo);
    if (tMin > 0)
        ChartStyle::setNiceRange(m_x, tMin, std::max(tMin + 1.0, tMax), 5);
    else
        ChartStyle::setNiceRange(m_x, std::max(1.0, tMax));
    ChartStyle::setNiceRange(m_y, haveData ? yMax * 1.05 : 1.0, 4);
    ChartStyle::setNiceRange(m_yInFlight, std::max(4.0, nMax * 1.1), 4);
    if (haveSlo) {
        m_slo->replace(QList<QPointF> { { m_x->min(), slo }, { m_x->max(), slo } });
        m_slo->setVisible(true);
    } else {
        m_slo->clear();
        m_slo->setVisible(false);
    }

    const auto& step = m_run->currentStep();
    if (step)
        setTitle(tr("Current step: %1 · %2").arg(step->index + 1).arg(UiFormat::loadText(*step)));
    else if (!m_run->steps().empty() && haveData)
        setTitle(tr("Last step: %1 · %2")
                     .arg(m_run->steps().back().index() + 1)
                     .arg(UiFormat::loadText(m_run->steps().back().config)));
    else
        setTitle(tr("Current step"));
    if (haveData)
        setPlaceholder({});
    else if (step)
        setPlaceholder(m_run->lastSnapshot().warmingUp ? tr("Warming up…") : tr("Waiting for the first requests…"));
    else
        setPlaceholder(tr("Per-request TTFT and requests in flight of the step that runs."));
}

} // namespace kp::ui
