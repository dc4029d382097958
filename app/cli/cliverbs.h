#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace kp::cli {

// Results to stdout, flushed.
void writeOut(const QByteArray& bytes);
// One line of progress or diagnostics to stderr.
void say(const QString& line);

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
