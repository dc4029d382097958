#pragma once

#include <QStringList>

namespace kp::cli {

// Exit codes (docs/CLI.md).
enum ExitCode {
    ExitOk = 0,
    ExitFailure = 1, // results could not be written, or every request failed
    ExitBadInput = 2, // command line, profile or dataset
    ExitUnreachable = 3, // the target failed the preflight (unreachable, refused, 401, 404, ...)
    ExitSloViolated = 4, // run: the step missed the SLO; sweep: no step met it
    ExitRegression = 5, // compare --fail-if: a condition holds
    ExitInterrupted = 130, // stopped with Ctrl-C; finished steps are kept
};

// Runs one kneepoint-cli invocation (arguments include the program name) and returns its exit code.
// Results go to stdout, progress and diagnostics to stderr.
int run(const QStringList& arguments);

} // namespace kp::cli
