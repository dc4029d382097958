#include "sweep/safetyguard.h"

#include "metrics/phrase.h"
#include "profile/planrules.h"

#include <QHostAddress>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

// Requests one step sends: its duration at its rate, else the prompt count; warm-up on top.
qint64 stepRequests(const Profile& profile, const PlannedStep& step)
{
    qint64 n = planrules::stepPrompts(profile.workload.numPrompts, step.purpose);
    if (profile.load.stepDurationS && step.mode == LoadMode::Rate && std::isfinite(step.load))
        n = static_cast<qint64>(std::ceil(step.load * *profile.load.stepDurationS));
    return n + profile.load.warmupRequests;
}

QString number(qint64 n)
{
    return QString::number(n);
}

} // namespace

bool isLoopbackTarget(const Target& target)
{
    if (target.isBuiltinSimulator())
        return true;
    const QUrl url(target.baseUrl);
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
        || host.endsWith(QLatin1String(".localhost"), Qt::CaseInsensitive))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

SafetyCheck checkSafety(const Profile& profile, const std::vector<PlannedStep>& planned, double avgPromptTokens,
    double avgOutputTokens, const SafetyLimits& limits)
{
    SafetyCheck c;
    c.loopback = isLoopbackTarget(profile.target);
    const QUrl url(profile.target.baseUrl);

    // A keychain entry is not read here (the keychain may wait for its password): it counts as a key.
    const ApiKeyResolution key = profile.target.resolvedApiKey(false);
    const bool sendsKey = key.source == ApiKeyResolution::Source::Keychain || (key.ok() && !key.key.isEmpty());
    const bool plainToOtherHost = !c.loopback && url.scheme() == QLatin1String("http");
    if (plainToOtherHost && sendsKey) {
        c.insecureKey = true;
        c.insecureKeyMessage = phrase("SafetyGuard",
            "the API key (%1) would be sent over plain HTTP to %2, which is not this machine: anyone on the way can "
            "read it. Use https://, or confirm.")
                                   .arg(key.describe(), url.host());
    } else if (plainToOtherHost) {
        for (const HttpHeader& header : profile.target.headers) {
            if (isCredentialHeader(header.name) && !header.value.trimmed().isEmpty()) {
                c.insecureCarrier = phrase("SafetyGuard", "the %1 header").arg(header.name);
                break;
            }
        }
        if (c.insecureCarrier.isEmpty() && !url.password().isEmpty())
            c.insecureCarrier = phrase("SafetyGuard", "the URL's password");
        if (!c.insecureCarrier.isEmpty()) {
            c.insecureKey = true;
            c.insecureKeyMessage = phrase("SafetyGuard",
                "%1 would be sent over plain HTTP to %2, which is not this machine: anyone on the way can read it. "
                "Use https://, or confirm.")
                                       .arg(c.insecureCarrier, url.host());
        }
    }

    const Load& load = profile.load;
    // The built-in simulator runs in scaled time: its rates are not what a server would see.
    const bool limited = !profile.target.isBuiltinSimulator();
    for (const PlannedStep& step : planned) {
        if (!limited)
            break;
        if (step.mode == LoadMode::Rate && std::isfinite(step.load) && step.load > limits.maxRate) {
            c.overLimits << phrase("SafetyGuard", "a step at %1 req/s passes the limit of %2 req/s")
                                .arg(formatRate(step.load))
                                .arg(limits.maxRate);
        } else if (step.mode == LoadMode::Concurrency && step.load > limits.maxConcurrency) {
            c.overLimits << phrase("SafetyGuard", "a step of %1 users passes the limit of %2 concurrent requests")
                                .arg(step.load)
                                .arg(limits.maxConcurrency);
        } else if (step.mode == LoadMode::Rate && std::isinf(step.load) && !load.maxConcurrency && !load.stepDurationS
            && profile.workload.numPrompts > limits.maxConcurrency) {
            c.overLimits << phrase("SafetyGuard",
                "a step at rate inf sends all %1 requests at once, past the limit of %2 concurrent requests (set "
                "load.max_concurrency)")
                                .arg(profile.workload.numPrompts)
                                .arg(limits.maxConcurrency);
        }
    }
    if (limited && load.maxConcurrency && *load.maxConcurrency > limits.maxConcurrency)
        c.overLimits << phrase("SafetyGuard", "load.max_concurrency %1 passes the limit of %2")
                            .arg(*load.maxConcurrency)
                            .arg(limits.maxConcurrency);
    c.overLimits.removeDuplicates();

    // Each request in flight holds a socket: a plan that holds more than the process may open fails
    // them all with "too many open files", misread as network errors.
    for (const PlannedStep& step : planned) {
        qint64 open = 0;
        if (step.mode == LoadMode::Concurrency)
            open = qint64(step.load);
        else if (load.maxConcurrency)
            open = *load.maxConcurrency;
        else if (std::isinf(step.load))
            open = profile.workload.numPrompts;
        c.concurrentRequests = std::max(c.concurrentRequests, open);
    }
    if (load.maxConcurrency)
        c.concurrentRequests = std::max<qint64>(c.concurrentRequests, *load.maxConcurrency);
    // The built-in simulator runs in this process: it holds the other end of each connection.
    const qint64 sockets = c.concurrentRequests * (profile.target.isBuiltinSimulator() ? 2 : 1);
    if (limits.openFileLimit > 0 && sockets + SafetyLimits::kReservedFiles > limits.openFileLimit) {
        c.fileLimitProblem = phrase("SafetyGuard",
            "the plan holds up to %1 requests open at once, but this process may open only %2 files and sockets "
            "(ulimit -n): raise the limit to at least %3, or lower the concurrency")
                                 .arg(c.concurrentRequests)
                                 .arg(limits.openFileLimit)
                                 .arg(sockets + SafetyLimits::kReservedFiles);
    }

    qint64 largest = 0;
    for (const PlannedStep& step : planned) {
        const qint64 n = stepRequests(profile, step);
        c.requests += n;
        largest = std::max(largest, n);
    }
    int extraSteps = 0;
    if (load.plan.kind == PlanKind::Auto) {
        extraSteps += planrules::autoSteps(load.plan);
        // The auto plan's rates are chosen from the ceiling it measures: count them at the largest known step.
        largest = std::max<qint64>(largest, profile.workload.numPrompts + load.warmupRequests);
    }
    if (load.plan.refine)
        extraSteps += load.plan.maxRefineSteps;
    extraSteps += load.plan.repeats;
    c.adaptive = extraSteps > 0;
    c.requests += extraSteps * largest;
    c.promptTokens = static_cast<qint64>(std::llround(double(c.requests) * avgPromptTokens));
    c.outputTokens = static_cast<qint64>(std::llround(double(c.requests) * avgOutputTokens));
    c.needsConfirmation = !c.loopback && c.requests > limits.confirmAboveRequests;
    const int steps = int(planned.size()) + extraSteps;
    const QString stepsText = steps == 1
        ? (c.adaptive ? phrase("SafetyGuard", "up to 1 step") : phrase("SafetyGuard", "1 step"))
        : (c.adaptive ? phrase("SafetyGuard", "up to %1 steps") : phrase("SafetyGuard", "%1 steps")).arg(steps);
    c.summary = phrase("SafetyGuard", "%1, %2 requests, about %3 tokens (%4 prompt + %5 output) to %6")
                    .arg(stepsText, number(c.requests), number(c.promptTokens + c.outputTokens), number(c.promptTokens),
                        number(c.outputTokens), url.host().isEmpty() ? profile.target.baseUrl : url.host());
    return c;
}

} // namespace kp
