#include "load/steprunner.h"

#include "load/arrivalschedule.h"

#include <QLoggingCategory>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace kp {

Q_LOGGING_CATEGORY(lcLoad, "kneepoint.engine.load", QtInfoMsg)

namespace {

constexpr int kSnapshotIntervalMs = 200;

// User + system CPU of the whole process, seconds.
double processCpuSeconds()
{
    rusage usage {};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0.0;
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void rebase(RequestRecord& r, qint64 t0)
{
    auto shift = [t0](qint64& t) {
        if (t >= 0)
            t -= t0;
    };
    shift(r.scheduledNs);
    shift(r.sentNs);
    shift(r.firstByteNs);
    shift(r.firstTokenNs);
    shift(r.firstContentNs);
    shift(r.lastTokenNs);
    shift(r.endNs);
    r.chunkNs.shift(-t0);
}

} // namespace

StepRunner::StepRunner(Transport* transport, MetricsOptions options, QObject* parent)
    : QObject(parent)
    , m_transport(transport)
    , m_metricsOptions(std::move(options))
    , m_windowTimer(this)
    , m_dispatchTimer(this)
    , m_snapshotTimer(this)
    , m_pullTimer(this)
{
    qRegisterMetaType<kp::LiveSnapshot>();
    qRegisterMetaType<kp::StepResult>();
    qRegisterMetaType<kp::RequestRecord>();
    connect(&m_dispatchTimer, &DeadlineTimer::timeout, this, &StepRunner::dispatchDue);
    m_snapshotTimer.setInterval(kSnapshotIntervalMs);
    connect(&m_snapshotTimer, &QTimer::timeout, this, &StepRunner::publish);
    m_pullTimer.setInterval(kPullIntervalMs);
    m_pullTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_pullTimer, &QTimer::timeout, this, [this] { m_transport->pullRecords(); });
    qRegisterMetaType<kp::SoakWindow>();
    m_windowTimer.setSingleShot(true);
    m_windowTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_windowTimer, &QTimer::timeout, this, [this] {
        closeWindow(m_windowStartNs + static_cast<qint64>(m_config.windowS * 1e9), false);
        armWindowTimer();
    });
    // The transport emits in its own thread, which is this one where a sweep runs: directly, no second queue.
    connect(m_transport, &Transport::finished, this, &StepRunner::onRecord);
}

void StepRunner::start(StepConfig config)
{
    Q_ASSERT(!m_running);
    Q_ASSERT(!config.prompts.empty() || !config.sessions.empty());
    m_config = std::move(config);
    m_bodies = BodyWriter(m_config.request);
    m_idPrefix = QStringLiteral("kneepoint-%1-").arg(m_config.index);
    m_running = true;
    m_stopping = false;
    m_sent = m_inFlight = m_completed = m_failed = m_outputTokens = m_unsent = 0;
    m_handAheadNs = 0;
    m_handedAhead.clear();
    m_pulling = false;
    m_transport->setRecordsPulled(false);
    m_arrivals = {};
    m_gated.clear();
    m_wasGated.clear();
    m_repeated.clear();
    m_repeatedCount = 0;
    m_records.clear();
    m_measured = m_events = m_lastEndNs = 0;
    m_windowTimer.stop();
    m_windowIndex = 0;
    m_windowStartNs = 0;
    m_sentBeforeWindow = 0;
    m_windowRecords.clear();
    m_windowLagMs.clear();
    m_worstLagP90Ms = m_worstLagP99Ms = 0.0;
    m_soakTotals = {};
    m_sessions.clear();
    m_requestTurn.clear();
    m_turnsDue.clear();
    m_reserved = 0;
    m_thinkRng.seed(m_config.seed ^ 0x5851f42d4c957f2dULL);
    if (m_config.windowS <= 0)
        m_records.reserve(static_cast<std::size_t>(std::min(m_config.numPrompts, 100000)));
    m_recent.clear();
    m_lagMs.clear();
    m_snapshotTimer.start();

    m_warmupLeft = m_config.warmupRequests;
    m_warmingUp = m_warmupLeft > 0;
    if (!m_warmingUp) {
        beginMeasured();
        return;
    }
    const qint64 now = steadyNowNs();
    for (int i = 0; i < m_config.warmupRequests; ++i) {
        ++m_inFlight;
        if (m_config.isMultiTurn())
            noteTurnSent(positionOf(i), 0);
        else
            notePromptSent(positionOf(i));
        m_transport->send(
            makeRequest(i, -1 - i, QStringLiteral("kneepoint-warmup-%1-%2").arg(m_config.index).arg(i), now));
    }
}

