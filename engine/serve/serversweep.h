#pragma once

#include "profile/profile.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace kp {

// One combination of a server sweep's parameters: a value per parameter, in the parameters' order.
struct ServerCombination
{
    QList<std::pair<QString, QString>> values;

    QString label() const; // "max_num_seqs=8 tensor_parallel_size=2"; "(no parameters)" when there are none
    // The run folder of the combination at position index (0-based) in the group: "02-max_num_seqs-8".
    QString folderName(int index) const;
    bool operator==(const ServerCombination&) const = default;
};

enum class ServerMode { Process, Commands };

// A profile's server_sweep ready to run: every combination, in order (the first parameter varies slowest).
struct ServerSweepPlan
{
    ServerMode mode = ServerMode::Process;
    QString command;
    QString stopCommand;
    QStringList names;
    std::vector<ServerCombination> combinations;
    double readyTimeoutS = 600;
    double graceS = 30;
    bool usesPort = false; // a command asks for {port}: a free one per combination, and the base URL follows it
};

// Whether the profile asks for a server sweep: a command or parameters in its server_sweep section.
bool hasServerSweep(const Profile& profile);

// The plan, or an error naming the profile key ("server_sweep.parameters.tp: ..."). A parameter the
// commands never use is an error: its runs would not differ.
std::optional<ServerSweepPlan> planServerSweep(const ServerSweep& sweep, QString* error);

// "NAME=V1,V2" (the CLI's --serve-param) into the parameters: the list of NAME replaced. An error names the text.
QString addServerParameter(const QString& spec, QJsonObject& parameters);

// The command with {NAME} replaced by the combination's value and {port} by port; other braces (a JSON
// argument) are left as written.
QString substituteCommand(const QString& command, const ServerCombination& combination, std::optional<int> port);

// The base URL with its port replaced.
QString baseUrlWithPort(const QString& baseUrl, int port);

// A TCP port on 127.0.0.1 no one listens on now (bound, read and released); 0 and error set when none.
int freeTcpPort(QString* error);

// The profile a combination's run sweeps with, named "NAME · max_num_seqs=8" (the profile's name, else its
// model): the base URL on port (when given), the combination and its command recorded (run.json
// "server_config"), and a parameter that names a field of the profile's server section (max_num_seqs,
// tensor_parallel_size, ...) written there too, so that the run's figures per GPU use it.
Profile profileForCombination(
    const Profile& profile, const ServerCombination& combination, const QString& command, std::optional<int> port);

} // namespace kp
