#pragma once

#include "client/transport.h"
#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "sweep/sweepplanner.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <vector>

namespace kp {

struct SweepConfig
{
    StepConfig stepTemplate; // request, prompts and options; the planner sets mode and load per step
    std::optional<double> stepDurationS; // instead of stepTemplate.numPrompts requests
    SweepPlanner planner;
    double cooldownS = 0.0; // pause between steps so the server drains
    TransportOptions transport;
    MetricsOptions metrics;
};

// Runs the steps the planner asks for, one after another over one transport (so connections are reused across
// steps as a long-lived client would). Lives in one thread with an event loop: the CLI's main
// thread, or the GUI's controller thread.
class SweepRunner : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(QObject* parent = nullptr);
    ~SweepRunner() override;

    void start(SweepConfig config);
    void stop(); // the current step ends as partial; no further steps run
    // Holds the sweep after the current step (its results are kept) until resume().
    void pause();
    void resume();
    bool isPaused() const { return m_pauseRequested; }
    // Runs this step next (a load between two done steps, or a repeat of one).
    void addStep(const PlannedStep& step);
    bool isRunning() const { return m_running; }
    // Why the planner stopped escalating early (collapse, errors); empty when it did not.
    QString stopReason() const { return m_config.planner.stopReason(); }
    const std::vector<StepOutcome>& outcomes() const { return m_outcomes; }

    // The step the planner's request becomes.
    static StepConfig makeStep(const SweepConfig& config, const PlannedStep& planned, int index);

Q_SIGNALS:
    void stepStarted(int index, const kp::StepConfig& config);
    void snapshot(const kp::LiveSnapshot& snapshot);
    void requestFinished(int stepIndex, const kp::RequestRecord& record);
    void stepFinished(const kp::StepResult& result);
    void finished(bool stopped);
    void pausedChanged(bool paused); // true once the sweep actually waits between steps

private:
    void startStep();
    void onStepFinished(const StepResult& result);

    SweepConfig m_config;
    std::unique_ptr<Transport> m_transport;
    std::unique_ptr<StepRunner> m_step;
    std::vector<StepOutcome> m_outcomes;
    std::optional<PlannedStep> m_next; // asked for as a step ended, run after the cooldown
    bool m_running = false;
    bool m_stopped = false;
    bool m_pauseRequested = false;
    bool m_waitingPaused = false;
    QTimer m_cooldown;
};

} // namespace kp
