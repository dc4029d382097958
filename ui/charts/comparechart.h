#pragma once

#include "charts/paretochart.h"
#include "kit/chartpanel.h"
#include "runs/comparison.h"
#include "runs/savedrun.h"

#include <QColor>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

// Two or more runs' curves of one Comparison on shared axes, one colour per run (the legend names the
// runs), each run's knee marked with a triangle in its colour, the baseline drawn thicker.
class CompareChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit CompareChart(QWidget* parent = nullptr);

    // Not owned; call again (or refresh()) after it changes.
    void setComparison(const Comparison* comparison);
    void setLogScale(bool log);
    bool logScale() const { return m_log; }
    void refresh();

    int seriesCount() const; // runs with at least one point
    QString seriesName(int run) const;
    Qt::PenStyle seriesPenStyle(int run) const; // dashed for a predicted run
    int pointCount(int run) const;
    QString curveTitle() const; // "P99 TTFT (ms)", "Throughput (req/s)"

    static QColor runColor(int run);
    static QString metricWord(CompareMetric metric); // "TTFT", ..., "Throughput", "Output throughput"

protected:
    void restyle() override;

private:
    const Comparison* m_comparison = nullptr;
    bool m_log = false;
    std::vector<QLineSeries*> m_lines;
    std::vector<QScatterSeries*> m_knees;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLogValueAxis* m_yLog;
};

// Each run's interactivity–throughput front, named and coloured as on the comparison chart.
std::vector<ParetoSeries> compareParetoFronts(const std::vector<SavedRun>& runs);

} // namespace kp::ui
