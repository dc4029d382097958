#pragma once

#include "kit/chartpanel.h"
#include "kit/regionbands.h"
#include "kit/sweepcurve.h"
#include "metrics/stepmetrics.h"

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
class QAbstractAxis;
class QAreaSeries;
class QXYSeries;
QT_END_NAMESPACE

namespace kp::ui {

class Forecaster;
class LiveRun;

// Offered load against latency: P50 and the analysed percentile (P99 unless the SLO says otherwise)
// of TTFT, TTFC (time to first content token: a reasoning model's first answer token), TPOT, ITL or
// E2EL, on a linear or log axis; the SLO limit; the knee and the SLO capacity
// marked; the linear, knee and overload regions shaded. Redrawn from the run after each step.
class LoadLatencyChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit LoadLatencyChart(const LiveRun* run, QWidget* parent = nullptr);

    void refresh();
    LatencyMetric metric() const { return m_metric; }
    void setMetric(LatencyMetric metric);
    // TTFC in place of TTFT: the time to the first answer token, after a reasoning model's thinking.
    bool showsTtfc() const { return m_ttfc; }
    void setShowsTtfc(bool ttfc);
    bool logScale() const { return m_log; }
    void setLogScale(bool log);
    // The upper curve's percentile; unset: the analysed one (the SLO's, else 99). A step that did not
    // compute it has no point on that curve.
    void setPercentile(std::optional<double> percentile);
    // The percentile of the drawn upper curve: the wanted one, or, when no step has it (a file that
    // recorded fewer percentiles), drawablePercentile's fallback; wantedPercentile() is the one asked for.
    double percentile() const;
    double wantedPercentile() const;
    // Whether the run sent requests and every one failed: the chart then says so instead of a curve.
    bool everyRequestFailed() const;
    void setHighlight(const ChartHighlight& highlight);
    // The twin's forecast, drawn dashed and lighter ahead of the measured points with its band (none: not drawn).
    void setForecaster(const Forecaster* forecaster);
    QLineSeries* forecastSeries() const { return m_forecast; }
    QAreaSeries* forecastBand() const { return m_forecastBand; }

    int pointCount() const; // steps on the upper curve (its line joins a repeated load's trials into one point)
    std::optional<QPointF> kneeMarker() const;
    std::optional<QPointF> sloCapacityMarker() const;
    std::optional<double> sloLine() const;
    int regionCount() const { return m_regions.visibleCount(); }
    QString caption() const;
    QString forecastTip(double load) const; // the forecast's tooltip at the predicted load nearest to load

Q_SIGNALS:
    void stepClicked(int stepIndex);
    void metricChanged(kp::LatencyMetric metric);
    void showsTtfcChanged(bool ttfc);

protected:
    void restyle() override;

private:
    void attachY(QAbstractAxis* axis);
    void onHovered(const QPointF& point, bool state, QXYSeries* series);
    void onClicked(const QPointF& point);
    int nearestStep(const QPointF& point) const;

    const LiveRun* m_run;
    LatencyMetric m_metric = LatencyMetric::Ttft;
    bool m_ttfc = false;
    bool m_log = false;
    std::optional<double> m_percentile;
    double m_drawn = 99; // percentile(), set by refresh()
    ChartHighlight m_highlight;
    QComboBox* m_metricBox;
    QCheckBox* m_logBox;
    QLabel* m_caption;
    RegionBands m_regions;
    QLineSeries* m_p50;
    QLineSeries* m_upper;
    QLineSeries* m_slo;
    QScatterSeries* m_excluded;
    QScatterSeries* m_knee;
    QScatterSeries* m_sloCapacity;
    QScatterSeries* m_ring;
    const Forecaster* m_forecaster = nullptr;
    QLineSeries* m_forecast;
    QLineSeries* m_forecastLow;
    QLineSeries* m_forecastHigh;
    QAreaSeries* m_forecastBand;
    std::vector<QLineSeries*> m_bars; // error bars: one "I" per step, hidden from the legend
    QValueAxis* m_x;
    QValueAxis* m_yLinear;
    QLogValueAxis* m_yLog;
    std::vector<SweepCurve::Point> m_upperPoints;
    std::vector<SweepCurve::Point> m_p50Points;
};

} // namespace kp::ui
