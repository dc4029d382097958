#include "charts/loadlatencychart.h"

#include "kit/chartstyle.h"
#include "kit/forecast.h"
#include "kit/liverun.h"
#include "kit/uiformat.h"
#include "sweep/analysistext.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace kp::ui {

using namespace Qt::StringLiterals;

namespace {

std::optional<double> sloLimit(const Slo& slo, LatencyMetric metric)
{
    switch (metric) {
    case LatencyMetric::Ttft:
        return slo.ttftMs;
    case LatencyMetric::Tpot:
        return slo.tpotMs;
    case LatencyMetric::E2el:
        return slo.e2elMs;
    case LatencyMetric::Itl:
        return std::nullopt;
    }
    return std::nullopt;
}

// The key of the drawn figure in a step's intervals (StepIntervals::figures).
std::optional<Interval> intervalOf(const StepIntervals& intervals, LatencyMetric metric, double percentile)
{
    const QString name = latencyMetricKey(metric);
    if (auto i = intervals.find(u"p%1_%2_ms"_s.arg(LatencyStats::percentileWord(percentile), name)))
        return i;
    return percentile == 50.0 ? intervals.find(u"median_%1_ms"_s.arg(name)) : std::nullopt;
}

// The metric box's item for TTFC, beside the LatencyMetric values.
constexpr int kTtfcItem = -1;

double sloPercentile(const Slo& slo, LatencyMetric metric)
{
    return metric == LatencyMetric::Tpot ? slo.tpotP() : metric == LatencyMetric::E2el ? slo.e2elP() : slo.ttftP();
}

QString colourKey(const QColor& colour, const QString& glyph, const QString& text)
{
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3").arg(colour.name(), glyph, text.toHtmlEscaped());
}

} // namespace

LoadLatencyChart::LoadLatencyChart(const LiveRun* run, QWidget* parent)
    : ChartPanel(tr("Load–latency"), parent)
    , m_run(run)
    , m_metricBox(new QComboBox(this))
    , m_logBox(new QCheckBox(tr("Log scale"), this))
    , m_caption(new QLabel(this))
    , m_p50(new QLineSeries(chart()))
    , m_upper(new QLineSeries(chart()))
    , m_slo(new QLineSeries(chart()))
    , m_excluded(new QScatterSeries(chart()))
    , m_knee(new QScatterSeries(chart()))
    , m_sloCapacity(new QScatterSeries(chart()))
    , m_ring(new QScatterSeries(chart()))
    , m_forecast(new QLineSeries(chart()))
    , m_forecastLow(new QLineSeries(chart()))
    , m_forecastHigh(new QLineSeries(chart()))
    , m_forecastBand(new QAreaSeries(m_forecastHigh, m_forecastLow))
    , m_x(new QValueAxis(chart()))
    , m_yLinear(new QValueAxis(chart()))
    , m_yLog(new QLogValueAxis(chart()))
{
    for (LatencyMetric m : allLatencyMetrics) {
        m_metricBox->addItem(UiFormat::metricWord(m), QVariant::fromValue(int(m)));
        if (m == LatencyMetric::Ttft) {
            m_metricBox->addItem(QStringLiteral("TTFC"), QVariant::fromValue(kTtfcItem));
            m_metricBox->setItemData(m_metricBox->count() - 1,
                tr("Time to first content token: the first answer token, after a reasoning model's thinking"),
                Qt::ToolTipRole);
        }
    }
    m_metricBox->setToolTip(tr("Latency shown on the y axis"));
    m_logBox->setToolTip(tr("Logarithmic latency axis: the knee and the overload stay readable together"));
    controls()->addWidget(m_metricBox);
    controls()->addWidget(m_logBox);
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int item = m_metricBox->itemData(index).toInt();
        if (item == kTtfcItem)
            setShowsTtfc(true);
        else
            setMetric(LatencyMetric(item));
    });
    connect(m_logBox, &QCheckBox::toggled, this, &LoadLatencyChart::setLogScale);

    m_caption->setTextFormat(Qt::RichText);
    m_caption->setWordWrap(true);
    m_caption->setContentsMargins(8, 0, 8, 2);
    static_cast<QVBoxLayout*>(layout())->addWidget(m_caption);

    QChart* c = chart();
    m_regions.create(c);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> {
             m_forecastBand, m_forecast, m_slo, m_p50, m_upper, m_excluded, m_knee, m_sloCapacity, m_ring })
        c->addSeries(s);
    m_forecast->setObjectName(QStringLiteral("forecast"));
    m_forecastBand->setObjectName(QStringLiteral("forecast.band"));
    m_forecast->setVisible(false);
    m_forecastBand->setVisible(false);
    m_p50->setPointsVisible(true);
    m_upper->setPointsVisible(true);
    m_slo->setName(tr("SLO"));
    m_excluded->setName(tr("left out: partial, client-bound or outlier"));
    m_knee->setName(tr("knee"));
    m_sloCapacity->setName(tr("SLO capacity"));

    m_x->setLabelFormat(QStringLiteral("%g"));
    m_yLinear->setLabelFormat(QStringLiteral("%g"));
    m_yLog->setLabelFormat(QStringLiteral("%g"));
    m_yLog->setBase(10);
    m_yLog->setMinorTickCount(8);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_yLinear, Qt::AlignLeft);
    m_regions.attach(m_x, m_yLinear);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> {
             m_forecastBand, m_forecast, m_slo, m_p50, m_upper, m_excluded, m_knee, m_sloCapacity, m_ring }) {
        s->attachAxis(m_x);
        s->attachAxis(m_yLinear);
    }
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);

    connect(m_forecast, &QXYSeries::hovered, this, [this](const QPointF& p, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), forecastTip(p.x()), view());
    });
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_p50, m_upper }) {
        connect(s, &QXYSeries::clicked, this, &LoadLatencyChart::onClicked);
        connect(s, &QXYSeries::hovered, this, [this, s](const QPointF& p, bool state) { onHovered(p, state, s); });
    }
    restyle();
    refresh();
}

void LoadLatencyChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleLine(m_p50, ChartStyle::p50(), 2.0);
    ChartStyle::styleLine(m_upper, ChartStyle::p99(), 2.5);
    ChartStyle::styleLine(m_slo, ChartStyle::slo(), 1.5, Qt::DashLine);
    for (QLineSeries* bar : m_bars)
        ChartStyle::styleLine(bar, ChartStyle::p99(), 1.2);
    ChartStyle::styleRing(m_excluded, ChartStyle::neutral(pal), 16);
    ChartStyle::styleMarker(m_knee, ChartStyle::knee(), 18, QScatterSeries::MarkerShapeTriangle, pal);
    ChartStyle::styleMarker(
        m_sloCapacity, ChartStyle::sloCapacity(), 16, QScatterSeries::MarkerShapeRotatedRectangle, pal);
    ChartStyle::styleRing(m_ring, ChartStyle::highlight(pal), 26);
    m_p50->setMarkerSize(7);
    m_upper->setMarkerSize(8);
    // The forecast is never mistaken for a measurement: dashed, lighter, no points, a pale band.
    QColor forecast = ChartStyle::p99();
    forecast.setAlpha(170);
    ChartStyle::styleLine(m_forecast, forecast, 2.0, Qt::DashLine);
    m_forecast->setPointsVisible(false);
    QColor band = ChartStyle::p99();
    band.setAlpha(80);
    m_forecastBand->setBrush(band);
    m_forecastBand->setPen(Qt::NoPen);
}

void LoadLatencyChart::setForecaster(const Forecaster* forecaster)
{
    m_forecaster = forecaster;
    refresh();
}

void LoadLatencyChart::setMetric(LatencyMetric metric)
{
    if (m_metric == metric && !m_ttfc)
        return;
    const bool wasTtfc = std::exchange(m_ttfc, false);
    m_metric = metric;
    m_metricBox->setCurrentIndex(m_metricBox->findData(int(metric)));
    refresh();
    Q_EMIT metricChanged(metric);
    if (wasTtfc)
        Q_EMIT showsTtfcChanged(false);
}

