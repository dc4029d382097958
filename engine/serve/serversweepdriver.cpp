#include "serve/serversweepdriver.h"

#include "client/requestbuilder.h"
#include "metrics/filewrite.h"
#include "metrics/phrase.h"
#include "store/rundocument.h"
#include "store/runfolder.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

const QString kGroupFile = u"matrix.json"_s;

QString runStatus(const QString& dir)
{
    const RunDocumentRead read = readRunDocument(QDir(dir).filePath(u"run.json"_s));
    return read.ok() ? read.document->status.value_or(QString()) : QString();
}

// A combination's earlier attempt that did not finish: kept, out of the group's way, under .earlier/.
bool setAside(const QString& group, const QString& name, QString* error)
{
    const QString from = QDir(group).filePath(name);
    if (!QFileInfo::exists(from))
        return true;
    const QString earlier = QDir(group).filePath(u".earlier"_s);
    QDir().mkpath(earlier);
    const QString to = QDir(earlier).filePath(
        name + QLatin1Char('-') + QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss-zzz"_s));
    if (!QDir().rename(from, to)) {
        *error = phrase("ServerSweep", "%1: cannot move the unfinished attempt to %2").arg(from, to);
        return false;
    }
    return true;
}

} // namespace

ServerSweepDriver::ServerSweepDriver(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<kp::ServerSweepStep>();
    qRegisterMetaType<kp::ServerSweepEnd>();
    qRegisterMetaType<kp::ServerGroupStart>();
    qRegisterMetaType<kp::ServerSweepFailure>();
}

ServerSweepDriver::~ServerSweepDriver()
{
    if (m_control)
        m_control->stop();
}

QString ServerSweepDriver::serverExit() const
{
    return m_control ? m_control->exitDescription() : QString();
}

ServerSweepStep ServerSweepDriver::stepOf(int index) const
{
    ServerSweepStep step;
    step.index = index;
    step.count = int(m_outcomes.size());
    if (index >= 0 && index < int(m_outcomes.size())) {
        const ServerRunOutcome& o = m_outcomes[std::size_t(index)];
        step.combination = o.combination;
        step.label = o.combination.label();
        step.runDir = QDir(m_group).filePath(o.dir);
    }
    return step;
}

