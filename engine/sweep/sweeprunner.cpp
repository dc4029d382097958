#include "sweep/sweeprunner.h"

#include "client/qnamtransport.h"

namespace kp {

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

void SweepRunner::start(SweepConfig config)
{
    Q_ASSERT(!m_running);
    m_config = std::move(config);
    m_current = 0;
    m_stopped = false;
    m_running = true;
    m_step.reset();
    m_transport = std::make_unique<QnamTransport>(m_config.transport);
    m_step = std::make_unique<StepRunner>(m_transport.get(), m_config.metrics);
    connect(m_step.get(), &StepRunner::snapshot, this, &SweepRunner::snapshot);
    connect(m_step.get(), &StepRunner::requestFinished, this,
        [this](const RequestRecord& record) { Q_EMIT requestFinished(m_config.steps[m_current].index, record); });
    connect(m_step.get(), &StepRunner::finished, this, &SweepRunner::onStepFinished);
    if (m_config.steps.empty()) {
        m_running = false;
        Q_EMIT finished(false);
        return;
    }
    startStep();
}

void SweepRunner::startStep()
{
    if (m_stopped) {
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    const StepConfig& step = m_config.steps[m_current];
    Q_EMIT stepStarted(step.index, step);
    m_step->start(step);
}

void SweepRunner::onStepFinished(const StepResult& result)
{
    Q_EMIT stepFinished(result);
    ++m_current;
    if (m_stopped || m_current >= m_config.steps.size()) {
        m_running = false;
        Q_EMIT finished(m_stopped);
        return;
    }
    m_cooldown.start(static_cast<int>(m_config.cooldownS * 1000.0));
}

void SweepRunner::stop()
{
    if (!m_running || m_stopped)
        return;
    m_stopped = true;
    if (m_cooldown.isActive()) {
        m_cooldown.stop();
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    m_step->stop();
}

} // namespace kp