void LoadLatencyChart::setShowsTtfc(bool ttfc)
{
    if (!ttfc) {
        setMetric(LatencyMetric::Ttft);
        return;
    }
    if (m_ttfc)
        return;
    m_ttfc = true;
    m_metric = LatencyMetric::Ttft; // its SLO-free neighbour: percentiles and analysis follow TTFT's
    m_metricBox->setCurrentIndex(m_metricBox->findData(kTtfcItem));
    refresh();
    Q_EMIT showsTtfcChanged(true);
}

void LoadLatencyChart::setLogScale(bool log)
{
    if (m_log == log)
        return;
    m_log = log;
    m_logBox->setChecked(log);
    // No zero may reach the log axis: to it, the data goes first; from it, the axis goes first.
    if (log) {
        refresh();
        attachY(m_yLog);
    } else {
        attachY(m_yLinear);
        refresh();
    }
}

void LoadLatencyChart::attachY(QAbstractAxis* axis)
{
    // One y axis in the chart at a time: a hidden second one still takes room and confuses the layout.
    QAbstractAxis* old = axis == m_yLog ? static_cast<QAbstractAxis*>(m_yLinear) : m_yLog;
    m_regions.detach(old);
    const std::initializer_list<QAbstractSeries*> all { m_forecastBand, m_forecast, m_slo, m_p50, m_upper, m_excluded,
        m_knee, m_sloCapacity, m_ring };
    for (QAbstractSeries* s : all)
        s->detachAxis(old);
    chart()->removeAxis(old);
    old->setParent(chart()); // removeAxis hands it back; keep it for the next switch
    chart()->addAxis(axis, Qt::AlignLeft);
    for (QAbstractSeries* s : all)
        s->attachAxis(axis);
    for (QLineSeries* bar : m_bars) {
        bar->detachAxis(old);
        bar->attachAxis(axis);
    }
    m_regions.attach(nullptr, axis);
    restyle();
}

void LoadLatencyChart::setPercentile(std::optional<double> percentile)
{
    m_percentile = percentile;
    refresh();
}

double LoadLatencyChart::percentile() const
{
    return m_drawn;
}

bool LoadLatencyChart::everyRequestFailed() const
{
    return kp::ui::everyRequestFailed(m_run->steps());
}

double LoadLatencyChart::wantedPercentile() const
{
    if (m_percentile)
        return *m_percentile;
    return m_run->hasInfo() ? m_run->info().analysisOptions.percentile : 99.0;
}

void LoadLatencyChart::setHighlight(const ChartHighlight& highlight)
{
    m_highlight = highlight;
    refresh();
}

