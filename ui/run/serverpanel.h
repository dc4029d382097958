#pragma once

#include "kit/chartpanel.h"
#include "telemetry/servermetrics.h"

#include <QJsonObject>
#include <QWidget>

#include <cstddef>
#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineSeries;
class QTableWidget;
class QTextBrowser;
class QTimer;
class QValueAxis;
QT_END_NAMESPACE

namespace kp::ui {

class LiveRun;
class SweepController;

// Requests running and waiting (left axis) and KV-cache usage in percent (right axis): against the
// offered load, one point per step, or over the time of one step, one point per scrape.
class ServerChart : public ChartPanel
{
    Q_OBJECT
public:
    enum class Axis { Load, Time };
    ServerChart(Axis axis, const QString& title, QWidget* parent = nullptr);

    struct Point
    {
        double x = 0;
        std::optional<double> running, waiting, kvUsage; // kvUsage 0..1
    };
    // A time chart keeps at most this many samples of a live step: past it every other one is dropped and
    // from then on one in two (four, eight, …) is kept, evenly spaced, with the latest always last. An
    // hour's soak scraped ten times a second costs what a few minutes do.
    static constexpr std::size_t kMaxTimePoints = 1200;
    // A live sample redraws the chart at most this often.
    static constexpr int kRedrawMs = 250;

    void setPoints(std::vector<Point> points);
    void addPoint(const Point& point);
    const std::vector<Point>& points() const { return m_points; }
    void setXTitle(const QString& title);

protected:
    void restyle() override;

private:
    void redraw();

    Axis m_axis;
    std::vector<Point> m_points;
    QLineSeries* m_running;
    QLineSeries* m_waiting;
    QLineSeries* m_kv;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QValueAxis* m_yKv;
    qint64 m_seen = 0; // live samples offered since the last setPoints
    qint64 m_stride = 1; // one in m_stride of them is kept
    bool m_latestOffStride = false; // m_points' last element is the latest sample, not a kept one
    QTimer* m_redrawTimer;
};

// The run view's Server tab: queue depth and KV-cache usage against load (the latency chart's axis)
// and over time for the current step, and the environment the run records: the client machine, what
// the server reported (/version, /v1/models, metric labels) and what the profile says about it.
class ServerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ServerPanel(LiveRun* run, QWidget* parent = nullptr);

    ServerChart* loadChart() const { return m_loadChart; }
    ServerChart* timeChart() const { return m_timeChart; }
    QString environmentText() const; // plain text of the environment box
    QString noteText() const;
    // Each step's figures per metrics URL (a row for all of them, then one per URL) and its GPUs:
    // shown when a step has several URLs or GPU figures, so that a replica that saturates first shows.
    QTableWidget* stepsTable() const { return m_stepsTable; }
    enum StepsColumn {
        StepColumn,
        LoadColumn,
        UrlColumn,
        RunningColumn,
        WaitingColumn,
        KvColumn,
        GpuCountColumn,
        GpuUtilColumn,
        GpuMemoryColumn,
        PowerColumn,
        EnergyColumn,
        JoulesPerTokenColumn,
        StepsColumnCount
    };

private:
    void reset();
    void onStepAdded(int row);
    void onSample(int stepIndex, const kp::ServerSample& sample);
    void showEnvironment();
    void showStepsTable();

    LiveRun* m_run;
    QLabel* m_note;
    ServerChart* m_loadChart;
    ServerChart* m_timeChart;
    QTextBrowser* m_environment;
    QTableWidget* m_stepsTable;
    QJsonObject m_serverReported;
    int m_timeStep = -1; // the step the time chart shows
};

} // namespace kp::ui