void StepRunner::beginMeasured()
{
    m_warmingUp = false;
    m_startedAt = QDateTime::currentDateTime();
    m_startedUnixUs
        = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    if (m_config.mode == LoadMode::Rate) {
        // The send times are made as they fall due; a rescaled schedule first draws its gaps once for
        // their sum, which is done here, before the clock starts, so it cannot show as client lag.
        ArrivalOptions arrivals;
        arrivals.rate = m_config.rate;
        arrivals.burstiness = m_config.burstiness;
        if (std::isinf(m_config.burstiness))
            arrivals.distribution = ArrivalOptions::Distribution::Constant;
        arrivals.rampUpSeconds = m_config.rampUpS;
        arrivals.seed = m_config.seed;
        if (m_config.isReplay()) {
            // The whole log's schedule (all shards, at their summed rate); this client sends its share of it.
            std::vector<qint64> log;
            log.reserve(m_config.prompts.size());
            for (const Prompt& p : m_config.prompts)
                log.push_back(p.atNs);
            const qint64 stride = std::max(1, m_config.promptStride);
            const double rate = std::isfinite(m_config.rate) ? m_config.rate * double(stride) : m_config.rate;
            m_arrivals = ArrivalStream::replay(
                std::move(log), m_config.promptStart, stride, m_config.numPrompts, rate, m_config.replaySpeed);
        } else {
            m_arrivals = ArrivalStream(m_config.numPrompts, arrivals);
        }
    }
    // Handing requests over ahead of their time would count them at a gate they have not passed, and a
    // session's later turns depend on its earlier answers: only plain open-loop steps do.
    if (m_config.mode == LoadMode::Rate && !m_config.maxConcurrency && !m_config.isMultiTurn()
        && m_transport->holdsUntilScheduled())
        m_handAheadNs = kHandAheadNs;
    // (An infinite rate sends everything at once: nothing to save there.)
    m_pulling = m_handAheadNs > 0 && std::isfinite(m_config.rate) && m_config.rate >= kPullFromRate;
    if (m_pulling) {
        m_transport->setRecordsPulled(true);
        m_pullTimer.start();
    }
    m_t0 = steadyNowNs();
    m_transport->loopLag()->takeMs(); // what the workers saw before this step is not its health
    m_cpuAtStartS = processCpuSeconds();
    if (m_config.mode == LoadMode::Concurrency) {
        const int users = std::min(m_config.concurrency, m_config.numPrompts);
        for (int i = 0; i < users; ++i) {
            if (m_config.isMultiTurn())
                startSession(m_t0);
            else
                sendOne(m_t0, false);
        }
    } else {
        dispatchDue();
    }
    if (m_config.windowS > 0)
        armWindowTimer();
    publish();
}

HttpRequest StepRunner::requestShell(qint64 index, const QString& id, qint64 scheduledNs) const
{
    HttpRequest req;
    req.index = index;
    req.requestId = id;
    req.url = m_config.request.url;
    req.headers = m_config.request.headers;
    req.chat = isChatBackend(m_config.request.backend);
    req.format = apiFormat(m_config.request.backend);
    req.stream = m_config.request.stream;
    req.scheduledNs = scheduledNs;
    return req;
}

const RequestTemplate& StepRunner::templateFor(qint64 position, RequestTemplate& scratch, HttpRequest& req) const
{
    const RequestTemplate& base = m_config.request;
    if (base.modelMix.isEmpty())
        return base;
    scratch = base; // implicitly shared members: a cheap copy
    scratch.model = base.modelMix[pickModel(base.modelMix, base.modelMixSeed, position)].model;
    req.model = scratch.model;
    return scratch;
}

