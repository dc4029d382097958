#include "run/histogramchart.h"

#include "kit/chartstyle.h"
#include "kit/sweepcurve.h"
#include "kit/uiformat.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

namespace kp::ui {

HistogramChart::HistogramChart(QWidget* parent)
    : ChartPanel(tr("Latency histogram"), parent)
    , m_metricBox(new QComboBox(this))
    , m_upper(new QLineSeries(chart()))
    , m_lower(new QLineSeries(chart()))
    , m_area(new QAreaSeries(m_upper, m_lower))
    , m_p50(new QLineSeries(chart()))
    , m_pUpper(new QLineSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
{
    for (LatencyMetric m : allLatencyMetrics)
        m_metricBox->addItem(UiFormat::metricWord(m), QVariant::fromValue(int(m)));
    controls()->addWidget(m_metricBox);
    connect(m_metricBox, &QComboBox::currentIndexChanged, this,
        [this](int index) { setMetric(LatencyMetric(m_metricBox->itemData(index).toInt())); });
    QChart* c = chart();
    c->addSeries(m_area);
    c->addSeries(m_p50);
    c->addSeries(m_pUpper);
    m_area->setName(tr("requests"));
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_y->setTitleText(tr("Requests"));
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_area, m_p50, m_pUpper }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    restyle();
    refresh();
}

void HistogramChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    QColor fill = ChartStyle::neutral(pal);
    fill.setAlpha(140);
    m_area->setBrush(fill);
    m_area->setPen(QPen(ChartStyle::neutral(pal), 1.0));
    ChartStyle::styleLine(m_p50, ChartStyle::p50(), 2.0, Qt::DashLine);
    ChartStyle::styleLine(m_pUpper, ChartStyle::p99(), 2.0, Qt::DashLine);
}

void HistogramChart::setStep(const StepReport* step, double percentile)
{
    if (step)
        m_step = *step;
    else
        m_step.reset();
    m_percentile = percentile;
    refresh();
}

void HistogramChart::setMetric(LatencyMetric metric)
{
    if (m_metric == metric)
        return;
    m_metric = metric;
    m_metricBox->setCurrentIndex(m_metricBox->findData(int(metric)));
    refresh();
}

int HistogramChart::binCount() const
{
    return m_upper->count() / 2;
}

void HistogramChart::refresh()
{
    const QString metric = UiFormat::metricWord(m_metric);
    m_x->setTitleText(tr("%1 (ms)").arg(metric));
    Histogram h;
    if (m_step) {
        if (auto it = m_step->histograms.find(m_metric); it != m_step->histograms.end())
            h = it->second;
    }
    QList<QPointF> upper, lower;
    qint64 yMax = 0;
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        const double x0 = h.fromMs + double(i) * h.binMs;
        const double x1 = x0 + h.binMs;
        upper << QPointF(x0, double(h.counts[i])) << QPointF(x1, double(h.counts[i]));
        lower << QPointF(x0, 0) << QPointF(x1, 0);
        yMax = std::max(yMax, h.counts[i]);
    }
    m_upper->replace(upper);
    m_lower->replace(lower);
    const bool haveData = !upper.isEmpty();
    const double xLo = haveData ? h.fromMs : 0;
    const double xHi = haveData ? h.fromMs + double(h.counts.size()) * h.binMs : 1;
    ChartStyle::setNiceRange(m_x, xLo, xHi, 5);
    // Whole requests on the count axis.
    ChartStyle::setNiceRange(m_y, 0, std::max(2.0, double(yMax) * 1.05), 3);
    if (m_y->tickInterval() < 1)
        ChartStyle::setNiceRange(m_y, 0, 4, 4);
    const double yTop = m_y->max();

    auto vertical = [&](QLineSeries* series, std::optional<double> value, const QString& name) {
        if (haveData && value) {
            series->replace(QList<QPointF> { { *value, 0 }, { *value, yTop } });
            series->setName(QStringLiteral("%1 %2 ms").arg(name, UiFormat::ms(*value)));
            series->setVisible(true);
        } else {
            series->clear();
            series->setVisible(false);
        }
    };
    const LatencyStats* stats = m_step ? &m_step->metrics.stats(m_metric) : nullptr;
    vertical(m_p50, stats ? percentileValue(*stats, 50) : std::nullopt, tr("P50"));
    vertical(
        m_pUpper, stats ? percentileValue(*stats, m_percentile) : std::nullopt, UiFormat::percentileWord(m_percentile));
    m_area->setName(h.above > 0 ? tr("requests (%1 beyond the axis)").arg(h.above) : tr("requests"));

    if (!m_step)
        setPlaceholder(tr("Select a step to see its latency distribution."));
    else if (!haveData)
        setPlaceholder(tr("Step %1 has no %2 values.").arg(m_step->index() + 1).arg(metric));
    else
        setPlaceholder({});
}

} // namespace kp::ui
