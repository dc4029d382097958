#pragma once

#include "client/requestbuilder.h"
#include "client/transport.h"
#include "dataset/dataset.h"
#include "load/arrivalschedule.h"
#include "load/deadlinetimer.h"
#include "load/soakwindow.h"
#include "metrics/requestrecord.h"
#include "metrics/stepmetrics.h"
#include "profile/profile.h"
#include "telemetry/servermetrics.h"

#include <QDateTime>
#include <QObject>
#include <QTimer>

#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace kp {

// One load level.
struct StepConfig
{
    int index = 0;
    QString purpose; // why the sweep runs this step: coarse, floor, ceiling, refine, repeat
    QString detail; // the same in words
    LoadMode mode = LoadMode::Rate;
    double rate = std::numeric_limits<double>::infinity(); // req/s (Rate mode); inf = all at once
    double burstiness = 1.0; // gamma shape; 1 = Poisson
    int concurrency = 1; // users (Concurrency mode)
    std::optional<int> maxConcurrency; // gate on requests in flight (Rate mode)
    int numPrompts = 100; // requests in the step
    double durationS = 0.0; // Concurrency mode: no new request after this long (0 = until numPrompts)
    double rampUpS = 0.0; // linear ramp of the rate from ~0 to rate over this time
    int warmupRequests = 0; // sent before the step, excluded from its metrics
    quint64 seed = 0;
    RequestTemplate request;
    // The step's n-th prompt (warm-ups first, then the measured requests) is the one at run position
    // runOffset + promptStart + n * promptStride, prompts[position % size]; with freshPrompts its text is
    // made for that position (freshText), so no two positions send the same prompt.
    std::vector<Prompt> prompts;
    int promptStart = 0; // a shard's first request in the single client's order
    int promptStride = 1; // the number of shards
    // Positions the run used before this step, in the single client's order (SweepRunner sets it; a
    // replayed log starts again at its first line every step).
    qint64 runOffset = 0;
    // Positions this step takes from the run when it sends a fixed count (all shards' requests and
    // warm-ups; SweepRunner::makeStep); 0: as many as this client used (duration-bound steps).
    qint64 runPositions = 0;
    bool freshPrompts = false; // synthetic prompts or sessions made anew for every position (workload.prompt_pool 0)
    // Log replay (prompts carry atNs): the schedule is the log's, at the rate (finite) or at this speed (rate inf).
    double replaySpeed = 1.0;
    quint64 textSeed = 0; // trace prompts (hashIds): the seed of their block text (promptText)
    // Multi-turn (sessions set, prompts empty): the rate or the users start sessions; session k is
    // sessions[(promptStart + k * promptStride) % size]; its turns go in order, each with the history so
    // far, the next one a think time after the previous answer ended. Session k takes the step's k-th position
    // (after the warm-ups). numPrompts counts turns: the last
    // session to start is cut short so that exactly numPrompts requests are sent.
    std::vector<Conversation> sessions;
    qint64 datasetSkipped = 0; // malformed lines or conversations the dataset skipped (bad_lines "skip")
    bool liveHistory = false; // the history carries the server's answers instead of the dataset's
    double thinkTimeS = 0.0; // mean of the exponential think time
    // A soak (load.mode soak): every windowS seconds the requests that ended in the window are measured
    // (windowFinished) and dropped, so memory does not grow with the step; the step's records are not
    // kept (StepResult::records stays empty; requestFinished has them all). 0: a plain step.
    double windowS = 0.0;
    bool isReplay() const { return !prompts.empty() && prompts.front().atNs >= 0; }
    bool isMultiTurn() const { return !sessions.empty(); }
};

// One finished request, for the live view of the current step.
struct LatencySample
{
    double atS = 0; // when it ended, seconds from the step start
    double ttftMs = 0; // 0 when it failed before the first token
    double e2elMs = 0;
    bool ok = true;
};

// What the GUI and the CLI see while a step runs, published a few times a second.
struct LiveSnapshot
{
    int step = 0;
    bool warmingUp = false;
    double elapsedS = 0;
    int planned = 0;
    int sent = 0;
    int completed = 0;
    int failed = 0;
    int inFlight = 0;
    int outputTokens = 0;
    std::vector<LatencySample> recent; // requests finished since the previous snapshot
};