bool StepRunner::notePromptSent(qint64 position)
{
    const std::size_t at = static_cast<std::size_t>(position) % m_config.prompts.size();
    const Prompt& prompt = m_config.prompts[at];
    if (m_config.freshPrompts && prompt.synthetic)
        return false; // its text is this position's own
    const std::size_t id = prompt.id >= 0 ? static_cast<std::size_t>(prompt.id) : at;
    if (id >= m_promptSent.size())
        m_promptSent.resize(std::max(id + 1, m_config.prompts.size()), 0);
    const bool before = m_promptSent[id] != 0;
    m_promptSent[id] = 1;
    return before;
}

bool StepRunner::noteTurnSent(qint64 position, int turn)
{
    const std::size_t at = static_cast<std::size_t>(position) % m_config.sessions.size();
    const Conversation& c = m_config.sessions[at];
    if (m_config.freshPrompts && c.synthetic)
        return false;
    const std::size_t id = c.id >= 0 ? static_cast<std::size_t>(c.id) : at;
    if (id >= m_turnsSent.size())
        m_turnsSent.resize(std::max(id + 1, m_config.sessions.size()), 0);
    const bool before = turn < m_turnsSent[id];
    m_turnsSent[id] = std::max(m_turnsSent[id], turn + 1);
    return before;
}

HttpRequest StepRunner::makeRequest(int promptIndex, qint64 index, const QString& id, qint64 scheduledNs) const
{
    const qint64 position = positionOf(promptIndex);
    HttpRequest req = requestShell(index, id, scheduledNs);
    RequestTemplate scratch;
    if (m_config.isMultiTurn()) {
        // A warm-up request: the first turn of a session, alone.
        const std::size_t conversation = static_cast<std::size_t>(position) % m_config.sessions.size();
        const Conversation& source = m_config.sessions[conversation];
        const Conversation c
            = m_config.freshPrompts && source.synthetic ? freshSession(source, m_config.textSeed, position) : source;
        std::vector<ChatMessage> messages;
        if (!c.system.isEmpty())
            messages.push_back({ QStringLiteral("system"), c.system });
        messages.push_back({ QStringLiteral("user"), c.turns.front().user });
        req.body
            = m_bodies.build(templateFor(qint64(conversation), scratch, req), messages, c.turns.front().outputTokens);
        req.promptTokens = c.systemTokens + c.turns.front().userTokens;
        req.maxTokens = c.turns.front().outputTokens;
        return req;
    }
    const Prompt& prompt = m_config.prompts[static_cast<std::size_t>(position) % m_config.prompts.size()];
    const RequestTemplate& request = templateFor(position, scratch, req);
    if (isEmbeddingsBackend(request.backend)) {
        // A batch of embedding_batch prompts, this one and the ones after it in the list.
        QStringList inputs;
        req.promptTokens = 0;
        const int batch = std::max(1, m_config.request.embeddingBatch);
        for (int i = 0; i < batch; ++i) {
            const Prompt& p = m_config.prompts[static_cast<std::size_t>(position + i) % m_config.prompts.size()];
            if (m_config.freshPrompts && p.synthetic)
                inputs << freshText(p, m_config.textSeed, position * batch + i);
            else
                inputs << (p.hashIds.empty() ? p.text : promptText(p, m_config.textSeed));
            req.promptTokens += p.promptTokens;
        }
        req.body = buildEmbeddingsBody(request, inputs);
        return req;
    }
    const QStringList images
        = request.images ? request.images->urlsFor(position % qint64(m_config.prompts.size())) : QStringList {};
    if (m_config.freshPrompts && prompt.synthetic) {
        Prompt fresh = prompt;
        fresh.text = freshText(prompt, m_config.textSeed, position);
        req.body = m_bodies.build(request, fresh, images);
    } else if (prompt.hashIds.empty())
        req.body = m_bodies.build(request, prompt, images);
    else
        req.body = m_bodies.build(request,
            { ChatMessage { QStringLiteral("user"), promptText(prompt, m_config.textSeed), images } },
            prompt.outputTokens);
    req.promptTokens = prompt.promptTokens;
    req.maxTokens = prompt.outputTokens;
    return req;
}

