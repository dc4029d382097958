#include "kit/liverun.h"

#include "kit/sweepcontroller.h"
#include "kit/uiformat.h"
#include "sweep/sweepplan.h"
#include "sweep/sweepplanner.h"

#include <QTime>

#include <cmath>
#include <limits>

namespace kp::ui {

namespace {

constexpr int kUnbounded = std::numeric_limits<int>::max();

QString ms(double value)
{
    if (!std::isfinite(value))
        return UiFormat::unknown();
    return value >= 100 ? QString::number(value, 'f', 0) : QString::number(value, 'f', 1);
}

} // namespace

QString LiveRun::stepsWord(int n)
{
    return n == 1 ? tr("1 step") : tr("%1 steps").arg(n);
}

LiveRun::LiveRun(SweepController* controller, QObject* parent)
    : QObject(parent)
    , m_controller(controller)
{
    if (!controller)
        return;
    connect(controller, &SweepController::runningChanged, this, [this](bool running) {
        if (running)
            reset();
    });
    connect(controller, &SweepController::message, this, &LiveRun::log);
    connect(controller, &SweepController::nextRun, this, &LiveRun::reset); // a server sweep's next combination
    connect(controller, &SweepController::started, this, &LiveRun::onStarted);
    connect(controller, &SweepController::stepStarted, this, &LiveRun::onStepStarted);
    connect(controller, &SweepController::snapshot, this, &LiveRun::onSnapshot);
    connect(controller, &SweepController::stepFinished, this, &LiveRun::onStepFinished);
    connect(controller, &SweepController::windowFinished, this, &LiveRun::onWindowFinished);
    connect(controller, &SweepController::analysisChanged, this, [this](const RunAnalysis& analysis) {
        m_analysis = analysis;
        updatePlan();
        Q_EMIT analysisChanged();
    });
    connect(controller, &SweepController::pausedChanged, this, &LiveRun::onPausedChanged);
    connect(controller, &SweepController::finished, this, &LiveRun::onFinished);
    connect(controller, &SweepController::failed, this, &LiveRun::onFailed);
}

void LiveRun::setCapacityDemand(const std::optional<PeakDemand>& peak, const Redundancy& redundancy)
{
    if (peak == m_peak && redundancy == m_redundancy)
        return;
    m_peak = peak;
    m_redundancy = redundancy;
    updatePlan();
    Q_EMIT analysisChanged();
}

void LiveRun::updatePlan()
{
    m_plan.reset();
    if (m_peak && !m_steps.empty())
        m_plan = CapacityPlan::fromAnalysis(m_analysis.result, *m_peak, m_redundancy);
}

void LiveRun::reset()
{
    m_hasInfo = false;
    m_info = {};
    m_steps.clear();
    m_analysis = {};
    updatePlan();
    m_failures.clear();
    m_lastError.clear();
    m_current.reset();
    m_snapshot = {};
    m_samples.clear();
    m_inFlight.clear();
    m_windows.clear();
    m_timeline.clear();
    m_timelineStep = -1;
    m_added = 0;
    m_finalElapsedS = 0;
    m_clock.start();
    setState(State::Preparing);
    Q_EMIT analysisChanged();
    Q_EMIT failuresChanged();
    Q_EMIT liveChanged();
}

bool LiveRun::showSaved(const RunInfo& info, std::vector<StepReport> steps, const RunAnalysis& analysis, State end,
    const QStringList& logLines)
{
    if (isActive())
        return false;
    reset();
    m_info = info;
    m_hasInfo = true;
    log(tr("Opened the run in %1").arg(info.runDirectory));
    for (const QString& line : logLines)
        log(line);
    Q_EMIT runStarted();
    for (StepReport& step : steps) {
        m_finalElapsedS += step.durationS;
        m_steps.push_back(std::move(step));
        mergeFailures(m_failures, m_steps.back());
        Q_EMIT stepAdded(int(m_steps.size()) - 1);
    }
    m_analysis = analysis;
    updatePlan();
    Q_EMIT analysisChanged();
    Q_EMIT failuresChanged();
    setState(end == State::Stopped || end == State::Failed ? end : State::Finished);
    Q_EMIT liveChanged();
    return true;
}

bool LiveRun::isActive() const
{
    switch (m_state) {
    case State::Preparing:
    case State::Running:
    case State::Pausing:
    case State::Paused:
    case State::Stopping:
        return true;
    default:
        return false;
    }
}

QString LiveRun::stateText() const
{
    switch (m_state) {
    case State::Idle:
        return tr("Ready");
    case State::Preparing:
        return tr("Preparing");
    case State::Running:
        return tr("Running");
    case State::Pausing:
        return tr("Pausing after this step");
    case State::Paused:
        return tr("Paused");
    case State::Stopping:
        return tr("Stopping");
    case State::Finished:
        return tr("Finished");
    case State::Stopped:
        return tr("Stopped");
    case State::Failed:
        return tr("Failed");
    }
    return {};
}

qint64 LiveRun::failureCount() const
{
    qint64 n = 0;
    for (const FailureGroup& g : m_failures)
        n += g.count;
    return n;
}

void LiveRun::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void LiveRun::log(const QString& line)
{
    Q_EMIT logLine(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")) + QStringLiteral("  ") + line);
}

void LiveRun::onStarted(const RunInfo& info)
{
    m_info = info;
    m_hasInfo = true;
    if (m_state == State::Preparing)
        setState(State::Running);
    QStringList loads;
    for (const PlannedStep& s : info.preview)
        loads << UiFormat::loadText(s.mode, s.load);
    log(tr("Sweep of %1 against %2: %3%4")
            .arg(info.profile.name, info.target, UiFormat::joined(loads),
                info.fixedPlan ? QString() : tr(", then as the plan decides")));
    Q_EMIT runStarted();
}

void LiveRun::onStepStarted(int index, const StepConfig& config)
{
    m_current = config;
    m_snapshot = {};
    m_snapshot.step = index;
    m_snapshot.planned = config.numPrompts;
    m_samples.clear();
    m_inFlight.clear();
    m_windows.clear();
    m_timeline.clear();
    m_timelineStep = index;
    const QString requests = config.numPrompts == kUnbounded ? tr("%1 s").arg(config.durationS)
        : config.numPrompts == 1                             ? tr("1 request")
                                                             : tr("%1 requests").arg(config.numPrompts);
    const QString purpose = config.detail.isEmpty() ? UiFormat::purposeWord(config.purpose)
                                                    : tr("%1: %2", "why a step runs: its purpose, then in detail")
                                                          .arg(UiFormat::purposeWord(config.purpose), config.detail);
    log(tr("Step %1 started: %2, %3 (%4)").arg(index + 1).arg(UiFormat::loadText(config), requests, purpose));
    Q_EMIT stepStarted(index);
    Q_EMIT liveChanged();
}

void LiveRun::onSnapshot(const LiveSnapshot& snapshot)
{
    if (!m_current || snapshot.step != m_current->index)
        return;
    m_snapshot = snapshot;
    for (const LatencySample& s : snapshot.recent)
        m_samples.push_back(s);
    while (m_samples.size() > kMaxLiveSamples)
        m_samples.pop_front();
    m_snapshot.recent.clear();
    if (!snapshot.warmingUp) {
        m_timeline.add(snapshot.elapsedS, snapshot.completed, snapshot.failed, snapshot.inFlight);
        m_inFlight.emplace_back(snapshot.elapsedS, snapshot.inFlight);
        while (m_inFlight.size() > kMaxLiveSamples)
            m_inFlight.pop_front();
    }
    Q_EMIT liveChanged();
}

void LiveRun::onStepFinished(const StepReport& report)
{
    const StepMetrics& m = report.metrics;
    QStringList notes;
    if (isKnown(m.failed) && m.failed > 0)
        notes << tr("%1 failed").arg(m.failed);
    if (report.partial)
        notes << tr("partial");
    if (report.clientBound)
        notes << tr("client-bound (dispatch lag P99 %1 ms)").arg(ms(report.dispatchLagP99Ms));
    if (report.meetsSlo && !*report.meetsSlo)
        notes << tr("SLO not met: %1").arg(report.sloDetail);
    const std::optional<double> p99 = percentileValue(m.ttft, m_info.analysisOptions.percentile);
    log(tr("Step %1 done: %2 → %3 req/s, %4 tok/s, P%5 TTFT %6 ms%7")
            .arg(report.index() + 1)
            .arg(UiFormat::loadText(report.config))
            .arg(UiFormat::throughput(m.requestThroughput), UiFormat::tokens(m.outputThroughput))
            .arg(LatencyStats::percentileWord(m_info.analysisOptions.percentile), p99 ? ms(*p99) : UiFormat::unknown())
            .arg(notes.isEmpty() ? QString() : tr("; %1", "notes after a finished step").arg(notes.join(tr("; ")))));
    m_steps.push_back(report);
    if (!report.failures.empty()) {
        mergeFailures(m_failures, report);
        Q_EMIT failuresChanged();
    }
    m_current.reset();
    Q_EMIT stepAdded(int(m_steps.size()) - 1);
}

void LiveRun::onWindowFinished(const SoakWindowFigures& window)
{
    if (!m_current)
        return;
    m_windows.push_back(window);
    const double p99 = window.ttftP99;
    log(tr("Window %1 (%2–%3 s)%4: %5 req/s, %6 failed, TTFT P99 %7 ms")
            .arg(window.index + 1)
            .arg(window.startS, 0, 'f', 1)
            .arg(window.endS, 0, 'f', 1)
            .arg(window.partial ? tr(", partial") : QString())
            .arg(UiFormat::throughput(window.requestThroughput), UiFormat::count(window.failed), ms(p99)));
    Q_EMIT windowAdded(int(m_windows.size()) - 1);
}

void LiveRun::onPausedChanged(bool paused)
{
    if (paused) {
        setState(State::Paused);
        log(tr("Paused between steps"));
    } else if (m_state == State::Paused || m_state == State::Pausing) {
        setState(State::Running);
        log(tr("Resumed"));
    }
}

void LiveRun::onFinished(bool stopped, const QString& reason)
{
    m_finalElapsedS = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0.0;
    m_current.reset();
    if (!reason.isEmpty())
        log(tr("Stopped escalating: %1").arg(reason));
    log(stopped ? tr("Stopped: %1 kept").arg(stepsWord(int(m_steps.size())))
                : tr("Sweep finished: %1").arg(stepsWord(int(m_steps.size()))));
    setState(stopped ? State::Stopped : State::Finished);
    Q_EMIT liveChanged();
}

void LiveRun::onFailed(const QString& message)
{
    m_finalElapsedS = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0.0;
    m_lastError = message;
    m_current.reset();
    log(tr("Error: %1").arg(message));
    setState(State::Failed);
    Q_EMIT liveChanged();
}

void LiveRun::requestStop()
{
    if (!m_controller || !isActive() || m_state == State::Stopping)
        return;
    setState(State::Stopping);
    log(m_current ? tr("Stopping: the current step ends as partial") : tr("Stopping"));
    m_controller->stop();
}

void LiveRun::requestPause()
{
    if (!m_controller || m_state != State::Running)
        return;
    setState(State::Pausing);
    m_controller->pause();
}

void LiveRun::requestResume()
{
    if (!m_controller || (m_state != State::Paused && m_state != State::Pausing))
        return;
    if (m_state == State::Pausing)
        log(tr("Pause cancelled"));
    setState(State::Running);
    m_controller->resume();
}

bool LiveRun::addStepBetween(int stepA, int stepB)
{
    if (!m_controller || !isActive() || m_state == State::Stopping || stepA < 0 || stepB < 0
        || stepA >= int(m_steps.size()) || stepB >= int(m_steps.size()))
        return false;
    const StepReport& a = m_steps[std::size_t(stepA)];
    const StepReport& b = m_steps[std::size_t(stepB)];
    if (a.config.mode != b.config.mode)
        return false;
    const double lo = std::min(a.offered(), b.offered());
    const double hi = std::max(a.offered(), b.offered());
    if (!std::isfinite(hi))
        return false;
    double mid = (lo + hi) / 2;
    if (a.concurrencyMode())
        mid = std::round(mid);
    else if (std::round(mid * 10) / 10 > lo && std::round(mid * 10) / 10 < hi)
        mid = std::round(mid * 10) / 10;
    if (!(mid > lo && mid < hi))
        return false;
    PlannedStep step;
    step.mode = a.config.mode;
    step.load = mid;
    step.purpose = QStringLiteral("manual");
    step.detail = tr("between %1 and %2").arg(UiFormat::loadText(step.mode, lo), UiFormat::loadText(step.mode, hi));
    m_controller->addStep(step);
    ++m_added;
    return true;
}

bool LiveRun::repeatStep(int index)
{
    if (!m_controller || !isActive() || m_state == State::Stopping || index < 0 || index >= int(m_steps.size()))
        return false;
    const StepReport& s = m_steps[std::size_t(index)];
    PlannedStep step;
    step.mode = s.config.mode;
    step.load = s.offered();
    step.purpose = QStringLiteral("repeat");
    step.detail = tr("repeat of step %1").arg(index + 1);
    m_controller->addStep(step);
    ++m_added;
    return true;
}

RunProgress LiveRun::progress() const
{
    RunProgress p;
    p.elapsedS = isActive() && m_clock.isValid() ? m_clock.elapsed() / 1000.0 : m_finalElapsedS;
    p.step = m_current ? m_current->index + 1 : int(m_steps.size());
    if (m_info.fixedPlan)
        p.stepCount = int(m_info.preview.size()) + m_added;
    if (!m_current)
        return p;
    const StepConfig& c = *m_current;
    p.load = loadLabel(c);
    p.warmingUp = m_snapshot.warmingUp;
    p.done = m_snapshot.completed + m_snapshot.failed;
    p.inFlight = m_snapshot.inFlight;
    const int planned = m_snapshot.planned > 0 ? m_snapshot.planned : c.numPrompts;
    p.total = planned == kUnbounded ? 0 : planned;

    std::optional<double> stepLeft;
    if (c.durationS > 0 && p.total == 0) {
        stepLeft = std::max(0.0, c.durationS - m_snapshot.elapsedS);
    } else if (p.total > 0) {
        if (p.done >= 10 && m_snapshot.elapsedS > 0)
            stepLeft = double(p.total - p.done) / (double(p.done) / m_snapshot.elapsedS);
        else if (c.mode == LoadMode::Rate && std::isfinite(c.rate) && c.rate > 0)
            stepLeft = std::max(0.0, double(p.total) / c.rate - m_snapshot.elapsedS);
    }
    if (!stepLeft)
        return p;
    p.etaS = stepLeft;
    if (!m_info.fixedPlan || p.stepCount <= 0)
        return p;
    // Coarse steps still to come, each estimated from its load.
    double rest = 0;
    const int remaining = p.stepCount - p.step;
    const int previewSize = int(m_info.preview.size());
    for (int i = std::max(0, previewSize - remaining); i < previewSize; ++i) {
        const PlannedStep& s = m_info.preview[std::size_t(i)];
        double seconds = 0;
        if (m_info.stepDurationS)
            seconds = *m_info.stepDurationS;
        else if (s.mode == LoadMode::Rate && std::isfinite(s.load) && s.load > 0)
            seconds = m_info.numPrompts / s.load;
        else
            return p; // all at once, or users without a duration: no honest estimate
        rest += seconds + m_info.cooldownS;
    }
    p.etaS = *stepLeft + rest;
    p.etaCoversRun = true;
    return p;
}

} // namespace kp::ui
