#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

class QCommandLineParser;

namespace kp {
class RunCatalog;
}

namespace kp::cli {

// Results to stdout, flushed.
void writeOut(const QByteArray& bytes);
// One line of progress or diagnostics to stderr.
void say(const QString& line);

// Parses a command's own options (arguments: the program, verbWords words naming the command, then its
// options) after adding --help; usage is what --help prints. An exit code when that is all there is to
// do: a bad option (said, ExitBadInput) or --help (ExitOk); nothing when the command goes on.
std::optional<int> parseVerbOptions(
    QCommandLineParser& p, const QStringList& arguments, const char* usage, int verbWords = 1);

// The directory of a run named by id, name or directory; nothing when there is none, after saying why
// (context: what the message names first, "--baseline: ", or nothing).
std::optional<QString> resolveRun(const RunCatalog& catalog, const QString& name, const QString& context = QString());

// A command that lives in its own file. `run` gets the whole command line (program name, verb,
// options) and returns an exit code from cli.h; it parses its own options and answers --help.
struct Verb
{
    const char* name;
    const char* summary; // one line for "kneepoint-cli --help"
    int (*run)(const QStringList& arguments);
};

// The commands beyond run, sweep, analyze, probe, validate and demo, in the order --help lists them.
const std::vector<Verb>& extraVerbs();

} // namespace kp::cli
