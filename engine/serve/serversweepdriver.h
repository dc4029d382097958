#pragma once

#include "profile/profile.h"
#include "serve/servercomparison.h"
#include "serve/servercontrol.h"
#include "serve/serversweep.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace kp {

// Where a server sweep's group goes and how.
struct ServerSweepOptions
{
    Profile profile; // with its server_sweep section; validated, overrides applied
    QString groupDir; // the group's folder (the CLI's --out); empty: a new serve-DATE folder under runsRoot
    QString runsRoot; // empty: defaultRunsDirectory()
    bool resume = false; // skip the combinations whose run finished, run the rest again
};

// Why a server sweep did not start (nothing was run): the front end words it.
struct ServerSweepFailure
{
    enum class Kind {
        BadInput, // the server_sweep section, a header, --resume without a folder, a folder that holds a group
        Folder, // the group's folder cannot be made
    };
    Kind kind = Kind::BadInput;
    QString message; // English; names the key, the option or the folder
};

// The group as it begins.
struct ServerGroupStart
{
    QString groupDir;
    QString groupFile; // DIR/matrix.json
    int count = 0; // combinations
    ServerMode mode = ServerMode::Process;
};

// One combination as the driver reports it.
struct ServerSweepStep
{
    int index = 0; // 0-based
    int count = 0;
    ServerCombination combination;
    QString label; // "max_num_seqs=8"
    QString runDir; // absolute: the combination's run folder
};

// How the front end's sweep of one combination ended (ServerSweepDriver::sweepDone).
struct ServerSweepRun
{
    std::optional<int> exitCode; // the CLI's exit code of the sweep, when it has one
    bool stopped = false; // stopped by the person: the group ends after this combination
    QString failure; // why the sweep did not start or run (the window's words); empty when it ran
    bool reported = false; // the front end has said why its sweep failed (the CLI's sweep prints its errors)
};

// How the group ended.
struct ServerSweepEnd
{
    QString groupDir, groupFile;
    bool interrupted = false; // stopped before every combination ran
    ServerComparison comparison; // the runs compared; the twin's check when it was not interrupted
    QString text; // serverComparisonText (also in DIR/comparison.txt)
};

// A server configuration sweep, the same for the CLI and the window: per combination of the profile's
// server_sweep parameters it starts (or brings up) the server, waits until it answers, asks the front end
// to sweep the profile against it (sweepRequested, answered by sweepDone), stops the server and rewrites
// the group's record; at the end it compares the runs (DIR/matrix.json, kind "server_sweep", and
// DIR/comparison.txt, with the twin's check). A combination that fails is recorded with its reason and the
// others go on. The sweep itself is the front end's (a SweepPipeline it words), so that each front end
// shows it as it shows any sweep. Events, in order: failed once (nothing ran), or groupStarted, then per
// combination combinationSkipped, or combinationStarted, serverStarting, serverReady or combinationFailed,
// sweepRequested (then serverExited when the server ends during the sweep), serverStopping, serverStopped;
// groupWriteFailed when a record cannot be written; finished once. ServerControl::stop blocks for up to
// the grace period: run the driver on a thread that may wait (the CLI's, the window's controller thread).
class ServerSweepDriver : public QObject
{
    Q_OBJECT
public:
    explicit ServerSweepDriver(QObject* parent = nullptr);
    ~ServerSweepDriver() override; // stops a server still running

    void start(ServerSweepOptions options);
    // The sweep asked for by sweepRequested ended; the driver stops the server and goes on.
    void sweepDone(const ServerSweepRun& run);
    // Ends the group after the current combination: a server still starting is stopped at once; during a
    // sweep the front end stops its sweep (the driver does not own it) and calls sweepDone. What was
    // measured stays, and the group's record says "stopped".
    void stop();

    bool isActive() const { return m_active; }
    bool isSweeping() const { return m_phase == Phase::Sweeping; }
    bool isInterrupted() const { return m_interrupted; }
    // While a combination's sweep runs: why its server ended by itself (its exit status, its last line);
    // empty while it runs.
    QString serverExit() const;
    const std::vector<ServerRunOutcome>& outcomes() const { return m_outcomes; }

Q_SIGNALS:
    void failed(const kp::ServerSweepFailure& failure);
    void groupStarted(const kp::ServerGroupStart& start);
    void combinationSkipped(const kp::ServerSweepStep& step); // --resume: its run finished before
    void combinationStarted(const kp::ServerSweepStep& step);
    void serverStarting(const kp::ServerSweepStep& step, const QString& command); // the command as run
    void serverReady(const kp::ServerSweepStep& step, double seconds, const QString& baseUrl);
    // The combination failed (its server did not start or answer, its sweep failed, its server exited
    // during the sweep): error names the combination and says why. The others go on.
    void combinationFailed(const kp::ServerSweepStep& step, const QString& error);
    // Sweep profile into step.runDir now, then call sweepDone().
    void sweepRequested(const kp::ServerSweepStep& step, const kp::Profile& profile);
    // The server ended by itself while its sweep ran: stop the sweep (what it measured is kept).
    void serverExited(const kp::ServerSweepStep& step, const QString& description);
    void serverStopping(const kp::ServerSweepStep& step);
    void serverStopped(const kp::ServerSweepStep& step, const QString& problem); // problem empty when all went well
    void groupWriteFailed(const QString& error);
    void finished(const kp::ServerSweepEnd& end);

private:
    enum class Phase { Idle, Starting, Sweeping, Stopping };
    void next();
    void onReady(double seconds);
    void onFailed(const QString& message);
    void endCombination();
    void finish();
    ServerComparison writeGroup(const QString& status, bool twinCheck = false);
    void failCombination(const QString& error);
    ServerSweepStep stepOf(int index) const;

    ServerSweepOptions m_options;
    std::optional<ServerSweepPlan> m_plan;
    HeaderList m_headers;
    QString m_group;
    QString m_groupFile;
    std::vector<ServerRunOutcome> m_outcomes;
    std::size_t m_next = 0;
    int m_current = -1;
    Profile m_runProfile; // the current combination's
    std::unique_ptr<ServerControl> m_control;
    Phase m_phase = Phase::Idle;
    bool m_active = false;
    bool m_interrupted = false;
};

} // namespace kp
