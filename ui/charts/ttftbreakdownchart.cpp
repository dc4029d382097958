#include "charts/ttftbreakdownchart.h"

#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/uiformat.h"

#include <QAreaSeries>
#include <QChart>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

QColor bandColour(int band)
{
    switch (band) {
    case 0:
        return ChartStyle::achieved(); // client
    case 1:
        return ChartStyle::slo(); // queue: what grows at a batch-slot knee
    case 2:
        return ChartStyle::p50(); // prefill
    default:
        return ChartStyle::tokens(); // decode
    }
}

} // namespace

std::vector<TtftBreakdownChart::Bar> TtftBreakdownChart::bars(const std::vector<StepReport>& steps, LoadMode axis)
{
    std::vector<Bar> out;
    for (const StepReport& s : steps) {
        const double x = s.offered();
        if (!std::isfinite(x) || x <= 0 || s.config.mode != axis || !s.server.stats)
            continue;
        const ServerStepStats& st = *s.server.stats;
        const double ttft = s.metrics.ttft.mean;
        if (!st.queueTime.meanMs || !st.prefillTime.meanMs || s.metrics.ttft.count <= 0 || !std::isfinite(ttft))
            continue;
        Bar b;
        b.x = x;
        b.step = s.index();
        b.ttft = ttft;
        b.queue = *st.queueTime.meanMs;
        b.prefill = *st.prefillTime.meanMs;
        b.client = std::max(0.0, ttft - b.queue - b.prefill);
        b.decode = st.decodeTime.meanMs;
        out.push_back(b);
    }
    std::stable_sort(out.begin(), out.end(), [](const Bar& a, const Bar& b) { return a.x < b.x; });
    return out;
}

QStringList TtftBreakdownChart::tableHeader()
{
    return { tr("Part"), tr("Mean (ms)"), tr("P50 (ms)"), tr("P90 (ms)"), tr("P99 (ms)"), tr("From") };
}

QList<QStringList> TtftBreakdownChart::tableRows(const StepReport& step)
{
    const QString unknown = QStringLiteral("—");
    const auto ms = [&](std::optional<double> v) {
        return v && std::isfinite(*v) ? QLocale().toString(*v, 'f', *v >= 100 ? 0 : 1) : unknown;
    };
    const auto estimate = [&](std::optional<double> v) { return v ? QStringLiteral("≈ ") + ms(v) : unknown; };
    QList<QStringList> rows;
    const auto client = [&](const QString& part, const LatencyStats& s, const QString& from) {
        const bool known = s.count > 0 && isKnown(s.mean);
        rows << QStringList { part, known ? ms(s.mean) : unknown, known ? ms(s.median) : unknown,
            known ? ms(s.percentile(90)) : unknown, known ? ms(s.percentile(99)) : unknown, from };
    };
    const auto server = [&](const QString& part, const HistogramFigures& f) {
        rows << QStringList { part, ms(f.meanMs), estimate(f.percentile(50)), estimate(f.percentile(90)),
            estimate(f.percentile(99)), tr("server histogram") };
    };
    const StepMetrics& m = step.metrics;
    client(tr("Dispatch lag (before the send, not in TTFT)"), m.dispatchLag, tr("client"));
    client(isKnown(m.connectTime.count) && m.connectTime.count > 0
            ? tr("Connect + TLS (%n new connection(s))", nullptr, int(m.connectTime.count))
            : tr("Connect + TLS (new connections)"),
        m.connectTime, tr("client"));
    client(tr("TTFT"), m.ttft, tr("client"));
    static const HistogramFigures none;
    const ServerStepStats* st = step.server.stats ? &*step.server.stats : nullptr;
    HistogramFigures ttft;
    if (st) {
        ttft.meanMs = st->ttftMeanMs;
        ttft.percentilesMs = st->ttftPercentilesMs;
    }
    const std::optional<double> rest
        = st && st->queueTime.meanMs && st->prefillTime.meanMs && m.ttft.count > 0 && isKnown(m.ttft.mean)
        ? std::optional<double>(m.ttft.mean - *st->queueTime.meanMs - *st->prefillTime.meanMs)
        : std::nullopt;
    rows << QStringList { tr("Client part (TTFT − queue − prefill)"), ms(rest), unknown, unknown, unknown,
        tr("client − server") };
    server(tr("TTFT (server)"), ttft);
    server(tr("Queue"), st ? st->queueTime : none);
    server(tr("Prefill"), st ? st->prefillTime : none);
    server(tr("Decode"), st ? st->decodeTime : none);
    server(tr("Inference (prefill + decode)"), st ? st->inferenceTime : none);
    server(tr("End to end (server)"), st ? st->e2eLatency : none);
    return rows;
}