HttpRequest StepRunner::makeTurnRequest(int session, qint64 index, const QString& id, qint64 scheduledNs) const
{
    const ActiveSession& s = m_sessions[static_cast<std::size_t>(session)];
    const Conversation& c = s.fresh ? *s.fresh : m_config.sessions[static_cast<std::size_t>(s.conversation)];
    std::vector<ChatMessage> messages;
    messages.reserve(static_cast<std::size_t>(2 * s.nextTurn + 2));
    int tokens = 0;
    if (!c.system.isEmpty()) {
        messages.push_back({ QStringLiteral("system"), c.system });
        tokens += c.systemTokens;
    }
    for (int t = 0; t < s.nextTurn; ++t) {
        const Turn& turn = c.turns[static_cast<std::size_t>(t)];
        messages.push_back({ QStringLiteral("user"), turn.user });
        tokens += turn.userTokens;
        // The server's own answer where it gave one; a failed turn's place keeps the dataset's answer.
        const bool live = m_config.liveHistory && t < static_cast<int>(s.liveAnswers.size())
            && !s.liveAnswers[static_cast<std::size_t>(t)].isNull();
        if (live) {
            const QString& answer = s.liveAnswers[static_cast<std::size_t>(t)];
            messages.push_back({ QStringLiteral("assistant"), answer });
            tokens += countWords(answer);
        } else {
            messages.push_back({ QStringLiteral("assistant"), turn.answer });
            tokens += turn.answerTokens;
        }
    }
    const Turn& current = c.turns[static_cast<std::size_t>(s.nextTurn)];
    messages.push_back({ QStringLiteral("user"), current.user });
    tokens += current.userTokens;

    HttpRequest req = requestShell(index, id, scheduledNs);
    // Every turn of a conversation goes to the same model, as a user's session would.
    RequestTemplate scratch;
    req.body = m_bodies.build(templateFor(s.conversation, scratch, req), messages, current.outputTokens);
    req.promptTokens = tokens;
    req.maxTokens = current.outputTokens;
    return req;
}

void StepRunner::sendOne(qint64 scheduledNs, bool gated, int session)
{
    const int i = m_sent++;
    m_wasGated.push_back(gated);
    ++m_inFlight;
    const QString id = m_idPrefix + QString::number(i);
    if (session < 0) {
        const int n = m_config.warmupRequests + i;
        m_repeated.push_back(notePromptSent(positionOf(n)));
        m_transport->send(makeRequest(n, i, id, scheduledNs));
        return;
    }
    ActiveSession& s = m_sessions[static_cast<std::size_t>(session)];
    m_repeated.push_back(noteTurnSent(s.position, s.nextTurn));
    m_requestTurn.emplace_back(session, s.nextTurn + 1);
    m_transport->send(makeTurnRequest(session, i, id, scheduledNs));
    ++s.nextTurn;
    --s.turnsLeft;
}

bool StepRunner::startSession(qint64 scheduledNs)
{
    if (m_reserved >= m_config.numPrompts)
        return false;
    const int number = static_cast<int>(m_sessions.size());
    const qint64 position = positionOf(m_config.warmupRequests + qint64(number));
    ActiveSession s;
    s.position = position;
    s.conversation = static_cast<int>(static_cast<std::size_t>(position) % m_config.sessions.size());
    if (m_config.freshPrompts && m_config.sessions[static_cast<std::size_t>(s.conversation)].synthetic)
        s.fresh
            = freshSession(m_config.sessions[static_cast<std::size_t>(s.conversation)], m_config.textSeed, position);
    const int turns = static_cast<int>(m_config.sessions[static_cast<std::size_t>(s.conversation)].turns.size());
    s.turnsLeft = std::clamp(turns, 1, m_config.numPrompts - m_reserved);
    m_reserved += s.turnsLeft;
    m_sessions.push_back(std::move(s));
    sendTurn(number, scheduledNs);
    return true;
}

void StepRunner::sendTurn(int session, qint64 scheduledNs)
{
    if (m_config.mode == LoadMode::Rate && m_config.maxConcurrency && m_inFlight >= *m_config.maxConcurrency)
        m_gated.emplace_back(scheduledNs, session);
    else
        sendOne(scheduledNs, false, session);
}

