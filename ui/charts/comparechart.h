#pragma once

#include "charts/paretochart.h"
#include "kit/chartpanel.h"
#include "runs/comparison.h"
#include "runs/savedrun.h"
#include "serve/servercomparison.h"
#include "sweep/kneeanalysis.h"

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

// A twin's prediction drawn beside a run's measured curve: dashed, in that run's colour.
struct ComparePrediction
{
    int run = 0; // index of the measured run it stands beside
    QString name; // "max_num_seqs=4 (twin of max_num_seqs=1)"
    std::vector<SweepPoint> points; // the predicted steps
};

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
    // Predictions drawn beside the runs' curves (the server sweep's twin check); none by default.
    void setPredictions(std::vector<ComparePrediction> predictions);
    int predictionCount() const { return int(m_predictions.size()); }
    int predictionPointCount(int index) const;
    QString predictionName(int index) const;
    Qt::PenStyle predictionPenStyle(int index) const;
    QColor predictionColor(int index) const;
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
    std::vector<ComparePrediction> m_predictions;
    std::vector<QLineSeries*> m_predictionLines;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLogValueAxis* m_yLog;
};

// A server sweep's twin check as predictions beside the runs it predicts (matched by their folders), each
// named with its error (of the SLO capacity, else the knee): "max_num_seqs=4 · twin, error +12%".
std::vector<ComparePrediction> twinPredictions(const ServerComparison& group, const std::vector<SavedRun>& runs);
// The twin's error as shown: "+12%", "−3%"; "—" when unknown.
QString twinErrorText(const std::optional<double>& error);

// Each run's interactivity–throughput front, named and coloured as on the comparison chart.
std::vector<ParetoSeries> compareParetoFronts(const std::vector<SavedRun>& runs);

} // namespace kp::ui
