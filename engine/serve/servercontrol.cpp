#include "serve/servercontrol.h"

#include "client/networkclient.h"
#include "metrics/phrase.h"
#include "profile/profile.h"

#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

constexpr int kPollMs = 250;
constexpr int kCheckTimeoutMs = 2000;
constexpr double kStopCommandExtraS = 60;

// Whether a process of the group is still alive (zombies, which a container's init may never reap, are not).
bool groupAlive(qint64 pgid)
{
    if (pgid <= 0)
        return false;
    if (::kill(pid_t(-pgid), 0) != 0)
        return false;
    const QDir proc(u"/proc"_s);
    if (!proc.exists())
        return true;
    for (const QString& entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        QFile stat(proc.filePath(entry + u"/stat"_s));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.read(512);
        // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() < 3 || fields.at(2).toLongLong() != pgid)
            continue;
        if (fields.at(0) != "Z" && fields.at(0) != "X")
            return true;
    }
    return false;
}

} // namespace

ServerControl::ServerControl(QObject* parent)
    : QObject(parent)
{ }

ServerControl::~ServerControl()
{
    if (m_process || m_pgid > 0)
        stop();
}

void ServerControl::start(const ServerLaunch& launch)
{
    m_launch = launch;
    m_ready = false;
    m_failed = false;
    m_stopping = false;
    m_exitDescription.clear();
    m_lastAnswer.clear();
    m_clock.start();
    QDir().mkpath(m_launch.logDir);
    if (m_launch.mode == ServerMode::Commands) {
        m_starting = true;
        startProcess(m_launch.command, u"server-start"_s);
        return;
    }
    startProcess(m_launch.command, u"server"_s);
    if (m_failed)
        return;
    m_polling = true;
    poll();
}

void ServerControl::startProcess(const QString& command, const QString& logName)
{
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(u"/bin/sh"_s);
    m_process->setArguments({ u"-c"_s, command });
    m_process->setStandardOutputFile(QDir(m_launch.logDir).filePath(logName + u".stdout.log"_s), QIODevice::Append);
    m_process->setStandardErrorFile(QDir(m_launch.logDir).filePath(logName + u".stderr.log"_s), QIODevice::Append);
    m_process->setStandardInputFile(QProcess::nullDevice());
    // Its own session and process group: stop() signals the server and everything it started, and a Ctrl-C
    // on the terminal reaches Kneepoint alone, which then stops the server in order.
    m_process->setChildProcessModifier([] { ::setsid(); });
    connect(m_process.get(), &QProcess::finished, this,
        [this](int exitCode, QProcess::ExitStatus status) { onFinished(exitCode, int(status)); });
    m_process->start();
    if (!m_process->waitForStarted(10000)) {
        fail(phrase("ServerSweep", "%1: /bin/sh did not start: %2").arg(m_launch.label, m_process->errorString()));
        m_process.reset();
        return;
    }
    m_pgid = m_process->processId();
}

QString ServerControl::statusWords(int exitCode, int status) const
{
    if (status == QProcess::CrashExit)
        return phrase("ServerSweep", "was ended by a signal");
    if (exitCode == 127)
        return phrase("ServerSweep", "exited with status 127 (command not found)");
    if (exitCode == 126)
        return phrase("ServerSweep", "exited with status 126 (not executable)");
    return phrase("ServerSweep", "exited with status %1").arg(exitCode);
}

QString ServerControl::lastErrorLine(const QString& logName) const
{
    // Standard error only: a server's last line on standard output is progress, not why it stopped.
    QFile file(QDir(m_launch.logDir).filePath(logName + u".stderr.log"_s));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    if (file.size() > 4096)
        file.seek(file.size() - 4096);
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    const QString last = QString::fromUtf8(lines.constLast()).trimmed();
    return last.isEmpty() ? QString() : u": \"%1\" (%2)"_s.arg(last.left(300), file.fileName());
}

void ServerControl::onFinished(int exitCode, int status)
{
    if (m_stopping)
        return;
    if (m_starting) {
        m_starting = false;
        m_process.release()->deleteLater(); // from its own signal
        m_pgid = 0;
        if (status != QProcess::NormalExit || exitCode != 0) {
            fail(phrase("ServerSweep", "%1: the start command %2%3")
                     .arg(m_launch.label, statusWords(exitCode, status), lastErrorLine(u"server-start"_s)));
            return;
        }
        m_polling = true;
        poll();
        return;
    }
    if (!m_ready) {
        fail(phrase("ServerSweep", "%1: the server command %2 before the server answered%3")
                 .arg(m_launch.label, statusWords(exitCode, status), lastErrorLine(u"server"_s)));
        return;
    }
    m_exitDescription = phrase("ServerSweep", "%1: the server %2%3")
                            .arg(m_launch.label, statusWords(exitCode, status), lastErrorLine(u"server"_s));
    Q_EMIT exited(m_exitDescription);
}

void ServerControl::fail(const QString& message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_polling = false;
    if (m_pollTimer)
        m_pollTimer->stop();
    Q_EMIT failed(message);
}

