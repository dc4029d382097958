#include "sweep/sweeprunner.h"

#include "client/qnamtransport.h"

#include <cmath>

namespace kp {

namespace {
constexpr int kMinCeilingRequests = 300;
} // namespace

SweepRunner::SweepRunner(QObject* parent)
    : QObject(parent)
    , m_cooldown(this)
{
    qRegisterMetaType<kp::StepConfig>();
    m_cooldown.setSingleShot(true);
    connect(&m_cooldown, &QTimer::timeout, this, &SweepRunner::startStep);
}

SweepRunner::~SweepRunner()
{
    m_step.reset(); // before the transport it listens to
    m_transport.reset();
}

StepConfig SweepRunner::makeStep(const SweepConfig& config, const PlannedStep& planned, int index)
{
    StepConfig step = config.stepTemplate;
    step.index = index;
    step.purpose = planned.purpose;
    step.detail = planned.detail;
    step.mode = planned.mode;
    step.seed = config.stepTemplate.seed + static_cast<quint64>(index);
    if (planned.purpose == QLatin1String("floor")) // one at a time: a few requests give the floor
        step.numPrompts = std::min(step.numPrompts, std::max(8, step.numPrompts / 10));
    if (planned.purpose == QLatin1String("ceiling")) // a burst must outlast the server's ramp to read its ceiling
        step.numPrompts = std::max(step.numPrompts, kMinCeilingRequests);
    if (planned.mode == LoadMode::Rate) {
        step.rate = planned.load;
        if (config.stepDurationS && std::isfinite(step.rate))
            step.numPrompts = std::max(1, static_cast<int>(std::ceil(step.rate * *config.stepDurationS)));
    } else {
        step.concurrency = static_cast<int>(planned.load);
        step.maxConcurrency.reset();
        if (config.stepDurationS) {
            step.durationS = *config.stepDurationS;
            step.numPrompts = std::numeric_limits<int>::max();
        }
    }
    return step;
}

void SweepRunner::start(SweepConfig config)
{
    Q_ASSERT(!m_running);
    m_config = std::move(config);
    m_outcomes.clear();
    m_next.reset();
    m_pauseRequested = m_waitingPaused = false;
    m_stopped = false;
    m_running = true;
    m_step.reset();
    m_transport = std::make_unique<QnamTransport>(m_config.transport);
    m_step = std::make_unique<StepRunner>(m_transport.get(), m_config.metrics);
    connect(m_step.get(), &StepRunner::snapshot, this, &SweepRunner::snapshot);
    connect(m_step.get(), &StepRunner::requestFinished, this,
        [this](const RequestRecord& record) { Q_EMIT requestFinished(static_cast<int>(m_outcomes.size()), record); });
    connect(m_step.get(), &StepRunner::finished, this, &SweepRunner::onStepFinished);
    startStep();
}

void SweepRunner::pause()
{
    if (m_running)
        m_pauseRequested = true;
}

void SweepRunner::resume()
{
    m_pauseRequested = false;
    if (m_waitingPaused) {
        m_waitingPaused = false;
        Q_EMIT pausedChanged(false);
        startStep();
    }
}

void SweepRunner::addStep(const PlannedStep& step)
{
    m_config.planner.addManual(step);
    if (m_next) { // chosen as the last step ended; the user's step goes first
        m_config.planner.giveBack(*m_next);
        m_next.reset();
    }
}

void SweepRunner::startStep()
{
    if (m_pauseRequested && !m_stopped) {
        m_waitingPaused = true;
        Q_EMIT pausedChanged(true);
        return;
    }
    if (m_stopped) {
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    std::optional<PlannedStep> planned = std::move(m_next);
    m_next.reset();
    if (!planned)
        planned = m_config.planner.next(m_outcomes);
    if (!planned) {
        m_running = false;
        Q_EMIT finished(false);
        return;
    }
    StepConfig step = makeStep(m_config, *planned, static_cast<int>(m_outcomes.size()));
    Q_EMIT stepStarted(step.index, step);
    m_step->start(std::move(step));
}

void SweepRunner::onStepFinished(const StepResult& result)
{
    StepOutcome outcome;
    outcome.step.mode = result.config.mode;
    outcome.step.load = result.config.mode == LoadMode::Rate ? result.config.rate : result.config.concurrency;
    outcome.step.purpose = result.config.purpose;
    outcome.step.detail = result.config.detail;
    outcome.metrics = result.metrics;
    outcome.partial = result.partial;
    outcome.clientBound = result.clientBound;
    m_outcomes.push_back(std::move(outcome));
    Q_EMIT stepFinished(result);
    if (m_stopped) {
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    // Ask now, so that the last step is not followed by a cooldown for nothing.
    m_next = m_config.planner.next(m_outcomes);
    if (!m_next && !m_pauseRequested) {
        m_running = false;
        Q_EMIT finished(false);
        return;
    }
    m_cooldown.start(static_cast<int>(m_config.cooldownS * 1000.0));
}

void SweepRunner::stop()
{
    if (!m_running || m_stopped)
        return;
    m_stopped = true;
    if (m_cooldown.isActive() || m_waitingPaused) {
        m_waitingPaused = false;
        m_cooldown.stop();
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    m_step->stop();
}

} // namespace kp