struct StepResult
{
    StepConfig config; // prompts cleared
    QDateTime startedAt; // wall clock, for file names and the result's date
    double startedUnixS = 0; // the records' zero on the wall clock (seconds since the epoch, microseconds)
    double durationS = 0;
    bool partial = false; // stopped before every request ended
    std::vector<RequestRecord> records; // in completion order; times relative to the step start; empty for a soak
    int windows = 0; // a soak's windows (SoakTotals: its metrics come from them)
    StepMetrics metrics;
    double dispatchLagP99Ms = 0; // timer + hand-off lag of requests that did not wait at the gate
    double dispatchLagP90Ms = 0;
    bool clientBound = false; // the client could not keep to the schedule: the curve there measures it
    StepTelemetry server; // the server's /metrics while the step ran (SweepRunner fills it); empty without
    qint64 positionsUsed = 0; // run positions this client took: warm-ups and requests (sessions) started
};

// Runs one load level through a Transport. Lives in (and must be used from) one thread with an
// event loop; the transport's finished() reaches it queued. One StepRunner serves one run: it remembers
// which prompts the run sent, so that each step can say how many of its requests repeated one
// (StepMetrics::repeatedPrompts).
class StepRunner : public QObject
{
    Q_OBJECT
public:
    StepRunner(Transport* transport, MetricsOptions options, QObject* parent = nullptr);

    void start(StepConfig config);
    // Cancels what is in flight, each request recording `why` (default "cancelled by the user");
    // the step ends as partial.
    void stop(const QString& why = {});
    bool isRunning() const { return m_running; }

    // A step is client-bound when the 90th percentile of its dispatch lag (over at least
    // kClientBoundMinSamples requests) passes this: a systematic lag, not one late timer.
    static constexpr double kClientBoundLagMs = 25.0;
    static constexpr std::size_t kClientBoundMinSamples = 20;
    // With a transport that holds requests until their time (Transport::holdsUntilScheduled), an open-
    // loop step without a concurrency gate hands each request over up to this long before it is due:
    // the controller wakes once per half window for all its arrivals, and the worker sends each on time.
    static constexpr qint64 kHandAheadNs = 10'000'000;
    // Such a step at this rate or more takes its records every kPullIntervalMs (Transport::pullRecords)
    // instead of being woken for each: at least two a time on average.
    static constexpr int kPullIntervalMs = 5;
    static constexpr double kPullFromRate = 400.0;

Q_SIGNALS:
    void snapshot(const kp::LiveSnapshot& snapshot);
    void requestFinished(const kp::RequestRecord& record); // measured requests only, times step-relative
    void finished(const kp::StepResult& result);
    void windowFinished(const kp::SoakWindow& window); // a soak's windows, before finished() for the last

private:
    void onRecord(const RequestRecord& record);
    void beginMeasured();
    void dispatchDue();
    void sendOne(qint64 scheduledNs, bool gated, int session = -1);
    // Warm-up requests have negative indices: their records are not measured.
    HttpRequest makeRequest(int promptIndex, qint64 index, const QString& id, qint64 scheduledNs) const;
    // The run position of the step's n-th prompt (warm-ups first).
    qint64 positionOf(qint64 n) const
    {
        return m_config.runOffset + m_config.promptStart + n * qint64(std::max(1, m_config.promptStride));
    }
    // Marks the prompt at this position as sent; true when the run had sent it before.
    bool notePromptSent(qint64 position);
    // Marks turn (0-based) of the session at this position as sent; true when the run had sent it before.
    bool noteTurnSent(qint64 position, int turn);
    HttpRequest requestShell(qint64 index, const QString& id, qint64 scheduledNs) const; // all but body and tokens
    // The request template for the prompt at this position: the step's, or under a model mix a copy with
    // the drawn model (in scratch), whose name req keeps.
    const RequestTemplate& templateFor(qint64 position, RequestTemplate& scratch, HttpRequest& req) const;
    HttpRequest makeTurnRequest(int session, qint64 index, const QString& id, qint64 scheduledNs) const;
    // Multi-turn: starts a session (its first turn is due at scheduledNs) if turns are left to give it.
    bool startSession(qint64 scheduledNs);
    // Sends the session's next turn now, or queues it at the concurrency gate.
    void sendTurn(int session, qint64 scheduledNs);
    void turnEnded(const RequestRecord& record, int session, qint64 now);
    bool allSent(qint64 now) const;
    void armDispatchTimer();
    void publish();
    bool concurrencyDone(qint64 now) const;
    void finish();
    // A soak: measures the window's requests that ended before endNs (all of them when last) and drops them.
    void closeWindow(qint64 endNs, bool last);
    void armWindowTimer();
    int handedAhead(qint64 now); // requests handed to the transport before their time, not yet due
    // The client's own health (result.metrics.clientHealth), from the process CPU and the clock at the last
    // completion.
    void recordHealth(StepResult& result, double cpuAtEndS, qint64 wallAtEndNs);