void ServerSweepDriver::start(ServerSweepOptions options)
{
    if (m_active)
        return;
    m_options = std::move(options);
    m_interrupted = false;
    m_outcomes.clear();
    m_next = 0;
    m_current = -1;
    m_phase = Phase::Idle;
    const auto refuse = [this](ServerSweepFailure::Kind kind, const QString& message) {
        Q_EMIT failed(ServerSweepFailure { kind, message });
    };
    QString error;
    m_plan = planServerSweep(m_options.profile.serverSweep, &error);
    if (!m_plan)
        return refuse(ServerSweepFailure::Kind::BadInput, error);
    m_headers = requestHeaders(m_options.profile.target, &error);
    if (!error.isEmpty())
        return refuse(ServerSweepFailure::Kind::BadInput, error);
    if (m_options.resume && m_options.groupDir.isEmpty())
        return refuse(ServerSweepFailure::Kind::BadInput,
            phrase("ServerSweep", "--resume needs --out DIR, the server sweep to finish"));
    m_group = m_options.groupDir;
    if (m_group.isEmpty()) {
        const QString root = m_options.runsRoot.isEmpty() ? defaultRunsDirectory() : m_options.runsRoot;
        m_group = QDir(root).filePath(u"serve-%1"_s.arg(QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss"_s)));
    }
    m_groupFile = QDir(m_group).filePath(kGroupFile);
    if (QFileInfo::exists(m_groupFile) && !m_options.resume)
        return refuse(ServerSweepFailure::Kind::BadInput,
            phrase("ServerSweep",
                "--out %1 already holds a group of runs (%2): add --resume to finish it, or choose a new directory")
                .arg(m_group, kGroupFile));
    if (!QDir().mkpath(m_group))
        return refuse(ServerSweepFailure::Kind::Folder, phrase("ServerSweep", "--out: cannot create %1").arg(m_group));

    for (std::size_t i = 0; i < m_plan->combinations.size(); ++i) {
        ServerRunOutcome o;
        o.combination = m_plan->combinations[i];
        o.dir = o.combination.folderName(int(i));
        o.state = u"not run"_s;
        o.command = substituteCommand(m_plan->command, o.combination, std::nullopt);
        m_outcomes.push_back(o);
    }
    if (m_options.resume && QFileInfo::exists(m_groupFile)) {
        // The earlier outcomes of the combinations that finished: their ready time and command.
        QFile file(m_groupFile);
        if (file.open(QIODevice::ReadOnly)) {
            for (const ServerRunOutcome& earlier :
                serverOutcomesFromJson(QJsonDocument::fromJson(file.readAll()).object())) {
                for (ServerRunOutcome& o : m_outcomes) {
                    if (o.dir == earlier.dir && earlier.state == u"finished")
                        o = earlier;
                }
            }
        }
    }
    m_active = true;
    Q_EMIT groupStarted(ServerGroupStart { m_group, m_groupFile, int(m_outcomes.size()), m_plan->mode });
    writeGroup(u"running"_s);
    QMetaObject::invokeMethod(this, &ServerSweepDriver::next, Qt::QueuedConnection);
}

ServerComparison ServerSweepDriver::writeGroup(const QString& status, bool twinCheck)
{
    ServerComparison comparison = compareServerRuns(m_group, m_outcomes);
    if (twinCheck && m_outcomes.size() > 1)
        addTwinCheck(m_group, comparison);
    QString error;
    if (!writeFileAtomically(
            m_groupFile, QJsonDocument(serverGroupJson(comparison, status)).toJson(QJsonDocument::Indented), &error))
        Q_EMIT groupWriteFailed(error);
    return comparison;
}

void ServerSweepDriver::failCombination(const QString& error)
{
    ServerRunOutcome& o = m_outcomes[std::size_t(m_current)];
    o.state = u"failed"_s;
    o.error = error;
    Q_EMIT combinationFailed(stepOf(m_current), error);
}

void ServerSweepDriver::next()
{
    while (m_active && !m_interrupted && m_next < m_outcomes.size()) {
        m_current = int(m_next++);
        ServerRunOutcome& o = m_outcomes[std::size_t(m_current)];
        const ServerSweepStep step = stepOf(m_current);
        if (m_options.resume && runStatus(step.runDir) == u"finished") {
            o.state = u"finished"_s;
            Q_EMIT combinationSkipped(step);
            continue;
        }
        Q_EMIT combinationStarted(step);
        QString error;
        if (!setAside(m_group, o.dir, &error)) {
            failCombination(error);
            writeGroup(u"running"_s);
            continue;
        }
        std::optional<int> port;
        if (m_plan->usesPort) {
            const int free = freeTcpPort(&error);
            if (free == 0) {
                failCombination(u"%1: %2"_s.arg(step.label, error));
                writeGroup(u"running"_s);
                continue;
            }
            port = free;
        }
        o.command = substituteCommand(m_plan->command, o.combination, port);
        m_runProfile = profileForCombination(m_options.profile, o.combination, o.command, port);
        ServerLaunch launch;
        launch.mode = m_plan->mode;
        launch.command = o.command;
        launch.stopCommand = substituteCommand(m_plan->stopCommand, o.combination, port);
        launch.label = step.label;
        launch.baseUrl = m_runProfile.target.baseUrl;
        launch.readyTimeoutS = m_plan->readyTimeoutS;
        launch.graceS = m_plan->graceS;
        launch.logDir = step.runDir;
        launch.transport = transportOptions(m_runProfile.target);
        launch.headers = m_headers;
        Q_EMIT serverStarting(step, o.command);
        m_phase = Phase::Starting;
        m_control = std::make_unique<ServerControl>();
        // Queued: start() may fail at once, and the control is taken down in the slot.
        connect(m_control.get(), &ServerControl::ready, this, &ServerSweepDriver::onReady, Qt::QueuedConnection);
        connect(m_control.get(), &ServerControl::failed, this, &ServerSweepDriver::onFailed, Qt::QueuedConnection);
        connect(m_control.get(), &ServerControl::exited, this, [this](const QString& description) {
            if (m_phase == Phase::Sweeping)
                Q_EMIT serverExited(stepOf(m_current), description);
        });
        m_control->start(launch);
        return;
    }
    if (m_active)
        finish();
}

void ServerSweepDriver::onReady(double seconds)
{
    if (m_phase != Phase::Starting)
        return;
    if (m_interrupted) {
        endCombination();
        return;
    }
    m_outcomes[std::size_t(m_current)].readyS = seconds;
    const ServerSweepStep step = stepOf(m_current);
    Q_EMIT serverReady(step, seconds, m_runProfile.target.baseUrl);
    m_phase = Phase::Sweeping;
    Q_EMIT sweepRequested(step, m_runProfile);
}

void ServerSweepDriver::onFailed(const QString& message)
{
    if (m_phase != Phase::Starting)
        return;
    if (!m_interrupted)
        failCombination(message);
    endCombination();
}

void ServerSweepDriver::sweepDone(const ServerSweepRun& run)
{
    if (m_phase != Phase::Sweeping)
        return;
    ServerRunOutcome& o = m_outcomes[std::size_t(m_current)];
    const ServerSweepStep step = stepOf(m_current);
    o.exitCode = run.exitCode;
    if (run.stopped)
        m_interrupted = true;
    if (const QString exit = serverExit(); !exit.isEmpty()) {
        failCombination(phrase("ServerSweep", "%1 during the sweep; what was measured before is kept in %2")
                            .arg(exit, step.runDir));
    } else if (run.stopped) {
        o.state = u"stopped"_s;
    } else if (runStatus(step.runDir) == u"finished") {
        o.state = u"finished"_s;
    } else {
        QString error;
        if (!run.failure.isEmpty())
            error = u"%1: %2"_s.arg(step.label, run.failure);
        else if (run.exitCode)
            error = phrase("ServerSweep", "%1: the sweep did not finish (exit code %2)")
                        .arg(step.label)
                        .arg(*run.exitCode);
        else
            error = phrase("ServerSweep", "%1: the sweep did not finish").arg(step.label);
        if (run.reported) {
            o.state = u"failed"_s;
            o.error = error;
        } else {
            failCombination(error);
        }
    }
    // Out of the front end's slot first: it may still be unwinding its sweep.
    m_phase = Phase::Stopping;
    QMetaObject::invokeMethod(this, &ServerSweepDriver::endCombination, Qt::QueuedConnection);
}

void ServerSweepDriver::stop()
{
    if (!m_active || m_interrupted)
        return;
    m_interrupted = true;
    if (m_phase == Phase::Starting)
        QMetaObject::invokeMethod(this, &ServerSweepDriver::endCombination, Qt::QueuedConnection);
}

void ServerSweepDriver::endCombination()
{
    if (!m_control)
        return;
    const ServerSweepStep step = stepOf(m_current);
    m_phase = Phase::Stopping;
    Q_EMIT serverStopping(step);
    const QString problem = m_control->stop();
    m_control.reset();
    m_phase = Phase::Idle;
    Q_EMIT serverStopped(step, problem);
    writeGroup(u"running"_s);
    QMetaObject::invokeMethod(this, &ServerSweepDriver::next, Qt::QueuedConnection);
}

void ServerSweepDriver::finish()
{
    ServerSweepEnd end;
    end.groupDir = m_group;
    end.groupFile = m_groupFile;
    end.interrupted = m_interrupted;
    end.comparison = writeGroup(m_interrupted ? u"stopped"_s : u"finished"_s, !m_interrupted);
    end.text = serverComparisonText(end.comparison);
    QString error;
    if (!writeFileAtomically(QDir(m_group).filePath(u"comparison.txt"_s), end.text.toUtf8(), &error))
        Q_EMIT groupWriteFailed(error);
    m_active = false;
    m_phase = Phase::Idle;
    m_current = -1;
    Q_EMIT finished(end);
}

} // namespace kp
