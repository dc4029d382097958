#include "sweep/sweepplanner.h"

#include <QTest>

#include <cmath>

using namespace kp;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

StepMetrics metrics(double rps, double p99TtftMs, qint64 completed = 100, qint64 failed = 0)
{
    StepMetrics m;
    m.requestThroughput = rps;
    m.completed = completed;
    m.failed = failed;
    m.ttft.count = completed;
    m.ttft.max = p99TtftMs;
    m.ttft.percentiles = { { 99.0, p99TtftMs } };
    return m;
}

StepOutcome outcome(const PlannedStep& step, double rps, double p99TtftMs, qint64 failed = 0)
{
    StepOutcome o;
    o.step = step;
    o.metrics = metrics(rps, p99TtftMs, 100 - failed, failed);
    return o;
}

std::vector<double> loadsOf(const std::vector<PlannedStep>& steps)
{
    std::vector<double> out;
    for (const PlannedStep& s : steps)
        out.push_back(s.load);
    return out;
}

// Drives a planner against a server whose throughput and latency are functions of the offered load.
template <typename Server> std::vector<StepOutcome> drive(SweepPlanner& planner, Server&& server, int limit = 50)
{
    std::vector<StepOutcome> done;
    while (auto step = planner.next(done)) {
        const auto [rps, ttft] = server(*step);
        done.push_back(outcome(*step, rps, ttft));
        if (int(done.size()) >= limit)
            break;
    }
    return done;
}

} // namespace

