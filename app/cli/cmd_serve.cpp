// Server configuration sweeps: the server started per combination of its parameters, the profile swept
// against each, the runs grouped and compared.
#include "climatrix.h"

#include "cli.h"
#include "cliverbs.h"

#include "client/requestbuilder.h"
#include "metrics/filewrite.h"
#include "profile/profile.h"
#include "serve/servercomparison.h"
#include "serve/servercontrol.h"
#include "serve/serversweep.h"
#include "store/rundocument.h"
#include "store/runfolder.h"

#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
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

const QString kGroupFile = QStringLiteral("matrix.json");

QString runStatus(const QString& dir)
{
    const RunDocumentRead read = readRunDocument(QDir(dir).filePath(QStringLiteral("run.json")));
    return read.ok() ? read.document->status.value_or(QString()) : QString();
}

// A combination's earlier attempt that did not finish: kept, out of the group's way, under .earlier/.
bool setAside(const QString& group, const QString& name, QString* error)
{
    const QString from = QDir(group).filePath(name);
    if (!QFileInfo::exists(from))
        return true;
    const QString earlier = QDir(group).filePath(QStringLiteral(".earlier"));
    QDir().mkpath(earlier);
    const QString to = QDir(earlier).filePath(
        name + QLatin1Char('-') + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")));
    if (!QDir().rename(from, to)) {
        *error = QStringLiteral("%1: cannot move the unfinished attempt to %2").arg(from, to);
        return false;
    }
    return true;
}

// Waits for the server's ready() or failed(); Ctrl-C ends the wait. Returns the failure, empty when ready.
QString waitReady(ServerControl& control)
{
    QEventLoop loop;
    QString failure;
    QObject::connect(&control, &ServerControl::ready, &loop, [&loop](double) { loop.quit(); });
    QObject::connect(&control, &ServerControl::failed, &loop, [&](const QString& message) {
        failure = message;
        loop.quit();
    });
    QTimer interrupt;
    QObject::connect(&interrupt, &QTimer::timeout, &loop, [&loop] {
        if (g_serveInterrupted)
            loop.quit();
    });
    interrupt.start(100);
    if (!control.isReady() && failure.isEmpty())
        loop.exec();
    return failure;
}

} // namespace

bool isServerSweep(const Profile& profile, bool resume)
{
    return resume || !profile.serverSweep.command.trimmed().isEmpty() || !profile.serverSweep.parameters.isEmpty();
}