    Transport* m_transport;
    MetricsOptions m_metricsOptions;
    StepConfig m_config;
    BodyWriter m_bodies; // m_config.request's bodies
    QString m_idPrefix; // "kneepoint-STEP-": each request's id is this and its number
    bool m_running = false;
    bool m_warmingUp = false;
    bool m_stopping = false;
    int m_warmupLeft = 0;
    QDateTime m_startedAt;
    qint64 m_startedUnixUs = 0;
    qint64 m_t0 = 0;
    double m_cpuAtStartS = 0; // process CPU when the measured step began
    ArrivalStream m_arrivals; // send times still to come (Rate mode), relative to m_t0
    // Requests waiting at the concurrency gate: scheduled time and session (-1: single-turn).
    std::deque<std::pair<qint64, int>> m_gated;
    // Multi-turn.
    struct ActiveSession
    {
        int conversation = 0; // index into m_config.sessions
        int nextTurn = 0; // 0-based turn to send next
        int turnsLeft = 0; // turns this session still sends (nextTurn included)
        std::vector<QString> liveAnswers; // live history: the server's answer to each turn sent so far
        qint64 position = 0; // its run position
        std::optional<Conversation> fresh; // freshPrompts: its own text, made when it starts, dropped when it ends
    };
    std::vector<ActiveSession> m_sessions; // by session number
    std::vector<std::pair<int, int>> m_requestTurn; // per request index: session number and turn (1-based)
    std::multimap<qint64, int> m_turnsDue; // next turns waiting out their think time: due (absolute ns) → session
    int m_reserved = 0; // turns the started sessions will send
    std::mt19937_64 m_thinkRng;
    // Per request index, a bit each (a soak of ten million requests holds 2.5 MB of them):
    std::vector<bool> m_wasGated; // it waited at the gate (its lag is not the client's)
    std::vector<bool> m_repeated; // its prompt was sent before in this run
    qint64 m_repeatedCount = 0; // measured requests that ended with a repeated prompt
    // The run's ledger of sent prompts, by prompt id (Prompt::id, else its place in the list) and, for
    // sessions, the turns of each conversation sent so far: as large as the dataset, not the run.
    std::vector<char> m_promptSent;
    std::vector<int> m_turnsSent;
    qint64 m_handAheadNs = 0; // kHandAheadNs where it applies, else 0
    std::deque<qint64> m_handedAhead; // send times of requests handed over before their time, for snapshots
    int m_unsent = 0; // handed over, then cancelled before their time: never sent
    int m_sent = 0;
    int m_inFlight = 0;
    int m_completed = 0;
    int m_failed = 0;
    int m_outputTokens = 0;
    std::vector<LatencySample> m_recent;
    std::vector<double> m_lagMs;
    std::vector<RequestRecord> m_records;
    qint64 m_measured = 0; // measured requests ended, and their choices events (for the client's health)
    qint64 m_events = 0;
    qint64 m_lastEndNs = 0;
    // A soak's window under way: its requests so far, its start, the sends before it, its dispatch lags.
    QTimer m_windowTimer;
    int m_windowIndex = 0;
    qint64 m_windowStartNs = 0;
    int m_sentBeforeWindow = 0;
    std::vector<RequestRecord> m_windowRecords;
    std::vector<double> m_windowLagMs;
    double m_worstLagP90Ms = 0.0; // the worst window's
    double m_worstLagP99Ms = 0.0;
    SoakTotals m_soakTotals;
    DeadlineTimer m_dispatchTimer;
    QTimer m_snapshotTimer;
    QTimer m_pullTimer; // while m_pulling
    bool m_pulling = false;
};

} // namespace kp

Q_DECLARE_METATYPE(kp::LiveSnapshot)
Q_DECLARE_METATYPE(kp::StepResult)
Q_DECLARE_METATYPE(kp::StepConfig)