class TestSweepPlanner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ranges_data()
    {
        QTest::addColumn<bool>("geometric");
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("stop");
        QTest::addColumn<int>("steps");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::addRow("linear 10..50 by 5") << false << 10.0 << 50.0 << 5 << std::vector<double> { 10, 20, 30, 40, 50 };
        QTest::addRow("linear, 3 significant digits")
            << false << 1.0 << 2.0 << 4 << std::vector<double> { 1, 1.33, 1.67, 2 };
        QTest::addRow("geometric doubling")
            << true << 5.0 << 160.0 << 6 << std::vector<double> { 5, 10, 20, 40, 80, 160 };
        QTest::addRow("one step") << false << 7.0 << 9.0 << 1 << std::vector<double> { 7 };
    }

    void ranges()
    {
        QFETCH(bool, geometric);
        QFETCH(double, start);
        QFETCH(double, stop);
        QFETCH(int, steps);
        QFETCH(std::vector<double>, expected);
        const std::vector<double> got = geometric ? SweepPlanner::geometricRange(start, stop, steps)
                                                  : SweepPlanner::linearRange(start, stop, steps);
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(std::abs(got[i] - expected[i]) < 1e-9, qPrintable(QString::number(got[i])));
    }

    void autoRatesAreDenserNearTheCeiling()
    {
        const std::vector<double> r = SweepPlanner::autoRates(10, 100, 8);
        // Six inside (10 + 90·(1 − (1 − i/6)²)), then 1.15× and 1.35× the ceiling.
        const std::vector<double> expected { 37.5, 60, 77.5, 90, 97.5, 100, 115, 135 };
        QCOMPARE(r.size(), expected.size());
        for (std::size_t i = 0; i < r.size(); ++i)
            QCOMPARE(r[i], expected[i]);
        QVERIFY(r[5] - r[4] < r[1] - r[0]);
    }

    void listRunsAsGiven()
    {
        Load load;
        load.rates = { 5, 10, 20 };
        SweepPlanner planner(load, Slo {});
        QCOMPARE(loadsOf(planner.preview()), (std::vector<double> { 5, 10, 20 }));
        const auto done = drive(planner, [](const PlannedStep& s) { return std::pair { s.load, 10.0 }; });
        QCOMPARE(done.size(), std::size_t(3));
        QVERIFY(planner.stopReason().isEmpty());
    }

    void earlyStopOnCollapse()
    {
        Load load;
        load.rates = { 10, 20, 30, 40, 50, 60, 70 };
        SweepPlanner planner(load, Slo {});
        // Throughput peaks at 30, then falls twice while latency rises: stop after 50.
        const std::map<double, std::pair<double, double>> curve { { 10, { 10, 50 } }, { 20, { 20, 60 } },
            { 30, { 29, 200 } }, { 40, { 26, 900 } }, { 50, { 22, 3000 } }, { 60, { 20, 5000 } },
            { 70, { 18, 8000 } } };
        const auto done = drive(planner, [&](const PlannedStep& s) { return curve.at(s.load); });
        QCOMPARE(done.size(), std::size_t(5));
        QVERIFY2(planner.stopReason().contains(QStringLiteral("collapsed")), qPrintable(planner.stopReason()));
        QVERIFY(planner.stopReason().contains(QStringLiteral("50 req/s")));
    }

    void noEarlyStopWhenDisabledOrUnreliable()
    {
        Load load;
        load.rates = { 10, 20, 30, 40 };
        load.plan.earlyStop = false;
        SweepPlanner planner(load, Slo {});
        const auto done = drive(planner, [](const PlannedStep& s) { return std::pair { 40 - s.load, s.load * 100 }; });
        QCOMPARE(done.size(), std::size_t(4));
    }

    void earlyStopOnErrors()
    {
        Load load;
        load.rates = { 10, 20, 30 };
        load.plan.stopErrorRate = 0.1;
        SweepPlanner planner(load, Slo {});
        std::vector<StepOutcome> done;
        done.push_back(outcome(*planner.next(done), 10, 10));
        done.push_back(outcome(*planner.next(done), 18, 10, 20)); // 20% failed
        QVERIFY(!planner.next(done));
        QVERIFY2(planner.stopReason().contains(QStringLiteral("20.0% of requests failed at 20 req/s")),
            qPrintable(planner.stopReason()));
    }

    // Bisection between the last pass and the first fail until the gap is within the tolerance.
    void refinementLocatesTheSloBoundary()
    {
        Load load;
        load.rates = { 10, 20, 40, 80 };
        load.plan.refine = true;
        load.plan.tolerance = 0.05;
        load.plan.maxRefineSteps = 10;
        Slo slo;
        slo.ttftMs = 500;
        SweepPlanner planner(load, slo);
        // P99 TTFT crosses 500 ms at 33 req/s.
        const auto done = drive(planner, [](const PlannedStep& s) {
            return std::pair { std::min(s.load, 35.0), s.load <= 33 ? 100.0 : 2000.0 };
        });
        double pass = 0;
        double fail = kInf;
        for (const StepOutcome& o : done) {
            if (SweepPlanner::meetsSlo(slo, o.metrics))
                pass = std::max(pass, o.step.load);
            else
                fail = std::min(fail, o.step.load);
        }
        QVERIFY2(pass <= 33 && fail > 33, qPrintable(QStringLiteral("%1..%2").arg(pass).arg(fail)));
        QVERIFY2((fail - pass) / pass <= 0.05, qPrintable(QStringLiteral("%1..%2").arg(pass).arg(fail)));
        // 30 (pass), 35 (fail), 32.5 (pass), 33.8 (fail): 1.3/32.5 = 4% ≤ 5%, four refinements.
        QCOMPARE(std::count_if(done.begin(), done.end(),
                     [](const StepOutcome& o) { return o.step.detail.startsWith(QLatin1String("SLO boundary")); }),
            4);
        QVERIFY(done[7].step.detail.startsWith(QStringLiteral("SLO boundary between")));
    }

    // Every coarse step met the SLO: refinement looks higher (×1.25) until one fails, then bisects.
    void refinementLooksBeyondTheCoarseRange()
    {
        Load load;
        load.rates = { 10, 20 };
        load.plan.refine = true;
        load.plan.tolerance = 0.1;
        Slo slo;
        slo.ttftMs = 500;
        SweepPlanner planner(load, slo);
        const auto done = drive(planner, [](const PlannedStep& s) {
            return std::pair { s.load, s.load <= 30 ? 100.0 : 900.0 };
        });
        std::vector<double> loads;
        for (const StepOutcome& o : done)
            loads.push_back(o.step.load);
        // 25 and 31.3 look higher; then bisection between 25 and 31.3: 28.1, 29.7 (gap 1.6/29.7 ≤ 10%).
        QCOMPARE(loads, (std::vector<double> { 10, 20, 25, 31.3, 28.1, 29.7 }));
        QVERIFY(done[2].step.detail.contains(QStringLiteral("looking higher")));
    }

    // Without an SLO, refinement still narrows the gaps around the knee of the latency curve.
    void refinementNarrowsTheKnee()
    {
        Load load;
        load.rates = { 10, 20, 30, 40, 60, 80 };
        load.plan.refine = true;
        load.plan.tolerance = 0.05;
        load.plan.earlyStop = false;
        SweepPlanner planner(load, Slo {});
        const auto done = drive(planner, [](const PlannedStep& s) {
            const double rps = std::min(s.load, 42.0);
            const double ttft = s.load <= 40 ? 100 + s.load : 140 + (s.load - 40) * 200;
            return std::pair { rps, ttft };
        });
        QVERIFY(done.size() > 6);
        const StepOutcome& extra = done[6];
        QCOMPARE(extra.step.purpose, QStringLiteral("refine"));
        QVERIFY2(extra.step.detail.startsWith(QStringLiteral("around the knee")), qPrintable(extra.step.detail));
        QVERIFY(extra.step.load > 30 && extra.step.load < 60);
    }

    void refinementRespectsItsBudget()
    {
        Load load;
        load.rates = { 10, 100 };
        load.plan.refine = true;
        load.plan.maxRefineSteps = 2;
        Slo slo;
        slo.ttftMs = 500;
        SweepPlanner planner(load, slo);
        const auto done = drive(planner, [](const PlannedStep& s) {
            return std::pair { s.load, s.load < 37 ? 100.0 : 900.0 };
        });
        QCOMPARE(done.size(), std::size_t(4));
    }

    void repeatsTheHighestPassingLoad()
    {
        Load load;
        load.rates = { 10, 20, 30 };
        load.plan.repeats = 2;
        Slo slo;
        slo.ttftMs = 500;
        SweepPlanner planner(load, slo);
        const auto done = drive(planner, [](const PlannedStep& s) {
            return std::pair { s.load, s.load <= 20 ? 100.0 : 900.0 };
        });
        QCOMPARE(done.size(), std::size_t(5));
        QCOMPARE(done[3].step.load, 20.0);
        QCOMPARE(done[4].step.load, 20.0);
        QCOMPARE(done[4].step.purpose, QStringLiteral("repeat"));
    }

    void repeatsEveryLoadRoundByRound()
    {
        Load load;
        load.rates = { 10, 20, 30 };
        load.plan.repeats = 2;
        load.plan.repeatScope = Plan::RepeatScope::All;
        // No SLO: every load still repeats (the best scope needs one).
        SweepPlanner planner(load, Slo {});
        const auto done = drive(planner, [](const PlannedStep& s) { return std::pair { s.load, 100.0 }; });
        std::vector<PlannedStep> steps;
        for (const StepOutcome& o : done)
            steps.push_back(o.step);
        QCOMPARE(loadsOf(steps), (std::vector<double> { 10, 20, 30, 10, 20, 30, 10, 20, 30 }));
        for (std::size_t i = 0; i < steps.size(); ++i)
            QCOMPARE(steps[i].purpose, i < 3 ? QStringLiteral("coarse") : QStringLiteral("repeat"));
        QCOMPARE(steps[3].detail, QStringLiteral("repeat 1 of 2 of every load"));
        QCOMPARE(steps[8].detail, QStringLiteral("repeat 2 of 2 of every load"));
    }

    void repeatsEveryLoadOfARefinedPassOnce()
    {
        // Refinement's loads are loads of the pass too; a load measured twice repeats once per round.
        Load load;
        load.rates = { 10, 20, 40 };
        load.plan.refine = true;
        load.plan.maxRefineSteps = 1;
        load.plan.repeats = 1;
        load.plan.repeatScope = Plan::RepeatScope::All;
        Slo slo;
        slo.ttftMs = 500;
        SweepPlanner planner(load, slo);
        const auto done = drive(planner, [](const PlannedStep& s) {
            return std::pair { s.load, s.load <= 20 ? 100.0 : 900.0 };
        });
        std::vector<PlannedStep> steps;
        for (const StepOutcome& o : done)
            steps.push_back(o.step);
        QCOMPARE(steps.size(), std::size_t(8));
        QCOMPARE(steps[3].purpose, QStringLiteral("refine"));
        const double refined = steps[3].load;
        QCOMPARE(loadsOf(steps), (std::vector<double> { 10, 20, 40, refined, 10, 20, 40, refined }));
    }

    void bestScopeWithoutSloRepeatsNothing()
    {
        Load load;
        load.rates = { 10, 20 };
        load.plan.repeats = 3; // repeat_scope best, as a profile without the key means
        SweepPlanner planner(load, Slo {});
        const auto done = drive(planner, [](const PlannedStep& s) { return std::pair { s.load, 100.0 }; });
        QCOMPARE(done.size(), std::size_t(2));
    }

    void autoMeasuresFloorAndCeilingFirst()
    {
        Load load;
        load.plan.kind = PlanKind::Auto;
        load.plan.steps = 4;
        SweepPlanner planner(load, Slo {});
        std::vector<StepOutcome> done;
        const auto floor = planner.next(done);
        QCOMPARE(floor->mode, LoadMode::Concurrency);
        QCOMPARE(floor->load, 1.0);
        done.push_back(outcome(*floor, 8, 100));
        const auto ceiling = planner.next(done);
        QCOMPARE(ceiling->mode, LoadMode::Rate);
        QVERIFY(std::isinf(ceiling->load));
        done.push_back(outcome(*ceiling, 48, 3000));
        std::vector<double> rates;
        while (auto s = planner.next(done)) {
            rates.push_back(s.value().load);
            done.push_back(outcome(*s, std::min(s->load, 40.0), 100));
        }
        // Two inside: 8 + 40·(1 − (1 − i/2)²) = 38, 48; then 1.15× and 1.35× of 48.
        QCOMPARE(rates, (std::vector<double> { 38, 48, 55.2, 64.8 }));
    }

    // Loads chosen as the sweep goes (auto from a fast ceiling, refinement looking higher, a step added
    // by hand) are held to the load limits; the first one left out says why, and lifting the limits
    // runs them.
    void chosenLoadsKeepToTheLimits()
    {
        Load load;
        load.plan.kind = PlanKind::Auto;
        load.plan.steps = 4;
        load.plan.refine = true;
        Slo slo;
        slo.ttftMs = 500;
        auto fastServer = [](const PlannedStep& s) {
            return std::pair { std::isinf(s.load) ? 2000.0 : s.mode == LoadMode::Concurrency ? 40.0 : s.load, 100.0 };
        };
        SweepPlanner limited(load, slo);
        limited.setLoadLimits(LoadLimits { 2000, 2048 });
        limited.addManual({ LoadMode::Rate, 5000, {}, {} });
        const auto done = drive(limited, fastServer);
        QVERIFY(!done.empty());
        for (const StepOutcome& o : done) {
            const bool within = o.step.mode == LoadMode::Concurrency
                ? o.step.load <= 2048
                : !std::isfinite(o.step.load) || o.step.load <= 2000;
            QVERIFY2(within, qPrintable(formatLoad(o.step.mode, o.step.load)));
        }
        QVERIFY(!limited.overLimit().empty());
        QCOMPARE(limited.overLimit().front().load, 5000.0);
        QCOMPARE(limited.stopReason(),
            QStringLiteral("the next step, 5000 req/s, passes the limit of 2000 req/s: it and any higher ones were "
                           "left out (allow high load to run them)"));

        // The same sweep with the limits lifted runs past them: auto rates 1.15× and 1.35× of 2000.
        SweepPlanner lifted(load, slo);
        lifted.addManual({ LoadMode::Rate, 5000, {}, {} });
        const auto all = drive(lifted, fastServer);
        QVERIFY(lifted.overLimit().empty());
        QVERIFY(std::any_of(all.begin(), all.end(), [](const StepOutcome& o) { return o.step.load == 5000; }));
        QVERIFY(std::any_of(all.begin(), all.end(), [](const StepOutcome& o) { return o.step.load == 2700; }));
    }

    void sloCheckNamesTheBindingMetric()
    {
        Slo slo;
        slo.ttftMs = 500;
        slo.maxErrorRate = 0.01;
        QString reason;
        QVERIFY(SweepPlanner::meetsSlo(slo, metrics(10, 499.9), &reason));
        QVERIFY(!SweepPlanner::meetsSlo(slo, metrics(10, 612.25), &reason));
        QCOMPARE(reason, QStringLiteral("P99 TTFT 612 ms > 500 ms"));
        QVERIFY(!SweepPlanner::meetsSlo(slo, metrics(10, 100, 95, 5), &reason));
        QCOMPARE(reason, QStringLiteral("the error rate 5% > 1%"));
        // The same verdict as the analysis: without an error limit of its own, a step that loses more
        // than AnalysisOptions::maxErrorRate (5%) of its requests fails, its latencies describing survivors.
        Slo latencyOnly;
        latencyOnly.ttftMs = 500;
        QVERIFY(SweepPlanner::meetsSlo(latencyOnly, metrics(10, 100, 96, 4), &reason));
        QVERIFY(!SweepPlanner::meetsSlo(latencyOnly, metrics(10, 100, 93, 7), &reason));
        QCOMPARE(reason, QStringLiteral("the error rate 7% > 5%"));
    }
};

QTEST_GUILESS_MAIN(TestSweepPlanner)
#include "tst_sweepplanner.moc"