void StepRunner::turnEnded(const RequestRecord& record, int session, qint64 now)
{
    ActiveSession& s = m_sessions[static_cast<std::size_t>(session)];
    if (m_config.liveHistory)
        s.liveAnswers.push_back(record.success() ? record.generatedText : QString());
    if (s.turnsLeft <= 0) {
        s.liveAnswers = {};
        s.fresh.reset();
        if (m_config.mode == LoadMode::Concurrency && !concurrencyDone(now))
            startSession(now); // the user begins a new conversation
        return;
    }
    qint64 thinkNs = 0;
    if (m_config.thinkTimeS > 0) {
        std::exponential_distribution<double> think(1.0 / m_config.thinkTimeS);
        thinkNs = static_cast<qint64>(std::llround(think(m_thinkRng) * 1e9));
    }
    if (thinkNs == 0) {
        sendTurn(session, now);
        return;
    }
    m_turnsDue.emplace(now + thinkNs, session);
    armDispatchTimer();
}

bool StepRunner::allSent(qint64 now) const
{
    if (m_config.isMultiTurn()) {
        const bool starting = m_config.mode == LoadMode::Concurrency
            ? !concurrencyDone(now)
            : m_reserved < m_config.numPrompts && !m_arrivals.atEnd();
        return !starting && m_turnsDue.empty() && m_gated.empty();
    }
    return m_config.mode == LoadMode::Concurrency ? concurrencyDone(now) : m_arrivals.atEnd() && m_gated.empty();
}

void StepRunner::armDispatchTimer()
{
    qint64 next = std::numeric_limits<qint64>::max();
    // Handing over ahead, the next wake-up comes when the next arrival is half the window away, and
    // takes everything in the window: one wake-up per half window, not one per arrival.
    if (!m_arrivals.atEnd())
        next = m_t0 + m_arrivals.peek() - m_handAheadNs / 2;
    if (!m_turnsDue.empty())
        next = std::min(next, m_turnsDue.begin()->first);
    if (next == std::numeric_limits<qint64>::max())
        return;
    // Everything due is dispatched on wake-up; the intended time is recorded, so any lag shows in the
    // result.
    m_dispatchTimer.startAt(next);
}

void StepRunner::dispatchDue()
{
    if (m_stopping)
        return;
    const qint64 now = steadyNowNs();
    const bool pastDuration = m_config.mode == LoadMode::Concurrency && m_config.durationS > 0
        && now - m_t0 >= static_cast<qint64>(m_config.durationS * 1e9);
    while (!m_turnsDue.empty() && m_turnsDue.begin()->first <= now) {
        const qint64 due = m_turnsDue.begin()->first;
        const int session = m_turnsDue.begin()->second;
        m_turnsDue.erase(m_turnsDue.begin());
        if (pastDuration) { // no new request after the step's duration: the session ends here
            ActiveSession& s = m_sessions[static_cast<std::size_t>(session)];
            m_reserved -= s.turnsLeft;
            s.turnsLeft = 0;
            s.liveAnswers = {};
            s.fresh.reset();
            continue;
        }
        sendTurn(session, due);
    }
    while (!m_arrivals.atEnd() && m_t0 + m_arrivals.peek() <= now + m_handAheadNs) {
        const qint64 scheduled = m_t0 + m_arrivals.peek();
        m_arrivals.next();
        if (m_handAheadNs > 0) {
            if (scheduled > now)
                m_handedAhead.push_back(scheduled);
            sendOne(scheduled, false);
        } else if (m_config.isMultiTurn()) {
            if (!startSession(scheduled)) {
                m_arrivals = {}; // every turn of the step belongs to a session already
                break;
            }
        } else if (m_config.maxConcurrency && m_inFlight >= *m_config.maxConcurrency) {
            m_gated.emplace_back(scheduled, -1);
        } else {
            sendOne(scheduled, false);
        }
    }
    armDispatchTimer();
    if (m_running && !m_warmingUp && m_inFlight == 0 && allSent(steadyNowNs()))
        finish();
}

