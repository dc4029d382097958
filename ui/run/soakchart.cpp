#include "run/soakchart.h"

#include "kit/chartstyle.h"
#include "kit/ratetimeline.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

double highest(double a, double b)
{
    if (!std::isfinite(a))
        return b;
    if (!std::isfinite(b))
        return a;
    return std::max(a, b);
}

} // namespace

SoakChart::SoakChart(QWidget* parent)
    : ChartPanel(tr("Soak"), parent)
    , m_ttftP50(new QLineSeries(chart()))
    , m_ttftP99(new QLineSeries(chart()))
    , m_itlP50(new QLineSeries(chart()))
    , m_itlP99(new QLineSeries(chart()))
    , m_rps(new QLineSeries(chart()))
    , m_failed(new QLineSeries(chart()))
    , m_perSecond(new QLineSeries(chart()))
    , m_partial(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_ms(new QValueAxis(chart()))
    , m_perS(new QValueAxis(chart()))
{
    QChart* c = chart();
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> {
             m_perSecond, m_rps, m_failed, m_ttftP50, m_ttftP99, m_itlP50, m_itlP99, m_partial })
        c->addSeries(s);
    m_perSecond->setName(tr("req/s each second"));
    m_rps->setName(tr("req/s per window"));
    m_failed->setName(tr("failed/s per window"));
    m_ttftP50->setName(tr("TTFT P50"));
    m_ttftP99->setName(tr("TTFT P99"));
    m_itlP50->setName(tr("ITL P50"));
    m_itlP99->setName(tr("ITL P99"));
    m_partial->setName(tr("partial window"));
    for (QValueAxis* a : { m_x, m_ms, m_perS })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_ms, Qt::AlignLeft);
    c->addAxis(m_perS, Qt::AlignRight);
    m_x->setTitleText(tr("Time in soak (s)"));
    m_ms->setTitleText(tr("Latency (ms)"));
    m_perS->setTitleText(tr("Requests per second"));
    for (QLineSeries* s : { m_ttftP50, m_ttftP99, m_itlP50, m_itlP99 }) {
        s->attachAxis(m_x);
        s->attachAxis(m_ms);
    }
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_rps, m_failed, m_perSecond, m_partial }) {
        s->attachAxis(m_x);
        s->attachAxis(m_perS);
    }
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    SoakChart::restyle(); // this class's own: the object is not fully built yet
    setData({}, nullptr, 0);
}

void SoakChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    // One colour per percentile; TTFT solid, ITL dashed.
    ChartStyle::styleLine(m_ttftP50, ChartStyle::p50(), 2.0);
    ChartStyle::styleLine(m_ttftP99, ChartStyle::p99(), 2.0);
    ChartStyle::styleLine(m_itlP50, ChartStyle::p50(), 1.5, Qt::DashLine);
    ChartStyle::styleLine(m_itlP99, ChartStyle::p99(), 1.5, Qt::DashLine);
    ChartStyle::styleLine(m_rps, ChartStyle::achieved(), 2.5);
    ChartStyle::styleLine(m_failed, ChartStyle::failure(), 2.0);
    QColor second = ChartStyle::achieved();
    second.setAlpha(120);
    ChartStyle::styleLine(m_perSecond, second, 1.0);
    for (QLineSeries* s : { m_rps, m_failed, m_ttftP50, m_ttftP99 }) {
        s->setPointsVisible(true);
        s->setMarkerSize(5);
    }
    ChartStyle::styleRing(m_partial, ChartStyle::highlight(pal), 12);
}

