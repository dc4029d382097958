#include "sweep/sweepplanner.h"

#include "metrics/phrase.h"
#include "profile/planrules.h"

#include "sweep/kneeanalysis.h"

#include <algorithm>
#include <cmath>

namespace kp {

namespace {

constexpr double kMinCompletedFraction = 0.9; // below this a step says more about failures than load
constexpr int kMaxExtensions = 4; // refinement steps that look beyond the coarse range for the SLO boundary

double errorRate(const StepMetrics& m)
{
    const qint64 total = m.completed + m.failed;
    return total > 0 ? double(m.failed) / double(total) : 0.0;
}

// Three significant digits: loads people can read and type back (the double nearest "90.3", not
// 90.30000000000001).
double roundLoad(double x)
{
    if (!(x > 0) || std::isinf(x))
        return x;
    return QString::number(x, 'g', 3).toDouble();
}

// The latency the SLO cares about most, else P99 TTFT: the one early stop watches.
double watchedLatency(const Slo& slo, const StepMetrics& m)
{
    const bool ttft = slo.ttftMs || (!slo.tpotMs && !slo.e2elMs);
    const LatencyStats& stats = ttft ? m.ttft : slo.tpotMs ? m.tpot : m.e2el;
    const double p = slo.isEmpty() ? 99.0 : ttft ? slo.ttftP() : slo.tpotMs ? slo.tpotP() : slo.e2elP();
    if (auto v = stats.percentile(p))
        return *v;
    return stats.percentiles.empty() ? stats.max : stats.percentiles.back().second;
}

} // namespace

bool StepOutcome::reliable() const
{
    const qint64 total = metrics.completed + metrics.failed;
    return !partial && !clientBound && total > 0 && double(metrics.completed) >= kMinCompletedFraction * double(total);
}

QString formatLoad(LoadMode mode, double load)
{
    if (mode == LoadMode::Concurrency)
        return load == 1 ? QStringLiteral("1 user") : QStringLiteral("%1 users").arg(load);
    return QStringLiteral("%1 req/s").arg(formatRate(load));
}

SweepPlanner::SweepPlanner(const Load& load, const Slo& slo)
    : m_load(load)
    , m_slo(slo)
    , m_phase(Phase::Coarse)
{
    for (const PlannedStep& s : preview())
        m_queue.push_back(s);
}

std::vector<double> SweepPlanner::linearRange(double start, double stop, int steps)
{
    std::vector<double> out;
    if (steps < 1)
        return out;
    if (steps == 1)
        return { start };
    for (int i = 0; i < steps; ++i)
        out.push_back(roundLoad(start + (stop - start) * double(i) / double(steps - 1)));
    return out;
}

std::vector<double> SweepPlanner::geometricRange(double start, double stop, int steps)
{
    std::vector<double> out;
    if (steps < 1 || start <= 0 || stop <= 0)
        return out;
    if (steps == 1)
        return { start };
    const double ratio = std::pow(stop / start, 1.0 / double(steps - 1));
    for (int i = 0; i < steps; ++i)
        out.push_back(roundLoad(start * std::pow(ratio, double(i))));
    return out;
}

std::vector<double> SweepPlanner::autoRates(double floor, double ceiling, int steps)
{
    const int n = steps > 0 ? steps : planrules::kDefaultAutoSteps;
    if (!(ceiling > floor))
        ceiling = floor * 2;
    const int inside = std::max(1, n - 2);
    std::vector<double> out;
    for (int i = 1; i <= inside; ++i) {
        const double u = 1.0 - double(i) / double(inside);
        out.push_back(roundLoad(floor + (ceiling - floor) * (1.0 - u * u)));
    }
    out.push_back(roundLoad(ceiling * 1.15));
    out.push_back(roundLoad(ceiling * 1.35));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<PlannedStep> SweepPlanner::preview() const
{
    std::vector<PlannedStep> steps;
    const Plan& plan = m_load.plan;
    auto add = [&](LoadMode mode, double load, const QString& purpose, const QString& detail = {}) {
        steps.push_back({ mode, load, purpose, detail });
    };
    switch (plan.kind) {
    case PlanKind::List:
        if (m_load.mode == LoadMode::Rate) {
            for (double r : m_load.rates)
                add(LoadMode::Rate, r, QStringLiteral("coarse"));
        } else {
            for (int c : m_load.concurrencies)
                add(LoadMode::Concurrency, c, QStringLiteral("coarse"));
        }
        break;
    case PlanKind::Linear:
    case PlanKind::Geometric: {
        std::vector<double> loads = plan.kind == PlanKind::Linear ? linearRange(plan.start, plan.stop, plan.steps)
                                                                  : geometricRange(plan.start, plan.stop, plan.steps);
        if (m_load.mode == LoadMode::Concurrency) {
            for (double& l : loads)
                l = std::max(1.0, std::round(l));
            loads.erase(std::unique(loads.begin(), loads.end()), loads.end());
        }
        for (double l : loads)
            add(m_load.mode, l, QStringLiteral("coarse"));
        break;
    }
    case PlanKind::Auto:
        add(LoadMode::Concurrency, 1, QStringLiteral("floor"), phrase("SweepPlanner", "one request at a time"));
        if (m_load.mode == LoadMode::Rate)
            add(LoadMode::Rate, std::numeric_limits<double>::infinity(), QStringLiteral("ceiling"),
                phrase("SweepPlanner", "every request at once"));
        break;
    }
    return steps;
}

bool SweepPlanner::meetsSlo(const Slo& slo, const StepMetrics& metrics, QString* reason)
{
    return kp::meetsSlo(slo, metrics, reason);
}

bool SweepPlanner::collapsed(const std::vector<StepOutcome>& done) const
{
    // The last three reliable coarse steps at rising load: throughput fell twice while latency rose.
    std::vector<const StepOutcome*> recent;
    for (auto it = done.rbegin(); it != done.rend() && recent.size() < 3; ++it) {
        if (it->step.purpose == QLatin1String("coarse") && it->reliable() && std::isfinite(it->step.load))
            recent.push_back(&*it);
    }
    if (recent.size() < 3)
        return false;
    const StepOutcome& a = *recent[2];
    const StepOutcome& b = *recent[1];
    const StepOutcome& c = *recent[0];
    if (!(a.step.load < b.step.load && b.step.load < c.step.load))
        return false;
    const bool falling = c.metrics.requestThroughput < b.metrics.requestThroughput
        && b.metrics.requestThroughput < a.metrics.requestThroughput;
    const bool rising = watchedLatency(m_slo, c.metrics) > watchedLatency(m_slo, b.metrics)
        && watchedLatency(m_slo, b.metrics) > watchedLatency(m_slo, a.metrics);
    return falling && rising;
}

std::optional<PlannedStep> SweepPlanner::kneeStep(const std::vector<StepOutcome>& done)
{
    if (m_refined >= m_load.plan.maxRefineSteps)
        return std::nullopt;
    std::vector<SweepPoint> points;
    for (const StepOutcome& o : done) {
        if (o.step.mode != m_load.mode || o.step.purpose == QLatin1String("floor"))
            continue;
        SweepPoint p;
        p.offered = o.step.load;
        p.concurrencyMode = o.step.mode == LoadMode::Concurrency;
        p.metrics = o.metrics;
        p.partial = o.partial;
        p.clientBound = o.clientBound;
        points.push_back(std::move(p));
    }
    AnalysisOptions options = analysisOptionsFor(m_slo);
    options.mode = m_load.mode;
    const AnalysisResult analysis = KneeAnalysis::analyze(points, options);
    if (!analysis.knee.found || analysis.knee.lowerBound)
        return std::nullopt;
    // The neighbours of the knee on the load axis: a midpoint on each side that is wider than the
    // tolerance places the knee better.
    std::vector<double> loads;
    for (const SweepPoint& p : points) {
        if (std::isfinite(p.offered))
            loads.push_back(p.offered);
    }
    std::sort(loads.begin(), loads.end());
    loads.erase(std::unique(loads.begin(), loads.end()), loads.end());
    const double knee = analysis.knee.offered;
    const auto at = std::lower_bound(loads.begin(), loads.end(), knee);
    std::vector<std::pair<double, double>> gaps;
    if (at != loads.begin())
        gaps.push_back({ *(at - 1), knee });
    if (at != loads.end() && *at == knee && at + 1 != loads.end())
        gaps.push_back({ knee, *(at + 1) });
    for (const auto& [lo, hi] : gaps) {
        if ((hi - lo) / lo <= m_load.plan.tolerance)
            continue;
        double mid = (lo + hi) / 2;
        mid = m_load.mode == LoadMode::Concurrency ? std::round(mid) : roundLoad(mid);
        if (mid <= lo || mid >= hi)
            continue;
        ++m_refined;
        return PlannedStep { m_load.mode, mid, QStringLiteral("refine"),
            phrase("SweepPlanner", "around the knee at %1, between %2 and %3")
                .arg(formatLoad(m_load.mode, knee), formatLoad(m_load.mode, lo), formatLoad(m_load.mode, hi)) };
    }
    return std::nullopt;
}

std::optional<PlannedStep> SweepPlanner::refineStep(const std::vector<StepOutcome>& done)
{
    if (m_slo.isEmpty() || m_refined >= m_load.plan.maxRefineSteps)
        return std::nullopt;
    // Steps of the sweep's own axis at finite load, in load order.
    std::vector<const StepOutcome*> points;
    for (const StepOutcome& o : done) {
        if (o.step.mode == m_load.mode && std::isfinite(o.step.load) && o.step.purpose != QLatin1String("floor")
            && !o.partial)
            points.push_back(&o);
    }
    std::sort(points.begin(), points.end(), [](auto* a, auto* b) { return a->step.load < b->step.load; });
    const StepOutcome* pass = nullptr;
    const StepOutcome* fail = nullptr;
    for (const StepOutcome* o : points) {
        if (meetsSlo(m_slo, o->metrics)) {
            pass = o;
            fail = nullptr; // the boundary lies above the highest passing load
        } else if (pass && !fail) {
            fail = o;
        }
    }
    if (pass && !fail && m_extended < kMaxExtensions && pass == points.back()) {
        // Every step met the SLO: the boundary lies above the sweep. Look higher.
        ++m_extended;
        double up = pass->step.load * 1.25;
        up = m_load.mode == LoadMode::Concurrency ? std::max(up, pass->step.load + 1) : up;
        return PlannedStep { m_load.mode, m_load.mode == LoadMode::Concurrency ? std::round(up) : roundLoad(up),
            QStringLiteral("refine"),
            phrase("SweepPlanner", "every step met the SLO up to %1: looking higher")
                .arg(formatLoad(m_load.mode, pass->step.load)) };
    }
    if (!pass && !points.empty() && m_extended < kMaxExtensions) {
        // No step met the SLO: the boundary lies below the sweep. Look lower.
        const double lowest = points.front()->step.load;
        const double down = m_load.mode == LoadMode::Concurrency ? std::floor(lowest / 2) : roundLoad(lowest / 2);
        if (down >= (m_load.mode == LoadMode::Concurrency ? 1.0 : 1e-3)) {
            ++m_extended;
            return PlannedStep { m_load.mode, down, QStringLiteral("refine"),
                phrase("SweepPlanner", "no step met the SLO down to %1: looking lower")
                    .arg(formatLoad(m_load.mode, lowest)) };
        }
    }
    if (!pass || !fail)
        return std::nullopt;
    const double lo = pass->step.load;
    const double hi = fail->step.load;
    if ((hi - lo) / lo <= m_load.plan.tolerance)
        return std::nullopt;
    double mid = (lo + hi) / 2;
    if (m_load.mode == LoadMode::Concurrency) {
        mid = std::round(mid);
        if (mid <= lo || mid >= hi)
            return std::nullopt;
    } else {
        mid = roundLoad(mid);
    }
    ++m_refined;
    return PlannedStep { m_load.mode, mid, QStringLiteral("refine"),
        phrase("SweepPlanner", "SLO boundary between %1 and %2")
            .arg(formatLoad(m_load.mode, lo), formatLoad(m_load.mode, hi)) };
}

void SweepPlanner::addManual(const PlannedStep& step)
{
    m_manual.push_back(step);
    if (m_manual.back().purpose.isEmpty())
        m_manual.back().purpose = QStringLiteral("manual");
}

void SweepPlanner::giveBack(const PlannedStep& step)
{
    m_givenBack.push_front(step);
}

bool SweepPlanner::exceedsLimits(const PlannedStep& step) const
{
    if (!m_limits)
        return false;
    if (step.mode == LoadMode::Concurrency)
        return step.load > m_limits->maxConcurrency;
    return std::isfinite(step.load) && step.load > m_limits->maxRate;
}

std::optional<PlannedStep> SweepPlanner::next(const std::vector<StepOutcome>& done)
{
    // Every source of steps gives up a step it offered (a queue pops, refinement and repeats count
    // theirs), so leaving one out never makes this loop forever.
    while (std::optional<PlannedStep> step = nextChosen(done)) {
        if (!exceedsLimits(*step))
            return step;
        m_overLimit.push_back(*step);
        if (m_stopReason.isEmpty()) {
            m_stopReason = step->mode == LoadMode::Concurrency
                ? sentence("SweepPlanner",
                    "the next step, %1, passes the limit of %2 concurrent requests: it and any higher ones were "
                    "left out (allow high load to run them)")
                      .arg(formatLoad(step->mode, step->load))
                      .arg(m_limits->maxConcurrency)
                : sentence("SweepPlanner",
                    "the next step, %1, passes the limit of %2 req/s: it and any higher ones were left out "
                    "(allow high load to run them)")
                      .arg(formatLoad(step->mode, step->load))
                      .arg(QString::number(m_limits->maxRate));
        }
    }
    return std::nullopt;
}

std::optional<PlannedStep> SweepPlanner::nextChosen(const std::vector<StepOutcome>& done)
{
    for (std::deque<PlannedStep>* queue : { &m_manual, &m_givenBack }) {
        if (!queue->empty()) {
            PlannedStep s = queue->front();
            queue->pop_front();
            return s;
        }
    }
    if (m_phase == Phase::Coarse) {
        if (!done.empty()) {
            const StepOutcome& last = done.back();
            const bool escalating = last.step.purpose == QLatin1String("coarse");
            if (escalating && m_load.plan.earlyStop && collapsed(done)) {
                m_stopReason = sentence("SweepPlanner",
                    "the server collapsed: throughput fell for two steps in a row while latency rose (up to %1)")
                                   .arg(formatLoad(last.step.mode, last.step.load));
                m_queue.clear();
            } else if (escalating && m_load.plan.stopErrorRate
                && errorRate(last.metrics) > *m_load.plan.stopErrorRate) {
                m_stopReason
                    = sentence("SweepPlanner", "errors passed the limit: %1% of requests failed at %2 (limit %3%)")
                          .arg(QString::number(errorRate(last.metrics) * 100, 'f', 1))
                          .arg(formatLoad(last.step.mode, last.step.load))
                          .arg(QString::number(*m_load.plan.stopErrorRate * 100, 'f', 1));
                m_queue.clear();
            }
        }
        if (m_load.plan.kind == PlanKind::Auto && !m_autoFilled && m_queue.empty() && m_stopReason.isEmpty()) {
            m_autoFilled = true;
            double floor = 0;
            double ceiling = 0;
            for (const StepOutcome& o : done) {
                // In sessions per second when the steps ran conversations (the rate starts sessions).
                if (o.step.purpose == QLatin1String("floor"))
                    floor = o.metrics.requestThroughput / o.metrics.requestsPerSession();
                else if (o.step.purpose == QLatin1String("ceiling"))
                    ceiling = o.metrics.requestThroughput / o.metrics.requestsPerSession();
            }
            if (m_load.mode == LoadMode::Rate) {
                if (floor > 0) {
                    for (double r : autoRates(floor, ceiling, m_load.plan.steps))
                        m_queue.push_back({ LoadMode::Rate, r, QStringLiteral("coarse"),
                            phrase("SweepPlanner", "between the floor (%1 req/s) and the ceiling (%2 req/s)")
                                .arg(floor, 0, 'f', 2)
                                .arg(ceiling, 0, 'f', 2) });
                } else {
                    m_stopReason
                        = sentence("SweepPlanner", "the synchronous step completed nothing: no floor to plan from");
                }
            } else {
                // Users: double until the plan's step count, starting above the floor's one user.
                const int n = planrules::autoSteps(m_load.plan);
                for (int i = 1; i <= n; ++i)
                    m_queue.push_back(
                        { LoadMode::Concurrency, planrules::autoConcurrency(i), QStringLiteral("coarse"), {} });
            }
        }
        if (!m_queue.empty()) {
            PlannedStep s = m_queue.front();
            m_queue.pop_front();
            return s;
        }
        m_phase = m_load.plan.refine ? Phase::Refine : Phase::Repeat;
    }
    if (m_phase == Phase::Refine) {
        if (auto s = refineStep(done))
            return s;
        if (auto s = kneeStep(done))
            return s;
        m_phase = Phase::Repeat;
    }
    if (m_phase == Phase::Repeat && m_load.plan.repeatScope == Plan::RepeatScope::All) {
        // Round by round, every load once per round, so that a drift of the server over time spreads
        // over all loads instead of biasing one.
        if (!m_repeatsQueued) {
            m_repeatsQueued = true;
            std::vector<std::pair<LoadMode, double>> loads;
            for (const StepOutcome& o : done) {
                const std::pair key { o.step.mode, o.step.load };
                if (o.step.purpose != QLatin1String("repeat")
                    && std::find(loads.begin(), loads.end(), key) == loads.end())
                    loads.push_back(key);
            }
            for (int round = 1; round <= m_load.plan.repeats; ++round) {
                for (const auto& [mode, load] : loads)
                    m_queue.push_back({ mode, load, QStringLiteral("repeat"),
                        phrase("SweepPlanner", "repeat %1 of %2 of every load").arg(round).arg(m_load.plan.repeats) });
            }
        }
        if (!m_queue.empty()) {
            PlannedStep s = m_queue.front();
            m_queue.pop_front();
            return s;
        }
        m_phase = Phase::Done;
    }
    if (m_phase == Phase::Repeat) {
        if (m_repeated < m_load.plan.repeats && !m_slo.isEmpty()) {
            const StepOutcome* best = nullptr;
            for (const StepOutcome& o : done) {
                if (o.step.mode == m_load.mode && std::isfinite(o.step.load) && o.step.purpose != QLatin1String("floor")
                    && meetsSlo(m_slo, o.metrics) && (!best || o.step.load > best->step.load))
                    best = &o;
            }
            if (best) {
                ++m_repeated;
                return PlannedStep { m_load.mode, best->step.load, QStringLiteral("repeat"),
                    phrase("SweepPlanner", "repeat %1 of %2 of the highest load that met the SLO")
                        .arg(m_repeated)
                        .arg(m_load.plan.repeats) };
            }
        }
        m_phase = Phase::Done;
    }
    return std::nullopt;
}

} // namespace kp
