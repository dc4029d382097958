#pragma once

// The command line of run, sweep, soak, demo, analyze, probe and validate: its options, and the profile
// and sweep options they make (cli.cpp parses, clisweep.cpp runs).

#include "profile/profile.h"
#include "profile/profileschema.h"
#include "sweep/sweeppipeline.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QStringList>

#include <optional>
#include <utility>

namespace kp::cli {

// A flag for every field of the schema that names one: its names, help line and value name.
QList<std::pair<const ProfileField*, QCommandLineOption>> fieldOptions();

struct Options
{
    QCommandLineOption profile { QStringLiteral("profile"), QStringLiteral("Profile file (JSON or TOML)."),
        QStringLiteral("FILE") };
    QCommandLineOption backend { QStringLiteral("backend"),
        QStringLiteral("openai | openai-chat | vllm | openai-responses | anthropic-messages | openai-embeddings."),
        QStringLiteral("NAME") };
    QCommandLineOption target { QStringLiteral("target"),
        QStringLiteral("A saved target (kneepoint-cli targets) instead of the profile's. sweep: repeat for a matrix "
                       "of targets, run one after another."),
        QStringLiteral("NAME") };
    QCommandLineOption datasetName { QStringLiteral("dataset-name"),
        QStringLiteral("random | sharegpt | jsonl | replay | shared-prefix | mooncake."), QStringLiteral("NAME") };
    QCommandLineOption requestRate { QStringLiteral("request-rate"),
        QStringLiteral("Request rate(s) in req/s, comma-separated or repeated; inf = all at once."),
        QStringLiteral("RATE") };
    QCommandLineOption concurrency { QStringLiteral("concurrency"),
        QStringLiteral("Closed-loop users, comma-separated or repeated (instead of rates)."), QStringLiteral("N") };
    QCommandLineOption percentileMetrics { QStringLiteral("percentile-metrics"),
        QStringLiteral("Metrics to report: ttft,tpot,itl,e2el."), QStringLiteral("LIST") };
    QCommandLineOption metricPercentiles { QStringLiteral("metric-percentiles"),
        QStringLiteral("Percentiles to report, e.g. 50,90,99."), QStringLiteral("LIST") };
    QCommandLineOption goodput { QStringLiteral("goodput"),
        QStringLiteral("SLO for goodput and capacity, KEY:MS with KEY ttft, tpot or e2el; repeatable."),
        QStringLiteral("KEY:MS") };
    QCommandLineOption metadata { QStringLiteral("metadata"),
        QStringLiteral("KEY=VALUE written as a top-level key of every result file; several pairs may follow one "
                       "--metadata, as in vLLM."),
        QStringLiteral("KEY=VALUE") };
    QCommandLineOption out { QStringLiteral("out"),
        QStringLiteral("Run directory: run.json, steps/NNN.json, per-request records, sweep.csv."),
        QStringLiteral("DIR") };
    QCommandLineOption dataDir { QStringLiteral("data-dir"),
        QStringLiteral("Runs directory: without --out, the run is saved in a new directory under it (default "
                       "$XDG_DATA_HOME/Kneepoint/Kneepoint/runs)."),
        QStringLiteral("DIR") };
    QCommandLineOption noPreflight { QStringLiteral("no-preflight"),
        QStringLiteral("Skip the connection check before the run.") };
    QCommandLineOption yes { QStringLiteral("yes"),
        QStringLiteral(
            "Go ahead with a sweep against another machine that sends more requests than --confirm-above.") };
    QCommandLineOption confirmAbove { QStringLiteral("confirm-above"),
        QStringLiteral("Requests a sweep against another machine may send without --yes (default 1000)."),
        QStringLiteral("N") };
    QCommandLineOption allowInsecureKey { QStringLiteral("allow-insecure-key"),
        QStringLiteral("Send the API key over plain http:// to a host that is not this machine.") };
    QCommandLineOption allowHighLoad { QStringLiteral("allow-high-load"),
        QStringLiteral("Lift the limits of 2000 req/s and 2048 concurrent requests.") };
    QCommandLineOption workers { QStringLiteral("workers"),
        QStringLiteral("Client worker threads (default: one per core)."), QStringLiteral("N") };
    QCommandLineOption transport { QStringLiteral("transport"),
        QStringLiteral("HTTP client: auto | socket | qnam (default auto: socket unless a proxy applies)."),
        QStringLiteral("KIND") };
    QCommandLineOption quiet { QStringLiteral("quiet"), QStringLiteral("No progress on stderr.") };
    QCommandLineOption plan { QStringLiteral("plan"), QStringLiteral("Sweep plan: list | linear | geometric | auto."),
        QStringLiteral("KIND") };
    QCommandLineOption range { QStringLiteral("range"),
        QStringLiteral("Load range START:STOP:STEPS for a linear (default) or geometric plan."),
        QStringLiteral("RANGE") };
    QCommandLineOption repeatScope { QStringLiteral("repeat-scope"),
        QStringLiteral("Which loads --repeats runs again: all (the default on the command line) or best."),
        QStringLiteral("all|best") };
    QCommandLineOption slo { QStringLiteral("slo"),
        QStringLiteral("SLO, e.g. ttft:p90:300, tpot:p99:50, errors:1% (each limit at its own percentile); repeatable. "
                       "Overrides the profile's."),
        QStringLiteral("SPEC") };
    QCommandLineOption peak { QStringLiteral("peak"),
        QStringLiteral("Peak demand for a capacity plan: 1000 (req/s) or 250000tok/s."), QStringLiteral("DEMAND") };
    QCommandLineOption redundancy { QStringLiteral("redundancy"),
        QStringLiteral("Spare servers for the capacity plan: N+2 or 20%."), QStringLiteral("POLICY") };
    QCommandLineOption kneeMetric { QStringLiteral("knee-metric"),
        QStringLiteral("Latency the knee is found on: ttft, tpot, itl, e2el (default: the SLO's, else ttft)."),
        QStringLiteral("METRIC") };
    QCommandLineOption json { QStringLiteral("json"),
        QStringLiteral("Print the analysis as one JSON object on stdout (the rest goes to stderr).") };
    QCommandLineOption timeScale { QStringLiteral("time-scale"),
        QStringLiteral("demo: run the simulator's clock this many times faster."), QStringLiteral("F") };
    QCommandLineOption preset { QStringLiteral("preset"), QStringLiteral("demo: simulator preset."),
        QStringLiteral("NAME") };
    QCommandLineOption shard { QStringLiteral("shard"),
        QStringLiteral("Run shard I of K: 1/K of every step's load, requests and users (fixed plans only)."),
        QStringLiteral("I/K") };
    QCommandLineOption startAt { QStringLiteral("start-at"),
        QStringLiteral("Start step 1 at this time (ISO 8601, UTC without an offset, or epoch seconds), so shards "
                       "begin together."),
        QStringLiteral("TIME") };
    QCommandLineOption stepInterval { QStringLiteral("step-interval"),
        QStringLiteral("With --start-at: start step N at TIME + (N-1) * S (replaces the cooldown)."),
        QStringLiteral("S") };
    // sweep: a server configuration sweep (cmd_serve.cpp); --serve and its settings are the schema's.
    QCommandLineOption serveParam { QStringLiteral("serve-param"),
        QStringLiteral("sweep --serve: a parameter of the server command and its values, one run per combination; "
                       "repeatable."),
        QStringLiteral("NAME=V1,V2") };
    QCommandLineOption resume { QStringLiteral("resume"),
        QStringLiteral("sweep --serve --out DIR: finish the server sweep in DIR, skipping the combinations that "
                       "finished.") };
    // The profile's fields that have a flag (profileschema.cpp), in the schema's order.
    QList<std::pair<const ProfileField*, QCommandLineOption>> fields = fieldOptions();
    const QCommandLineOption& field(const char* flag) const
    {
        for (const auto& [f, option] : fields) {
            if (option.names().contains(QLatin1String(flag)))
                return option;
        }
        qFatal("kneepoint-cli: no profile field has the flag --%s", flag);
    }
    bool shardOptions = false; // the three above are options of this verb
    // soak: its length and its windows, with units (1h, 60s); load.soak_duration_s and load.soak_window_s.
    QCommandLineOption soakDuration { QStringLiteral("duration"),
        QStringLiteral("soak: how long to send at the rate (1h, 90m, 60s; default: the profile's, else 1h)."),
        QStringLiteral("DURATION") };
    QCommandLineOption soakWindow { QStringLiteral("window"),
        QStringLiteral("soak: report the figures per window of this long (default: the profile's, else 60s)."),
        QStringLiteral("DURATION") };
};

// The command line on top of the profile (or on top of the defaults without one): the reference's
// flags through ProfileOverrides, then Kneepoint's own (plan, SLO, pacing).
QStringList applyOverrides(const QCommandLineParser& p, const Options& o, Profile& profile);

// Loads --profile (if any), applies the command line and validates. Prints the problems.
std::optional<Profile> buildProfile(const QCommandLineParser& p, const Options& o, bool needTarget);

// The sweep's options from the flags (shard, limits, analysis, consent, folders); prints the problems.
// The pipeline checks the rest.
std::optional<SweepPipelineOptions> sweepOptions(
    const QCommandLineParser& p, const Options& o, Profile profile, bool sweep);

} // namespace kp::cli