TtftBreakdownChart::TtftBreakdownChart(const LiveRun* run, QWidget* parent)
    : ChartPanel(tr("Where TTFT goes (mean ms)"), parent)
    , m_run(run)
    , m_decode(new QCheckBox(tr("Decode"), this))
    , m_knee(new QScatterSeries(chart()))
    , m_ring(new QScatterSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
{
    QChart* c = chart();
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_y->setTitleText(QStringLiteral("ms")); // means: the title and the caption say so
    for (QValueAxis* a : { m_x, m_y })
        a->setLabelFormat(QStringLiteral("%g"));
    for (QLineSeries*& b : m_bounds)
        b = new QLineSeries(c);
    const QString names[4] = { tr("client (TTFT − server)"), tr("queue"), tr("prefill"), tr("decode") };
    for (int i = 0; i < 4; ++i) {
        m_bands[i] = new QAreaSeries(m_bounds[i + 1], m_bounds[i]);
        m_bands[i]->setName(names[i]);
        c->addSeries(m_bands[i]);
        m_bands[i]->attachAxis(m_x);
        m_bands[i]->attachAxis(m_y);
        connect(m_bands[i], &QAreaSeries::clicked, this, [this](const QPointF& p) {
            int best = -1;
            double distance = 0;
            for (const Bar& b : m_bars) {
                if (best < 0 || std::fabs(b.x - p.x()) < distance) {
                    best = b.step;
                    distance = std::fabs(b.x - p.x());
                }
            }
            if (best >= 0)
                Q_EMIT stepClicked(best);
        });
    }
    for (QScatterSeries* s : { m_knee, m_ring }) {
        c->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_knee->setName(tr("knee"));
    c->legend()->setMarkerShape(QLegend::MarkerShapeRectangle); // an area series draws no marker of its own
    m_decode->setChecked(true);
    m_decode->setToolTip(tr("Stack the server's decode time on top: the rest of a request's time after TTFT."));
    controls()->addWidget(m_decode);
    connect(m_decode, &QCheckBox::toggled, this, &TtftBreakdownChart::refresh);
    TtftBreakdownChart::restyle(); // this class's own: the object is not fully built yet
    refresh();
}

void TtftBreakdownChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    for (int i = 0; i < 4; ++i) {
        QColor fill = bandColour(i);
        fill.setAlpha(170);
        m_bands[i]->setBrush(fill);
        m_bands[i]->setPen(QPen(bandColour(i), 1.5));
    }
    ChartStyle::styleMarker(m_knee, ChartStyle::knee(), 18, QScatterSeries::MarkerShapeTriangle, pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 26);
}

void TtftBreakdownChart::setHighlight(const ChartHighlight& highlight)
{
    m_highlight = highlight;
    refresh();
}

void TtftBreakdownChart::setDecodeShown(bool shown)
{
    m_decode->setChecked(shown); // refreshes when it changes
}

bool TtftBreakdownChart::decodeShown() const
{
    return m_decode->isChecked();
}

void TtftBreakdownChart::refresh()
{
    const std::vector<StepReport>& steps = m_run->steps();
    const AnalysisResult& analysis = m_run->analysis().result;
    const bool concurrency = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;
    m_bars = bars(steps, concurrency ? LoadMode::Concurrency : LoadMode::Rate);
    // Decode only when every step shown has it: a band missing at some loads would read as 0 there.
    const bool decode = m_decode->isChecked() && !m_bars.empty()
        && std::all_of(m_bars.begin(), m_bars.end(), [](const Bar& b) { return b.decode.has_value(); });
    m_decode->setEnabled(!m_bars.empty()
        && std::all_of(m_bars.begin(), m_bars.end(), [](const Bar& b) { return b.decode.has_value(); }));
    QList<QPointF> edges[5];
    double yMax = 0.0, xMax = 0.0;
    for (const Bar& b : m_bars) {
        const double parts[4] = { b.client, b.queue, b.prefill, decode ? *b.decode : 0.0 };
        double total = 0.0;
        edges[0] << QPointF(b.x, 0.0);
        for (int i = 0; i < 4; ++i) {
            total += parts[i];
            edges[i + 1] << QPointF(b.x, total);
        }
        yMax = std::max(yMax, decode ? total : std::max(b.ttft, total));
        xMax = std::max(xMax, b.x);
    }
    for (int i = 0; i < 5; ++i)
        m_bounds[i]->replace(edges[i]);
    for (int i = 0; i < 4; ++i)
        m_bands[i]->setVisible(!m_bars.empty() && (i < 3 || decode));
    ChartStyle::setNiceRange(m_x, hasData() ? xMax * 1.05 : 1.0);
    ChartStyle::setNiceRange(m_y, yMax > 0 ? yMax * 1.1 : 1.0, 5);
    m_x->setTitleText(concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"));

    // The knee and a highlighted step sit on the client's TTFT: the top of the prefill band.
    std::vector<SweepCurve::Point> ttft;
    for (const Bar& b : m_bars)
        ttft.push_back({ b.x, b.client + b.queue + b.prefill, b.step });
    const std::optional<QPointF> kneeAt = ChartStyle::markFinding(
        m_knee, ttft, analysis.knee, QStringLiteral("%1 %2").arg(tr("knee"), UiFormat::load(analysis.knee.offered)));
    m_ring->replace(SweepCurve::ringMarks(ttft, m_highlight, kneeAt));
    ChartStyle::showInLegend(chart(), m_ring, false);
    for (QAreaSeries* s : m_bands)
        ChartStyle::showInLegend(chart(), s, s->isVisible());

    if (hasData())
        setPlaceholder(QString());
    else if (steps.empty())
        setPlaceholder(tr("Where TTFT goes against the offered load, as steps finish."));
    else
        setPlaceholder(tr("No server histograms of queue and prefill time: the server's /metrics must carry "
                          "vLLM's request_queue_time_seconds and request_prefill_time_seconds (or run against the "
                          "simulator)."));
}

} // namespace kp::ui
