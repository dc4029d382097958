#pragma once

#include "client/transport.h"
#include "load/steprunner.h"
#include "metrics/stepmetrics.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <vector>

namespace kp {

struct SweepConfig {
    std::vector<StepConfig> steps; // in order; each carries its prompts
    double cooldownS = 0.0; // pause between steps so the server drains
    TransportOptions transport;
    MetricsOptions metrics;
};

// Runs the steps of a sweep one after another over one transport (so connections are reused across
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
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void stepStarted(int index, const kp::StepConfig& config);
    void snapshot(const kp::LiveSnapshot& snapshot);
    void requestFinished(int stepIndex, const kp::RequestRecord& record);
    void stepFinished(const kp::StepResult& result);
    void finished(bool stopped);

private:
    void startStep();
    void onStepFinished(const StepResult& result);

    SweepConfig m_config;
    std::unique_ptr<Transport> m_transport;
    std::unique_ptr<StepRunner> m_step;
    std::size_t m_current = 0;
    bool m_running = false;
    bool m_stopped = false;
    QTimer m_cooldown;
};

} // namespace kp
