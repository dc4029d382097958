#pragma once

#include "kit/chartpanel.h"
#include "sweep/pareto.h"

#include <QColor>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;
struct StepReport;

// One run's front on a ParetoChart.
struct ParetoSeries
{
    QString name; // the legend's name of the run ("" on a run page: one front)
    QColor color; // invalid: the chart's first series colour
    LoadMode mode = LoadMode::Rate; // for the loads in tooltips
    ParetoFront front;
};

// The steps of a run (or of several) as output tokens/s per user (x) against output tokens/s per GPU
// or per server (y): every usable step a dot, the Pareto-optimal ones joined into the front. The
// vertical axis says per GPU only when every front counts GPUs; otherwise all are per server.
class ParetoChart : public ChartPanel
{
    Q_OBJECT
public:
    explicit ParetoChart(QWidget* parent = nullptr);

    void setFronts(std::vector<ParetoSeries> fronts);
    // One run's front, from its steps as they stand, with the placeholder that says why a run with
    // steps has no point.
    void showRun(const LiveRun& run);
    const std::vector<ParetoSeries>& fronts() const { return m_fronts; }
    void setHighlightStep(int stepIndex); // ringed, with one front only; -1: none
    bool hasData() const;
    QString verticalTitle() const;
    // The placeholder for a run page with steps but no point ("no step streamed two tokens"); empty
    // until steps exist.
    void setEmptyText(const QString& text);

Q_SIGNALS:
    void stepClicked(int stepIndex); // one front only

protected:
    void restyle() override;

private:
    void rebuild();
    // Every front with points counts GPUs: throughput is drawn per GPU, else per server for all.
    bool perGpu() const;

    std::vector<ParetoSeries> m_fronts;
    std::vector<QLineSeries*> m_lines;
    std::vector<QScatterSeries*> m_dots;
    QScatterSeries* m_ring;
    QValueAxis* m_x;
    QValueAxis* m_y;
    int m_highlight = -1;
    QString m_emptyText;
};

// The front of a run page's steps: the profile's GPU count (server section) when the steps' metrics
// have none; steps of the other load mode (an auto plan's one-user floor) are left off.
ParetoFront paretoFrontOf(const std::vector<StepReport>& steps, const ServerInfo& server, LoadMode axis);

} // namespace kp::ui
