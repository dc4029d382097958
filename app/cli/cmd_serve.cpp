// Server configuration sweeps: the engine's ServerSweepDriver starts the server per combination of its
// parameters and compares the runs; here its events are printed and each combination swept as `sweep` does.
#include "climatrix.h"

#include "cli.h"
#include "cliverbs.h"

#include "profile/profile.h"
#include "serve/serversweepdriver.h"

#include <QEventLoop>
#include <QTimer>

#include <atomic>
#include <csignal>

namespace kp::cli {

namespace {

std::atomic<bool> g_serveInterrupted { false };

extern "C" void onServeInterrupt(int)
{
    g_serveInterrupted = true;
}

void catchInterrupts()
{
    std::signal(SIGINT, onServeInterrupt);
    std::signal(SIGTERM, onServeInterrupt);
}

} // namespace

bool isServerSweep(const Profile& profile, bool resume)
{
    return resume || hasServerSweep(profile);
}

int runServerSweep(const Profile& profile, const ServeOptions& options, const SweepOnce& sweepOnce)
{
    ServerSweepDriver driver;
    QEventLoop loop;
    std::optional<int> refused;
    std::optional<ServerSweepEnd> end;

    QObject::connect(&driver, &ServerSweepDriver::failed, &loop, [&](const ServerSweepFailure& failure) {
        say(QStringLiteral("error: %1").arg(failure.message));
        refused = failure.kind == ServerSweepFailure::Kind::Folder ? ExitFailure : ExitBadInput;
    });
    QObject::connect(&driver, &ServerSweepDriver::groupStarted, &loop, [](const ServerGroupStart& start) {
        const char* modeWord = start.mode == ServerMode::Process ? "starts" : "brings up";
        say(QStringLiteral(
            "server sweep: %1 configurations, one after another, into %2 (Kneepoint %3 the server for each)")
                .arg(start.count)
                .arg(start.groupDir, QLatin1String(modeWord)));
    });
    const auto head = [](const ServerSweepStep& step) {
        return QStringLiteral("server sweep %1/%2: %3").arg(step.index + 1).arg(step.count).arg(step.label);
    };
    QObject::connect(&driver, &ServerSweepDriver::combinationSkipped, &loop, [&](const ServerSweepStep& step) {
        say(QStringLiteral("\n== %1: finished before, skipped ==").arg(head(step)));
    });
    QObject::connect(&driver, &ServerSweepDriver::combinationStarted, &loop,
        [&](const ServerSweepStep& step) { say(QStringLiteral("\n== %1 ==").arg(head(step))); });
    QObject::connect(&driver, &ServerSweepDriver::combinationFailed, &loop,
        [](const ServerSweepStep&, const QString& error) { say(QStringLiteral("error: %1").arg(error)); });
    QObject::connect(
        &driver, &ServerSweepDriver::serverStarting, &loop, [&](const ServerSweepStep&, const QString& command) {
            if (!options.quiet)
                say(QStringLiteral("server: %1").arg(redactCommandSecrets(command)));
            catchInterrupts();
        });
    QObject::connect(&driver, &ServerSweepDriver::serverReady, &loop,
        [&](const ServerSweepStep&, double seconds, const QString& baseUrl) {
            if (!options.quiet)
                say(QStringLiteral("server ready after %1 s at %2").arg(seconds, 0, 'f', 1).arg(displayUrl(baseUrl)));
        });
    QObject::connect(&driver, &ServerSweepDriver::sweepRequested, &loop,
        [&](const ServerSweepStep& step, const Profile& runProfile) {
            // Ctrl-C before the sweep's first step stops it here; from then on the sweep's own handler takes it.
            const int code = sweepOnce(runProfile, step.runDir, [&driver]() -> QString {
                if (g_serveInterrupted)
                    return QStringLiteral("interrupted");
                return driver.serverExit();
            });
            if (g_serveInterrupted)
                driver.stop();
            driver.sweepDone(ServerSweepRun { code, code == ExitInterrupted, {}, true });
            catchInterrupts();
        });
    QObject::connect(&driver, &ServerSweepDriver::serverStopping, &loop, [&](const ServerSweepStep& step) {
        if (!options.quiet)
            say(QStringLiteral("stopping the server (%1)").arg(step.label));
    });
    QObject::connect(
        &driver, &ServerSweepDriver::serverStopped, &loop, [](const ServerSweepStep&, const QString& problem) {
            if (!problem.isEmpty())
                say(QStringLiteral("warning: %1").arg(problem));
            std::signal(SIGINT, SIG_DFL);
            std::signal(SIGTERM, SIG_DFL);
        });
    QObject::connect(&driver, &ServerSweepDriver::groupWriteFailed, &loop,
        [](const QString& error) { say(QStringLiteral("error: %1").arg(error)); });
    QObject::connect(&driver, &ServerSweepDriver::finished, &loop, [&](const ServerSweepEnd& e) {
        end = e;
        loop.quit();
    });
    // Ctrl-C while a server starts: the driver stops it and ends the group.
    QTimer interrupt;
    QObject::connect(&interrupt, &QTimer::timeout, &loop, [&driver] {
        if (g_serveInterrupted && driver.isActive() && !driver.isSweeping())
            driver.stop();
    });
    interrupt.start(100);

    g_serveInterrupted = false;
    ServerSweepOptions driverOptions;
    driverOptions.profile = profile;
    driverOptions.groupDir = options.out;
    driverOptions.runsRoot = options.dataDir;
    driverOptions.resume = options.resume;
    driver.start(std::move(driverOptions));
    if (refused)
        return *refused;
    if (driver.isActive() && !end)
        loop.exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (!end)
        return ExitFailure;

    writeOut(QByteArrayLiteral("\n") + end->text.toUtf8());
    say(QStringLiteral("server sweep: %1").arg(end->groupFile));

    if (end->interrupted)
        return ExitInterrupted;
    int worst = ExitOk;
    for (const ServerRunOutcome& o : driver.outcomes()) {
        const int code = o.state == QLatin1String("failed")
            ? (o.exitCode && *o.exitCode != ExitOk ? *o.exitCode : ExitFailure)
            : o.exitCode.value_or(ExitOk);
        if (code == ExitOk)
            continue;
        if (worst == ExitOk || (worst == ExitSloViolated && code != ExitSloViolated))
            worst = code;
    }
    return worst;
}

} // namespace kp::cli
