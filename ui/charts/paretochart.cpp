#include "charts/paretochart.h"

#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/stepreport.h"
#include "kit/uiformat.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

ParetoFront paretoFrontOf(const std::vector<StepReport>& steps, const ServerInfo& server, LoadMode axis)
{
    std::vector<ParetoInput> inputs;
    for (const StepReport& s : steps) {
        if (s.config.mode != axis)
            continue;
        inputs.push_back(ParetoInput::fromStep(s.index(), s.offered(), s.metrics, s.partial, s.server.stats));
    }
    return paretoFront(inputs, paretoOptionsFor(server));
}

namespace {

// The point of a front nearest to a place on the chart (relative distance on both axes), as drawn: per GPU,
// or the whole target's throughput.
const ParetoPoint* nearestPoint(const ParetoFront& front, const QPointF& at, bool perGpu)
{
    const ParetoPoint* best = nullptr;
    double bestDistance = 0;
    for (const ParetoPoint& p : front.points) {
        const double y = perGpu ? p.perUnit : p.perUnit * front.units;
        const double d = std::hypot((p.perUser - at.x()) / std::max(1.0, at.x()), (y - at.y()) / std::max(1.0, at.y()));
        if (!best || d < bestDistance) {
            best = &p;
            bestDistance = d;
        }
    }
    return best;
}

} // namespace

ParetoChart::ParetoChart(QWidget* parent)
    : ChartPanel(tr("Pareto front: output tokens per second"), parent)
    , m_ring(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
{
    QChart* c = chart();
    c->addSeries(m_ring);
    for (QValueAxis* a : { m_x, m_y })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_ring->attachAxis(m_x);
    m_ring->attachAxis(m_y);
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_x->setTitleText(tr("tok/s per user"));
    ParetoChart::restyle(); // this class's own: the object is not fully built yet
    rebuild();
}

void ParetoChart::setFronts(std::vector<ParetoSeries> fronts)
{
    m_fronts = std::move(fronts);
    rebuild();
}

void ParetoChart::showRun(const LiveRun& run)
{
    const std::vector<StepReport>& steps = run.steps();
    std::vector<ParetoSeries> fronts;
    if (!steps.empty()) {
        const LoadMode axis = run.hasInfo() ? run.info().profile.load.mode : steps.back().config.mode;
        ParetoSeries series;
        series.mode = axis;
        series.front = paretoFrontOf(steps, run.hasInfo() ? run.info().profile.server : ServerInfo {}, axis);
        fronts.push_back(std::move(series));
        m_emptyText = tr("No step to place: a step needs answers of two tokens or more (for TPOT), every "
                         "request ended, and errors under 5%.");
    } else {
        m_emptyText.clear();
    }
    setFronts(std::move(fronts));
}

void ParetoChart::setHighlightStep(int stepIndex)
{
    m_highlight = stepIndex;
    rebuild();
}

void ParetoChart::setEmptyText(const QString& text)
{
    m_emptyText = text;
    rebuild();
}

bool ParetoChart::hasData() const
{
    return std::any_of(m_fronts.begin(), m_fronts.end(), [](const ParetoSeries& s) { return !s.front.points.empty(); });
}

bool ParetoChart::perGpu() const
{
    return hasData() && std::all_of(m_fronts.begin(), m_fronts.end(), [](const ParetoSeries& s) {
        return s.front.points.empty() || s.front.unit == ParetoUnit::Gpu;
    });
}

QString ParetoChart::verticalTitle() const
{
    return perGpu() ? tr("tok/s per GPU") : tr("tok/s per server");
}

void ParetoChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 24);
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const QColor color = m_fronts[i].color.isValid() ? m_fronts[i].color : ChartStyle::p50();
        ChartStyle::styleLine(m_lines[i], color, 2.5);
        m_lines[i]->setPointsVisible(true);
        m_lines[i]->setMarkerSize(10);
        QColor faint = color;
        faint.setAlphaF(0.45);
        ChartStyle::styleMarker(m_dots[i], faint, 9, QScatterSeries::MarkerShapeCircle, pal);
    }
}