void StepRunner::onRecord(const RequestRecord& incoming)
{
    if (!m_running)
        return;
    --m_inFlight;
    if (incoming.attempts == 0) { // held by the transport for its time and cancelled first: never sent
        ++m_unsent;
        if (m_inFlight == 0 && m_stopping)
            finish();
        return;
    }
    if (incoming.index < 0) { // warm-up
        if (--m_warmupLeft == 0 && m_warmingUp) {
            if (m_stopping)
                finish();
            else
                beginMeasured();
        }
        return;
    }
    RequestRecord record = incoming;
    rebase(record, m_t0);
    int session = -1;
    if (static_cast<std::size_t>(record.index) < m_requestTurn.size()) {
        session = m_requestTurn[static_cast<std::size_t>(record.index)].first;
        record.session = session;
        record.turn = m_requestTurn[static_cast<std::size_t>(record.index)].second;
    }
    const bool gated = m_wasGated[static_cast<std::size_t>(record.index)];
    if (m_repeated[static_cast<std::size_t>(record.index)])
        ++m_repeatedCount;
    const bool soak = m_config.windowS > 0;
    if (!gated && record.sentNs >= 0 && record.scheduledNs >= 0)
        (soak ? m_windowLagMs : m_lagMs).push_back(static_cast<double>(record.sentNs - record.scheduledNs) / 1e6);
    ++m_measured;
    m_events += static_cast<qint64>(record.chunkNs.size());
    m_lastEndNs = std::max(m_lastEndNs, record.endNs);
    LatencySample sample;
    sample.atS = static_cast<double>(record.endNs) / 1e9;
    sample.ok = record.success();
    if (record.firstTokenNs >= 0 && record.sentNs >= 0)
        sample.ttftMs = static_cast<double>(record.firstTokenNs - record.sentNs) / 1e6;
    if (record.lastTokenNs >= 0 && record.sentNs >= 0)
        sample.e2elMs = static_cast<double>(record.lastTokenNs - record.sentNs) / 1e6;
    m_recent.push_back(sample);
    if (record.success()) {
        ++m_completed;
        m_outputTokens += record.outputTokens;
    } else {
        ++m_failed;
    }
    Q_EMIT requestFinished(record);

    if (!m_stopping) {
        const qint64 now = steadyNowNs();
        if (m_config.mode == LoadMode::Concurrency) {
            if (session < 0 && !concurrencyDone(now))
                sendOne(now, false);
        } else if (!m_gated.empty()) {
            const auto [scheduled, gatedSession] = m_gated.front();
            m_gated.pop_front();
            sendOne(scheduled, true, gatedSession);
        }
        if (session >= 0)
            turnEnded(record, session, now);
    }
    // Held until the step's (or the window's) figures: the chunk times at their size, not at the capacity
    // they grew to (up to twice as many).
    record.chunkNs.shrink_to_fit();
    if (soak) {
        // Written by now (requestFinished); the window needs its times and counts, not its text.
        record.generatedText = QString();
        m_windowRecords.push_back(std::move(record));
    } else {
        m_records.push_back(std::move(record));
    }
    if (m_inFlight == 0 && (m_stopping || allSent(steadyNowNs())))
        finish();
}

bool StepRunner::concurrencyDone(qint64 now) const
{
    if ((m_config.isMultiTurn() ? m_reserved : m_sent) >= m_config.numPrompts)
        return true;
    return m_config.durationS > 0 && now - m_t0 >= static_cast<qint64>(m_config.durationS * 1e9);
}

void StepRunner::stop(const QString& why)
{
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    m_dispatchTimer.stop();
    m_handedAhead.clear(); // those not sent yet come back as never sent
    m_gated.clear();
    m_turnsDue.clear();
    if (m_inFlight == 0) {
        finish();
        return;
    }
    m_transport->cancelAll(why.isEmpty() ? QStringLiteral("cancelled by the user") : why);
}

