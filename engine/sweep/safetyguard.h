#pragma once

#include "profile/profile.h"
#include "sweep/sweepplanner.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace kp {

// Bounds a sweep keeps to unless the user deliberately lifts them (CLI flags, GUI confirmations).
struct SafetyLimits
{
    double maxRate = LoadLimits {}.maxRate; // req/s of any step (a finite rate)
    int maxConcurrency
        = LoadLimits {}.maxConcurrency; // users of a closed-loop step, load.max_concurrency, requests sent at once
    qint64 confirmAboveRequests = 1000; // a sweep against another machine sending more than this asks first
    // The process's limit on open files and sockets (raiseFileLimit() after raising it); -1: unknown.
    qint64 openFileLimit = -1;
    static constexpr qint64 kReservedFiles = 128; // files, event descriptors, the simulator's listener

    LoadLimits loadLimits() const { return { maxRate, maxConcurrency }; }
};

// What a sweep is about to do, judged before it starts.
struct SafetyCheck
{
    bool loopback = false; // the target is this machine (or the built-in simulator)
    // An API key would go over plain HTTP to another machine: anyone on the path can read it.
    // The key may travel as api_key (the environment's OPENAI_API_KEY included), as a header of the
    // profile that carries credentials (Authorization, X-Api-Key, Cookie, ...) or in the URL itself.
    bool insecureKey = false;
    QString insecureKeyMessage;
    QString insecureCarrier; // "the Authorization header", "the URL's password"; empty for api_key
    QStringList overLimits; // each names the setting, its value and the limit it passes (none for sim://)
    qint64 requests = 0; // requests the plan sends, warm-up included (at most, for plans that adapt)
    qint64 promptTokens = 0; // estimated
    qint64 outputTokens = 0; // estimated (max_tokens)
    bool adaptive = false; // auto plans, refinement and repeats: the figures are an upper bound
    bool needsConfirmation = false; // another machine, and more requests than confirmAboveRequests
    // The plan holds more requests open at once than the process may open sockets: each would fail.
    // Not lifted by any flag; it names both numbers and what to change.
    QString fileLimitProblem;
    qint64 concurrentRequests = 0; // the most requests the plan holds open at once; 0 when the rate decides
    QString summary; // "7 steps, 1,400 requests, about 250,000 tokens (..." for the confirmation
};

// True for sim://, localhost, 127.0.0.0/8 and ::1.
bool isLoopbackTarget(const Target& target);

// avgPromptTokens / avgOutputTokens: per request, from the loaded dataset (or the profile's lengths).
SafetyCheck checkSafety(const Profile& profile, const std::vector<PlannedStep>& planned, double avgPromptTokens,
    double avgOutputTokens, const SafetyLimits& limits = {});

} // namespace kp