void LoadLatencyChart::refresh()
{
    const std::vector<StepReport>& steps = m_run->steps();
    const RunInfo& info = m_run->info();
    const AnalysisResult& analysis = m_run->analysis().result;
    const double percentile = m_drawn
        = drawablePercentile(steps, m_metric, wantedPercentile()).value_or(wantedPercentile());
    const bool concurrency = m_run->hasInfo() && info.profile.load.mode == LoadMode::Concurrency;
    const QString metric = m_ttfc ? QStringLiteral("TTFC") : UiFormat::metricWord(m_metric);

    const LoadMode axis = concurrency ? LoadMode::Concurrency : LoadMode::Rate;
    m_p50Points = m_ttfc ? SweepCurve::ttfc(steps, axis, 50) : SweepCurve::latency(steps, axis, m_metric, 50);
    m_upperPoints
        = m_ttfc ? SweepCurve::ttfc(steps, axis, percentile) : SweepCurve::latency(steps, axis, m_metric, percentile);
    if (m_log) { // a log axis has no place for zero
        auto positive = [](const SweepCurve::Point& p) { return !(p.y > 0); };
        m_p50Points.erase(std::remove_if(m_p50Points.begin(), m_p50Points.end(), positive), m_p50Points.end());
        m_upperPoints.erase(std::remove_if(m_upperPoints.begin(), m_upperPoints.end(), positive), m_upperPoints.end());
    }
    // With only the median to draw, the upper curve is the P50 curve: one line, not two on each other.
    if (percentile == 50.0)
        m_p50Points.clear();
    // A load run several times (repeats) is drawn once, at the mean of its trials; its bar is their spread.
    m_p50->replace(SweepCurve::toPoints(SweepCurve::meanByLoad(m_p50Points)));
    m_p50->setVisible(!m_p50Points.empty() || percentile != 50.0);
    m_upper->replace(SweepCurve::toPoints(SweepCurve::meanByLoad(m_upperPoints)));
    m_p50->setName(tr("P50 %1").arg(metric));
    m_upper->setName(tr("%1 %2").arg(UiFormat::percentileWord(percentile), metric));

    // Outliers as the analysis judged them (its steps are in its own order): drawn apart like the
    // steps it cannot use, so the curve shows what the knee was found on.
    std::vector<double> outlierLoads;
    for (const StepAssessment& a : analysis.steps) {
        if (a.outlier)
            outlierLoads.push_back(a.offered);
    }
    QList<QPointF> excluded;
    for (const SweepCurve::Point& p : m_upperPoints) {
        const StepReport& s = steps[std::size_t(p.step)];
        if (s.partial || s.clientBound
            || std::find(outlierLoads.begin(), outlierLoads.end(), p.x) != outlierLoads.end())
            excluded << QPointF(p.x, p.y);
    }
    m_excluded->replace(excluded);
    ChartStyle::showInLegend(chart(), m_excluded, !excluded.isEmpty());

    // Axis ranges from the data (and the SLO, so that its line is always on screen).
    const std::optional<double> limit = !m_run->hasInfo() ? std::nullopt
        : m_ttfc                                          ? info.profile.slo.ttfcMs
                                                          : sloLimit(info.profile.slo, m_metric);
    double xMax = 0, yMax = 0, yMinPositive = 0;
    for (const auto* curve : { &m_p50Points, &m_upperPoints }) {
        for (const SweepCurve::Point& p : *curve) {
            xMax = std::max(xMax, p.x);
            yMax = std::max(yMax, p.y);
            if (p.y > 0 && (yMinPositive == 0 || p.y < yMinPositive))
                yMinPositive = p.y;
        }
    }
    // The forecast at the drawn percentile, and its band; it widens the axes to its loads, but a predicted
    // collapse does not squash the measured curve: its latency counts up to three times the measured.
    QList<QPointF> forecast, forecastLow, forecastHigh;
    const Forecast* predicted = m_forecaster && m_forecaster->forecast() ? &*m_forecaster->forecast() : nullptr;
    if (predicted && predicted->mode == axis) {
        for (std::size_t i = 0; i < predicted->points.size(); ++i) {
            const SweepPoint& p = predicted->points[i];
            const std::optional<double> v = percentileValue(p.metrics.stats(m_metric), percentile);
            if (!v || !std::isfinite(*v) || (m_log && !(*v > 0)))
                continue;
            forecast << QPointF(p.offered, *v);
            if (const auto b = predicted->band(i, m_metric, percentile); b && (!m_log || b->first > 0)) {
                forecastLow << QPointF(p.offered, b->first);
                forecastHigh << QPointF(p.offered, b->second);
            }
        }
    }
    {
        const double measuredTop = yMax;
        for (const QPointF& p : std::as_const(forecast)) {
            xMax = std::max(xMax, p.x());
            yMax = std::max(yMax, measuredTop > 0 ? std::min(p.y(), 3 * measuredTop) : p.y());
        }
    }
    m_forecast->replace(forecast);
    m_forecast->setName(
        tr("forecast (predicted) %1 %2").arg(UiFormat::percentileWord(percentile), UiFormat::metricWord(m_metric)));
    m_forecast->setVisible(!forecast.isEmpty());
    m_forecastLow->replace(forecastLow);
    m_forecastHigh->replace(forecastHigh);
    m_forecastBand->setName(tr("forecast spread (predicted)"));
    m_forecastBand->setVisible(forecastLow.size() >= 2);
    ChartStyle::showInLegend(chart(), m_forecastBand, false);

    // Each load's 95 % interval of the drawn upper figure (docs/CLI.md, "Confidence intervals"): a step's
    // bootstrap over its requests, or for a repeated load Student's t over its trials.
    std::vector<std::pair<double, Interval>> intervals;
    bool overTrials = false;
    // No step computes intervals of TTFC.
    for (std::size_t first = 0; !m_ttfc && first < m_upperPoints.size();) {
        std::size_t end = first + 1;
        while (end < m_upperPoints.size() && m_upperPoints[end].x == m_upperPoints[first].x)
            ++end;
        std::optional<Interval> i;
        if (end - first >= 2) {
            std::vector<const StepMetrics*> trials;
            for (std::size_t k = first; k < end; ++k)
                trials.push_back(&steps[std::size_t(m_upperPoints[k].step)].metrics);
            i = intervalOf(repeatIntervals(trials), m_metric, percentile);
            overTrials = overTrials || i.has_value();
        } else {
            i = intervalOf(steps[std::size_t(m_upperPoints[first].step)].metrics.intervals, m_metric, percentile);
        }
        if (i && i->high > i->low && (!m_log || i->low > 0)) {
            intervals.push_back({ m_upperPoints[first].x, *i });
            yMax = std::max(yMax, i->high);
        }
        first = end;
    }
    const bool haveData = !m_upperPoints.empty() || !m_p50Points.empty();
    // The SLO line stays in view unless it would squash the curve into the bottom quarter; the log
    // scale then shows both.
    const bool sloInView = limit && haveData && (m_log || *limit <= 4 * yMax);
    if (sloInView)
        yMax = std::max(yMax, *limit);
    ChartStyle::setNiceRange(m_x, haveData ? xMax * 1.05 : 1.0);
    double yBottom = 0, yTop = 1;
    if (m_log) {
        yBottom = haveData ? std::pow(10.0, std::floor(std::log10(yMinPositive / 1.2))) : 1.0;
        yTop = haveData ? std::pow(10.0, std::ceil(std::log10(yMax * 1.2))) : 10.0;
        if (yTop <= yBottom)
            yTop = yBottom * 10;
        m_yLog->setRange(yBottom, yTop);
    } else {
        ChartStyle::setNiceRange(m_yLinear, haveData ? yMax * 1.08 : 1.0);
        yTop = m_yLinear->max();
    }
    const QString xTitle = concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)");
    m_x->setTitleText(xTitle);
    const QString yTitle = m_log ? tr("%1 (ms, log scale)").arg(metric) : tr("%1 (ms)").arg(metric);
    m_yLinear->setTitleText(yTitle);
    m_yLog->setTitleText(yTitle);
    const double xRight = m_x->max();

    if (sloInView) {
        m_slo->replace(QList<QPointF> { { 0, *limit }, { xRight, *limit } });
        m_slo->setName(tr("SLO %1 %2 ≤ %3 ms")
                           .arg(UiFormat::percentileWord(
                                    m_ttfc ? info.profile.slo.ttfcP() : sloPercentile(info.profile.slo, m_metric)),
                               metric, UiFormat::ms(*limit)));
        m_slo->setVisible(true);
    } else {
        m_slo->clear();
        m_slo->setVisible(false);
    }

    // The error bars, each an "I": its caps a little wide on either side.
    const double cap = (m_x->max() - m_x->min()) * 0.008;
    while (m_bars.size() < intervals.size()) {
        auto* bar = new QLineSeries(chart());
        chart()->addSeries(bar);
        bar->attachAxis(m_x);
        bar->attachAxis(m_log ? static_cast<QAbstractAxis*>(m_yLog) : m_yLinear);
        ChartStyle::styleLine(bar, ChartStyle::p99(), 1.2);
        m_bars.push_back(bar);
    }
    for (std::size_t b = 0; b < m_bars.size(); ++b) {
        QLineSeries* bar = m_bars[b];
        if (b < intervals.size()) {
            const double x = intervals[b].first;
            const Interval& i = intervals[b].second;
            bar->replace(QList<QPointF> { { x - cap, i.high }, { x + cap, i.high }, { x, i.high }, { x, i.low },
                { x - cap, i.low }, { x + cap, i.low } });
            bar->setVisible(true);
        } else {
            bar->clear();
            bar->setVisible(false);
        }
        ChartStyle::showInLegend(chart(), bar, false);
    }

    // Markers sit on the drawn upper curve at the load the analysis names.
    QStringList captionParts;
    auto place = [&](QScatterSeries* series, const Finding& f, const QString& name) {
        ChartStyle::markFinding(series, m_upperPoints, f,
            QStringLiteral("%1 %2%3 %4")
                .arg(name, f.lowerBound ? QStringLiteral("≥ ") : QString(), UiFormat::load(f.offered),
                    UiFormat::loadUnit(concurrency ? LoadMode::Concurrency : LoadMode::Rate)));
    };
    place(m_knee, analysis.knee, tr("knee"));
    place(m_sloCapacity, analysis.sloCapacity, tr("SLO capacity"));

    const std::vector<SweepCurve::Span> spans = SweepCurve::spans(analysis.regions, 0, xRight);
    m_regions.update(spans, yBottom, yTop, m_highlight.topic == AnalysisTopic::Region ? m_highlight.regionIndex : -1);

    // The highlight ring: a step, or the marker a sentence is about.
    QList<QPointF> ring;
    if (m_highlight.topic == AnalysisTopic::Knee && m_knee->count() > 0)
        ring << m_knee->at(0);
    else if (m_highlight.topic == AnalysisTopic::SloCapacity && m_sloCapacity->count() > 0)
        ring << m_sloCapacity->at(0);
    else if (m_highlight.stepIndex >= 0) {
        for (const SweepCurve::Point& p : m_upperPoints) {
            if (p.step == m_highlight.stepIndex)
                ring << QPointF(p.x, p.y);
        }
    }
    m_ring->replace(ring);
    ChartStyle::showInLegend(chart(), m_ring, false);

    if (spans.empty() && !haveData)
        captionParts.clear();
    if (!spans.empty()) {
        QStringList keys;
        for (RegionKind k : { RegionKind::Linear, RegionKind::Knee, RegionKind::Overload }) {
            if (std::any_of(spans.begin(), spans.end(), [k](const SweepCurve::Span& s) { return s.kind == k; }))
                keys << colourKey(ChartStyle::regionSolid(k), QStringLiteral("■"), UiFormat::regionWord(k));
        }
        captionParts << tr("Shaded: %1").arg(keys.join(QStringLiteral(" &nbsp;")));
    }
    if (!intervals.empty() && overTrials)
        captionParts << tr("Bars: the 95% confidence interval of %1 %2 over a repeated load's trials (the line "
                           "joins their means), else over one step's requests.")
                            .arg(UiFormat::percentileWord(percentile), metric)
                            .toHtmlEscaped();
    else if (!intervals.empty())
        captionParts << tr("Bars: each step's 95% confidence interval of %1 %2.")
                            .arg(UiFormat::percentileWord(percentile), metric)
                            .toHtmlEscaped();
    if (haveData && percentile != wantedPercentile())
        captionParts << tr("No step has %1 %2: the curve shows %3, the highest percentile the run has.")
                            .arg(UiFormat::percentileWord(wantedPercentile()), metric,
                                UiFormat::percentileWord(percentile))
                            .toHtmlEscaped();
    if (limit && haveData && !sloInView)
        captionParts << tr("The SLO (%1 ms) is far above the curve: the log scale shows both.")
                            .arg(UiFormat::ms(*limit))
                            .toHtmlEscaped();
    if (haveData && !analysis.knee.found && !analysis.knee.reason.isEmpty())
        captionParts << analysis.knee.reason.text().toHtmlEscaped();
    if (m_forecaster && haveData && !m_forecaster->sentence(&analysis).isEmpty()) {
        QColor c = ChartStyle::p99();
        captionParts << colourKey(c, QStringLiteral("╌"), m_forecaster->sentence(&analysis));
    }
    m_caption->setText(captionParts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    m_caption->setVisible(!captionParts.isEmpty());

    if (haveData)
        setPlaceholder({});
    else if (kp::ui::everyRequestFailed(steps))
        setPlaceholder(tr("Every request failed: no step has a %1 to plot.").arg(metric));
    else if (!steps.empty())
        setPlaceholder(tr("No step has a finite offered load with %1 values to plot.").arg(metric));
    else
        setPlaceholder(m_run->isActive() ? tr("The curve appears here as steps finish.")
                                         : tr("Run a sweep (Ctrl+R): offered load against latency, with the knee "
                                              "and the SLO capacity marked as the steps finish."));
}