void StepRunner::publish()
{
    LiveSnapshot s;
    s.step = m_config.index;
    s.warmingUp = m_warmingUp;
    s.elapsedS = m_warmingUp ? 0.0 : static_cast<double>(steadyNowNs() - m_t0) / 1e9;
    s.planned = m_config.numPrompts;
    const int ahead = handedAhead(steadyNowNs());
    s.sent = m_sent - m_unsent - ahead;
    s.completed = m_completed;
    s.failed = m_failed;
    s.inFlight = m_inFlight - ahead;
    s.outputTokens = m_outputTokens;
    s.recent.swap(m_recent);
    Q_EMIT snapshot(s);
}

int StepRunner::handedAhead(qint64 now)
{
    while (!m_handedAhead.empty() && m_handedAhead.front() <= now)
        m_handedAhead.pop_front();
    return static_cast<int>(m_handedAhead.size());
}

void StepRunner::armWindowTimer()
{
    if (!m_running || m_stopping)
        return;
    // A record reaches the runner a few milliseconds after it ended (pulled every kPullIntervalMs): the
    // window closes a little after its end, so that its last requests are in it.
    const double graceS = std::min(0.25, m_config.windowS / 4.0);
    const qint64 closeAt = m_t0 + m_windowStartNs + static_cast<qint64>((m_config.windowS + graceS) * 1e9);
    m_windowTimer.start(static_cast<int>(std::max<qint64>(0, (closeAt - steadyNowNs()) / 1'000'000)));
}

void StepRunner::closeWindow(qint64 endNs, bool last)
{
    std::vector<RequestRecord> in;
    if (last) {
        in.swap(m_windowRecords);
    } else {
        // Those that ended after the window's end (before the timer fired) belong to the next one; one that
        // reached the runner after its own window closed is counted in this one.
        const auto split = std::stable_partition(m_windowRecords.begin(), m_windowRecords.end(),
            [endNs](const RequestRecord& r) { return r.endNs < endNs; });
        in.assign(std::make_move_iterator(m_windowRecords.begin()), std::make_move_iterator(split));
        m_windowRecords.erase(m_windowRecords.begin(), split);
    }
    if (last && in.empty() && endNs <= m_windowStartNs)
        return; // the step ended on a window's edge: no window after it
    SoakWindow window;
    window.step = m_config.index;
    window.index = m_windowIndex++;
    window.startS = static_cast<double>(m_windowStartNs) / 1e9;
    window.endS = static_cast<double>(std::max(endNs, m_windowStartNs)) / 1e9;
    window.partial = last && (m_stopping || window.endS - window.startS < m_config.windowS);
    const int sentNow = m_sent - m_unsent - handedAhead(steadyNowNs());
    window.sent = sentNow - m_sentBeforeWindow;
    m_sentBeforeWindow = sentNow;
    window.metrics = StepMetrics::fromRecords(in, window.endS - window.startS, soakWindowOptions(m_metricsOptions));
    const LatencyStats lag = LatencyStats::compute(std::move(m_windowLagMs), { 90, 99 });
    m_windowLagMs = {};
    m_worstLagP90Ms = std::max(m_worstLagP90Ms, lag.percentile(90).value_or(0.0));
    m_worstLagP99Ms = std::max(m_worstLagP99Ms, lag.percentile(99).value_or(0.0));
    m_soakTotals.add(window.metrics);
    m_windowStartNs = std::max(endNs, m_windowStartNs);
    in = {};
    Q_EMIT windowFinished(window);
}

