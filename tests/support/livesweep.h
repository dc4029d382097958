#pragma once

// The profile's sweep through SweepRunner over real HTTP against the built-in simulator its base URL
// names (sim://…), as the CLI and the window run it. Header-only; tests link kneepoint_sweep.
#include "profile/profile.h"
#include "sweep/builtinsimulator.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"

#include <QDebug>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStringList>

#include <functional>
#include <vector>

namespace kp::testing {

struct LiveSweep
{
    std::vector<StepResult> results;
    QStringList notes; // SweepRunner::note, in order
    int liveSamples = 0; // server samples scraped while the steps ran
    QJsonObject serverReported; // SweepRunner::serverFacts() at the end
    bool finished = false;
};

// started: called once the simulator listens (profile.target.baseUrl is then its URL), before the sweep
// is prepared; adjust: called on the prepared configuration before it runs.
inline LiveSweep runLiveSweep(Profile profile, int timeoutMs, const std::function<void(Profile&)>& started = {},
    const std::function<void(SweepConfig&)>& adjust = {})
{
    LiveSweep out;
    BuiltinSimulator sim;
    QString error;
    if (!sim.start(profile, &error)) {
        qWarning() << error;
        return out;
    }
    if (started)
        started(profile);
    PreparedSweep prepared = prepareSweep(profile);
    if (!prepared.ok()) {
        qWarning() << prepared.error;
        return out;
    }
    if (adjust)
        adjust(prepared.config);
    SweepRunner runner;
    QObject::connect(
        &runner, &SweepRunner::stepFinished, &runner, [&](const StepResult& r) { out.results.push_back(r); });
    QObject::connect(&runner, &SweepRunner::note, &runner, [&](const QString& text) { out.notes << text; });
    QObject::connect(
        &runner, &SweepRunner::serverSample, &runner, [&](int, const ServerSample&) { ++out.liveSamples; });
    QSignalSpy finished(&runner, &SweepRunner::finished);
    runner.start(std::move(prepared.config));
    if (finished.isEmpty())
        finished.wait(timeoutMs);
    out.finished = !finished.isEmpty();
    out.serverReported = runner.serverFacts().toJson();
    return out;
}

} // namespace kp::testing
