#include "charts/comparechart.h"

#include "kit/chartstyle.h"
#include "kit/sweepcurve.h"
#include "sweep/pareto.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <cmath>

namespace kp::ui {

CompareChart::CompareChart(QWidget* parent)
    : ChartPanel(tr("Comparison"), parent)
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
    , m_yLog(new QLogValueAxis(chart()))
{
    QChart* c = chart();
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_yLog->setLabelFormat(QStringLiteral("%g"));
    m_yLog->setBase(10);
    m_yLog->setMinorTickCount(8);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    CompareChart::restyle(); // this class's own: the object is not fully built yet
    refresh();
}

QColor CompareChart::runColor(int run)
{
    // Okabe–Ito, in an order that keeps the first runs far apart; then darker repeats.
    static const QColor colours[]
        = { QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
              QColor(0xD5, 0x5E, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x55, 0x55, 0x55), QColor(0xB8, 0xA0, 0x00) };
    const int n = int(std::size(colours));
    const QColor c = colours[std::size_t(run % n)];
    return run < n ? c : c.darker(100 + 40 * (run / n));
}

QString CompareChart::metricWord(CompareMetric metric)
{
    switch (metric) {
    case CompareMetric::Ttft:
        return QStringLiteral("TTFT");
    case CompareMetric::Tpot:
        return QStringLiteral("TPOT");
    case CompareMetric::Itl:
        return QStringLiteral("ITL");
    case CompareMetric::E2el:
        return QStringLiteral("E2EL");
    case CompareMetric::Throughput:
        return tr("Throughput");
    case CompareMetric::OutputThroughput:
        return tr("Output throughput");
    case CompareMetric::PrefixCacheHitRate:
        return tr("Prefix-cache hit rate");
    }
    return {};
}

QString twinErrorText(const std::optional<double>& error)
{
    if (!error || !std::isfinite(*error))
        return QStringLiteral("—");
    const double percent = std::round(*error * 100);
    return (percent > 0          ? QStringLiteral("+")
                   : percent < 0 ? QStringLiteral("−")
                                 : QString())
        + QString::number(std::abs(percent), 'f', 0) + u'%';
}

std::vector<ComparePrediction> twinPredictions(const ServerComparison& group, const std::vector<SavedRun>& runs)
{
    std::vector<ComparePrediction> out;
    if (group.twinSource < 0)
        return out;
    for (int i = 0; i < int(runs.size()); ++i) {
        const int c = configurationOf(group, runs[std::size_t(i)].dir);
        if (c < 0 || c == group.twinSource || group.runs[std::size_t(c)].twinPoints.empty())
            continue;
        const ServerRunFigures& r = group.runs[std::size_t(c)];
        ComparePrediction p;
        p.run = i;
        // Short, for a legend: the source and what the error is of are in the caption and the table.
        p.name = CompareChart::tr("%1 · twin, error %2").arg(r.outcome.combination.label(), twinErrorText(r.twinError));
        p.points = r.twinPoints;
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<ParetoSeries> compareParetoFronts(const std::vector<SavedRun>& runs)
{
    std::vector<ParetoSeries> fronts;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const SavedRun& run = runs[i];
        ParetoSeries series;
        series.name = run.name;
        series.color = CompareChart::runColor(int(i));
        series.mode = run.profile.load.mode;
        series.front = paretoFront(paretoInputs(run.sweepPoints()), paretoOptionsFor(run.profile.server));
        fronts.push_back(std::move(series));
    }
    return fronts;
}

void CompareChart::setComparison(const Comparison* comparison)
{
    m_comparison = comparison;
    refresh();
}

void CompareChart::setLogScale(bool log)
{
    if (m_log == log)
        return;
    m_log = log;
    QAbstractAxis* from = log ? static_cast<QAbstractAxis*>(m_y) : m_yLog;
    QAbstractAxis* to = log ? static_cast<QAbstractAxis*>(m_yLog) : m_y;
    const auto series = chart()->series();
    for (QAbstractSeries* s : series)
        s->detachAxis(from);
    chart()->removeAxis(from);
    from->setParent(chart()); // removeAxis hands it back; keep it for the next switch
    chart()->addAxis(to, Qt::AlignLeft);
    for (QAbstractSeries* s : series)
        s->attachAxis(to);
    restyle();
    refresh();
}

QString CompareChart::curveTitle() const
{
    if (!m_comparison)
        return {};
    const CompareMetric m = m_comparison->metric;
    const QString unit = compareMetricUnit(m);
    if (m == CompareMetric::Throughput || m == CompareMetric::OutputThroughput
        || m == CompareMetric::PrefixCacheHitRate)
        return tr("%1 (%2)").arg(metricWord(m), unit);
    QString stat = m_comparison->statistic.label();
    if (!stat.isEmpty() && stat.front().isLower())
        stat[0] = stat.front().toUpper();
    return tr("%1 %2 (%3)").arg(stat, metricWord(m), unit);
}

void CompareChart::setPredictions(std::vector<ComparePrediction> predictions)
{
    m_predictions = std::move(predictions);
    refresh();
}

int CompareChart::predictionPointCount(int index) const
{
    return index >= 0 && index < int(m_predictionLines.size()) && m_predictionLines[std::size_t(index)]->isVisible()
        ? int(m_predictionLines[std::size_t(index)]->count())
        : 0;
}

QString CompareChart::predictionName(int index) const
{
    return index >= 0 && index < int(m_predictionLines.size()) ? m_predictionLines[std::size_t(index)]->name()
                                                               : QString();
}

Qt::PenStyle CompareChart::predictionPenStyle(int index) const
{
    return index >= 0 && index < int(m_predictionLines.size()) ? m_predictionLines[std::size_t(index)]->pen().style()
                                                               : Qt::NoPen;
}

QColor CompareChart::predictionColor(int index) const
{
    return index >= 0 && index < int(m_predictionLines.size()) ? m_predictionLines[std::size_t(index)]->pen().color()
                                                               : QColor();
}

int CompareChart::seriesCount() const
{
    int n = 0;
    for (QLineSeries* s : m_lines)
        n += s->isVisible() && s->count() > 0 ? 1 : 0;
    return n;
}

QString CompareChart::seriesName(int run) const
{
    return run >= 0 && run < int(m_lines.size()) ? m_lines[std::size_t(run)]->name() : QString();
}

Qt::PenStyle CompareChart::seriesPenStyle(int run) const
{
    return run >= 0 && run < int(m_lines.size()) ? m_lines[std::size_t(run)]->pen().style() : Qt::NoPen;
}

int CompareChart::pointCount(int run) const
{
    return run >= 0 && run < int(m_lines.size()) ? int(m_lines[std::size_t(run)]->count()) : 0;
}

void CompareChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    const int baseline = m_comparison ? m_comparison->baseline : -1;
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        // A prediction is drawn dashed: never mistaken for a measured curve.
        const bool predicted = m_comparison && i < m_comparison->curves.size() && m_comparison->curves[i].predicted;
        ChartStyle::styleLine(
            m_lines[i], runColor(int(i)), int(i) == baseline ? 3.5 : 2.2, predicted ? Qt::DashLine : Qt::SolidLine);
        m_lines[i]->setMarkerSize(int(i) == baseline ? 9 : 7);
        ChartStyle::styleMarker(m_knees[i], runColor(int(i)), 17, QScatterSeries::MarkerShapeTriangle, pal);
    }
    // A twin's prediction: dashed, thinner, in the colour of the run it predicts.
    for (std::size_t i = 0; i < m_predictionLines.size() && i < m_predictions.size(); ++i)
        ChartStyle::styleLine(m_predictionLines[i], runColor(m_predictions[i].run), 1.8, Qt::DashLine);
}