void StepRunner::finish()
{
    // The client's own cost is measured up to the last completion, before the step's analysis below
    // (percentiles, bootstrap intervals over every token gap), which is not load generation.
    const double cpuAtEndS = processCpuSeconds();
    const qint64 wallAtEndNs = steadyNowNs();
    m_dispatchTimer.stop();
    m_snapshotTimer.stop();
    m_windowTimer.stop();
    if (m_pulling) {
        m_pullTimer.stop();
        m_pulling = false;
        m_transport->setRecordsPulled(false);
    }
    publish();
    m_running = false;

    StepResult result;
    result.config = m_config;
    result.config.prompts.clear();
    result.config.sessions.clear();
    result.startedAt = m_startedAt;
    result.startedUnixS = static_cast<double>(m_startedUnixUs) / 1e6;
    result.partial = m_stopping;
    // As the reference measures it: from the step's start (the first request leaves one drawn gap
    // later) to the last completion.
    result.durationS = static_cast<double>(m_lastEndNs) / 1e9;
    const bool soak = m_config.windowS > 0;
    if (soak) {
        // The last window ends at the last completion, as the step does (or where a stop cut it).
        closeWindow(std::max(m_lastEndNs, m_windowStartNs), true);
        result.windows = m_soakTotals.windows();
        result.metrics = m_soakTotals.total(result.durationS, m_metricsOptions);
    } else {
        result.records = std::move(m_records);
        m_records = {};
        result.metrics = StepMetrics::fromRecords(result.records, result.durationS, m_metricsOptions);
    }
    result.metrics.ignoreEos = m_config.request.ignoreEos;
    result.metrics.repeatedPrompts = m_repeatedCount;
    result.positionsUsed
        = qint64(m_config.warmupRequests) + (m_config.isMultiTurn() ? qint64(m_sessions.size()) : qint64(m_sent));
    if (soak) { // no records to resample; the lag is the worst window's
        result.dispatchLagP99Ms = m_worstLagP99Ms;
        result.dispatchLagP90Ms = m_worstLagP90Ms;
        result.clientBound
            = m_measured >= qint64(kClientBoundMinSamples) && result.dispatchLagP90Ms > kClientBoundLagMs;
    } else {
        result.metrics.intervals
            = bootstrapIntervals(result.records, result.durationS, m_metricsOptions, result.metrics, kBootstrapSeed);
        const LatencyStats lag = LatencyStats::compute(m_lagMs, { 90, 99 });
        result.dispatchLagP99Ms = lag.percentile(99).value_or(0.0);
        result.dispatchLagP90Ms = lag.percentile(90).value_or(0.0);
        result.clientBound = m_lagMs.size() >= kClientBoundMinSamples && result.dispatchLagP90Ms > kClientBoundLagMs;
    }
    recordHealth(result, cpuAtEndS, wallAtEndNs);
    Q_EMIT finished(result);
}

void StepRunner::recordHealth(StepResult& result, double cpuAtEndS, qint64 wallAtEndNs)
{
    ClientHealth& h = result.metrics.clientHealth;
    h.recorded = true;
    h.transport = transportKindName(m_transport->kind());
    h.dispatchLagP90Ms = result.dispatchLagP90Ms;
    h.dispatchLagP99Ms = result.dispatchLagP99Ms;
    const std::vector<double> loopLag = m_transport->loopLag()->takeMs();
    h.loopTicks = static_cast<qint64>(loopLag.size());
    const LatencyStats loop = LatencyStats::compute(loopLag, { 90, 99 });
    h.loopLagP90Ms = loop.percentile(90).value_or(0.0);
    h.loopLagP99Ms = loop.percentile(99).value_or(0.0);
    h.loopLagMaxMs = loopLag.empty() ? 0.0 : *std::max_element(loopLag.begin(), loopLag.end());
    h.processCpuS = std::max(0.0, cpuAtEndS - m_cpuAtStartS);
    const double wallS = static_cast<double>(wallAtEndNs - m_t0) / 1e9;
    h.cpuCores = wallS > 0 ? h.processCpuS / wallS : 0.0;
    if (m_measured > 0)
        h.cpuPerRequestUs = h.processCpuS * 1e6 / double(m_measured);
    if (m_events > 0)
        h.cpuPerEventUs = h.processCpuS * 1e6 / double(m_events);
    // The workers' event loops falling behind delays every timestamp they take, even when dispatch
    // keeps to the schedule.
    if (result.clientBound) {
        h.reason = QStringLiteral("dispatch lag p90 %1 ms > %2 ms")
                       .arg(result.dispatchLagP90Ms, 0, 'f', 1)
                       .arg(kClientBoundLagMs);
    } else if (loopLag.size() >= kClientBoundMinSamples && h.loopLagP90Ms > kClientBoundLagMs) {
        result.clientBound = true;
        h.reason = QStringLiteral("worker event-loop lag p90 %1 ms > %2 ms")
                       .arg(h.loopLagP90Ms, 0, 'f', 1)
                       .arg(kClientBoundLagMs);
    }
    h.clientBound = result.clientBound;
}

} // namespace kp
