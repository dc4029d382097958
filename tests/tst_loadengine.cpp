// End to end: the real client against the real simulator on 127.0.0.1.
#include "client/probe.h"
#include "client/qnamtransport.h"
#include "client/requestbuilder.h"
#include "dataset/dataset.h"
#include "load/steprunner.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "support/livesweep.h"
#include "support/simclient.h"
#include "sweep/builtinsimulator.h"
#include "sweep/kneeanalysis.h" // SweepPoint
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <algorithm>
#include <map>
#include <ranges>

using namespace kp;
using namespace Qt::StringLiterals;
using kp::testing::getJson;
using kp::testing::truthByRequestId;

namespace {

constexpr int kStepTimeoutMs = 120000; // generous: a loaded 2-core machine must never fail on time

struct SimTarget
{
    sim::SimHost host;
    double timeScale = 1.0;
    bool start(sim::SimServerOptions options)
    {
        timeScale = options.timeScale;
        return host.start(options);
    }
};

StepConfig makeStep(const QUrl& base, Backend backend, const QString& model, int prompts, int inputLen, int outputLen)
{
    return testing::makeStep(base, backend, model, prompts, inputLen, outputLen, 7);
}

StepResult runStep(StepConfig step, TransportOptions transport = {})
{
    QnamTransport qnam(transport);
    StepRunner runner(&qnam, MetricsOptions {});
    QSignalSpy finished(&runner, &StepRunner::finished);
    runner.start(std::move(step));
    if (!finished.wait(kStepTimeoutMs))
        return {};
    return finished.takeFirst().at(0).value<StepResult>();
}

// Conversations of distinct words: a 3-word system prompt, 4-word user turns, 5-word recorded answers.
std::vector<Conversation> conversations(int count, int turns)
{
    std::vector<Conversation> out;
    for (int c = 0; c < count; ++c) {
        Conversation conv;
        conv.system = QStringLiteral("you are helpful");
        conv.systemTokens = 3;
        for (int t = 0; t < turns; ++t) {
            Turn turn;
            turn.user = QStringLiteral("c%1 t%2 asks this").arg(c).arg(t);
            turn.userTokens = 4;
            turn.answer = QStringLiteral("c%1 t%2 recorded answer here").arg(c).arg(t);
            turn.answerTokens = 5;
            turn.outputTokens = 6;
            conv.turns.push_back(turn);
        }
        out.push_back(conv);
    }
    return out;
}

// The records of each session, in turn order; checks that each turn went out after the previous one ended.
std::map<int, std::vector<RequestRecord>> bySession(const std::vector<RequestRecord>& records)
{
    std::map<int, std::vector<RequestRecord>> out;
    for (const RequestRecord& r : records)
        out[r.session].push_back(r);
    for (auto& entry : out)
        std::sort(entry.second.begin(), entry.second.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.turn < b.turn; });
    return out;
}

using testing::LiveSweep;

// Three (or as many as load.rates) all-at-once steps of 20 requests of 64 tokens, after 2 warm-ups.
Profile reuseProfile()
{
    Profile p;
    p.target.baseUrl = QStringLiteral("sim://small?time_scale=20&seed=3");
    p.target.backend = Backend::OpenAi;
    p.target.metricsUrl = QStringLiteral("off");
    p.workload.numPrompts = 20;
    p.workload.inputLen = 64;
    p.workload.outputLen = 4;
    p.workload.ignoreEos = true;
    p.load.rates = { std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::infinity() };
    p.load.warmupRequests = 2;
    return p;
}

LiveSweep runSimSweep(const Profile& profile, const std::function<void(SweepConfig&)>& adjust = {})
{
    return testing::runLiveSweep(profile, kStepTimeoutMs * 3, {}, adjust);
}

QStringList cacheNotes(const QStringList& notes)
{
    return notes.filter(QStringLiteral("prefix cache"));
}

} // namespace

class TestLoadEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { sim::raiseFileLimit(); }

    // Issue 39: by default every request of a sweep sends a prompt no earlier request sent, so a
    // prefix-caching server gets nothing from earlier steps (a shared prefix is shared on purpose).
    void syntheticSweepSendsNoPromptTwice_data()
    {
        QTest::addColumn<QString>("dataset");
        QTest::addRow("random") << u"random"_s;
        QTest::addRow("shared-prefix") << u"shared-prefix"_s;
    }
    void syntheticSweepSendsNoPromptTwice()
    {
        QFETCH(QString, dataset);
        Profile p = reuseProfile();
        p.workload.dataset = dataset;
        p.workload.prefixLen = dataset == u"shared-prefix" ? 32 : 0;
        p.workload.numPrefixes = 2;
        const LiveSweep run = runSimSweep(p);
        QVERIFY(run.finished);
        QCOMPARE(run.results.size(), std::size_t(3));
        for (const StepResult& r : run.results) {
            QCOMPARE(r.metrics.completed, 20);
            QCOMPARE(r.metrics.repeatedPrompts, 0);
            QCOMPARE(r.metrics.repeatedPromptShare(), 0.0);
            QVERIFY(isKnown(r.metrics.totalCachedTokens)); // the simulator reports cached_tokens
            if (dataset == u"random")
                QCOMPARE(r.metrics.totalCachedTokens, 0);
            else // the prefixes' blocks (two 16-token blocks each) and never a suffix's
                QVERIFY2(r.metrics.totalCachedTokens > 0 && r.metrics.totalCachedTokens <= 20 * 32,
                    qPrintable(QString::number(r.metrics.totalCachedTokens)));
        }
    }

    // prompt_pool 5: the requests draw from 5 prompts; the steps count their repeats exactly (warm-ups
    // send prompts but are not counted), and the cache feeds on them. Emptied between steps, the cache
    // gives the next step fewer hits.
    void promptPoolRepeatsAndCacheReset()
    {
        std::map<bool, LiveSweep> runs;
        for (const bool reset : { false, true }) {
            Profile p = reuseProfile();
            p.workload.promptPool = 5;
            p.load.rates.removeLast();
            p.load.resetCacheBetweenSteps = reset;
            runs[reset] = runSimSweep(p);
            const LiveSweep& run = runs[reset];
            QVERIFY(run.finished);
            QCOMPARE(run.results.size(), std::size_t(2));
            QVERIFY2(cacheNotes(run.notes).isEmpty(), qPrintable(run.notes.join(u'\n')));
            QCOMPARE(run.results[0].metrics.repeatedPrompts, 17); // 20 requests, 3 prompts the warm-ups did not send
            QCOMPARE(run.results[1].metrics.repeatedPrompts, 20);
            QCOMPARE(run.results[1].metrics.repeatedPromptShare(), 1.0);
            QVERIFY(run.results[1].metrics.totalCachedTokens > 0);
        }
        const qint64 kept = runs[false].results[1].metrics.totalCachedTokens;
        const qint64 emptied = runs[true].results[1].metrics.totalCachedTokens;
        qInfo("second step's cached tokens: %lld kept, %lld after a reset", kept, emptied);
        QVERIFY(kept > runs[false].results[0].metrics.totalCachedTokens); // every request hit, the first copies too
        QVERIFY(emptied < kept);
    }

    // A server without the endpoints: one note, and the sweep goes on.
    void refusedCacheResetIsNotedOnce()
    {
        Profile p = reuseProfile();
        p.load.resetCacheBetweenSteps = true;
        QList<QUrl> tried;
        const LiveSweep run = runSimSweep(p, [&tried](SweepConfig& config) {
            QCOMPARE(config.cacheResetUrls.size(), 2);
            QCOMPARE(config.cacheResetUrls[0].path(), u"/reset_prefix_cache"_s);
            QCOMPARE(config.cacheResetUrls[1].path(), u"/flush_cache"_s);
            for (QUrl& url : config.cacheResetUrls)
                url.setPath(url.path() + u"-missing"_s);
            tried = config.cacheResetUrls;
        });
        QVERIFY(run.finished);
        QCOMPARE(run.results.size(), std::size_t(3));
        const QStringList notes = cacheNotes(run.notes);
        QCOMPARE(notes.size(), 1);
        QVERIFY2(notes.front().contains(tried[1].toString()) && notes.front().contains(u"HTTP 404"_s),
            qPrintable(notes.front()));
    }

    void completesEveryPromptWithExactCounts_data()
    {
        QTest::addColumn<Backend>("backend");
        QTest::addRow("completions") << Backend::OpenAi;
        QTest::addRow("chat") << Backend::OpenAiChat;
    }

    // Every prompt completes; tokens match the server's count exactly; the client's TTFT and E2EL are
    // bounded below by the server's own (it cannot see a token before it is written) and close to it.
    void completesEveryPromptWithExactCounts()
    {
        QFETCH(Backend, backend);
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 20;
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        const QUrl base = sim.host.baseUrl();

        StepConfig step = makeStep(base, backend, options.params.modelId, 60, 32, 24);
        step.rate = 200; // 10 req/s of simulated load
        const StepResult result = runStep(step);
        QCOMPARE(result.records.size(), std::size_t(60));
        QCOMPARE(result.metrics.completed, 60);
        QCOMPARE(result.metrics.failed, 0);

        const auto truth = truthByRequestId(base);
        qint64 serverOutput = 0;
        std::vector<double> ttftExcessMs;
        for (const RequestRecord& r : result.records) {
            const auto it = truth.find(r.requestId);
            QVERIFY2(it != truth.end(), qPrintable(r.requestId));
            const QJsonObject& t = it->second;
            QCOMPARE(r.outputTokens, t.value(u"output_tokens").toInt());
            QVERIFY(r.outputTokensFromUsage);
            QCOMPARE(r.promptTokens, t.value(u"prompt_tokens").toInt()); // one word is one token on both sides
            QCOMPARE(r.serverPromptTokens, t.value(u"prompt_tokens").toInt());
            // One choices event per token; chat streams open with the role delta, which counts (METRICS.md).
            const qsizetype roleEvent = backend == Backend::OpenAiChat ? 1 : 0;
            QCOMPARE(qsizetype(r.chunkNs.size()), t.value(u"token_ms").toArray().size() + roleEvent);
            serverOutput += t.value(u"output_tokens").toInt();

            const double accepted = t.value(u"accepted_ms").toDouble();
            const double serverTtftWallMs = (t.value(u"first_token_ms").toDouble() - accepted) / sim.timeScale;
            const QJsonArray tokenMs = t.value(u"token_ms").toArray();
            const double serverLastWallMs = (tokenMs.last().toDouble() - accepted) / sim.timeScale;
            const double clientTtftMs = double(r.firstTokenNs - r.sentNs) / 1e6;
            const double clientE2elMs = double(r.lastTokenNs - r.sentNs) / 1e6;
            const double epsilonMs = 0.05; // the server rounds its times
            QVERIFY2(clientTtftMs + epsilonMs >= serverTtftWallMs,
                qPrintable(QStringLiteral("%1: client TTFT %2 ms < server %3 ms")
                               .arg(r.requestId)
                               .arg(clientTtftMs)
                               .arg(serverTtftWallMs)));
            QVERIFY2(clientE2elMs + epsilonMs >= serverLastWallMs,
                qPrintable(QStringLiteral("%1: client E2EL %2 ms < server %3 ms")
                               .arg(r.requestId)
                               .arg(clientE2elMs)
                               .arg(serverLastWallMs)));
            ttftExcessMs.push_back(clientTtftMs - serverTtftWallMs);
        }
        QCOMPARE(result.metrics.totalOutputTokens, serverOutput);
        std::nth_element(ttftExcessMs.begin(), ttftExcessMs.begin() + ttftExcessMs.size() / 2, ttftExcessMs.end());
        const double medianExcess = ttftExcessMs[ttftExcessMs.size() / 2];
        // Network and client overhead on loopback: a few ms; the band allows a loaded machine.
        QVERIFY2(medianExcess < 50.0, qPrintable(QStringLiteral("median TTFT excess %1 ms").arg(medianExcess)));
    }

    // A model mix spreads the step over LoRA adapters the server lists: the seeded split exactly (checked by
    // hand for seed 11: 135 and 65 of 200), each request naming its model in the body (an adapter the
    // server lacks is a 404), and a per-model breakdown whose counts add up to the step's.
    void modelMixSplitsTheStep()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 50;
        options.params.loraModules = { u"sql-lora"_s, u"chat-lora"_s };
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        const QUrl base = sim.host.baseUrl();
        const QJsonArray models = getJson(base.resolved(QUrl(u"/v1/models"_s))).value(u"data").toArray();
        QCOMPARE(models.size(), 3);
        QCOMPARE(models.at(1).toObject().value(u"id").toString(), u"sql-lora"_s);
        QCOMPARE(models.at(1).toObject().value(u"parent").toString(), options.params.modelId);
        QCOMPARE(models.at(2).toObject().value(u"id").toString(), u"chat-lora"_s);

        StepConfig step = makeStep(base, Backend::OpenAiChat, options.params.modelId, 200, 8, 4);
        step.request.modelMix = parseModelMix(u"sql-lora:0.7,chat-lora:0.3"_s).shares;
        step.request.modelMixSeed = 11;
        const StepResult result = runStep(step);
        QCOMPARE(result.records.size(), std::size_t(200));
        QCOMPARE(result.metrics.completed, 200);
        std::map<QString, int> sent;
        for (const RequestRecord& r : result.records)
            ++sent[r.model];
        QCOMPARE(sent, (std::map<QString, int> { { u"chat-lora"_s, 65 }, { u"sql-lora"_s, 135 } }));
        QCOMPARE(result.metrics.perModel.size(), std::size_t(2));
        const ModelMetrics& chat = result.metrics.perModel[0];
        const ModelMetrics& sql = result.metrics.perModel[1];
        QCOMPARE(chat.model, u"chat-lora"_s);
        QCOMPARE(chat.completed, 65);
        QCOMPARE(sql.model, u"sql-lora"_s);
        QCOMPARE(sql.completed, 135);
        QCOMPARE(chat.totalOutputTokens + sql.totalOutputTokens, result.metrics.totalOutputTokens);
        QCOMPARE(chat.ttft.count + sql.ttft.count, result.metrics.ttft.count);
        QVERIFY(qAbs(chat.requestThroughput + sql.requestThroughput - result.metrics.requestThroughput) < 1e-9);

        // A name the server does not serve: those requests fail, the others do not.
        step.request.modelMix = parseModelMix(u"sql-lora:0.7,missing-lora:0.3"_s).shares;
        const StepResult missing = runStep(step);
        QCOMPARE(missing.metrics.completed, 135);
        QCOMPARE(missing.metrics.failed, 65);
        QCOMPARE(missing.metrics.failuresByClass.at(FailureClass::HttpNotFound), 65);
        QCOMPARE(missing.metrics.perModel[0].model, u"missing-lora"_s);
        QCOMPARE(missing.metrics.perModel[0].failed, 65);
        QCOMPARE(missing.metrics.perModel[0].completed, 0);
        QCOMPARE(missing.metrics.perModel[1].completed, 135);

        // Without a mix the records name no model and the step has no breakdown.
        step.request.modelMix.clear();
        const StepResult plain = runStep(step);
        QCOMPARE(plain.metrics.completed, 200);
        QVERIFY(plain.metrics.perModel.empty());
        QVERIFY(plain.records.front().model.isEmpty());
    }

    // "max_concurrency 256" means the server sees exactly 256 requests in flight, no more, no fewer.
    void maxConcurrencyIsReachedExactly()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        // At 8x the first request ends some 0.3-1 s after the 256th is sent (within 0.1 s, also on two busy
        // cores), so every slot is taken before one frees; the 64 requests past the limit wait for one.
        options.timeScale = 8;
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        StepConfig step = makeStep(sim.host.baseUrl(), Backend::OpenAi, options.params.modelId, 320, 8, 200);
        step.rate = std::numeric_limits<double>::infinity();
        step.maxConcurrency = 256;
        const StepResult result = runStep(step);
        QCOMPARE(result.metrics.completed, 320);
        QCOMPARE(sim.host.server()->peakInFlight(), 256);
    }

    // Sessions at a rate: 13 turns from conversations of 3 turns are 4 whole sessions and the first turn of a
    // fifth; each turn carries the history (system, earlier user turns, the recorded answers) and leaves
    // only after the previous answer ended.
    void multiTurnSessionsCarryTheirHistory()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 20;
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        StepConfig step = makeStep(sim.host.baseUrl(), Backend::OpenAi, options.params.modelId, 13, 8, 6);
        step.prompts.clear();
        step.sessions = conversations(5, 3);
        step.rate = 100;
        const StepResult result = runStep(step);
        QCOMPARE(result.records.size(), std::size_t(13));
        QCOMPARE(result.metrics.completed, 13);
        QCOMPARE(result.metrics.numSessions, 5);
        QCOMPARE(result.metrics.firstTurns.completed, 5);
        QCOMPARE(result.metrics.laterTurns.completed, 8);
        // Turn 3 of the four whole sessions finds turn 2's first block (16 of its 25 tokens) cached.
        QCOMPARE(result.metrics.totalCachedTokens, 4 * 16);
        QCOMPARE(result.metrics.totalInputTokens, 4 * (7 + 16 + 25) + 7);
        const auto truth = truthByRequestId(sim.host.baseUrl());
        const auto sessions = bySession(result.records);
        QCOMPARE(sessions.size(), std::size_t(5));
        for (const auto& [session, turns] : sessions) {
            QCOMPARE(int(turns.size()), session < 4 ? 3 : 1);
            for (std::size_t k = 0; k < turns.size(); ++k) {
                const RequestRecord& r = turns[k];
                QCOMPARE(r.turn, int(k) + 1);
                // system + k earlier turns (user + recorded answer) + this user turn
                QCOMPARE(r.promptTokens, 3 + int(k) * (4 + 5) + 4);
                QCOMPARE(truth.at(r.requestId).value(u"prompt_tokens").toInt(), r.promptTokens);
                // The server's prefix cache holds the full 16-token blocks of the previous turn's prompt.
                QCOMPARE(r.cachedTokens, k == 0 ? 0 : turns[k - 1].promptTokens / 16 * 16);
                if (k > 0)
                    QVERIFY2(r.sentNs >= turns[k - 1].endNs, qPrintable(r.requestId));
            }
        }
    }

    // Users in a closed loop run whole conversations with a think time between turns; live history puts
    // the server's own answer in the next turn's prompt.
    void multiTurnUsersThinkAndUseLiveAnswers()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 20;
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        StepConfig step = makeStep(sim.host.baseUrl(), Backend::OpenAi, options.params.modelId, 12, 8, 6);
        step.prompts.clear();
        step.sessions = conversations(4, 3);
        step.request.ignoreEos = false; // answers of varying length: the live history differs from the recorded one
        step.mode = LoadMode::Concurrency;
        step.concurrency = 2;
        step.thinkTimeS = 0.02;
        step.liveHistory = true;
        const StepResult result = runStep(step);
        QCOMPARE(result.metrics.completed, 12);
        QCOMPARE(result.metrics.numSessions, 4);
        QVERIFY(sim.host.server()->peakInFlight() <= 2);
        const auto truth = truthByRequestId(sim.host.baseUrl());
        for (const auto& [session, turns] : bySession(result.records)) {
            QCOMPARE(turns.size(), std::size_t(3));
            int history = 3;
            for (const RequestRecord& r : turns) {
                QCOMPARE(r.promptTokens, history + 4);
                QCOMPARE(truth.at(r.requestId).value(u"prompt_tokens").toInt(), r.promptTokens);
                QCOMPARE(countWords(r.generatedText), r.outputTokens);
                history += 4 + r.outputTokens;
            }
            QVERIFY(turns[1].sentNs >= turns[0].endNs);
            QVERIFY(turns[2].sentNs >= turns[1].endNs);
        }
    }

    // The same conversations against the simulator with its prefix cache on and off: every turn of every
    // session starts with the same 1,000-token system prompt and carries its history, so the cache saves
    // most of the prefill and the knee comes at a higher rate. Past the knee the running sequences crowd
    // the cached blocks out of the KV cache and the hit rate falls.
    void prefixCacheRaisesTheKnee()
    {
        QStringList systemWords;
        for (int i = 0; i < 400; ++i)
            systemWords << QStringLiteral("rule%1").arg(i % 97);
        std::vector<Conversation> sessions = conversations(64, 4);
        for (Conversation& c : sessions) {
            c.system = systemWords.join(u' ');
            c.systemTokens = 400;
            for (Turn& t : c.turns) {
                // 100 words of the session's own: its history competes for the KV cache with everyone else's.
                QStringList words;
                for (int i = 0; i < 296; ++i)
                    words << QStringLiteral("%1w%2").arg(t.user.section(u' ', 0, 1).remove(u' ')).arg(i);
                t.user += u' ' + words.join(u' ');
                t.userTokens += 296;
                t.outputTokens = 16;
            }
        }
        const double timeScale = 5;
        // Sessions per simulated second: the first step already far below the knee (its hit rate is the
        // cache's best, its median TTFT well within the SLO also without the cache).
        const std::vector<double> simRates = { 4, 8, 16, 32, 64 };
        std::map<bool, std::vector<SweepPoint>> curves;
        for (const bool cache : { true, false }) {
            SimTarget sim;
            sim::SimServerOptions options;
            options.timeScale = timeScale;
            options.params.prefixCache = cache;
            options.params.kvCapacityTokens = 24000; // some 15 sessions' histories: past the knee they evict
            QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
            for (const double rate : simRates) {
                StepConfig step = makeStep(sim.host.baseUrl(), Backend::OpenAiChat, options.params.modelId, 160, 8, 16);
                step.prompts.clear();
                step.sessions = sessions;
                for (Conversation& c : step.sessions) // new conversations at every step, the same system prompt
                    c.turns.front().user.prepend(QStringLiteral("step%1 ").arg(rate));
                step.rate = rate * timeScale;
                step.seed = 3;
                const StepResult result = runStep(step);
                QCOMPARE(result.metrics.completed, 160);
                // On the server's clock; the load axis is in requests: 4 turns per session.
                SweepPoint point = SweepPoint::fromResult(result);
                QCOMPARE(point.offered, rate * timeScale * 4);
                point.offered /= timeScale;
                point.metrics.requestThroughput /= timeScale;
                point.metrics.outputThroughput /= timeScale;
                for (double& ms : point.metrics.ttft.percentiles | std::views::values)
                    ms *= timeScale;
                point.metrics.ttft.mean *= timeScale;
                point.metrics.ttft.median *= timeScale;
                curves[cache].push_back(point);
                qInfo("cache %s, %g sessions/s: %.1f req/s, median TTFT %.0f ms, hit rate %.2f", cache ? "on" : "off",
                    rate, point.metrics.requestThroughput, point.metrics.ttft.median,
                    result.metrics.prefixCacheHitRate());
                QCOMPARE(isKnown(result.metrics.totalCachedTokens), true);
                if (!cache)
                    QCOMPARE(result.metrics.totalCachedTokens, 0);
            }
        }
        // Capacity under a median TTFT of 150 ms (server time), as the analysis finds it. The median, not a
        // tail, so that a busy machine's client delays (times the time scale) cannot decide it.
        AnalysisOptions analysis;
        analysis.percentile = 50;
        analysis.slo.ttftMs = 150;
        analysis.slo.percentile = 50;
        const AnalysisResult on = KneeAnalysis::analyze(curves[true], analysis);
        const AnalysisResult off = KneeAnalysis::analyze(curves[false], analysis);
        qInfo("SLO capacity: cache on %g req/s%s, off %g req/s", on.sloCapacity.offered,
            on.sloCapacity.lowerBound ? " (at least)" : "", off.sloCapacity.offered);
        QVERIFY2(off.sloCapacity.found, qPrintable(off.sloCapacity.reason.text()));
        QVERIFY2(on.sloCapacity.found, qPrintable(on.sloCapacity.reason.text()));
        QVERIFY(on.sloCapacity.offered > 2 * off.sloCapacity.offered);
        // Capacity: at the top rate the cached server keeps up far better.
        QVERIFY(curves[true].back().metrics.requestThroughput > 1.25 * curves[false].back().metrics.requestThroughput);
        const double firstHit = curves[true].front().metrics.prefixCacheHitRate();
        const double lastHit = curves[true].back().metrics.prefixCacheHitRate();
        QVERIFY2(lastHit < firstHit - 0.1, qPrintable(QStringLiteral("hit rate %1 -> %2").arg(firstHit).arg(lastHit)));
    }

    // A reasoning model: its thinking streams first (delta.reasoning_content); TTFT is the first token of
    // any kind, TTFC the first answer token, and the reasoning tokens are the server's usage count.
    void reasoningModelsSeparateTtfcFromTtft()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 4;
        options.reasoning = { 8, 8 };
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        const QUrl base = sim.host.baseUrl();
        StepConfig step = makeStep(base, Backend::OpenAiChat, options.params.modelId, 24, 16, 24);
        step.rate = 40;
        const StepResult result = runStep(step);
        QCOMPARE(result.metrics.completed, 24);
        QCOMPARE(result.metrics.totalReasoningTokens, 24 * 8);
        QCOMPARE(result.metrics.reasoningTokensReported, 24);
        QCOMPARE(result.metrics.shortOutputs, 0); // ignore_eos: every answer ran to max_tokens
        QCOMPARE(result.metrics.ignoreEos, std::optional<bool>(true));

        const auto truth = truthByRequestId(base);
        std::vector<double> clientGapMs, serverGapMs;
        for (const RequestRecord& r : result.records) {
            const QJsonObject& t = truth.at(r.requestId);
            QCOMPARE(r.reasoningTokens, 8);
            QCOMPARE(t.value(u"reasoning_tokens").toInt(), 8);
            QCOMPARE(r.outputTokens, t.value(u"output_tokens").toInt()); // reasoning included, as vLLM counts
            QCOMPARE(r.requestedOutputTokens, t.value(u"max_tokens").toInt());
            QCOMPARE(r.outputTokens, r.requestedOutputTokens);
            // The role delta and the 8 reasoning events come first: the answer starts at the tenth event.
            QVERIFY(r.chunkNs.size() > 9);
            QCOMPARE(r.firstTokenNs, r.chunkNs.front());
            QCOMPARE(r.firstContentNs, r.chunkNs[9]);
            QVERIFY(!r.generatedText.isEmpty());
            const QJsonArray tokenMs = t.value(u"token_ms").toArray();
            serverGapMs.push_back((tokenMs[8].toDouble() - tokenMs[0].toDouble()) / sim.timeScale);
            clientGapMs.push_back(double(r.firstContentNs - r.firstTokenNs) / 1e6);
        }
        // TTFC follows TTFT by the reasoning tokens' decode time, as the server spent it.
        const auto median = [](std::vector<double> v) {
            std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
            return v[v.size() / 2];
        };
        const double server = median(serverGapMs);
        const double client = median(clientGapMs);
        QVERIFY2(server > 0, qPrintable(QString::number(server)));
        QVERIFY2(client > 0.5 * server && client < 2.0 * server + 20.0,
            qPrintable(QStringLiteral("TTFC - TTFT: client %1 ms, server %2 ms").arg(client).arg(server)));
        QVERIFY(result.metrics.firstContentTtft.mean > result.metrics.ttft.mean);
    }

    // Without ignore_eos the simulated model stops early on its own: the step counts the answers shorter than
    // their max_tokens exactly as the server ended them.
    void shortOutputsAreCountedExactly_data()
    {
        QTest::addColumn<bool>("ignoreEos");
        QTest::addRow("ignore_eos") << true;
        QTest::addRow("eos honoured") << false;
    }

    void shortOutputsAreCountedExactly()
    {
        QFETCH(bool, ignoreEos);
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 20;
        options.seed = 3;
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        const QUrl base = sim.host.baseUrl();
        StepConfig step = makeStep(base, Backend::OpenAi, options.params.modelId, 40, 16, 32);
        step.request.ignoreEos = ignoreEos;
        step.rate = 200;
        const StepResult result = runStep(step);
        QCOMPARE(result.metrics.completed, 40);
        qint64 serverShort = 0;
        for (const auto& [id, t] : truthByRequestId(base))
            serverShort += t.value(u"output_tokens").toInt() < t.value(u"max_tokens").toInt() ? 1 : 0;
        QCOMPARE(result.metrics.outputLimitsKnown, 40);
        QCOMPARE(result.metrics.shortOutputs, serverShort);
        if (ignoreEos)
            QCOMPARE(serverShort, 0);
        else
            QVERIFY2(serverShort > 0 && serverShort < 40, qPrintable(QString::number(serverShort)));
    }

    void closedLoopKeepsUsersInFlight()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 8;
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));
        StepConfig step = makeStep(sim.host.baseUrl(), Backend::OpenAiChat, options.params.modelId, 96, 8, 100);
        step.mode = LoadMode::Concurrency;
        step.concurrency = 24;
        const StepResult result = runStep(step);
        QCOMPARE(result.metrics.completed, 96);
        QCOMPARE(sim.host.server()->peakInFlight(), 24);
    }

    void failuresAreClassified_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("serverKey");
        QTest::addColumn<QString>("clientKey");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<double>("idleTimeoutS");
        QTest::addColumn<FailureClass>("expected");
        QTest::addColumn<QString>("messagePart");
        QTest::addColumn<QString>("hintPart");
        const QString model = QStringLiteral("kneepoint/sim-default");
        const QString none;
        QTest::addRow("401 without a key")
            << none << QStringLiteral("secret") << none << model << none << 0.0 << FailureClass::HttpAuth
            << QStringLiteral("HTTP 401") << QStringLiteral("No Authorization header was sent");
        QTest::addRow("401 with a wrong key")
            << none << QStringLiteral("secret") << QStringLiteral("wrong") << model << none << 0.0
            << FailureClass::HttpAuth << QStringLiteral("HTTP 401") << QStringLiteral("refused the key");
        QTest::addRow("404 model") << none << none << none << QStringLiteral("no-such-model") << none << 0.0
                                   << FailureClass::HttpNotFound << QStringLiteral("no-such-model")
                                   << QStringLiteral("the server lists: kneepoint/sim-default");
        QTest::addRow("404 path") << none << none << none << model << QStringLiteral("/v1/nothing") << 0.0
                                  << FailureClass::HttpNotFound << QStringLiteral("HTTP 404")
                                  << QStringLiteral("endpoint path");
        QTest::addRow("500") << QStringLiteral("500:1") << none << none << model << none << 0.0
                             << FailureClass::HttpServerError << QStringLiteral("HTTP 500") << QString();
        QTest::addRow("503") << QStringLiteral("503:1") << none << none << model << none << 0.0
                             << FailureClass::HttpServerError << QStringLiteral("HTTP 503") << QString();
        QTest::addRow("429") << QStringLiteral("429:1") << none << none << model << none << 0.0
                             << FailureClass::HttpRateLimited << QStringLiteral("HTTP 429")
                             << QStringLiteral("rate-limits");
        QTest::addRow("error body") << QStringLiteral("error-body:1") << none << none << model << none << 0.0
                                    << FailureClass::ErrorBody << QStringLiteral("error") << QString();
        QTest::addRow("malformed") << QStringLiteral("malformed:1") << none << none << model << none << 0.0
                                   << FailureClass::MalformedStream << QStringLiteral("malformed") << QString();
        QTest::addRow("cut") << QStringLiteral("cut:1") << none << none << model << none << 0.0
                             << FailureClass::StreamCut << QStringLiteral("before [DONE]") << QString();
        QTest::addRow("stall past the idle timeout")
            << QStringLiteral("stall:1:20") << none << none << model << none << 0.3 << FailureClass::IdleTimeout
            << QStringLiteral("0.3 s between chunks") << QString();
    }

    void failuresAreClassified()
    {
        QFETCH(QString, fault);
        QFETCH(QString, serverKey);
        QFETCH(QString, clientKey);
        QFETCH(QString, model);
        QFETCH(QString, endpoint);
        QFETCH(double, idleTimeoutS);
        QFETCH(FailureClass, expected);
        QFETCH(QString, messagePart);
        QFETCH(QString, hintPart);

        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 10;
        options.apiKey = serverKey;
        if (!fault.isEmpty())
            QCOMPARE(sim::applyFaultSpec(fault, options.faults), QString());
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));

        StepConfig step = makeStep(sim.host.baseUrl(), Backend::OpenAi, model, 4, 8, 40);
        if (!endpoint.isEmpty())
            step.request.url = sim.host.baseUrl().resolved(QUrl(endpoint));
        if (!clientKey.isEmpty())
            step.request.headers.append({ QByteArrayLiteral("Authorization"), "Bearer " + clientKey.toUtf8() });
        TransportOptions transport;
        transport.timeouts.idleS = idleTimeoutS;
        const StepResult result = runStep(step, transport);
        QCOMPARE(result.records.size(), std::size_t(4));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, expected);
            QVERIFY2(r.errorMessage.contains(messagePart, Qt::CaseInsensitive), qPrintable(r.errorMessage));
            QVERIFY(!r.errorMessage.contains(QStringLiteral("secret")));
            if (!hintPart.isEmpty()) {
                const QString hint = failureHint(r, step.request.headers, { QStringLiteral("kneepoint/sim-default") });
                QVERIFY2(hint.contains(hintPart), qPrintable(hint));
            }
        }
        QCOMPARE(result.metrics.failed, 4);
        QCOMPARE(result.metrics.failuresByClass.at(expected), 4);
    }

    void connectionRefusedNamesHostAndPort()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close(); // nothing listens there now
        const QUrl base(QStringLiteral("http://127.0.0.1:%1").arg(port));
        StepConfig step = makeStep(base, Backend::OpenAi, QStringLiteral("m"), 3, 8, 8);
        const StepResult result = runStep(step);
        QCOMPARE(result.records.size(), std::size_t(3));
        for (const RequestRecord& r : result.records) {
            QCOMPARE(r.failure, FailureClass::ConnectionRefused);
            QVERIFY2(r.errorMessage.contains(QStringLiteral("127.0.0.1:%1").arg(port)), qPrintable(r.errorMessage));
            QVERIFY(failureHint(r, {}, {}).contains(QStringLiteral("port")));
        }
    }

    void probeReportsEachCheck()
    {
        SimTarget sim;
        sim::SimServerOptions options;
        options.timeScale = 10;
        options.apiKey = QStringLiteral("secret");
        QVERIFY2(sim.start(options), qPrintable(sim.host.errorString()));

        auto runProbe = [&](const QByteArray& key) {
            ProbeTarget target;
            target.target.baseUrl = sim.host.baseUrl().toString();
            target.target.backend = Backend::OpenAiChat;
            if (!key.isEmpty())
                target.headers.append({ QByteArrayLiteral("Authorization"), "Bearer " + key });
            Probe probe;
            QSignalSpy done(&probe, &Probe::finished);
            probe.start(target);
            if (done.isEmpty())
                done.wait(60000);
            return done.takeFirst().at(0).value<ProbeReport>();
        };
        const ProbeReport good = runProbe("secret");
        QVERIFY(good.ok());
        QCOMPARE(good.checks.size(), 3);
        QCOMPARE(good.models, QStringList { options.params.modelId });
        for (const ProbeCheck& c : good.checks)
            QVERIFY2(c.ok, qPrintable(c.name + QStringLiteral(": ") + c.detail));

        const ProbeReport unauthorised = runProbe({});
        QVERIFY(!unauthorised.ok());
        QVERIFY(unauthorised.reachable());
        QVERIFY(unauthorised.checks.at(1).hint.contains(QStringLiteral("No Authorization header")));
    }
};

QTEST_GUILESS_MAIN(TestLoadEngine)
#include "tst_loadengine.moc"
