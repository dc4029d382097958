#pragma once

#include "metrics/phrase.h"
#include "metrics/stepmetrics.h"
#include "profile/profile.h"

#include <QString>

#include <deque>
#include <optional>
#include <vector>

namespace kp {

// One step the planner asks for.
struct PlannedStep
{
    LoadMode mode = LoadMode::Rate;
    double load = 0; // req/s (inf: all at once) or users
    QString purpose; // why it runs: "coarse", "floor", "ceiling", "refine", "repeat"
    QString detail; // in words, e.g. "SLO boundary between 40 and 60 req/s" (a phrase: for people, not files)
};

// The highest loads a step may run at unless the user deliberately lifts them (--allow-high-load, the
// window's confirmation): every step, whoever chose it — the list, an auto plan, refinement, a step
// added while the sweep runs — is held to them where loads are decided, in SweepPlanner::next().
struct LoadLimits
{
    double maxRate = 2000; // req/s of any finite-rate step
    int maxConcurrency = 2048; // users of a closed-loop step

    bool operator==(const LoadLimits&) const = default;
};

// What a finished step tells the planner.
struct StepOutcome
{
    PlannedStep step;
    StepMetrics metrics;
    bool partial = false;
    bool clientBound = false;
    bool reliable() const; // not partial, not client-bound, most requests completed
};

// Decides the next step from the ones done: the coarse pass (a list, a range, or auto from a
// measured floor and ceiling), early stop once the server collapsed or errors pass a limit, then
// refinement at the SLO boundary and repeats (of the best load that met the SLO, or of every load the
// pass measured, round by round: load.plan.repeat_scope). Pure: no clock, no I/O.
class SweepPlanner
{
public:
    SweepPlanner() = default;
    SweepPlanner(const Load& load, const Slo& slo);

    // The next step within the load limits; a step past them is left out, and the first one sets the
    // stop reason.
    std::optional<PlannedStep> next(const std::vector<StepOutcome>& done);

    // Unset: no limit (the built-in simulator, or lifted on purpose).
    void setLoadLimits(std::optional<LoadLimits> limits) { m_limits = limits; }
    const std::optional<LoadLimits>& loadLimits() const { return m_limits; }
    // Steps left out because they passed the limits, in the order they were chosen.
    const std::vector<PlannedStep>& overLimit() const { return m_overLimit; }

    // A step the user asked for while the sweep runs (a load between two done steps, or a repeat);
    // it runs next, before anything the plan would choose.
    void addManual(const PlannedStep& step);
    // Gives back a step next() returned that has not run yet; it runs after the manual steps.
    void giveBack(const PlannedStep& step);

    // Why escalation stopped before the coarse pass ended; empty when it did not. stopReason() is
    // English, for files; stopReasonText() in the language phrase() answers in, for the window.
    QString stopReason() const { return m_stopReason.english(); }
    QString stopReasonText() const { return m_stopReason.text(); }

    // The coarse steps known before anything runs (auto: the floor and ceiling steps only).
    std::vector<PlannedStep> preview() const;

    static std::vector<double> linearRange(double start, double stop, int steps);
    static std::vector<double> geometricRange(double start, double stop, int steps);
    // Rates between floor and ceiling, denser near the ceiling, then two beyond it.
    static std::vector<double> autoRates(double floor, double ceiling, int steps);

    // Whether a step meets the SLO; reason names the metric, value and limit when not.
    static bool meetsSlo(const Slo& slo, const StepMetrics& metrics, QString* reason = nullptr);

private:
    enum class Phase { Coarse, Refine, Repeat, Done };

    bool collapsed(const std::vector<StepOutcome>& done) const;
    std::optional<PlannedStep> refineStep(const std::vector<StepOutcome>& done);
    std::optional<PlannedStep> kneeStep(const std::vector<StepOutcome>& done);
    std::optional<PlannedStep> nextChosen(const std::vector<StepOutcome>& done);
    bool exceedsLimits(const PlannedStep& step) const;

    Load m_load;
    Slo m_slo;
    Phase m_phase = Phase::Done;
    std::deque<PlannedStep> m_queue;
    std::deque<PlannedStep> m_manual;
    std::deque<PlannedStep> m_givenBack;
    bool m_autoFilled = false;
    int m_refined = 0;
    int m_extended = 0;
    int m_repeated = 0;
    bool m_repeatsQueued = false; // repeat_scope all: the repeats of every load are queued
    Sentence m_stopReason;
    std::optional<LoadLimits> m_limits;
    std::vector<PlannedStep> m_overLimit;
};

QString formatLoad(LoadMode mode, double load); // "40 req/s", "inf req/s", "1 user", "32 users"

} // namespace kp