void ParetoChart::rebuild()
{
    QChart* c = chart();
    for (QLineSeries* s : m_lines) {
        c->removeSeries(s);
        delete s;
    }
    for (QScatterSeries* s : m_dots) {
        c->removeSeries(s);
        delete s;
    }
    m_lines.clear();
    m_dots.clear();

    // Dividing throughput by GPUs for some runs and by servers for others would put them on one axis
    // that means two things: all per server unless every run counts GPUs.
    const bool perGpu = this->perGpu();
    double xMax = 0, yMax = 0;
    const bool one = m_fronts.size() == 1;
    QList<QPointF> ring;
    for (const ParetoSeries& series : m_fronts) {
        auto* line = new QLineSeries(c);
        auto* dots = new QScatterSeries(c);
        QList<QPointF> front, rest;
        for (const ParetoPoint& p : series.front.points) {
            const QPointF pt(p.perUser, perGpu ? p.perUnit : p.perUnit * series.front.units);
            (p.optimal ? front : rest) << pt;
            xMax = std::max(xMax, pt.x());
            yMax = std::max(yMax, pt.y());
            if (one && p.step == m_highlight)
                ring << pt;
        }
        line->replace(front);
        dots->replace(rest);
        const QString base = series.name.isEmpty() ? tr("front") : series.name;
        line->setName(base);
        dots->setName(series.name.isEmpty() ? tr("other steps") : tr("%1, other steps").arg(series.name));
        for (QXYSeries* s : std::initializer_list<QXYSeries*> { line, dots }) {
            c->addSeries(s);
            s->attachAxis(m_x);
            s->attachAxis(m_y);
            const ParetoFront* f = &series.front;
            const LoadMode mode = series.mode;
            const QString name = series.name;
            connect(s, &QXYSeries::hovered, this, [this, f, mode, name, perGpu](const QPointF& point, bool state) {
                if (!state) {
                    QToolTip::hideText();
                    return;
                }
                const ParetoPoint* best = nearestPoint(*f, point, perGpu);
                if (!best)
                    return;
                const double y = perGpu ? best->perUnit : best->perUnit * f->units;
                QString text = tr("%1: %2 tok/s per user, %3 tok/s %4%5")
                                   .arg(UiFormat::loadText(mode, best->offered), UiFormat::tokens(best->perUser),
                                       UiFormat::tokens(y), perGpu ? tr("per GPU") : tr("per server"),
                                       best->optimal ? tr(" (on the front)") : QString());
                if (!name.isEmpty())
                    text = name + QStringLiteral("\n") + text;
                QToolTip::showText(QCursor::pos(), text, view());
            });
            if (one) {
                connect(s, &QXYSeries::clicked, this, [this, f, perGpu](const QPointF& point) {
                    if (const ParetoPoint* best = nearestPoint(*f, point, perGpu))
                        Q_EMIT stepClicked(best->step);
                });
            }
        }
        line->setVisible(!front.isEmpty());
        dots->setVisible(!rest.isEmpty());
        m_lines.push_back(line);
        m_dots.push_back(dots);
    }
    m_ring->replace(ring);
    restyle();
    for (QLegendMarker* m : c->legend()->markers(m_ring))
        m->setVisible(false);
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        for (QLegendMarker* m : c->legend()->markers(m_lines[i]))
            m->setVisible(m_lines[i]->isVisible());
        for (QLegendMarker* m : c->legend()->markers(m_dots[i]))
            m->setVisible(m_dots[i]->isVisible() && one);
    }
    ChartStyle::setNiceRange(m_x, hasData() ? xMax * 1.08 : 1.0);
    ChartStyle::setNiceRange(m_y, hasData() ? yMax * 1.08 : 1.0);
    m_y->setTitleText(verticalTitle());

    if (hasData())
        setPlaceholder(QString());
    else if (!m_emptyText.isEmpty())
        setPlaceholder(m_emptyText);
    else
        setPlaceholder(tr("Output tokens per second per user against per GPU, one point per step, as steps finish."));
}

} // namespace kp::ui
