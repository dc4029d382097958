#pragma once

// run, sweep, soak and demo's sweep through SweepPipeline, worded on stdout and stderr; the preflight's
// report for probe.

#include "clioptions.h"

#include "client/probe.h"
#include "sweep/sweepplan.h"

#include <QString>

#include <functional>

namespace kp::cli {

// Runs the preflight and waits for its report; progress lines on stderr (not with quiet).
ProbeReport probe(const Profile& profile, QString* error, bool quiet);
void printProbe(const ProbeReport& report);
// The plan's prompt reuse, when requests will re-send prompts (a small file, or prompt_pool).
void sayPromptReuse(const PromptReuse& reuse);
// The plan's loads, "10 req/s, 20 req/s, ...".
QString formatLoadList(const Profile& profile);

// What a server sweep changes in one of its sweeps: the run folder, and a reason to stop it (the server exited).
struct SweepHooks
{
    QString runDir;
    std::function<QString()> abort;
};

// One step (run) or the whole plan (sweep) through the pipeline, a summary per step; the exit code.
int runSweep(
    const QCommandLineParser& p, const Options& o, Profile profile, bool sweep, const SweepHooks* hooks = nullptr);

} // namespace kp::cli
