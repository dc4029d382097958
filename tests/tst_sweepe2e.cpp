// Whole sweeps of the simulator's model: an adaptive plan must find what a dense sweep finds. They run
// in simulated time (support/simsweep.h): the planner, schedule, metrics and analysis are the real ones,
// the clock is not what is tested here.
#include "sim/simmodel.h"
#include "support/simsweep.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplan.h"

#include <QTest>

using namespace kp;

namespace {

// The small preset at twice real time; short answers; 2 s steps. The SLO sits where queueing starts.
Profile baseProfile(const QString& simUrl)
{
    Profile p;
    p.target.baseUrl = simUrl;
    p.target.backend = Backend::OpenAi;
    p.workload.inputLen = 64;
    p.workload.outputLen = 32;
    p.workload.rangeRatio = 0.5;
    p.workload.ignoreEos = true;
    p.workload.numPrompts = 100;
    p.load.stepDurationS = 2;
    p.slo.ttftMs = 200;
    p.slo.percentile = 90;
    return p;
}

struct SweepRun
{
    std::vector<SweepPoint> points;
    std::vector<StepResult> results;
    QString stopReason;
};

// The small preset at twice real time, as sim://small?time_scale=2 serves it.
SweepRun runSweep(const Profile& profile)
{
    const testing::SimulatedSweep sweep
        = testing::simulateSweep(profile, sim::presetByName(QStringLiteral("small"))->params, 2.0);
    return { sweep.points, sweep.results, sweep.stopReason };
}

AnalysisOptions options(const Profile& p)
{
    AnalysisOptions o;
    o.slo = p.slo;
    o.percentile = p.slo.percentile;
    return o;
}

} // namespace

class TestSweepE2e : public QObject
{
    Q_OBJECT

private Q_SLOTS:

    void autoRefinedSweepFindsTheDenseSweepsSloBoundary()
    {
        Profile dense = baseProfile(QStringLiteral("sim://small?time_scale=2&seed=1"));
        dense.load.plan.kind = PlanKind::Linear;
        dense.load.plan.start = 150;
        dense.load.plan.stop = 300;
        dense.load.plan.steps = 16; // every 10 req/s
        dense.load.plan.earlyStop = false;
        const SweepRun reference = runSweep(dense);
        QCOMPARE(reference.results.size(), std::size_t(16));
        const AnalysisResult denseAnalysis = KneeAnalysis::analyze(reference.points, options(dense));
        QVERIFY2(denseAnalysis.sloCapacity.found && !denseAnalysis.sloCapacity.lowerBound,
            qPrintable(denseAnalysis.sloCapacity.reason.text()));
        const double truth = denseAnalysis.sloCapacity.offered;

        Profile adaptive = baseProfile(QStringLiteral("sim://small?time_scale=2&seed=2"));
        adaptive.load.plan.kind = PlanKind::Auto;
        adaptive.load.plan.refine = true;
        adaptive.load.plan.tolerance = 0.05;
        const SweepRun run = runSweep(adaptive);
        QVERIFY(run.results.size() >= 4);
        QCOMPARE(run.results.at(0).config.purpose, QStringLiteral("floor"));
        QCOMPARE(run.results.at(1).config.purpose, QStringLiteral("ceiling"));
        const bool refined = std::any_of(run.results.begin(), run.results.end(),
            [](const StepResult& r) { return r.config.purpose == QLatin1String("refine"); });
        const AnalysisResult found = KneeAnalysis::analyze(run.points, options(adaptive));
        QVERIFY2(found.sloCapacity.found, qPrintable(found.sloCapacity.reason.text()));
        const double error = std::abs(found.sloCapacity.offered - truth) / truth;
        QVERIFY2(error <= 0.10,
            qPrintable(QStringLiteral("adaptive %1 vs dense %2 req/s (%3%), refined: %4")
                           .arg(found.sloCapacity.offered)
                           .arg(truth)
                           .arg(error * 100)
                           .arg(refined)));
        qInfo("SLO boundary: dense %.1f req/s, adaptive %.1f req/s in %zu steps (dense: 16)", truth,
            found.sloCapacity.offered, run.results.size());
    }
};

QTEST_GUILESS_MAIN(TestSweepE2e)
#include "tst_sweepe2e.moc"
