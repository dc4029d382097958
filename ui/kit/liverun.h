#pragma once

#include "kit/ratetimeline.h"
#include "kit/runinfo.h"
#include "kit/stepreport.h"
#include "load/steprunner.h"
#include "sweep/capacityplan.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointF>
#include <QString>

#include <deque>
#include <optional>
#include <vector>

namespace kp::ui {

class SweepController;

// Where a run stands, for the progress line.
struct RunProgress
{
    int step = 0; // 1-based; 0 before the first step
    int stepCount = 0; // 0 when the plan decides as it goes
    QString load;
    bool warmingUp = false;
    qint64 done = 0; // requests ended in the current step
    qint64 total = 0; // 0 when the step runs for a time rather than a count
    int inFlight = 0;
    double elapsedS = 0; // since the run began
    std::optional<double> etaS; // to the end of the run (fixedPlan) or of the current step
    bool etaCoversRun = false;
};

// The run as the GUI knows it: what the controller reported, kept in the GUI thread, with the live
// view of the current step bounded. Widgets read it; they keep no state of their own about the run.
class LiveRun : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Preparing, Running, Pausing, Paused, Stopping, Finished, Stopped, Failed };
    Q_ENUM(State)

    // The most samples of the current step the live chart keeps.
    static constexpr std::size_t kMaxLiveSamples = 4000;

    // Without a controller it only shows runs read from disk (showSaved).
    explicit LiveRun(SweepController* controller, QObject* parent = nullptr);

    SweepController* controller() const { return m_controller; }
    State state() const { return m_state; }
    bool isActive() const; // Preparing, Running, Pausing, Paused or Stopping
    QString stateText() const;
    const RunInfo& info() const { return m_info; }
    bool hasInfo() const { return m_hasInfo; }
    const std::vector<StepReport>& steps() const { return m_steps; }
    const RunAnalysis& analysis() const { return m_analysis; }
    // The capacity plan for a peak demand the user gave (none: no plan), worked out again from each
    // analysis as it changes; analysisChanged follows a change of either.
    void setCapacityDemand(const std::optional<PeakDemand>& peak, const Redundancy& redundancy);
    const std::optional<CapacityPlan>& capacityPlan() const { return m_plan; }
    const std::optional<PeakDemand>& peakDemand() const { return m_peak; }
    const Redundancy& redundancy() const { return m_redundancy; }
    const std::vector<FailureGroup>& failures() const { return m_failures; }
    qint64 failureCount() const;
    QString lastError() const { return m_lastError; }

    // The current step, while one runs.
    const std::optional<StepConfig>& currentStep() const { return m_current; }
    const LiveSnapshot& lastSnapshot() const { return m_snapshot; }
    const std::deque<LatencySample>& liveSamples() const { return m_samples; }
    const std::deque<QPointF>& liveInFlight() const { return m_inFlight; } // (s, requests)
    // A soak (load.mode "soak"): the windows of the running step closed so far, and the step second by
    // second (bounded; kept after the step ends until the next one starts, for timelineStep()).
    bool isSoak() const { return m_hasInfo && m_info.profile.load.soak; }
    const std::vector<SoakWindowFigures>& liveWindows() const { return m_windows; }
    const RateTimeline& timeline() const { return m_timeline; }
    int timelineStep() const { return m_timelineStep; } // -1: none

    RunProgress progress() const;
    // Stop, pause or add steps through the controller; state follows from what it reports.
    void requestStop();
    void requestPause();
    void requestResume();
    // A load halfway between two done steps (rounded to whole users in concurrency mode); false
    // when there is no load between them.
    bool addStepBetween(int stepA, int stepB);
    bool repeatStep(int step);
    int addedSteps() const { return m_added; }
    static QString stepsWord(int n); // "1 step", "7 steps"

    // Shows a finished run read from disk the way a live run ends: the same signals (runStarted, one
    // stepAdded per step, analysisChanged, failuresChanged) and then `end` (Finished, Stopped or
    // Failed). Refused (false) while a sweep runs.
    bool showSaved(const RunInfo& info, std::vector<StepReport> steps, const RunAnalysis& analysis, State end,
        const QStringList& logLines = {});

Q_SIGNALS:
    void stateChanged(kp::ui::LiveRun::State state);
    void runStarted(); // everything was reset; info() is set
    void stepStarted(int index);
    void stepAdded(int row);
    void analysisChanged();
    void failuresChanged();
    void liveChanged(); // a snapshot arrived (the live chart redraws on its own timer)
    void windowAdded(int index); // liveWindows()[index] closed
    void logLine(const QString& line);

private:
    void reset();
    void setState(State state);
    void log(const QString& line);
    void onStarted(const RunInfo& info);
    void onStepStarted(int index, const StepConfig& config);
    void onSnapshot(const LiveSnapshot& snapshot);
    void onStepFinished(const StepReport& report);
    void onWindowFinished(const SoakWindowFigures& window);
    void onFinished(bool stopped, const QString& reason);
    void onFailed(const QString& message);
    void onPausedChanged(bool paused);
    void updatePlan();

    SweepController* m_controller;
    State m_state = State::Idle;
    RunInfo m_info;
    bool m_hasInfo = false;
    std::vector<StepReport> m_steps;
    RunAnalysis m_analysis;
    std::optional<PeakDemand> m_peak;
    Redundancy m_redundancy;
    std::optional<CapacityPlan> m_plan;
    std::vector<FailureGroup> m_failures;
    QString m_lastError;
    std::optional<StepConfig> m_current;
    LiveSnapshot m_snapshot;
    std::deque<LatencySample> m_samples;
    std::deque<QPointF> m_inFlight;
    std::vector<SoakWindowFigures> m_windows;
    RateTimeline m_timeline;
    int m_timelineStep = -1;
    QElapsedTimer m_clock;
    double m_finalElapsedS = 0;
    int m_added = 0;
};

} // namespace kp::ui
