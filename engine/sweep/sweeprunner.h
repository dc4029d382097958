#pragma once

#include "client/transport.h"
#include "load/steprunner.h"
#include "metrics/stepmetrics.h"
#include "sweep/shard.h"
#include "sweep/sweepplanner.h"
#include "telemetry/scraper.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace kp {

struct SweepConfig
{
    StepConfig stepTemplate; // request, prompts and options; the planner sets mode and load per step
    std::optional<double> stepDurationS; // instead of stepTemplate.numPrompts requests
    SweepPlanner planner;
    double cooldownS = 0.0; // pause between steps so the server drains
    TransportOptions transport;
    MetricsOptions metrics;
    ShardSpec shard; // this client's share of each step (sweep/shard.h)
    StepAlignment alignment; // wall-clock start of step 0 (and of every step, with an interval)
    TelemetryOptions telemetry; // the server's /metrics, scraped while each step runs; off without a URL
    // load.reset_cache_between_steps: before every step after the first, a POST to the first of these that
    // answers 2xx (vLLM's /reset_prefix_cache, SGLang's /flush_cache), with stepTemplate's headers and the
    // transport's TLS and proxy; when none does, one note and no further tries. Empty: no resets.
    QList<QUrl> cacheResetUrls;
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
    // The current step ends as partial, its requests in flight cancelled with `why` (StepRunner::stop);
    // no further steps run.
    void stop(const QString& why = {});
    // Holds the sweep after the current step (its results are kept) until resume().
    void pause();
    void resume();
    bool isPaused() const { return m_pauseRequested; }
    // Runs this step next (a load between two done steps, or a repeat of one).
    void addStep(const PlannedStep& step);
    bool isRunning() const { return m_running; }
    // Why the planner stopped escalating early (collapse, errors); empty when it did not.
    QString stopReason() const { return m_config.planner.stopReason(); } // English, for files
    QString stopReasonText() const { return m_config.planner.stopReasonText(); } // for the window
    const std::vector<StepOutcome>& outcomes() const { return m_outcomes; }
    // What the server said about itself before the first step (/version, /v1/models, metric labels).
    const ServerFacts& serverFacts() const { return m_scraper->facts(); }

    // The step the planner's request becomes.
    static StepConfig makeStep(const SweepConfig& config, const PlannedStep& planned, int index);

Q_SIGNALS:
    void stepStarted(int index, const kp::StepConfig& config);
    void snapshot(const kp::LiveSnapshot& snapshot);
    void requestFinished(int stepIndex, const kp::RequestRecord& record);
    void stepFinished(const kp::StepResult& result);
    void windowFinished(const kp::SoakWindow& window); // a soak step's windows (StepConfig::windowS)
    void finished(bool stopped);
    void pausedChanged(bool paused); // true once the sweep actually waits between steps
    void note(const QString& text); // once per sweep, e.g. "no server metrics (...)"
    void serverSample(int stepIndex, const kp::ServerSample& sample); // each /metrics scrape of the running step

private:
    void startStep();
    void launchStep(StepConfig step); // at its aligned time, or now
    // Empties the server's prefix cache (cacheResetUrls[m_resetUrl] onwards), then launches the step.
    void resetCacheThenLaunch(StepConfig step);
    void onStepFinished(const StepResult& result);
    void finishStep(const StepResult& result); // with the step's server telemetry

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
    QTimer m_alignWait; // until an aligned step's start time
    std::optional<StepConfig> m_aligned; // the step waiting for it
    TelemetryScraper* m_scraper;
    qint64 m_runPosition = 0; // prompt positions the run used before the next step (StepConfig::runOffset)
    QNetworkAccessManager* m_resetManager = nullptr; // made in this thread at the first reset
    QPointer<QNetworkReply> m_resetReply; // the reset in flight
    std::optional<StepConfig> m_afterReset; // the step waiting for it
    int m_resetUrl = 0; // the first of cacheResetUrls still worth trying
    bool m_resetRefused = false; // every URL refused: the note was given, no more tries
};

} // namespace kp