int LoadLatencyChart::pointCount() const
{
    return int(m_upperPoints.size());
}

std::optional<QPointF> LoadLatencyChart::kneeMarker() const
{
    return m_knee->count() > 0 && m_knee->isVisible() ? std::optional<QPointF>(m_knee->at(0)) : std::nullopt;
}

std::optional<QPointF> LoadLatencyChart::sloCapacityMarker() const
{
    return m_sloCapacity->count() > 0 && m_sloCapacity->isVisible() ? std::optional<QPointF>(m_sloCapacity->at(0))
                                                                    : std::nullopt;
}

std::optional<double> LoadLatencyChart::sloLine() const
{
    return m_slo->isVisible() && m_slo->count() > 0 ? std::optional<double>(m_slo->at(0).y()) : std::nullopt;
}

QString LoadLatencyChart::forecastTip(double load) const
{
    const Forecast* f = m_forecaster && m_forecaster->forecast() ? &*m_forecaster->forecast() : nullptr;
    if (!f || f->points.empty())
        return {};
    std::size_t best = 0;
    for (std::size_t i = 1; i < f->points.size(); ++i) {
        if (std::abs(f->points[i].offered - load) < std::abs(f->points[best].offered - load))
            best = i;
    }
    const SweepPoint& p = f->points[best];
    const double percentile = this->percentile();
    const QString metric
        = QStringLiteral("%1 %2").arg(UiFormat::percentileWord(percentile), UiFormat::metricWord(m_metric));
    const std::optional<double> v = percentileValue(p.metrics.stats(m_metric), percentile);
    QString text = tr("Forecast (predicted, not measured) at %1\n%2 req/s served")
                       .arg(UiFormat::loadText(f->mode, p.offered), UiFormat::throughput(p.metrics.requestThroughput));
    if (v)
        text += tr("\n%1 %2 ms").arg(metric, UiFormat::ms(*v));
    if (const auto b = f->band(best, m_metric, percentile); b && b->second > b->first)
        text += tr(" (spread %1–%2 ms)").arg(UiFormat::ms(b->first), UiFormat::ms(b->second));
    text += tr("\nfitted to %1").arg(LiveRun::stepsWord(f->fromSteps));
    return text;
}

