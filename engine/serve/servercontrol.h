#pragma once

#include "client/transport.h"
#include "serve/serversweep.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;
class QProcess;
class QTimer;

namespace kp {

// How one combination's server is brought up and taken down.
struct ServerLaunch
{
    ServerMode mode = ServerMode::Process;
    QString command; // substituted: the server (process mode) or the command that brings it up (commands)
    QString stopCommand; // commands mode: the command that takes it down; may be empty
    QString label; // the combination, for messages: "max_num_seqs=8"
    QString baseUrl; // answers /health or /v1/models once the server is ready
    double readyTimeoutS = 600;
    double graceS = 30;
    QString logDir; // server.stdout.log and server.stderr.log (commands mode: also server-stop.*.log) go here
    TransportOptions transport; // the readiness check is made as every client of the run is (NetworkClient)
    HeaderList headers;
};

// The server of one combination of a server sweep. Process mode: the command runs under /bin/sh in a
// process group of its own (setsid), its output in the log folder; stop() sends SIGTERM to the group and
// SIGKILL after the grace period. Commands mode: the command must end with status 0, then the server is
// waited for; stop() runs the stop command. Either way ready() follows once GET base_url/health or
// base_url/v1/models answers 2xx, or failed() with a message that names the combination and says why (the
// command not found, it exited, the timeout). A process that ends on its own after ready() emits exited().
class ServerControl : public QObject
{
    Q_OBJECT
public:
    explicit ServerControl(QObject* parent = nullptr);
    ~ServerControl() override; // stops the server still running, as stop()

    void start(const ServerLaunch& launch);
    // Takes the server down and waits for it (the grace period, then SIGKILL; a stop command gets the
    // grace period and 60 s more). Blocks: the CLI calls it between runs. Returns a problem in words,
    // empty when all went as it should.
    QString stop();

    bool isReady() const { return m_ready; }
    // Set when the server's process ended by itself after it was ready: why, in words (its exit status,
    // the last line it wrote on stderr).
    const QString& exitDescription() const { return m_exitDescription; }
    double readySeconds() const { return m_readyS; }

Q_SIGNALS:
    void ready(double seconds);
    void failed(const QString& message);
    void exited(const QString& description);

private:
    void startProcess(const QString& command, const QString& logName);
    void onFinished(int exitCode, int status);
    void poll();
    void onReply(QNetworkReply* reply);
    void fail(const QString& message);
    QString lastErrorLine(const QString& logName) const;
    QString statusWords(int exitCode, int status) const;
    bool waitGroupGone(qint64 pgid, int ms);

    ServerLaunch m_launch;
    std::unique_ptr<QProcess> m_process;
    qint64 m_pgid = 0;
    bool m_starting = false; // the commands mode's start command runs
    bool m_polling = false;
    bool m_ready = false;
    bool m_stopping = false;
    bool m_failed = false;
    double m_readyS = 0;
    QString m_exitDescription;
    QString m_lastAnswer; // what the readiness check last got, for the timeout's message
    QElapsedTimer m_clock;
    QTimer* m_pollTimer = nullptr;
    QNetworkAccessManager* m_nam = nullptr;
    int m_inFlight = 0;
};

} // namespace kp
