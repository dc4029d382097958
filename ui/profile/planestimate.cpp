#include "planestimate.h"

#include "profile/planrules.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kp::ui {

namespace {

// Expected arrival time of the last of n requests at rate r after a linear ramp from 0 over rampS
// (the inverse of the cumulative rate, as ArrivalSchedule computes it).
double sendingTime(qint64 n, double rate, double rampS)
{
    const double count = double(n);
    if (rampS <= 0)
        return count / rate;
    const double duringRamp = rate * rampS / 2.0;
    if (count > duringRamp)
        return rampS + (count - duringRamp) / rate;
    return std::sqrt(2.0 * count * rampS / rate);
}

StepEstimate estimateStep(const PlannedStep& step, const Profile& profile)
{
    StepEstimate e;
    e.step = step;
    const int numPrompts = profile.workload.numPrompts;
    const std::optional<double> duration = profile.load.stepDurationS;
    const int prompts = planrules::stepPrompts(numPrompts, step.purpose);
    if (step.mode == LoadMode::Rate) {
        if (std::isfinite(step.load)) {
            const qint64 n = duration ? std::max<qint64>(1, qint64(std::ceil(step.load * *duration))) : prompts;
            e.requests = n;
            e.sendingS = sendingTime(n, step.load, profile.load.rampUpS);
        } else {
            e.requests = prompts; // all at once: how long it takes is the server's answer
        }
    } else if (duration) {
        e.sendingS = *duration; // closed loop for a fixed time: the count is the server's answer
    } else {
        e.requests = prompts;
    }
    return e;
}

} // namespace

PlanEstimate estimatePlan(const Profile& profile)
{
    PlanEstimate plan;
    const Load& load = profile.load;
    for (const PlannedStep& s : SweepPlanner(load, profile.slo).preview())
        plan.steps.push_back(estimateStep(s, profile));
    if (load.plan.kind == PlanKind::Auto) {
        const int n = planrules::autoSteps(load.plan);
        for (int i = 1; i <= n; ++i) {
            PlannedStep s { load.mode, 0, QStringLiteral("coarse"), {} };
            if (load.mode == LoadMode::Concurrency) {
                s.load = planrules::autoConcurrency(i);
                plan.steps.push_back(estimateStep(s, profile));
                continue;
            }
            StepEstimate e;
            e.step = s;
            e.loadKnown = false;
            if (!load.stepDurationS)
                e.requests = profile.workload.numPrompts;
            plan.steps.push_back(e);
        }
    }
    for (const StepEstimate& e : plan.steps) {
        if (e.requests)
            plan.requests += *e.requests;
        else
            ++plan.unknownRequestSteps;
        if (e.sendingS)
            plan.sendingS += *e.sendingS;
        else
            ++plan.unknownDurationSteps;
    }
    const auto stepCount = qint64(plan.steps.size());
    plan.warmupRequests = stepCount * load.warmupRequests;
    // The runner waits cooldown_s after every step, the last one included.
    plan.cooldownS = double(stepCount) * load.cooldownS;
    const Workload& w = profile.workload;
    plan.randomDataset = w.dataset == QLatin1String("random");
    if (plan.randomDataset) {
        plan.inputTokens = plan.requests * (qint64(w.prefixLen) + w.inputLen);
        plan.outputTokens = plan.requests * qint64(w.outputLen);
    }
    if (load.plan.refine)
        plan.refineSteps = load.plan.maxRefineSteps;
    if (!profile.slo.isEmpty() || load.plan.repeatScope == Plan::RepeatScope::All)
        plan.repeats = load.plan.repeats;
    return plan;
}

QString formatDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return QCoreApplication::translate("kp::ui::PlanEstimate", "unknown");
    const QLocale locale;
    if (seconds < 9.95 && std::abs(seconds - std::round(seconds)) >= 0.05)
        return QCoreApplication::translate("kp::ui::PlanEstimate", "%1 s").arg(locale.toString(seconds, 'f', 1));
    const auto total = qint64(std::llround(seconds));
    if (total < 60)
        return QCoreApplication::translate("kp::ui::PlanEstimate", "%1 s").arg(total);
    if (total < 3600) {
        const qint64 s = total % 60;
        return s == 0 ? QCoreApplication::translate("kp::ui::PlanEstimate", "%1 min").arg(total / 60)
                      : QCoreApplication::translate("kp::ui::PlanEstimate", "%1 min %2 s").arg(total / 60).arg(s);
    }
    const qint64 minutes = (total + 30) / 60;
    return QCoreApplication::translate("kp::ui::PlanEstimate", "%1 h %2 min")
        .arg(minutes / 60)
        .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

QString formatCount(qint64 count)
{
    const QLocale locale;
    if (count < 100000)
        return locale.toString(count);
    struct Scale
    {
        double factor;
        const char* unit;
    };
    static const Scale scales[] = { { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
    for (const Scale& s : scales) {
        const double v = double(count) / s.factor;
        if (v >= 1) {
            const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
            return QStringLiteral("%1 %2").arg(locale.toString(v, 'f', decimals), QLatin1String(s.unit));
        }
    }
    return locale.toString(count);
}

} // namespace kp::ui
