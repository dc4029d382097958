#include "sweep/sweeprunner.h"

#include "client/networkclient.h"
#include "client/transport.h"
#include "metrics/phrase.h"
#include "profile/planrules.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <algorithm>
#include <cmath>

namespace kp {

namespace { } // namespace

SweepRunner::SweepRunner(QObject* parent)
    : QObject(parent)
    , m_cooldown(this)
    , m_alignWait(this)
    , m_scraper(new TelemetryScraper(this))
{
    connect(m_scraper, &TelemetryScraper::note, this, &SweepRunner::note);
    connect(m_scraper, &TelemetryScraper::sampled, this,
        [this](const ServerSample& sample) { Q_EMIT serverSample(static_cast<int>(m_outcomes.size()), sample); });
    // Every step start, aligned or not, begins a scrape series.
    connect(this, &SweepRunner::stepStarted, m_scraper, [this] { m_scraper->beginStep(); });
    qRegisterMetaType<kp::StepConfig>();
    m_cooldown.setSingleShot(true);
    connect(&m_cooldown, &QTimer::timeout, this, &SweepRunner::startStep);
    m_alignWait.setSingleShot(true);
    m_alignWait.setTimerType(Qt::PreciseTimer);
    connect(&m_alignWait, &QTimer::timeout, this, [this] {
        if (!m_aligned)
            return;
        const qint64 waitMs = QDateTime::currentDateTimeUtc().msecsTo(*m_config.alignment.startOf(m_aligned->index));
        if (waitMs > 0) { // a long wait is re-armed so that the start lands on the millisecond
            m_alignWait.start(static_cast<int>(std::min<qint64>(waitMs, 3'600'000)));
            return;
        }
        StepConfig step = std::move(*m_aligned);
        m_aligned.reset();
        Q_EMIT stepStarted(step.index, step);
        m_step->start(std::move(step));
    });
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
    step.numPrompts = planrules::stepPrompts(step.numPrompts, planned.purpose);
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
    // The run positions this step takes (all shards together), known in advance when it sends a count.
    step.runPositions
        = step.numPrompts == std::numeric_limits<int>::max() ? 0 : qint64(step.warmupRequests) + step.numPrompts;
    if (const ShardSpec& shard = config.shard; shard.active()) {
        // This client's share: every count split exactly, the rate divided, a seed of its own.
        auto share = [&shard](int total) { return static_cast<int>(shard.share(total)); };
        step.seed = shard.seed(step.seed);
        step.promptStart = shard.firstRequest();
        step.promptStride = shard.stride();
        if (step.numPrompts != std::numeric_limits<int>::max())
            step.numPrompts = share(step.numPrompts);
        step.warmupRequests = share(step.warmupRequests);
        if (step.mode == LoadMode::Rate) {
            if (std::isfinite(step.rate))
                step.rate /= shard.count;
            if (step.maxConcurrency)
                step.maxConcurrency = std::max(1, share(*step.maxConcurrency));
        } else {
            step.concurrency = std::max(1, share(step.concurrency));
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
    m_aligned.reset();
    m_runPosition = 0;
    m_afterReset.reset();
    m_resetUrl = 0;
    m_resetRefused = false;
    m_pauseRequested = m_waitingPaused = false;
    m_stopped = false;
    m_running = true;
    m_step.reset();
    m_transport = makeTransport(m_config.transport, m_config.stepTemplate.request.url);
    m_step = std::make_unique<StepRunner>(m_transport.get(), m_config.metrics);
    connect(m_step.get(), &StepRunner::snapshot, this, &SweepRunner::snapshot);
    connect(m_step.get(), &StepRunner::requestFinished, this,
        [this](const RequestRecord& record) { Q_EMIT requestFinished(static_cast<int>(m_outcomes.size()), record); });
    connect(m_step.get(), &StepRunner::windowFinished, this, &SweepRunner::windowFinished);
    connect(m_step.get(), &StepRunner::finished, this, &SweepRunner::onStepFinished);
    m_scraper->abort();
    m_scraper->setOptions(m_config.telemetry);
    m_scraper->prepare([this] { startStep(); }); // at once when telemetry is off
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
    if (!step.isReplay()) // a log is replayed from its first line every step
        step.runOffset = m_runPosition;
    if (!m_outcomes.empty() && !m_config.cacheResetUrls.isEmpty() && !m_resetRefused) {
        resetCacheThenLaunch(std::move(step));
        return;
    }
    launchStep(std::move(step));
}

void SweepRunner::resetCacheThenLaunch(StepConfig step)
{
    const NetworkClient client(m_config.transport, m_config.stepTemplate.request.headers);
    if (!m_resetManager)
        m_resetManager = client.makeManager(this);
    constexpr int kResetTimeoutMs = 30'000;
    QNetworkRequest request = client.request(m_config.cacheResetUrls[m_resetUrl], kResetTimeoutMs);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    m_afterReset = std::move(step);
    m_resetReply = m_resetManager->post(request, QByteArray());
    QNetworkReply* reply = m_resetReply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (reply != m_resetReply || !m_afterReset)
            return; // aborted by stop()
        m_resetReply = nullptr;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        StepConfig waiting = std::move(*m_afterReset);
        m_afterReset.reset();
        if (reply->error() == QNetworkReply::NoError && status >= 200 && status < 300) {
            launchStep(std::move(waiting));
            return;
        }
        const QString why = status > 0 ? QStringLiteral("HTTP %1").arg(status) : reply->errorString();
        if (++m_resetUrl < m_config.cacheResetUrls.size()) {
            resetCacheThenLaunch(std::move(waiting));
            return;
        }
        m_resetRefused = true;
        Q_EMIT note(phrase(
            "SweepRunner", "the server did not empty its prefix cache (POST %1: %2); the steps run without resets")
                        .arg(reply->url().toDisplayString(QUrl::RemoveUserInfo), why));
        launchStep(std::move(waiting));
    });
}

void SweepRunner::launchStep(StepConfig step)
{
    if (const auto at = m_config.alignment.startOf(step.index);
        at && QDateTime::currentDateTimeUtc().msecsTo(*at) > 0) {
        m_aligned = std::move(step);
        m_alignWait.start(0);
        return;
    }
    Q_EMIT stepStarted(step.index, step);
    m_step->start(std::move(step));
}

void SweepRunner::onStepFinished(const StepResult& result)
{
    m_scraper->endStep([this, r = result](StepTelemetry telemetry) mutable {
        r.server = std::move(telemetry);
        if (r.server.stats)
            r.metrics.joulesPerOutputToken = r.server.stats->joulesPerOutputToken(double(r.metrics.totalOutputTokens));
        finishStep(r);
    });
}

void SweepRunner::finishStep(const StepResult& result)
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
    // Fixed-count steps move on by what every shard knows; a duration-bound one by what this client used,
    // in whole strides, so that each shard keeps to its own positions.
    m_runPosition += result.config.runPositions > 0
        ? result.config.runPositions
        : qint64(std::max(1, result.config.promptStride)) * result.positionsUsed;
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
    // With a step interval every step starts at its slot; the wait for it replaces the cooldown.
    m_cooldown.start(m_config.alignment.intervalS > 0 ? 0 : static_cast<int>(m_config.cooldownS * 1000.0));
}

void SweepRunner::stop(const QString& why)
{
    if (!m_running || m_stopped)
        return;
    m_stopped = true;
    if (m_resetReply) {
        QNetworkReply* reply = m_resetReply;
        m_resetReply = nullptr;
        m_afterReset.reset();
        reply->abort();
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    if (m_cooldown.isActive() || m_waitingPaused || m_aligned) {
        m_waitingPaused = false;
        m_cooldown.stop();
        m_alignWait.stop();
        m_aligned.reset();
        m_running = false;
        Q_EMIT finished(true);
        return;
    }
    m_step->stop(why);
}

} // namespace kp