void ServerControl::poll()
{
    if (!m_polling || m_ready || m_failed)
        return;
    if (!m_pollTimer) {
        m_pollTimer = new QTimer(this);
        m_pollTimer->setInterval(kPollMs);
        connect(m_pollTimer, &QTimer::timeout, this, &ServerControl::poll);
        m_nam = NetworkClient(m_launch.transport, m_launch.headers).makeManager(this);
        connect(m_nam, &QNetworkAccessManager::finished, this, &ServerControl::onReply);
    }
    if (!m_pollTimer->isActive())
        m_pollTimer->start();
    if (m_clock.elapsed() > qint64(m_launch.readyTimeoutS * 1000)) {
        fail(phrase("ServerSweep",
            "%1: the server was not ready after %2 s (server_sweep.ready_timeout_s): %3/health and /v1/models did "
            "not answer%4")
                 .arg(m_launch.label)
                 .arg(m_launch.readyTimeoutS)
                 .arg(displayUrl(m_launch.baseUrl),
                     m_lastAnswer.isEmpty() ? QString() : phrase("ServerSweep", " (last: %1)").arg(m_lastAnswer)));
        return;
    }
    if (m_inFlight > 0)
        return;
    QString base = m_launch.baseUrl;
    while (base.endsWith(u'/'))
        base.chop(1);
    const QString root = base.endsWith(u"/v1"_s) ? base.chopped(3) : base;
    const NetworkClient client(m_launch.transport, m_launch.headers);
    for (const QString& url : { root + u"/health"_s, root + u"/v1/models"_s }) {
        m_nam->get(client.request(QUrl(url), kCheckTimeoutMs));
        ++m_inFlight;
    }
}

void ServerControl::onReply(QNetworkReply* reply)
{
    reply->deleteLater();
    --m_inFlight;
    if (m_ready || m_failed || !m_polling)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() == QNetworkReply::NoError && status >= 200 && status < 300) {
        m_ready = true;
        m_polling = false;
        m_pollTimer->stop();
        m_readyS = double(m_clock.elapsed()) / 1000.0;
        Q_EMIT ready(m_readyS);
        return;
    }
    m_lastAnswer = status > 0 ? u"GET %1: HTTP %2"_s.arg(displayUrl(reply->url().toString())).arg(status)
                              : u"GET %1: %2"_s.arg(displayUrl(reply->url().toString()), reply->errorString());
}

bool ServerControl::waitGroupGone(qint64 pgid, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) {
        if (m_process && m_process->state() != QProcess::NotRunning)
            m_process->waitForFinished(50);
        else if (groupAlive(pgid))
            QThread::msleep(50);
        if (!groupAlive(pgid) && (!m_process || m_process->state() == QProcess::NotRunning))
            return true;
    }
    return !groupAlive(pgid);
}

QString ServerControl::stop()
{
    m_stopping = true;
    m_polling = false;
    if (m_pollTimer)
        m_pollTimer->stop();
    QString problem;
    const int graceMs = int(m_launch.graceS * 1000);
    // The server's process group (process mode) or a start command still running (commands mode).
    if (m_pgid > 0) {
        const qint64 pgid = m_pgid;
        if (groupAlive(pgid) || (m_process && m_process->state() != QProcess::NotRunning)) {
            ::kill(pid_t(-pgid), SIGTERM);
            if (!waitGroupGone(pgid, graceMs)) {
                ::kill(pid_t(-pgid), SIGKILL);
                waitGroupGone(pgid, 5000);
                problem = phrase("ServerSweep",
                    "%1: the server did not stop within %2 s of SIGTERM "
                    "(server_sweep.grace_s); its process group was killed")
                              .arg(m_launch.label)
                              .arg(m_launch.graceS);
            }
        }
        m_process.reset();
        m_pgid = 0;
    }
    if (m_launch.mode == ServerMode::Commands && !m_launch.stopCommand.isEmpty()) {
        startProcess(m_launch.stopCommand, u"server-stop"_s);
        if (m_process) {
            const int limitMs = int((m_launch.graceS + kStopCommandExtraS) * 1000);
            if (!m_process->waitForFinished(limitMs)) {
                ::kill(pid_t(-m_pgid), SIGKILL);
                waitGroupGone(m_pgid, 5000);
                problem = phrase("ServerSweep", "%1: the stop command did not end within %2 s; it was killed")
                              .arg(m_launch.label)
                              .arg(m_launch.graceS + kStopCommandExtraS);
            } else if (m_process->exitStatus() != QProcess::NormalExit || m_process->exitCode() != 0) {
                problem = phrase("ServerSweep", "%1: the stop command %2%3")
                              .arg(m_launch.label, statusWords(m_process->exitCode(), int(m_process->exitStatus())),
                                  lastErrorLine(u"server-stop"_s));
            }
            m_process.reset();
            m_pgid = 0;
        }
    }
    return problem;
}

} // namespace kp
