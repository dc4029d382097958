#pragma once

#include "kit/chartpanel.h"
#include "kit/stepreport.h"
#include "kit/sweepcurve.h"

#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QCheckBox;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;

// Where a request's time went, per step against the offered load (or users): stacked areas of the mean
// client part of TTFT (the client's mean TTFT less the server's queue and prefill: network, new
// connections, the client), the server's queue time, its prefill time and, on top, its decode time, from
// the server's request histograms (ServerStepStats). The top of the prefill band is the client's mean
// TTFT. A step whose server reported no queue or prefill time is left off, never drawn at 0.
class TtftBreakdownChart : public ChartPanel
{
    Q_OBJECT
public:
    struct Bar
    {
        double x = 0.0; // offered load: req/s or users
        int step = -1;
        double ttft = 0.0; // the client's mean TTFT, ms
        double client = 0.0; // ttft − queue − prefill, at least 0
        double queue = 0.0;
        double prefill = 0.0;
        std::optional<double> decode; // unknown when the server has no decode histogram
    };

    explicit TtftBreakdownChart(const LiveRun* run, QWidget* parent = nullptr);

    // The steps that have a breakdown, in load order. Pure.
    static std::vector<Bar> bars(const std::vector<StepReport>& steps, LoadMode axis);

    // One step's breakdown as table rows: part, mean, P50, P90, P99 (ms) and where it comes from; unknown
    // figures are "—", the server's percentiles "≈" (estimated from its histogram's buckets).
    static QStringList tableHeader();
    static QList<QStringList> tableRows(const StepReport& step);

    void refresh();
    void setHighlight(const ChartHighlight& highlight);
    void setDecodeShown(bool shown); // the decode band on top (on by default)
    bool decodeShown() const;
    const std::vector<Bar>& shownBars() const { return m_bars; }
    bool hasData() const { return !m_bars.empty(); }

Q_SIGNALS:
    void stepClicked(int stepIndex);

protected:
    void restyle() override;

private:
    const LiveRun* m_run;
    ChartHighlight m_highlight;
    std::vector<Bar> m_bars;
    QCheckBox* m_decode;
    QLineSeries* m_bounds[5]; // the bands' edges: 0, client, + queue, + prefill, + decode
    QAreaSeries* m_bands[4]; // client, queue, prefill, decode
    QScatterSeries* m_knee;
    QScatterSeries* m_ring;
    QValueAxis* m_x;
    QValueAxis* m_y;
};

} // namespace kp::ui