void CompareChart::refresh()
{
    const std::size_t n = m_comparison ? m_comparison->curves.size() : 0;
    QAbstractAxis* y = m_log ? static_cast<QAbstractAxis*>(m_yLog) : m_y;
    // One line and one knee marker per run, made as runs come.
    while (m_lines.size() < n) {
        auto* line = new QLineSeries(chart());
        auto* knee = new QScatterSeries(chart());
        line->setPointsVisible(true);
        chart()->addSeries(line);
        chart()->addSeries(knee);
        for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { line, knee }) {
            s->attachAxis(m_x);
            s->attachAxis(y);
        }
        m_lines.push_back(line);
        m_knees.push_back(knee);
    }
    while (m_predictionLines.size() < m_predictions.size()) {
        auto* line = new QLineSeries(chart());
        line->setPointsVisible(false);
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(y);
        m_predictionLines.push_back(line);
    }
    restyle();

    double xMax = 0, yMax = 0, yMinPositive = 0;
    bool concurrency = false;
    std::vector<std::vector<SweepCurve::Point>> curves(n);
    for (std::size_t i = 0; i < n; ++i) {
        const CompareCurve& c = m_comparison->curves[i];
        concurrency = concurrency || c.concurrencyMode;
        for (const ComparePoint& p : c.points) {
            if (!p.value || !std::isfinite(p.offered) || !std::isfinite(*p.value) || (m_log && !(*p.value > 0)))
                continue;
            curves[i].push_back({ p.offered, *p.value, -1 });
            xMax = std::max(xMax, p.offered);
            yMax = std::max(yMax, *p.value);
            if (*p.value > 0 && (yMinPositive == 0 || *p.value < yMinPositive))
                yMinPositive = *p.value;
        }
    }
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        QLineSeries* line = m_lines[i];
        QScatterSeries* knee = m_knees[i];
        if (i >= n) {
            line->clear();
            line->setVisible(false);
            knee->clear();
            knee->setVisible(false);
            for (QLegendMarker* m : chart()->legend()->markers(line))
                m->setVisible(false);
            continue;
        }
        const CompareCurve& c = m_comparison->curves[i];
        line->replace(SweepCurve::toPoints(curves[i]));
        const QString name = c.predicted ? tr("%1 (predicted)").arg(c.name) : c.name;
        line->setName(int(i) == m_comparison->baseline ? tr("%1 (baseline)").arg(name) : name);
        line->setVisible(true);
        std::optional<double> at;
        if (i < m_comparison->analyses.size()) {
            const Finding& f = m_comparison->analyses[i].knee;
            if (f.found && std::isfinite(f.offered) && !curves[i].empty())
                at = SweepCurve::valueAt(curves[i], f.offered);
            if (at)
                knee->replace(QList<QPointF> { { f.offered, *at } });
        }
        knee->setVisible(at.has_value());
        if (!at)
            knee->clear();
        for (QLegendMarker* m : chart()->legend()->markers(line))
            m->setVisible(true);
        for (QLegendMarker* m : chart()->legend()->markers(knee))
            m->setVisible(false);
    }
    for (std::size_t i = 0; i < m_predictionLines.size(); ++i) {
        QLineSeries* line = m_predictionLines[i];
        std::vector<SweepCurve::Point> curve;
        if (n > 0 && i < m_predictions.size()) {
            for (const SweepPoint& p : m_predictions[i].points) {
                const std::optional<double> v = compareValue(p.metrics, m_comparison->metric, m_comparison->statistic);
                if (!v || !std::isfinite(p.offered) || !std::isfinite(*v) || (m_log && !(*v > 0)))
                    continue;
                curve.push_back({ p.offered, *v, -1 });
                xMax = std::max(xMax, p.offered);
                yMax = std::max(yMax, *v);
                if (*v > 0 && (yMinPositive == 0 || *v < yMinPositive))
                    yMinPositive = *v;
            }
        }
        line->replace(SweepCurve::toPoints(curve));
        line->setName(i < m_predictions.size() ? m_predictions[i].name : QString());
        line->setVisible(!curve.empty());
        for (QLegendMarker* m : chart()->legend()->markers(line))
            m->setVisible(!curve.empty());
    }
    const bool haveData = xMax > 0;
    ChartStyle::setNiceRange(m_x, haveData ? xMax * 1.05 : 1.0);
    if (m_log) {
        const double bottom = haveData ? std::pow(10.0, std::floor(std::log10(yMinPositive / 1.2))) : 1.0;
        double top = haveData ? std::pow(10.0, std::ceil(std::log10(yMax * 1.2))) : 10.0;
        if (top <= bottom)
            top = bottom * 10;
        m_yLog->setRange(bottom, top);
    } else if (m_comparison && m_comparison->metric == CompareMetric::PrefixCacheHitRate) {
        // A share: the whole scale, so two runs' rates read against each other.
        ChartStyle::setNiceRange(m_y, 100.0);
    } else {
        ChartStyle::setNiceRange(m_y, haveData ? yMax * 1.08 : 1.0);
    }
    m_x->setTitleText(concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"));
    m_y->setTitleText(curveTitle());
    m_yLog->setTitleText(curveTitle());
    if (haveData)
        setPlaceholder(QString());
    else if (n > 0 && m_comparison->metric == CompareMetric::PrefixCacheHitRate)
        setPlaceholder(tr("No prefix-cache figures in these runs: their servers reported no cached tokens."));
    else if (n > 0)
        setPlaceholder(tr("None of these runs records %1.").arg(curveTitle()));
    else
        setPlaceholder(tr("Select two or more runs on the Runs page and press Compare."));
}

} // namespace kp::ui