int runServerSweep(const Profile& profile, const ServeOptions& options, const SweepOnce& sweepOnce)
{
    QString error;
    const std::optional<ServerSweepPlan> plan = planServerSweep(profile.serverSweep, &error);
    if (!plan) {
        say(QStringLiteral("error: %1").arg(error));
        return ExitBadInput;
    }
    HeaderList headers = requestHeaders(profile.target, &error);
    if (!error.isEmpty()) {
        say(QStringLiteral("error: %1").arg(error));
        return ExitBadInput;
    }
    if (options.resume && options.out.isEmpty()) {
        say(QStringLiteral("error: --resume needs --out DIR, the server sweep to finish"));
        return ExitBadInput;
    }
    QString group = options.out;
    if (group.isEmpty()) {
        const QString root = options.dataDir.isEmpty() ? defaultRunsDirectory() : options.dataDir;
        group = QDir(root).filePath(
            QStringLiteral("serve-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    }
    const QString groupFile = QDir(group).filePath(kGroupFile);
    if (QFileInfo::exists(groupFile) && !options.resume) {
        say(QStringLiteral("error: --out %1 already holds a group of runs (%2): add --resume to finish it, or choose a "
                           "new directory")
                .arg(group, kGroupFile));
        return ExitBadInput;
    }
    if (!QDir().mkpath(group)) {
        say(QStringLiteral("error: --out: cannot create %1").arg(group));
        return ExitFailure;
    }

    std::vector<ServerRunOutcome> outcomes;
    for (std::size_t i = 0; i < plan->combinations.size(); ++i) {
        ServerRunOutcome o;
        o.combination = plan->combinations[i];
        o.dir = o.combination.folderName(int(i));
        o.state = QStringLiteral("not run");
        o.command = substituteCommand(plan->command, o.combination, std::nullopt);
        outcomes.push_back(o);
    }
    if (options.resume && QFileInfo::exists(groupFile)) {
        // The earlier outcomes of the combinations that finished: their ready time and command.
        QFile file(groupFile);
        if (file.open(QIODevice::ReadOnly)) {
            for (const ServerRunOutcome& earlier :
                serverOutcomesFromJson(QJsonDocument::fromJson(file.readAll()).object())) {
                for (ServerRunOutcome& o : outcomes) {
                    if (o.dir == earlier.dir && earlier.state == QLatin1String("finished"))
                        o = earlier;
                }
            }
        }
    }

    auto writeGroup = [&](const QString& status, bool twinCheck = false) {
        ServerComparison comparison = compareServerRuns(group, outcomes);
        if (twinCheck && outcomes.size() > 1)
            addTwinCheck(group, comparison);
        QString writeError;
        if (!writeFileAtomically(groupFile,
                QJsonDocument(serverGroupJson(comparison, status)).toJson(QJsonDocument::Indented), &writeError))
            say(QStringLiteral("error: %1").arg(writeError));
        return comparison;
    };

    const char* modeWord = plan->mode == ServerMode::Process ? "starts" : "brings up";
    say(QStringLiteral("server sweep: %1 configurations, one after another, into %2 (Kneepoint %3 the server for each)")
            .arg(plan->combinations.size())
            .arg(group, QLatin1String(modeWord)));
    writeGroup(QStringLiteral("running"));

    bool interrupted = false;
    g_serveInterrupted = false;
    for (std::size_t i = 0; i < outcomes.size() && !interrupted; ++i) {
        ServerRunOutcome& o = outcomes[i];
        const QString label = o.combination.label();
        const QString dir = QDir(group).filePath(o.dir);
        const QString head = QStringLiteral("server sweep %1/%2: %3").arg(i + 1).arg(outcomes.size()).arg(label);
        if (options.resume && runStatus(dir) == QLatin1String("finished")) {
            o.state = QStringLiteral("finished");
            say(QStringLiteral("\n== %1: finished before, skipped ==").arg(head));
            continue;
        }
        say(QStringLiteral("\n== %1 ==").arg(head));
        if (!setAside(group, o.dir, &error)) {
            o.state = QStringLiteral("failed");
            o.error = error;
            say(QStringLiteral("error: %1").arg(error));
            writeGroup(QStringLiteral("running"));
            continue;
        }
        std::optional<int> port;
        if (plan->usesPort) {
            const int free = freeTcpPort(&error);
            if (free == 0) {
                o.state = QStringLiteral("failed");
                o.error = QStringLiteral("%1: %2").arg(label, error);
                say(QStringLiteral("error: %1").arg(o.error));
                writeGroup(QStringLiteral("running"));
                continue;
            }
            port = free;
        }
        o.command = substituteCommand(plan->command, o.combination, port);
        const Profile runProfile = profileForCombination(profile, o.combination, o.command, port);
        ServerLaunch launch;
        launch.mode = plan->mode;
        launch.command = o.command;
        launch.stopCommand = substituteCommand(plan->stopCommand, o.combination, port);
        launch.label = label;
        launch.baseUrl = runProfile.target.baseUrl;
        launch.readyTimeoutS = plan->readyTimeoutS;
        launch.graceS = plan->graceS;
        launch.logDir = dir;
        launch.transport = transportOptions(runProfile.target);
        launch.headers = headers;
        if (!options.quiet)
            say(QStringLiteral("server: %1").arg(redactCommandSecrets(o.command)));

        std::signal(SIGINT, onServeInterrupt);
        std::signal(SIGTERM, onServeInterrupt);
        ServerControl control;
        control.start(launch);
        const QString failure = waitReady(control);
        if (g_serveInterrupted) {
            interrupted = true;
        } else if (!failure.isEmpty()) {
            o.state = QStringLiteral("failed");
            o.error = failure;
            say(QStringLiteral("error: %1").arg(failure));
        } else {
            o.readyS = control.readySeconds();
            if (!options.quiet)
                say(QStringLiteral("server ready after %1 s at %2")
                        .arg(control.readySeconds(), 0, 'f', 1)
                        .arg(displayUrl(runProfile.target.baseUrl)));
            // Ctrl-C before the sweep's first step stops it here; from then on the sweep's own handler takes it.
            const int code = sweepOnce(runProfile, dir, [&control]() -> QString {
                if (g_serveInterrupted)
                    return QStringLiteral("interrupted");
                return control.exitDescription();
            });
            if (g_serveInterrupted)
                interrupted = true;
            o.exitCode = code;
            if (!control.exitDescription().isEmpty()) {
                o.state = QStringLiteral("failed");
                o.error = QStringLiteral("%1 during the sweep; what was measured before is kept in %2")
                              .arg(control.exitDescription(), dir);
                say(QStringLiteral("error: %1").arg(o.error));
            } else if (code == ExitInterrupted) {
                interrupted = true;
                o.state = QStringLiteral("stopped");
            } else if (runStatus(dir) == QLatin1String("finished")) {
                o.state = QStringLiteral("finished");
            } else {
                o.state = QStringLiteral("failed");
                o.error = QStringLiteral("%1: the sweep did not finish (exit code %2)").arg(label).arg(code);
            }
            std::signal(SIGINT, onServeInterrupt);
            std::signal(SIGTERM, onServeInterrupt);
        }
        if (!options.quiet)
            say(QStringLiteral("stopping the server (%1)").arg(label));
        if (const QString problem = control.stop(); !problem.isEmpty())
            say(QStringLiteral("warning: %1").arg(problem));
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        writeGroup(QStringLiteral("running"));
    }

    const ServerComparison comparison
        = writeGroup(interrupted ? QStringLiteral("stopped") : QStringLiteral("finished"), !interrupted);
    const QString text = serverComparisonText(comparison);
    QString writeError;
    if (!writeFileAtomically(QDir(group).filePath(QStringLiteral("comparison.txt")), text.toUtf8(), &writeError))
        say(QStringLiteral("error: %1").arg(writeError));
    writeOut(QByteArrayLiteral("\n") + text.toUtf8());
    say(QStringLiteral("server sweep: %1").arg(groupFile));

    if (interrupted)
        return ExitInterrupted;
    int worst = ExitOk;
    for (const ServerRunOutcome& o : outcomes) {
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