QString LoadLatencyChart::caption() const
{
    return m_caption->text();
}

int LoadLatencyChart::nearestStep(const QPointF& point) const
{
    int best = -1;
    double bestDistance = 0;
    for (const auto* curve : { &m_upperPoints, &m_p50Points }) {
        for (const SweepCurve::Point& p : *curve) {
            const double d = std::abs(p.x - point.x()) / std::max(1e-9, m_x->max())
                + std::abs(p.y - point.y()) / std::max(1e-9, m_log ? m_yLog->max() : m_yLinear->max());
            if (best < 0 || d < bestDistance) {
                best = p.step;
                bestDistance = d;
            }
        }
    }
    return best;
}

void LoadLatencyChart::onClicked(const QPointF& point)
{
    const int step = nearestStep(point);
    if (step >= 0)
        Q_EMIT stepClicked(step);
}

void LoadLatencyChart::onHovered(const QPointF& point, bool state, QXYSeries* series)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const int step = nearestStep(point);
    if (step < 0 || step >= int(m_run->steps().size()))
        return;
    const StepReport& s = m_run->steps()[std::size_t(step)];
    const LatencyStats& stats = m_ttfc ? s.metrics.firstContentTtft : s.metrics.stats(m_metric);
    const double percentile = this->percentile();
    QString text
        = tr("Step %1 · %2\nP50 %3 %4 ms")
              .arg(step + 1)
              .arg(UiFormat::loadText(s.config), m_ttfc ? QStringLiteral("TTFC") : UiFormat::metricWord(m_metric),
                  UiFormat::ms(stats.median));
    if (const auto v = percentileValue(stats, percentile))
        text += tr(" · %1 %2 ms").arg(UiFormat::percentileWord(percentile), UiFormat::ms(*v));
    Q_UNUSED(series);
    QToolTip::showText(QCursor::pos(), text, view());
}

} // namespace kp::ui
