#pragma once

#include "kit/chartpanel.h"
#include "kit/stepreport.h"
#include "metrics/stepmetrics.h"

#include <optional>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QComboBox;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

// One step's latency distribution: requests per bin of TTFT, TPOT, ITL or E2EL, with its P50 and the
// analysed percentile as vertical lines in the colours the load–latency chart gives them.
class HistogramChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit HistogramChart(QWidget* parent = nullptr);

    void setStep(const StepReport* step, double percentile); // nullptr clears it
    void setMetric(LatencyMetric metric);
    LatencyMetric metric() const { return m_metric; }
    int binCount() const;

protected:
    void restyle() override;

private:
    void refresh();

    std::optional<StepReport> m_step;
    double m_percentile = 99;
    LatencyMetric m_metric = LatencyMetric::Ttft;
    QComboBox* m_metricBox;
    QLineSeries* m_upper;
    QLineSeries* m_lower;
    QAreaSeries* m_area;
    QLineSeries* m_p50;
    QLineSeries* m_pUpper;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

} // namespace kp::ui