std::vector<SoakWindowFigures> SoakChart::merged(
    const std::vector<SoakWindowFigures>& windows, int maxPoints, int* perPoint)
{
    const std::size_t n = windows.size();
    const std::size_t k
        = maxPoints > 0 && n > std::size_t(maxPoints) ? (n + std::size_t(maxPoints) - 1) / std::size_t(maxPoints) : 1;
    if (perPoint)
        *perPoint = int(k);
    if (k == 1)
        return windows;
    std::vector<SoakWindowFigures> out;
    out.reserve((n + k - 1) / k);
    for (std::size_t i = 0; i < n; i += k) {
        SoakWindowFigures m = windows[i];
        bool tokensKnown = std::isfinite(m.outputThroughput);
        double outputTokens = tokensKnown ? m.outputThroughput * m.durationS() : 0.0;
        for (std::size_t j = i + 1; j < std::min(n, i + k); ++j) {
            const SoakWindowFigures& w = windows[j];
            m.endS = w.endS;
            m.partial = m.partial || w.partial;
            m.sent += w.sent;
            m.completed += w.completed;
            m.failed += w.failed;
            for (const auto& [failure, count] : w.failures)
                m.failures[failure] += count;
            if (std::isfinite(w.outputThroughput)) {
                outputTokens += w.outputThroughput * w.durationS();
                tokensKnown = true;
            }
            m.ttftP50 = highest(m.ttftP50, w.ttftP50);
            m.ttftP99 = highest(m.ttftP99, w.ttftP99);
            m.itlP50 = highest(m.itlP50, w.itlP50);
            m.itlP99 = highest(m.itlP99, w.itlP99);
            m.tpotP50 = highest(m.tpotP50, w.tpotP50);
            m.tpotP99 = highest(m.tpotP99, w.tpotP99);
            m.e2elP50 = highest(m.e2elP50, w.e2elP50);
            m.e2elP99 = highest(m.e2elP99, w.e2elP99);
        }
        if (std::min(n, i + k) - i > 1 && m.durationS() > 0) { // a window alone keeps its own figures
            m.requestThroughput = double(m.completed) / m.durationS();
            m.outputThroughput = tokensKnown ? outputTokens / m.durationS() : kUnknown;
        }
        out.push_back(m);
    }
    return out;
}

void SoakChart::setData(const std::vector<SoakWindowFigures>& all, const RateTimeline* perSecond, double spanS)
{
    const std::vector<SoakWindowFigures> windows = merged(all, kMaxWindowPoints, &m_perPoint);
    QList<QPointF> ttftP50, ttftP99, itlP50, itlP99, rps, failed, seconds, partial;
    double msMax = 0, perSMax = 0, tMax = spanS;
    auto add = [](QList<QPointF>& into, double x, double y, double& max) {
        if (!std::isfinite(y))
            return; // unknown: no point, never 0
        into << QPointF(x, y);
        max = std::max(max, y);
    };
    for (const SoakWindowFigures& w : windows) {
        const double x = w.midS();
        tMax = std::max(tMax, w.endS);
        add(ttftP50, x, w.ttftP50, msMax);
        add(ttftP99, x, w.ttftP99, msMax);
        add(itlP50, x, w.itlP50, msMax);
        add(itlP99, x, w.itlP99, msMax);
        add(rps, x, w.requestThroughput, perSMax);
        add(failed, x, w.durationS() > 0 ? double(w.failed) / w.durationS() : kUnknown, perSMax);
        if (w.partial) {
            double ignored = 0;
            add(partial, x, w.requestThroughput, ignored);
        }
    }
    if (perSecond) {
        const double width = perSecond->bucketS();
        const int closed = perSecond->closedBuckets();
        for (int i = 0; i < closed; ++i) {
            const double x = (i + 0.5) * width;
            add(seconds, x, double(perSecond->buckets()[std::size_t(i)].completed) / width, perSMax);
            tMax = std::max(tMax, (i + 1) * width);
        }
    }
    m_ttftP50->replace(ttftP50);
    m_ttftP99->replace(ttftP99);
    m_itlP50->replace(itlP50);
    m_itlP99->replace(itlP99);
    m_rps->replace(rps);
    m_failed->replace(failed);
    m_perSecond->replace(seconds);
    m_partial->replace(partial);
    m_partial->setVisible(!partial.isEmpty());
    m_perSecond->setVisible(!seconds.isEmpty());
    for (QLineSeries* s : { m_ttftP50, m_ttftP99, m_itlP50, m_itlP99 })
        s->setVisible(s->count() > 0);
    ChartStyle::setNiceRange(m_x, std::max(1.0, tMax));
    ChartStyle::setNiceRange(m_ms, msMax > 0 ? msMax * 1.05 : 1.0, 4);
    ChartStyle::setNiceRange(m_perS, perSMax > 0 ? perSMax * 1.1 : 1.0, 4);

    const bool haveData = !windows.empty() || !seconds.isEmpty();
    if (haveData)
        setPlaceholder({});
    else
        setPlaceholder(tr("Each window's throughput, failures, TTFT and ITL against time, as the windows close."));
}

int SoakChart::windowPoints() const
{
    return int(m_rps->count());
}

int SoakChart::secondPoints() const
{
    return int(m_perSecond->count());
}

bool SoakChart::showsPartial() const
{
    return m_partial->isVisible() && m_partial->count() > 0;
}

} // namespace kp::ui
