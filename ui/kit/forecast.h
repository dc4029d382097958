#pragma once

#include "kit/jobtracker.h"
#include "kit/stepreport.h"
#include "sweep/kneeanalysis.h"
#include "twin/twin.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace kp::ui {

// The twin's prediction of the sweep from the steps done so far: the curve at the measured loads, the
// loads still ahead in the plan and a few beyond, its spread, and the knee analysis of that curve.
struct Forecast
{
    LoadMode mode = LoadMode::Rate;
    int fromSteps = 0; // the finished steps it was fitted to
    std::vector<SweepPoint> points; // at the fitted parameters, by load
    // The same loads with one parameter at the low or high end of its uncertainty: the band is the
    // least and the most of these and `points` at each load.
    std::vector<std::vector<SweepPoint>> variants;
    AnalysisResult analysis; // of `points`, with the run's analysis options
    std::optional<twin::Twin> twin;

    // The predicted point at this load (equal within a millionth), if the forecast has one.
    const SweepPoint* at(double load) const;
    // The spread of the predicted figure at point i over the variants; nullopt where no variant has it.
    std::optional<std::pair<double, double>> band(std::size_t i, LatencyMetric metric, double percentile) const;
};

// How far the forecast was off at a step that landed at a forecast load.
struct ForecastCheck
{
    int stepIndex = -1;
    LoadMode mode = LoadMode::Rate;
    double load = 0;
    int fromSteps = 0;
    double forecastRps = kUnknown, measuredRps = kUnknown;
    LatencyMetric metric = LatencyMetric::Ttft;
    double percentile = 99;
    std::optional<double> forecastLatencyMs, measuredLatencyMs;

    // "Step 4 at 80 req/s: forecast 58.1 req/s, measured 60.1 req/s (−3%); P99 TTFT forecast 1,900 ms, …"
    QString sentence() const;
};

// Fits the twin to the finished steps of a live sweep, from the third on, after each step, on the
// thread pool; nothing waits for it. One fit runs at a time: the steps that land meanwhile are fitted
// together next, and the running fit's forecast is checked against them when it arrives.
class Forecaster : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMinSteps = 3;

    explicit Forecaster(QObject* parent = nullptr);

    // A new sweep: its axis, analysis options and planned loads (empty when the plan decides as it goes).
    void reset(LoadMode mode, const AnalysisOptions& options, std::vector<double> plannedLoads);
    // A finished step: checked against the current forecast if that has its load, then fitted.
    void addStep(const StepReport& step);

    const std::optional<Forecast>& forecast() const { return m_forecast; }
    const QString& refusal() const { return m_refusal; } // why there is no forecast (yet); empty while none was tried
    const std::vector<ForecastCheck>& checks() const { return m_checks; }
    bool isBusy() const { return m_jobs.isBusy(); }
    int usableSteps() const { return int(m_steps.size()); }
    // "Forecast: knee at about 60 req/s, SLO capacity about 48 req/s (predicted from 3 steps)", or the refusal.
    // Given the run's own analysis, a finding the steps measured is not forecast again, so that a
    // prediction never stands beside a different measured value.
    QString sentence(const AnalysisResult* measured = nullptr) const;

    // The loads a forecast from these steps predicts: the measured ones, the planned ones above the
    // lowest measured, and a few beyond the highest.
    static std::vector<double> loadsToPredict(const std::vector<double>& measured, const std::vector<double>& planned);
    // Fits and predicts (any thread): the forecast, or the reason there is none in `error`.
    static std::optional<Forecast> compute(const std::vector<std::shared_ptr<const twin::FitStep>>& steps,
        LoadMode mode, const AnalysisOptions& options, const std::vector<double>& planned, QString* error);

Q_SIGNALS:
    void changed(); // a new forecast, a refusal, a check, or a reset
    void busyChanged(bool busy);

private:
    struct Landed
    {
        int index = -1; // the step's index in the run
        StepMetrics metrics;
        bool checked = false;
    };
    void startFit();
    void check(const Forecast& forecast);

    JobTracker m_jobs;
    LoadMode m_mode = LoadMode::Rate;
    AnalysisOptions m_options;
    std::vector<double> m_planned;
    std::vector<std::shared_ptr<const twin::FitStep>> m_steps;
    std::vector<Landed> m_landed; // the same steps, in the same order
    std::optional<Forecast> m_forecast;
    QString m_refusal;
    std::vector<ForecastCheck> m_checks;
};

} // namespace kp::ui
