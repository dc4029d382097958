#pragma once

#include "metrics/latencystats.h"
#include "metrics/requestrecord.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "telemetry/servermetrics.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp {

// One second [second, second + 1) of a step, counted from the step start. Latencies are of the
// requests that ended successfully in that second; unknown (kUnknown, NaN) when none did, never 0.
struct TimelineSecond
{
    int second = 0;
    qint64 offered = 0; // scheduled to be sent in the second
    qint64 sent = 0;
    qint64 completed = 0; // ended successfully in the second
    qint64 failed = 0; // ended in failure in the second
    double outputTokens = 0.0; // output tokens arriving in the second (a second: tokens/s)
    qint64 inFlight = 0; // sent and not ended at the second's end
    // kUnknown without a completed request (ITL: without a gap between two chunks)
    double ttftP50Ms = kUnknown, ttftP99Ms = kUnknown, itlP50Ms = kUnknown, itlP99Ms = kUnknown;
    // The server's figures from the scrapes taken in the second (their mean); unknown without one.
    std::optional<double> running, waiting, kvUsage, prefixCacheHitRate; // kvUsage and hit rate 0..1

    bool operator==(const TimelineSecond& other) const; // unknown equals unknown
};

// One request as the Gantt view draws it: step-relative nanoseconds, -1 for "did not happen".
struct TimelineRequest
{
    qint64 index = -1;
    qint64 scheduledNs = -1, sentNs = -1, firstTokenNs = -1, endNs = -1;
    bool failed = false;
    bool operator==(const TimelineRequest&) const = default;
};

// What happened second by second inside one step: the client's records and the server's scrapes
// on the same clock (both from the step start). Pure.
struct StepTimeline
{
    // Requests kept per second for the Gantt view, the first scheduled: a second of a fast step can
    // hold thousands, more than bars one can tell apart.
    static constexpr int kMaxRequestsPerSecond = 200;
    // How far past the step's duration its records and scrapes may reach: the requests still in
    // flight when the step's clock stopped drain after it (until their timeout), and a scrape may
    // follow them.
    static constexpr double kDrainMarginS = 60.0;
    // The longest timeline: the bound for a step whose duration is unknown (0 or not finite), and
    // for one whose recorded duration is longer. One second costs about 200 bytes here and one CSV row.
    static constexpr double kMaxSpanS = 24.0 * 3600.0;

    std::vector<TimelineSecond> seconds; // 0, 1, ... up to the last event of the step within its bound
    // The requests scheduled in each second (the first kMaxRequestsPerSecond), by second then by
    // scheduled time; `TimelineSecond::offered` says how many the second had.
    std::vector<TimelineRequest> requests;

    bool isEmpty() const { return seconds.empty(); }
    // The kept requests scheduled in `second`.
    std::vector<TimelineRequest> requestsIn(int second) const;

    // Output tokens of a successful request are spread evenly over its chunks (its usage count over
    // the choices events; a request without chunks counts them at its last token). Failed requests add
    // no tokens, as in the step's output throughput. A request without a schedule counts as offered
    // when it was sent. Server figures: running, waiting and KV usage are the mean of the scrapes in
    // the second; the prefix-cache hit rate is Δhits / Δqueries from the scrape before the second to
    // the last one in it (in the first second with scrapes, from its first), else the mean of the
    // hit-rate gauge.
    //
    // A record with a time past the step's bound (boundNs) is left out, whole, and counted in
    // recordsOutside, as is a scrape past it in samplesOutside: one wrong time in a file (1e9 s) would
    // otherwise make a second for every second up to it.
    static StepTimeline compute(
        const std::vector<RequestRecord>& records, const std::vector<ServerSample>& samples, double durationS = 0.0);
    // The last step-relative nanosecond a step of durationS has: durationS + kDrainMarginS, at most
    // kMaxSpanS (kMaxSpanS for an unknown duration).
    static qint64 boundNs(double durationS);
    // Whether every time of the record is at or before boundNs (a time of -1, "did not happen", is).
    static bool within(const RequestRecord& record, qint64 boundNs);

    qint64 recordsOutside = 0; // records left out for a time past the step's bound
    qint64 samplesOutside = 0; // scrapes left out for the same reason

    // What was left out, one line per file: "PATH: 2 records with a time past 75 s into the step (its
    // duration, 60 s for the drain, at most a day) left out of the timeline"; none when nothing was.
    // durationS as given to compute.
    QStringList leftOutNotes(const QString& requestsPath, const QString& metricsPath, double durationS) const;

    bool operator==(const StepTimeline&) const = default;
};

// The CSV columns, in order (docs/CLI.md): step, load, second, then one per figure.
QByteArray timelineCsvHeader();
// One line per second of the step (newline-terminated); empty cells for unknown figures.
QByteArray timelineCsvRows(int step, const QString& load, const StepTimeline& timeline);
// The load column of a step's rows: its load word ("40 req/s", "32 users"), except for a multi-turn
// rate step, whose rate counts session starts: "20 sessions/s (80 req/s)", the requests it offered
// being the session rate times its requests per session, as on the analysis' load axis.
QString timelineLoad(const QString& load, const StepSetup& setup, const StepMetrics& metrics);

} // namespace kp
