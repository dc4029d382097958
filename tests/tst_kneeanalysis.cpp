#include "load/steprunner.h"
#include "sweep/analysisjson.h"
#include "sweep/analysistext.h"
#include "sweep/analysiswords.h"
#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"
#include "sweep/kneenumerics.h"
#include "sweep/pareto.h"
#include "sweep/slospec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace kp;
using namespace Qt::StringLiterals;

using Points = std::vector<SweepPoint>;
Q_DECLARE_METATYPE(Points)
Q_DECLARE_METATYPE(kp::Slo)
Q_DECLARE_METATYPE(kp::SloLimit)
Q_DECLARE_METATYPE(kp::DemandUnit)
Q_DECLARE_METATYPE(kp::Redundancy)
Q_DECLARE_METATYPE(kp::PeakDemand)
using Doubles = std::vector<double>;
Q_DECLARE_METATYPE(Doubles)

namespace {

constexpr double none = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr int outputTokens = 128; // per request, so output tok/s = 128 × req/s

// One step of 1000 requests: P99 TTFT and TPOT as given, E2EL = TTFT + 127 × TPOT.
SweepPoint point(double offered, double achieved, double ttftMs, double tpotMs = 20, qint64 failed = 0)
{
    SweepPoint p;
    p.offered = offered;
    StepMetrics& m = p.metrics;
    m.completed = 1000 - failed;
    m.failed = failed;
    m.requestThroughput = achieved;
    m.outputThroughput = achieved * outputTokens;
    m.ttft.count = m.completed;
    m.ttft.percentiles = { { 99, ttftMs } };
    m.tpot.count = m.completed;
    m.tpot.percentiles = { { 99, tpotMs } };
    m.e2el.count = m.completed;
    m.e2el.percentiles = { { 99, ttftMs + (outputTokens - 1) * tpotMs } };
    return p;
}

Points curve(const Doubles& offered, const Doubles& achieved, const Doubles& ttft, bool concurrency = false)
{
    Points points;
    for (std::size_t i = 0; i < offered.size(); ++i) {
        points.push_back(point(offered[i], achieved[i], ttft[i]));
        points.back().concurrencyMode = concurrency;
    }
    return points;
}

// Flat TTFT to 40 req/s, a bend at 50, the server saturated from 60.
Points hockeyStick()
{
    const Doubles tpot { 20, 20, 21, 22, 25, 40, 60, 80 };
    Points points = curve({ 10, 20, 30, 40, 50, 60, 70, 80 }, { 9.9, 19.8, 29.7, 39.6, 49.0, 55.0, 57.0, 57.5 },
        { 200, 205, 210, 220, 300, 900, 2500, 4000 });
    for (std::size_t i = 0; i < points.size(); ++i)
        points[i] = point(points[i].offered, points[i].metrics.requestThroughput,
            points[i].metrics.ttft.percentiles[0].second, tpot[i]);
    return points;
}

// The hockey stick with P90 TTFT at half its P99: 100, 102.5, 105, 110, 150, 450, 1250, 2000 ms.
Points hockeyStickWithP90()
{
    Points points = hockeyStick();
    for (SweepPoint& p : points) {
        const double p99 = p.metrics.ttft.percentiles[0].second;
        p.metrics.ttft.percentiles = { { 90, p99 / 2 }, { 99, p99 } };
    }
    return points;
}

// P90 TTFT ≤ ms and P99 TPOT ≤ tpotMs: each limit at its own percentile.
Slo perLimitSlo(double ms, double tpotMs)
{
    Slo slo;
    slo.ttftMs = ms;
    slo.ttftPercentile = 90;
    slo.tpotMs = tpotMs;
    return slo;
}

Points plateau()
{
    return curve({ 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 }, { 9.9, 19.8, 29.7, 39.6, 48.5, 54, 56, 56.5, 55.8, 56.2 },
        { 200, 202, 205, 210, 260, 700, 2000, 3500, 5000, 6500 });
}

Points collapsing()
{
    return curve({ 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 }, { 9.9, 19.8, 29.7, 39.6, 48.5, 54, 50.5, 44, 38, 33 },
        { 200, 202, 205, 210, 260, 700, 2000, 3500, 5000, 6500 });
}

Points noisy()
{
    return curve({ 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 },
        { 10.1, 19.6, 30.4, 39.2, 50.5, 58.0, 61.5, 60.2, 62.0, 61.0 },
        { 210, 190, 220, 200, 230, 260, 900, 2100, 3300, 4600 });
}

// A step's P99 TTFT with its 95 % interval, as a bootstrap over its requests gives it.
void setTtftInterval(SweepPoint& p, double low, double high)
{
    p.metrics.intervals.method = StepIntervals::Method::Bootstrap;
    p.metrics.intervals.figures[u"p99_ttft_ms"_s] = { low, high };
}

// Rates, throughput, P99 TTFT and its interval half-width (as a share of the value) per step.
Points withIntervals(const Doubles& offered, const Doubles& achieved, const Doubles& ttft, double halfWidth)
{
    Points points = curve(offered, achieved, ttft);
    for (std::size_t i = 0; i < points.size(); ++i)
        setTtftInterval(points[i], ttft[i] * (1 - halfWidth), ttft[i] * (1 + halfWidth));
    return points;
}

// The demo's sweep as a user saw it: throughput keeps up everywhere, P99 TTFT flat but for one noisy step
// at 200 req/s that the next step undoes, and a drift from 24 ms to 37 ms far below a 500 ms SLO.
Points oneOutlier()
{
    Points points = curve(
        { 25, 50, 100, 150, 200, 250, 350 }, { 24.5, 49, 98, 146, 195, 244, 340 }, { 28, 19, 21, 23.9, 114, 29, 37.2 });
    const double low[] = { 22, 17, 19, 21.5, 60, 26.5, 33.5 };
    const double high[] = { 33, 21, 23.5, 26.5, 131, 31.5, 41 };
    for (std::size_t i = 0; i < points.size(); ++i)
        setTtftInterval(points[i], low[i], high[i]);
    return points;
}

// Findings that cannot both be true are never both stated.
void verifyConsistent(const AnalysisResult& r)
{
    const QString text = analysisLines(r).join(u'\n');
    if (r.collapse.found)
        QVERIFY2(r.saturation.found, qPrintable(text));
    if (r.knee.found) {
        QVERIFY2(!text.contains(u"No knee"_s), qPrintable(text));
        if (!r.saturation.found && !r.throughputKnee.found)
            QVERIFY2(r.throughputKnee.reason.text().contains(u"still keeps up"_s), qPrintable(text));
    } else {
        QVERIFY2(!text.contains(u"The knee is at"_s), qPrintable(text));
    }
    if (!r.saturation.found)
        QVERIFY2(!text.contains(u"Saturation at"_s) && !text.contains(u"overloaded"_s), qPrintable(text));
    for (const Region& region : r.regions) {
        if (region.kind == RegionKind::Knee)
            QVERIFY2(r.knee.found || r.throughputKnee.found, qPrintable(text));
        if (region.kind == RegionKind::Overload)
            QVERIFY2(r.saturation.found || r.collapse.found, qPrintable(text));
    }
}

Points neverSaturates()
{
    return curve({ 20, 40, 60, 80, 100, 120, 140, 160 }, { 19.9, 39.5, 59.6, 79.0, 99.2, 118.7, 138.9, 158.0 },
        { 200, 205, 198, 210, 207, 215, 220, 226 });
}

// The hockey stick plus three steps that would move the knee if they counted.
Points withUnreliableSteps()
{
    Points points = hockeyStick();
    SweepPoint clientBound = point(45, 40, 3000);
    clientBound.clientBound = true;
    SweepPoint partial = point(75, 30, 100);
    partial.partial = true;
    const SweepPoint failing = point(85, 56, 6000, 90, 200);
    points.push_back(clientBound);
    points.push_back(partial);
    points.push_back(failing);
    return points;
}

Points concurrencySweep()
{
    return curve(
        { 1, 2, 4, 8, 16, 32, 64 }, { 2, 4, 7.8, 15, 26, 30, 30.5 }, { 100, 102, 105, 115, 180, 600, 1800 }, true);
}

// The hockey stick with failures growing from 50 req/s: 0.5%, 3%, 10%, 20% (of 1000 requests).
Points failingHockeyStick()
{
    Points points = hockeyStick();
    const qint64 failed[] = { 0, 0, 0, 0, 5, 30, 100, 200 };
    for (std::size_t i = 0; i < points.size(); ++i) {
        points[i].metrics.failed = failed[i];
        points[i].metrics.completed = 1000 - failed[i];
    }
    return points;
}

QString regionsText(const AnalysisResult& result)
{
    QStringList parts;
    for (const Region& r : result.regions)
        parts << u"%1 %2-%3"_s.arg(regionKindKey(r.kind), QString::number(r.fromOffered), QString::number(r.toOffered));
    return parts.join(u", "_s);
}

void compareFinding(const Finding& finding, double expected, const char* name)
{
    if (std::isnan(expected)) {
        QVERIFY2(!finding.found,
            qPrintable(
                u"%1 found at %2: %3"_s.arg(QLatin1String(name)).arg(finding.offered).arg(finding.reason.text())));
        QVERIFY2(!finding.reason.text().isEmpty(), name);
    } else {
        QVERIFY2(finding.found, qPrintable(u"%1 not found: %2"_s.arg(QLatin1String(name), finding.reason.text())));
        QCOMPARE(finding.offered, expected);
    }
}

Slo ttftSlo(double ms)
{
    Slo slo;
    slo.ttftMs = ms;
    return slo;
}

} // namespace

class TestKneeAnalysis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ttfcSloDecides();
    void shortOutputsAreSaid_data();
    void shortOutputsAreSaid();
    // The interactivity–throughput front: 1000 / median TPOT per user, output throughput per GPU, the steps
    // no other beats on both marked; steps without TPOT, cut short or failing too often left off; the GPU
    // count from the steps' metrics first, then the profile's server section, else per server.
    void paretoFront()
    {
        auto step = [](int index, double offered, double tpotMedianMs, double outputTps, qint64 failed = 0) {
            StepMetrics m;
            m.completed = 100 - failed;
            m.failed = failed;
            m.outputThroughput = outputTps;
            if (tpotMedianMs > 0) {
                m.tpot.count = m.completed;
                m.tpot.median = tpotMedianMs;
                m.tpot.mean = tpotMedianMs;
            }
            return ParetoInput::fromStep(index, offered, m, false, std::nullopt);
        };
        std::vector<ParetoInput> steps {
            step(0, 1, 10, 100), // 100 tok/s per user
            step(1, 4, 12.5, 380), // 80
            step(2, 16, 20, 1200), // 50
            step(3, 32, 25, 1100), // 40: dominated by step 2 (faster and more throughput)
            step(4, 64, 40, 1600), // 25
            step(5, 128, 0, 0), // no TPOT: one-token answers
            step(6, 256, 50, 1500, 10), // 10% failed
        };
        steps.push_back(step(7, 512, 50, 1700));
        steps.back().partial = true;

        ParetoFront perServer = kp::paretoFront(steps);
        QCOMPARE(perServer.unit, ParetoUnit::Server);
        QCOMPARE(perServer.units, 1);
        QCOMPARE(perServer.leftOff, 3);
        QCOMPARE(perServer.points.size(), std::size_t(5));
        QList<int> order, optimal;
        for (const ParetoPoint& p : perServer.points) {
            order << p.step;
            if (p.optimal)
                optimal << p.step;
        }
        QCOMPARE(order, (QList<int> { 4, 3, 2, 1, 0 })); // by rising interactivity
        QCOMPARE(optimal, (QList<int> { 4, 2, 1, 0 }));
        QCOMPARE(perServer.points[1].perUser, 40.0);
        QCOMPARE(perServer.points[1].perUnit, 1100.0);
        QCOMPARE(perServer.optimal().size(), std::size_t(4));

        // The profile's server section: accelerator_count, else tensor × pipeline parallel size.
        ServerInfo server;
        server.tensorParallelSize = 2;
        server.pipelineParallelSize = 2;
        ParetoOptions fromTp = paretoOptionsFor(server);
        QCOMPARE(*fromTp.gpus, 4);
        QCOMPARE(fromTp.gpusSource, QStringLiteral("server.tensor_parallel_size × pipeline_parallel_size"));
        server.acceleratorCount = 8;
        const ParetoFront perGpu = kp::paretoFront(steps, paretoOptionsFor(server));
        QCOMPARE(perGpu.unit, ParetoUnit::Gpu);
        QCOMPARE(perGpu.units, 8);
        QCOMPARE(perGpu.unitSource, QStringLiteral("server.accelerator_count"));
        QCOMPARE(perGpu.points[0].perUnit, 200.0); // 1600 tok/s over 8 GPUs
        QVERIFY(!paretoOptionsFor(ServerInfo {}).gpus);
        // The GPUs the servers' exporter counted come first: they were measured.
        ServerStepStats dcgm;
        dcgm.gpuCount = 4;
        std::vector<ParetoInput> measured = steps;
        measured[0] = ParetoInput::fromStep(0, 1, StepMetrics {}, false, dcgm);
        QCOMPARE(*measured[0].gpus, 4);
        const ParetoFront counted = kp::paretoFront(measured, paretoOptionsFor(server));
        QCOMPARE(counted.units, 4);
        QCOMPARE(counted.unitSource, QStringLiteral("GPU exporter"));

        // A stricter error limit leaves the 1% of a step out as well; none usable: an empty front.
        steps[2] = step(2, 16, 20, 1200, 2);
        ParetoOptions strict;
        strict.maxErrorRate = 0.01;
        const ParetoFront f = kp::paretoFront(steps, strict);
        QCOMPARE(f.leftOff, 4);
        QCOMPARE(f.points.size(), std::size_t(4));
        QVERIFY(f.points[1].optimal); // step 3 is no longer dominated
        QVERIFY(kp::paretoFront({ step(0, 1, 0, 0) }).points.empty());
    }

    void isotonicFit_data();
    void isotonicFit();
    void kneedle_data();
    void kneedle();
    void analyze_data();
    void analyze();
    void unreliableStepsAreNamed();
    void everyRequestFailed();
    void wholeAnswersAreAnalysedOnE2el();
    void hockeyStickText();
    void sloCapacity_data();
    void sloCapacity();
    void recommended_data();
    void recommended();
    void capacityArithmetic_data();
    void capacityArithmetic();
    void capacityFromAnalysis_data();
    void capacityFromAnalysis();
    void json();
    void jsonWithPlan();
    void sloSpec_data();
    void sloSpec();
    void peakSpec_data();
    void peakSpec();
    void redundancySpec_data();
    void redundancySpec();
    void pointsFromSteps();
    // A knee only from a rise that is sustained, beyond the steps' own intervals, seen at two steps or
    // more and large enough to matter against the SLO; otherwise the reason says which test it failed.
    void kneeNeedsEvidence_data();
    void kneeNeedsEvidence();
    void outlierStepIsNamed();
    void oneLoadHasNoTrend_data();
    void oneLoadHasNoTrend();
    // A sweep the prefix cache flattered says so, and why: prompts repeating, or prefixes shared by design.
    void cacheFriendlyWorkloadIsSaid_data();
    void cacheFriendlyWorkloadIsSaid();
    void drainIsNotSaturation();
    void floorStepStaysOffARateAxis();
};

void TestKneeAnalysis::isotonicFit_data()
{
    QTest::addColumn<Doubles>("values");
    QTest::addColumn<Doubles>("expected");
    QTest::addRow("empty") << Doubles {} << Doubles {};
    QTest::addRow("already non-decreasing") << Doubles { 1, 2, 2, 5 } << Doubles { 1, 2, 2, 5 };
    QTest::addRow("one violator pooled") << Doubles { 210, 190, 220 } << Doubles { 200, 200, 220 };
    QTest::addRow("pooling cascades back") << Doubles { 1, 4, 3, 0 } << Doubles { 1, 7.0 / 3, 7.0 / 3, 7.0 / 3 };
    QTest::addRow("decreasing becomes the mean") << Doubles { 4, 3, 2 } << Doubles { 3, 3, 3 };
}

void TestKneeAnalysis::isotonicFit()
{
    QFETCH(Doubles, values);
    QFETCH(Doubles, expected);
    const Doubles fit = knee::isotonicFit(values);
    QCOMPARE(fit.size(), expected.size());
    for (std::size_t i = 0; i < fit.size(); ++i)
        QVERIFY2(std::abs(fit[i] - expected[i]) < 1e-12, qPrintable(QString::number(i)));
}

void TestKneeAnalysis::kneedle_data()
{
    QTest::addColumn<Doubles>("x");
    QTest::addColumn<Doubles>("y");
    QTest::addColumn<bool>("convex");
    QTest::addColumn<int>("expected"); // -1: none
    const Doubles x { 10, 20, 30, 40, 50, 60, 70, 80 };
    QTest::addRow("convex hockey stick") << x << Doubles { 200, 205, 210, 220, 300, 900, 2500, 4000 } << true << 4;
    QTest::addRow("concave throughput") << x << Doubles { 9.9, 19.8, 29.7, 39.6, 49.0, 55.0, 57.0, 57.5 } << false << 4;
    QTest::addRow("straight line") << x << Doubles { 1, 2, 3, 4, 5, 6, 7, 8 } << true << -1;
    QTest::addRow("flat") << x << Doubles { 5, 5, 5, 5, 5, 5, 5, 5 } << true << -1;
    // x² bends less than the threshold of S × mean Δx = 1/7 allows at this step count.
    QTest::addRow("gentle parabola") << x << Doubles { 1, 1.1, 1.2, 1.35, 1.5, 1.7, 1.9, 2.1 } << true << -1;
    QTest::addRow("two points") << Doubles { 1, 2 } << Doubles { 1, 5 } << true << -1;
}

void TestKneeAnalysis::kneedle()
{
    QFETCH(Doubles, x);
    QFETCH(Doubles, y);
    QFETCH(bool, convex);
    QFETCH(int, expected);
    const auto knee = kp::knee::kneedle(x, y, convex, 1.0);
    QCOMPARE(knee ? int(*knee) : -1, expected);
}

void TestKneeAnalysis::analyze_data()
{
    QTest::addColumn<Points>("points");
    QTest::addColumn<double>("knee");
    QTest::addColumn<double>("throughputKnee");
    QTest::addColumn<double>("saturation");
    QTest::addColumn<double>("collapse");
    QTest::addColumn<QString>("regions");
    QTest::addColumn<QStringList>("said"); // each appears in some sentence of the text

    QTest::addRow("clean hockey stick") << hockeyStick() << 50.0 << 50.0 << 60.0 << none
                                        << u"linear 10-40, knee 50-50, overload 60-80"_s
                                        << QStringList { u"The knee is at 50 req/s"_s, u"Saturation at 60 req/s"_s,
                                               u"No collapse"_s };
    QTest::addRow("plateau, no collapse")
        << plateau() << 50.0 << 60.0 << 60.0 << none << u"linear 10-40, knee 50-50, overload 60-100"_s
        << QStringList {
               u"No collapse: throughput held within 10% of its 56.5 req/s peak from 80 req/s to 100 req/s."_s
           };
    QTest::addRow("collapse") << collapsing() << 50.0 << 60.0 << 60.0 << 80.0
                              << u"linear 10-40, knee 50-50, overload 60-100"_s
                              << QStringList { u"Throughput collapses from 80 req/s: it peaked at 54 req/s at 60 req/s "
                                               u"and falls to 44 req/s (19% below the peak)"_s,
                                     u"from 80 req/s throughput falls, to 19% below its 54 req/s peak"_s };
    QTest::addRow("noisy") << noisy() << 60.0 << 60.0 << 70.0 << none << u"linear 10-50, knee 60-60, overload 70-100"_s
                           << QStringList { u"No collapse"_s };
    QTest::addRow("never saturates")
        << neverSaturates() << none << none << none << none << u"linear 20-160"_s
        << QStringList { u"The sweep never saturated: throughput followed the offered rate up to 160 req/s (158 req/s "
                         u"achieved); add higher rates."_s,
               u"No knee in 20–160 req/s: P99 TTFT stayed between 198 ms and 226 ms, less than a 1.5× rise. The "
               u"sweep never saturated; add higher rates."_s,
               u"No collapse: throughput rose with the load up to 160 req/s."_s };
    QTest::addRow("unreliable steps left out")
        << withUnreliableSteps() << 50.0 << 50.0 << 60.0 << none << u"linear 10-40, knee 50-50, overload 60-85"_s
        << QStringList { u"Left out: step 9 (45 req/s): client-bound; step 10 (75 req/s): partial; step 11 (85 req/s): "
                         u"20% errors."_s };
    QTest::addRow("concurrency mode")
        << concurrencySweep() << 8.0 << 16.0 << 32.0 << none << u"linear 1-4, knee 8-16, overload 32-64"_s
        << QStringList { u"Saturation at 32 users: more users add at most 1.7% throughput (30 req/s here, at most 30.5 "
                         u"req/s up to 64 users)."_s };
    Points allAtOnce = hockeyStick();
    allAtOnce.push_back(point(inf, 58.1, 9000));
    QTest::addRow("all-at-once step off the axis")
        << allAtOnce << 50.0 << 50.0 << 60.0 << none << u"linear 10-40, knee 50-50, overload 60-80"_s
        << QStringList { u"Step 9 sent every request at once: its 58.1 req/s is the server's throughput ceiling, not a "
                         u"point on the load axis."_s };
    Points dip = hockeyStick();
    dip[2].metrics.requestThroughput = 27; // 90% of 30 req/s, then back on the line
    QTest::addRow("a dip that recovers is not saturation")
        << dip << 50.0 << 50.0 << 60.0 << none << u"linear 10-40, knee 50-50, overload 60-80"_s
        << QStringList { u"Linear up to 40 req/s: throughput follows the offered rate (within 10%)"_s };
    Points repeated = hockeyStick();
    repeated.push_back(point(50, 48.6, 320));
    repeated.push_back(point(50, 49.4, 280));
    QTest::addRow("repeated step averaged")
        << repeated << 50.0 << 50.0 << 60.0 << none << u"linear 10-40, knee 50-50, overload 60-80"_s
        << QStringList { u"Steps 5, 9 and 10 ran at 50 req/s; the analysis uses their mean. Their spread: "
                         "throughput 48.6 req/s to 49.4 req/s, P99 TTFT 280 ms to 320 ms."_s,
               u"The knee is at 50 req/s (49 req/s achieved): P99 TTFT is 300 ms there"_s };
    Points mixed = hockeyStick();
    mixed.push_back(point(64, 30, 5000));
    mixed.back().concurrencyMode = true;
    QTest::addRow("a step of the other load mode")
        << mixed << 50.0 << 50.0 << 60.0 << none << u"linear 10-40, knee 50-50, overload 60-80"_s
        << QStringList { u"Step 9 (64 users) is left out of the analysis: it ran with a number of users, while the "
                         u"sweep varies the rate."_s };
    const Points hockey = hockeyStick();
    QTest::addRow("first three steps only")
        << Points(hockey.begin(), hockey.begin() + 3) << none << none << none << none << u"linear 10-30"_s
        << QStringList { u"No knee yet: finding one needs at least 4 reliable steps that report P99 TTFT, and the "
                         u"sweep has 3."_s };
    QTest::addRow("no steps") << Points {} << none << none << none << none << QString()
                              << QStringList { u"Saturation is unknown: no step with a usable load yet."_s };
}

void TestKneeAnalysis::analyze()
{
    QFETCH(Points, points);
    QFETCH(double, knee);
    QFETCH(double, throughputKnee);
    QFETCH(double, saturation);
    QFETCH(double, collapse);
    QFETCH(QString, regions);
    QFETCH(QStringList, said);

    const AnalysisResult result = KneeAnalysis::analyze(points, AnalysisOptions {});
    compareFinding(result.knee, knee, "knee");
    compareFinding(result.throughputKnee, throughputKnee, "throughput knee");
    compareFinding(result.saturation, saturation, "saturation");
    compareFinding(result.collapse, collapse, "collapse");
    QCOMPARE(regionsText(result), regions);
    const QString text = analysisLines(result).join(u'\n');
    for (const QString& expected : said)
        QVERIFY2(text.contains(expected), qPrintable(u"missing: %1\nin:\n%2"_s.arg(expected, text)));
    // Deterministic: the same input gives the same answer.
    QCOMPARE(KneeAnalysis::analyze(points, AnalysisOptions {}), result);
    verifyConsistent(result);
}

void TestKneeAnalysis::kneeNeedsEvidence_data()
{
    QTest::addColumn<Points>("points");
    QTest::addColumn<Slo>("slo");
    QTest::addColumn<double>("knee");
    QTest::addColumn<QString>("reason"); // the knee's reason starts with this

    const Doubles rates { 10, 20, 30, 40, 50, 60, 70 };
    const Doubles keepsUp { 9.9, 19.8, 29.7, 39.6, 49.5, 59.4, 69.3 };
    QTest::addRow("one outlier step, a drift far below the SLO")
        << oneOutlier() << ttftSlo(500) << none
        << u"No knee in 25–350 req/s: P99 TTFT rises from 23.9 ms at 150 req/s to 37.2 ms at 350 req/s, 13.3 ms "
           u"more, which is under 10% of the SLO's 500 ms limit: far below the objective, the rise does not limit "
           u"capacity. The sweep never saturated; add higher rates. Left out: step 5 (200 req/s): outlier."_s;
    QTest::addRow("sustained rise beyond the intervals")
        << withIntervals(rates, keepsUp, { 100, 102, 105, 110, 300, 900, 2500 }, 0.05) << ttftSlo(500) << 40.0
        << u"The knee is at 40 req/s (39.6 req/s achieved): P99 TTFT is 110 ms there, 300 ms at 50 req/s, and 2.5 s "
           u"(23×) at 70 req/s."_s;
    QTest::addRow("rise within the intervals")
        << withIntervals(rates, keepsUp, { 100, 102, 104, 110, 170, 190, 200 }, 0.4) << Slo {} << none
        << u"No knee in 10–70 req/s: P99 TTFT bends at 40 req/s (110 ms (95% interval 66–154 ms)) but is 170 ms "
           u"(95% interval 102–238 ms) at 50 req/s, within the noise the steps measured: the rise is not "
           u"sustained."_s;
    Points jitter = curve({ 25, 50, 100, 150, 225, 300, 400, 500 }, { 24.8, 49.7, 99, 148, 221, 290, 370, 420 },
        { 3.44, 3.36, 16.4, 16.4, 65, 139, 240, 294 });
    const double jitterLow[] = { 3.2, 3.08, 3.21, 3.3, 40, 110, 200, 260 };
    const double jitterHigh[] = { 3.6, 3.54, 23.8, 23.9, 80, 160, 270, 330 };
    for (std::size_t i = 0; i < jitter.size(); ++i)
        setTtftInterval(jitter[i], jitterLow[i], jitterHigh[i]);
    QTest::addRow("a noisy jump at the bend, then a sustained climb")
        << jitter << ttftSlo(100) << 150.0
        << u"The knee is at 150 req/s (148 req/s achieved): P99 TTFT is 16.4 ms "
           u"there, 65 ms at 225 req/s, and 294 ms (18×) at 500 req/s."_s;
    QTest::addRow("an early rise that keeps climbing (concave on the logarithm)") << curve(
        { 25, 50, 100, 150, 225, 300, 400, 500 }, { 24.8, 49.7, 99, 148, 221, 290, 370, 420 },
        { 3.66, 5.4, 16.4, 18.4, 65, 139, 243, 294 }) << ttftSlo(100) << 150.0 << u"The knee is at 150 req/s"_s;
    QTest::addRow("the same rise, measured tightly")
        << withIntervals(rates, keepsUp, { 100, 102, 104, 110, 170, 190, 200 }, 0.02) << Slo {} << 40.0
        << u"The knee is at 40 req/s"_s;
    QTest::addRow("rise far below the SLO")
        << withIntervals(rates, keepsUp, { 20, 20.5, 21, 22, 30, 45, 60 }, 0.02) << ttftSlo(500) << none
        << u"No knee in 10–70 req/s: P99 TTFT rises from 22 ms at 40 req/s to 60 ms at 70 req/s, 38 ms more, which "
           u"is under 10% of the SLO's 500 ms limit: far below the objective, the rise does not limit capacity. "
           u"The sweep never saturated; add higher rates."_s;
    QTest::addRow("the same rise without an SLO is a knee")
        << withIntervals(rates, keepsUp, { 20, 20.5, 21, 22, 30, 45, 60 }, 0.02) << Slo {} << 40.0
        << u"The knee is at 40 req/s"_s;
    QTest::addRow("a rise at the last step only")
        << withIntervals(rates, keepsUp, { 100, 101, 102, 103, 104, 105, 400 }, 0.02) << ttftSlo(500) << none
        << u"No knee in 10–70 req/s: P99 TTFT rises only at the highest load, 70 req/s (400 ms against 105 ms at 60 "
           u"req/s); one step does not make a knee: add higher rates to confirm it."_s;
    QTest::addRow("no intervals: a rise beyond the noise ratio") << curve(rates, keepsUp,
        { 100, 102, 105, 110, 300, 900, 2500 }) << Slo {} << 40.0 << u"The knee is at 40 req/s"_s;
    QTest::addRow("no intervals: a rise within the noise ratio")
        << curve(rates, keepsUp, { 100, 101, 102, 103, 125, 150, 170 }) << Slo {} << none
        << u"No knee in 10–70 req/s: P99 TTFT bends at 40 req/s (103 ms) but is 125 ms at 50 req/s, less than 25% "
           u"above it, which the steps' noise may explain: the rise is not sustained."_s;
}

void TestKneeAnalysis::kneeNeedsEvidence()
{
    QFETCH(Points, points);
    QFETCH(Slo, slo);
    QFETCH(double, knee);
    QFETCH(QString, reason);

    const AnalysisResult result = KneeAnalysis::analyze(points, analysisOptionsFor(slo));
    compareFinding(result.knee, knee, "knee");
    QVERIFY2(result.knee.reason.text().startsWith(reason),
        qPrintable(u"expected: %1\nactual:   %2"_s.arg(reason, result.knee.reason.text())));
    verifyConsistent(result);
}

// The demo's noisy step: named as an outlier with its figures, left out of the knee, drawn apart, and the
// linear stretch reads without it.
void TestKneeAnalysis::outlierStepIsNamed()
{
    const AnalysisResult result = KneeAnalysis::analyze(oneOutlier(), analysisOptionsFor(ttftSlo(500)));
    QVERIFY(!result.knee.found);
    QVERIFY(!result.saturation.found);
    QVERIFY(!result.throughputKnee.found);
    QVERIFY(result.steps[4].outlier);
    QVERIFY(!result.steps[4].usedForKnee);
    QCOMPARE(result.steps[4].excluded.text(), u"an outlier: the next step undid its rise"_s);
    for (std::size_t i : { 0, 1, 2, 3, 5, 6 })
        QVERIFY(!result.steps[i].outlier);
    const QString text = analysisLines(result).join(u'\n');
    QVERIFY2(text.contains(u"Step 5 (200 req/s) is an outlier: P99 TTFT is 114 ms (95% interval 60–131 ms) "
                           u"there, against 23.9 ms (95% interval 21.5–26.5 ms) at 150 req/s and 29 ms (95% "
                           u"interval 26.5–31.5 ms) at 250 req/s; the next step undoes the rise, so the knee leaves "
                           u"it out."_s),
        qPrintable(text));
    QVERIFY2(text.contains(u"Linear up to 350 req/s: throughput follows the offered rate (within 3%) and P99 TTFT "
                           u"stays between 19 ms and 37.2 ms, the outlier at 200 req/s aside."_s),
        qPrintable(text));
    QVERIFY2(result.knee.reason.text().endsWith(u"Left out: step 5 (200 req/s): outlier."_s),
        qPrintable(result.knee.reason.text()));
    verifyConsistent(result);
}

void TestKneeAnalysis::cacheFriendlyWorkloadIsSaid_data()
{
    QTest::addColumn<qint64>("repeated"); // per step of 1000 requests; -1: unknown (a foreign file)
    QTest::addColumn<qint64>("cached"); // input tokens from the cache, of 128000 per step; -1: unknown
    QTest::addColumn<QString>("said"); // empty: nothing said

    QTest::addRow("prompts repeat, the cache serves them")
        << qint64(950) << qint64(105000)
        << u"The knee and saturation were measured on a cache-friendly workload: 82% of input tokens came from the "
           u"prefix cache because prompts repeat (95% of requests re-sent a prompt already sent in this run); a "
           u"server without that reuse would saturate earlier. Send fresh prompts (workload.prompt_pool 0, or a "
           u"dataset as large as the run) or reset the cache between steps (load.reset_cache_between_steps)."_s;
    QTest::addRow("prompts repeat, the cache is not reported")
        << qint64(500) << qint64(-1)
        << u"The knee and saturation were measured on a cache-friendly workload: 50% of requests re-sent a prompt "
           u"already sent in this run; a server with prefix caching answers them with little prefill, so a server "
           u"without that reuse would saturate earlier. Send fresh prompts (workload.prompt_pool 0, or a dataset as "
           u"large as the run) or reset the cache between steps (load.reset_cache_between_steps)."_s;
    QTest::addRow("fresh prompts sharing prefixes")
        << qint64(0) << qint64(51200)
        << u"40% of input tokens came from the prefix cache (the client's figures) though no prompt repeated: the "
           u"workload shares prefixes (a system prompt, conversation history), so the findings hold for traffic "
           u"that shares as much."_s;
    QTest::addRow("a file that does not say whether prompts repeated")
        << qint64(-1) << qint64(64000)
        << u"50% of input tokens came from the prefix cache (the client's figures). Where that comes from prompts "
           u"repeating rather than prefixes the traffic really shares, a server without that reuse would saturate "
           u"earlier."_s;
    QTest::addRow("fresh prompts, little from the cache") << qint64(0) << qint64(6400) << QString();
    QTest::addRow("a few repeats") << qint64(20) << qint64(-1) << QString();
}

void TestKneeAnalysis::cacheFriendlyWorkloadIsSaid()
{
    QFETCH(qint64, repeated);
    QFETCH(qint64, cached);
    QFETCH(QString, said);

    Points points = hockeyStick();
    for (SweepPoint& p : points) {
        p.metrics.totalInputTokens = 128000;
        if (cached >= 0) {
            p.metrics.totalCachedTokens = cached;
            p.metrics.cachedTokensReported = p.metrics.completed;
        }
        if (repeated >= 0)
            p.metrics.repeatedPrompts = repeated;
    }
    const AnalysisResult result = KneeAnalysis::analyze(points, AnalysisOptions {});
    QStringList notes;
    for (const Sentence& note : result.notes)
        notes << note.text();
    const QString text = notes.join(u'\n');
    const bool cacheWords = text.contains(u"prefix cach"_s) || text.contains(u"re-sent"_s);
    if (said.isEmpty())
        QVERIFY2(!cacheWords, qPrintable(text));
    else
        QVERIFY2(notes.contains(said), qPrintable(u"missing: %1\nin:\n%2"_s.arg(said, text)));
}

void TestKneeAnalysis::oneLoadHasNoTrend_data()
{
    QTest::addColumn<Points>("points");
    QTest::addColumn<QStringList>("said");

    QTest::addRow("one step") << Points { point(100, 98, 30) }
                              << QStringList { u"One load: at 100 req/s the server completed 98 req/s, 98% of the "
                                               u"offered rate, so it kept up there; one load cannot show where it "
                                               u"stops keeping up: add higher rates."_s,
                                     u"No knee: every usable step ran at 100 req/s, and one load shows no curve; add "
                                     u"steps at lower and higher loads."_s,
                                     u"The one load tested, 100 req/s (98 req/s achieved), met the SLO (P99 TTFT ≤ 500 "
                                     u"ms), so the SLO capacity is at least that; add higher rates to find it."_s };
    QTest::addRow("three steps at one load")
        << Points { point(100, 60, 3000), point(100, 62, 2800), point(100, 61, 3100) }
        << QStringList { u"One load: at 100 req/s the server completed 61 req/s, 61% of the offered rate, so it was "
                         u"saturated there; one load cannot show where saturation begins: add lower rates."_s,
               u"No throughput knee: every usable step ran at 100 req/s; a bend takes several loads."_s,
               u"No SLO capacity: the one load tested, 100 req/s, misses the SLO (P99 TTFT 2.97 s > 500 ms); test "
               u"lower loads."_s };
    Points users { point(8, 30, 120) };
    users.front().concurrencyMode = true;
    QTest::addRow("one number of users")
        << users
        << QStringList { u"One load: with 8 users the server completed 30 req/s. One load cannot show whether more "
                         u"users add throughput; add steps with fewer and more users."_s };
}

// One load, or every step at one load, tells whether the server kept up and met the SLO there, never a
// trend: no linear stretch, no "still grows", no knee, saturation or collapse.
void TestKneeAnalysis::oneLoadHasNoTrend()
{
    QFETCH(Points, points);
    QFETCH(QStringList, said);

    const AnalysisResult result = KneeAnalysis::analyze(points, analysisOptionsFor(ttftSlo(500)));
    QVERIFY(!result.knee.found);
    QVERIFY(!result.throughputKnee.found);
    QVERIFY(!result.saturation.found);
    QVERIFY(!result.collapse.found);
    QVERIFY(result.regions.empty());
    const QString text = analysisLines(result).join(u'\n');
    for (const QString& trend :
        { u"Linear"_s, u"up to"_s, u"still grows"_s, u"grows in step"_s, u"never saturated"_s, u"The knee is at"_s })
        QVERIFY2(!text.contains(trend), qPrintable(u"said \"%1\" in:\n%2"_s.arg(trend, text)));
    for (const QString& expected : said)
        QVERIFY2(text.contains(expected), qPrintable(u"missing: %1\nin:\n%2"_s.arg(expected, text)));
}

// A sweep where every request failed: no figure is made up from 0 / 0.
void TestKneeAnalysis::everyRequestFailed()
{
    Points points;
    // As the reference writes such a step: zeros for latencies no request had.
    for (double rate : { 10.0, 20.0, 40.0 })
        points.push_back(point(rate, 0, 0, 0, 1000));
    const AnalysisResult result = KneeAnalysis::analyze(points, AnalysisOptions {});
    QVERIFY(!result.recommended.found);
    QCOMPARE(result.recommended.reason.text(),
        u"No recommended operating point: no step completed a request, so there is no throughput to size it by."_s);
    const QString text = analysisLines(result).join(u'\n');
    QVERIFY2(!text.contains(u"9223372036854775808"_s) && !text.contains(u"nan"_s), qPrintable(text));
    QVERIFY2(!text.contains(u" 0 ms"_s), qPrintable(text));
    for (const StepAssessment& a : result.steps)
        QVERIFY(!a.latencyMs);
    QCOMPARE(words::wholePercent(none), u"—"_s);
    QCOMPARE(words::percent(inf), u"—"_s);
}

// Embeddings and whole answers (not streamed) have no TTFT or TPOT: the knee is found on E2EL, the same
// as asking for E2EL, and the analysis says so.
void TestKneeAnalysis::wholeAnswersAreAnalysedOnE2el()
{
    Points points = hockeyStick();
    for (SweepPoint& p : points) {
        for (LatencyStats* s : { &p.metrics.ttft, &p.metrics.tpot, &p.metrics.itl }) {
            *s = LatencyStats::unknown();
            s->percentiles = { { 99, none } };
        }
    }
    const AnalysisResult result = KneeAnalysis::analyze(points, AnalysisOptions {});
    AnalysisOptions e2el;
    e2el.metric = LatencyMetric::E2el;
    AnalysisResult asked = KneeAnalysis::analyze(points, e2el);
    QCOMPARE(result.options.metric, LatencyMetric::E2el);
    QVERIFY(result.knee.found);
    QCOMPARE(result.knee.offered, asked.knee.offered);
    QCOMPARE(result.saturation.offered, asked.saturation.offered);
    QCOMPARE(result.notes.size(), asked.notes.size() + 1);
    QCOMPARE(result.notes.front().text(),
        u"No step measured P99 TTFT (whole answers, not streamed, or embeddings); the latency curve is P99 E2EL."_s);
}

void TestKneeAnalysis::unreliableStepsAreNamed()
{
    const AnalysisResult result = KneeAnalysis::analyze(withUnreliableSteps(), AnalysisOptions {});
    QCOMPARE(result.steps.size(), std::size_t(11));
    const StepAssessment& clientBound = result.steps[8];
    QVERIFY(!clientBound.usedForKnee);
    QVERIFY(!clientBound.usedForThroughput);
    QVERIFY(clientBound.excluded.text().startsWith(u"it was client-bound"));
    QVERIFY(!result.steps[9].usedForThroughput);
    QVERIFY(result.steps[9].excluded.text().contains(u"partial"));
    const StepAssessment& failing = result.steps[10];
    QVERIFY(!failing.usedForKnee);
    QVERIFY(failing.usedForThroughput);
    QCOMPARE(failing.errorRate, 0.2);
    QVERIFY(result.knee.reason.text().contains(u"step 9 (45 req/s): client-bound"));
    QCOMPARE(result.notes.size(), 3);
    QCOMPARE(result.notes[0].text(),
        u"Step 9 (45 req/s) is left out of the analysis: it was client-bound: the client could not keep to the "
        u"schedule, so it measured the client rather than the server."_s);
    QCOMPARE(result.notes[2].text(),
        u"Step 11 (85 req/s) is left out of the knee: 20% of its requests failed, more than the 5% a reliable step "
        u"may lose; it still counts for throughput and the SLO."_s);
}

// A reasoning model: TTFT well within its limit while TTFC, after the thinking, is not; the TTFC limit
// decides the verdict and the SLO capacity.
void TestKneeAnalysis::ttfcSloDecides()
{
    Points points = hockeyStick(); // P99 TTFT 200 … 4000 ms
    const Doubles ttfc { 600, 620, 700, 900, 1200, 2000, 4000, 6000 };
    for (std::size_t i = 0; i < points.size(); ++i) {
        points[i].metrics.firstContentTtft.count = points[i].metrics.completed;
        points[i].metrics.firstContentTtft.percentiles = { { 99, ttfc[i] } };
    }
    Slo slo;
    slo.ttftMs = 1000;
    slo.ttfcMs = 800;
    QString reason;
    QVERIFY(meetsSlo(slo, points[2].metrics, &reason));
    QVERIFY(!meetsSlo(slo, points[3].metrics, &reason));
    QCOMPARE(reason, u"P99 TTFC 900 ms > 800 ms"_s);
    slo.ttfcMs.reset();
    QVERIFY(meetsSlo(slo, points[3].metrics)); // TTFT alone: 220 ms
    slo.ttfcMs = 800;
    // No answer token arrived: TTFC unknown, and a limit on it is not met.
    StepMetrics noAnswer = points[2].metrics;
    noAnswer.firstContentTtft = LatencyStats::unknown();
    noAnswer.firstContentTtft.percentiles = { { 99, kUnknown } };
    QVERIFY(!meetsSlo(slo, noAnswer, &reason));
    QVERIFY2(reason.contains(u"TTFC"_s), qPrintable(reason));

    const AnalysisResult result = KneeAnalysis::analyze(points, analysisOptionsFor(slo));
    QVERIFY(result.sloCapacity.found);
    QCOMPARE(result.bindingSlo, SloLimit::Ttfc);
    QCOMPARE(sloLimitKey(result.bindingSlo), u"ttfc"_s);
    QVERIFY2(result.sloCapacity.offered >= 30 && result.sloCapacity.offered < 40,
        qPrintable(result.sloCapacity.reason.text()));
}

void TestKneeAnalysis::shortOutputsAreSaid_data()
{
    QTest::addColumn<int>("ignoreEos"); // 1 set, 0 not, -1 not known
    QTest::addColumn<qint64>("shortPerStep");
    QTest::addColumn<QString>("note"); // empty: none
    QTest::addRow("ignore_eos set")
        << 1 << qint64(380)
        << u"38% of requests came back shorter than max_tokens though ignore_eos was set: the server ignored it."_s;
    QTest::addRow("eos honoured") << 0 << qint64(380)
                                  << u"38% of requests came back shorter than max_tokens: the model stopped early, so "
                                     u"output throughput is lower than the requested lengths suggest."_s;
    QTest::addRow("not known (a foreign file)")
        << -1 << qint64(380)
        << u"38% of requests came back shorter than max_tokens, so output throughput is lower than the requested "
           u"lengths suggest."_s;
    QTest::addRow("a few: not worth a word") << 1 << qint64(49) << QString();
}

void TestKneeAnalysis::shortOutputsAreSaid()
{
    QFETCH(int, ignoreEos);
    QFETCH(qint64, shortPerStep);
    QFETCH(QString, note);
    Points points = hockeyStick();
    for (SweepPoint& p : points) {
        p.metrics.outputLimitsKnown = p.metrics.completed;
        p.metrics.shortOutputs = shortPerStep;
        if (ignoreEos >= 0)
            p.metrics.ignoreEos = ignoreEos == 1;
    }
    const AnalysisResult result = KneeAnalysis::analyze(points, AnalysisOptions {});
    QStringList notes;
    for (const Sentence& n : result.notes)
        notes << n.text();
    const QStringList matching = notes.filter(u"max_tokens"_s);
    if (note.isEmpty())
        QVERIFY2(matching.isEmpty(), qPrintable(matching.join(u'\n')));
    else
        QCOMPARE(matching, QStringList { note });
}

void TestKneeAnalysis::hockeyStickText()
{
    // Number formatting must not follow the locale (no "53,3").
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    AnalysisOptions options;
    options.slo = ttftSlo(500);
    const AnalysisResult result = KneeAnalysis::analyze(hockeyStick(), options);
    const CapacityPlan plan
        = CapacityPlan::fromAnalysis(result, { 1000, DemandUnit::RequestsPerS }, { Redundancy::Kind::Spares, 2, 0 });
    const QList<AnalysisSentence> text = analysisText(result, &plan);
    QLocale::setDefault(QLocale::c());

    const QStringList expected {
        u"Linear up to 40 req/s: throughput follows the offered rate (within 1%) and P99 TTFT stays between 200 ms "
        u"and 220 ms."_s,
        u"From 50 req/s RPS grows 23% slower than the offered rate and P99 TTFT rises 4.1× (220 ms at 40 req/s to "
        u"900 ms at 60 req/s)."_s,
        u"From 60 req/s the server is overloaded: it completes 55 req/s of the 60 req/s offered (92%), and P99 TTFT "
        u"reaches 4 s at 80 req/s."_s,
        u"The knee is at 50 req/s (49 req/s achieved): P99 TTFT is 300 ms there, 900 ms at 60 req/s, and 4 s (13×) "
        u"at 80 req/s."_s,
        u"Throughput bends at 50 req/s (49 req/s achieved): beyond it, throughput grows 71% slower than below it."_s,
        u"Saturation at 60 req/s: the server completed 55 req/s, 92% of the offered rate (below 95%)."_s,
        u"No collapse: throughput did not fall as the load rose; its peak, 57.5 req/s, is at the highest load, 80 "
        u"req/s."_s,
        u"SLO capacity is 53.3 req/s (51 req/s achieved): P99 TTFT reaches its limit of 500 ms there, interpolated "
        u"between 50 req/s (300 ms) and 60 req/s (900 ms)."_s,
        u"Recommended operating point: 53.3 req/s (51 req/s achieved), the SLO capacity; it uses 89% of the 57.5 "
        u"req/s peak throughput, within the 90% limit."_s,
        u"A 1000 req/s peak needs 20 servers (22 with N+2) at 51 req/s per server, the SLO capacity at 53.3 req/s "
        u"offered: 1000 req/s ÷ 51 req/s per server = 19.6 → 20 servers; N+2 → 22."_s,
    };
    QStringList actual;
    for (const AnalysisSentence& s : text)
        actual << s.text;
    QCOMPARE(actual, expected);

    const AnalysisTopic topics[] = { AnalysisTopic::Region, AnalysisTopic::Region, AnalysisTopic::Region,
        AnalysisTopic::Knee, AnalysisTopic::ThroughputKnee, AnalysisTopic::Saturation, AnalysisTopic::Collapse,
        AnalysisTopic::SloCapacity, AnalysisTopic::Recommended, AnalysisTopic::CapacityPlan };
    for (qsizetype i = 0; i < text.size(); ++i)
        QCOMPARE(text[i].topic, topics[i]);
    QCOMPARE(text[1].regionIndex, 1);
    QCOMPARE(text[3].stepIndex, 4); // the knee points at the 50 req/s step
    QCOMPARE(text[7].stepIndex, -1); // interpolated
}

void TestKneeAnalysis::sloCapacity_data()
{
    QTest::addColumn<Points>("points");
    QTest::addColumn<Slo>("slo");
    QTest::addColumn<double>("offered"); // NaN: none
    QTest::addColumn<double>("achieved");
    QTest::addColumn<SloLimit>("binding");
    QTest::addColumn<QString>("reason"); // a part of the reason

    QTest::addRow("TTFT binds, interpolated a third of the way")
        << hockeyStick() << ttftSlo(500) << 50.0 + 10.0 / 3 << 51.0 << SloLimit::Ttft
        << u"P99 TTFT reaches its limit of 500 ms there, interpolated between 50 req/s (300 ms) and 60 req/s (900 ms)."_s;
    Slo tpot;
    tpot.tpotMs = 28;
    QTest::addRow("TPOT alone") << hockeyStick() << tpot << 52.0 << 50.2 << SloLimit::Tpot
                                << u"P99 TPOT reaches its limit of 28 ms there"_s;
    Slo both = ttftSlo(500);
    both.tpotMs = 28;
    QTest::addRow("TPOT binds before TTFT")
        << hockeyStick() << both << 52.0 << 50.2 << SloLimit::Tpot << u"At 60 req/s, P99 TTFT also misses its limit."_s;
    Slo looseTtft = ttftSlo(1000);
    looseTtft.tpotMs = 35;
    QTest::addRow("only the failing limit interpolates")
        << hockeyStick() << looseTtft << 50.0 + 20.0 / 3 << 53.0 << SloLimit::Tpot
        << u"between 50 req/s (25 ms) and 60 req/s (40 ms)"_s;
    Slo e2el;
    e2el.e2elMs = 300 + 127 * 25; // exactly the 50 req/s step
    QTest::addRow("limit met exactly at a step")
        << hockeyStick() << e2el << 50.0 << 49.0 << SloLimit::E2el << u"P99 E2EL reaches its limit of"_s;
    Slo errors;
    errors.maxErrorRate = 0.01;
    QTest::addRow("error rate binds") << failingHockeyStick() << errors << 52.0 << 50.2 << SloLimit::ErrorRate
                                      << u"the error rate reaches its limit of 1% there, interpolated between 50 req/s "
                                         u"(0.5%) and 60 req/s (3%)."_s;
    QTest::addRow("implicit 5%% error limit")
        << failingHockeyStick() << ttftSlo(100000) << 60.0 + 2.0 / 7 * 10 << 55.0 + 2.0 / 7 * 2 << SloLimit::ErrorRate
        << u"the error rate reaches its limit of 5% there"_s;
    QTest::addRow("every step passes: a lower bound")
        << hockeyStick() << ttftSlo(5000) << 80.0 << 57.5 << SloLimit::None
        << u"Every step met the SLO (P99 TTFT ≤ 5 s) up to 80 req/s (57.5 req/s achieved), so the SLO capacity is at "
           u"least that; add higher rates to find it."_s;
    QTest::addRow("the lowest step fails")
        << hockeyStick() << ttftSlo(100) << none << 0.0 << SloLimit::None
        << u"No SLO capacity: even the lowest load, 10 req/s, misses the SLO (P99 TTFT 200 ms > 100 ms); test lower "
           u"loads."_s;
    QTest::addRow("no SLO") << hockeyStick() << Slo {} << none << 0.0 << SloLimit::None
                            << u"No SLO capacity: no SLO was given (the profile's slo, or --slo ttft:p99:500)."_s;
    Slo p95 = ttftSlo(500);
    p95.percentile = 95;
    QTest::addRow("percentile not reported")
        << hockeyStick() << p95 << none << 0.0 << SloLimit::None
        << u"No SLO capacity: the steps do not report P95 TTFT, which the SLO needs."_s;
    QTest::addRow("each limit at its own percentile: P90 TTFT binds")
        << hockeyStickWithP90() << perLimitSlo(200, 28) << 50.0 + 10.0 / 6 << 50.0 << SloLimit::Ttft
        << u"P90 TTFT reaches its limit of 200 ms there, interpolated between 50 req/s (150 ms) and 60 req/s (450 "
           u"ms). At 60 req/s, P99 TPOT also misses its limit."_s;
    QTest::addRow("each limit at its own percentile: P99 TPOT binds")
        << hockeyStickWithP90() << perLimitSlo(300, 28) << 52.0 << 50.2 << SloLimit::Tpot
        << u"P99 TPOT reaches its limit of 28 ms there, interpolated between 50 req/s (25 ms) and 60 req/s (40 ms). "
           u"At 60 req/s, P90 TTFT also misses its limit."_s;
    QTest::addRow("each limit at its own percentile: the lower bound names both")
        << hockeyStickWithP90() << perLimitSlo(5000, 100) << 80.0 << 57.5 << SloLimit::None
        << u"Every step met the SLO (P90 TTFT ≤ 5 s, P99 TPOT ≤ 100 ms) up to 80 req/s"_s;
    Points client = hockeyStick();
    client[5].clientBound = true; // 60 req/s no longer counts: the miss is at 70
    QTest::addRow("client-bound step skipped")
        << client << ttftSlo(500) << 50.0 + 200.0 / 2200 * 20 << 49.0 + 200.0 / 2200 * 8 << SloLimit::Ttft
        << u"between 50 req/s (300 ms) and 70 req/s (2.5 s)"_s;
}

void TestKneeAnalysis::sloCapacity()
{
    QFETCH(Points, points);
    QFETCH(Slo, slo);
    QFETCH(double, offered);
    QFETCH(double, achieved);
    QFETCH(SloLimit, binding);
    QFETCH(QString, reason);

    AnalysisOptions options;
    options.slo = slo;
    const AnalysisResult result = KneeAnalysis::analyze(points, options);
    const Finding& capacity = result.sloCapacity;
    QVERIFY2(capacity.reason.text().contains(reason), qPrintable(capacity.reason.text()));
    if (std::isnan(offered)) {
        QVERIFY(!capacity.found);
        return;
    }
    QVERIFY2(capacity.found, qPrintable(capacity.reason.text()));
    QVERIFY2(std::abs(capacity.offered - offered) < 1e-9, qPrintable(QString::number(capacity.offered, 'g', 17)));
    QVERIFY2(std::abs(capacity.achieved - achieved) < 1e-9, qPrintable(QString::number(capacity.achieved, 'g', 17)));
    QVERIFY(std::abs(capacity.outputThroughput - achieved * outputTokens) < 1e-6);
    QCOMPARE(result.bindingSlo, binding);
    QCOMPARE(capacity.lowerBound, binding == SloLimit::None);
}

void TestKneeAnalysis::recommended_data()
{
    QTest::addColumn<Points>("points");
    QTest::addColumn<Slo>("slo");
    QTest::addColumn<double>("offered"); // NaN: none
    QTest::addColumn<QString>("reason");

    // Peak 57.5 req/s; 90% of it, 51.75 req/s, is reached between 50 (49) and 60 req/s (55).
    const double headroom = 50 + (51.75 - 49) / 6 * 10;
    QTest::addRow("no SLO: 90%% of peak") << hockeyStick() << Slo {} << headroom
                                          << u"Recommended operating point: 54.6 req/s (51.8 req/s achieved), where "
                                             u"throughput reaches 90% of its 57.5 req/s peak; no SLO was given, so "
                                             u"latency does not limit it."_s;
    QTest::addRow("the SLO binds first") << hockeyStick() << ttftSlo(500) << 50 + 10.0 / 3
                                         << u"the SLO capacity; it uses 89% of the 57.5 req/s peak throughput"_s;
    QTest::addRow("the headroom binds first")
        << hockeyStick() << ttftSlo(1000) << headroom
        << u"the SLO would allow 60.6 req/s, but beyond this point less than 10% headroom remains."_s;
    QTest::addRow("never saturated: conservative")
        << neverSaturates() << Slo {} << 140 + (0.9 * 158.0 - 138.9) / (158.0 - 138.9) * 20
        << u"The sweep never saturated, so the real peak is higher and this point is conservative."_s;
    QTest::addRow("SLO missed everywhere")
        << hockeyStick() << ttftSlo(100) << none << u"No recommended operating point: no tested load met the SLO."_s;
    QTest::addRow("one step") << Points { point(10, 9.9, 200) } << Slo {} << none
                              << u"No recommended operating point yet: it takes at least two loads."_s;
}

void TestKneeAnalysis::recommended()
{
    QFETCH(Points, points);
    QFETCH(Slo, slo);
    QFETCH(double, offered);
    QFETCH(QString, reason);
    AnalysisOptions options;
    options.slo = slo;
    const AnalysisResult result = KneeAnalysis::analyze(points, options);
    QVERIFY2(result.recommended.reason.text().contains(reason), qPrintable(result.recommended.reason.text()));
    if (std::isnan(offered)) {
        QVERIFY(!result.recommended.found);
        return;
    }
    QVERIFY(result.recommended.found);
    QVERIFY2(std::abs(result.recommended.offered - offered) < 1e-9,
        qPrintable(QString::number(result.recommended.offered, 'g', 17)));
}

void TestKneeAnalysis::capacityArithmetic_data()
{
    QTest::addColumn<PeakDemand>("peak");
    QTest::addColumn<double>("perServer");
    QTest::addColumn<Redundancy>("redundancy");
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("withRedundancy");
    QTest::addColumn<QString>("arithmetic"); // or the error

    const PeakDemand k1 { 1000, DemandUnit::RequestsPerS };
    const Redundancy noSpare;
    const Redundancy n2 { Redundancy::Kind::Spares, 2, 0 };
    const Redundancy pct20 { Redundancy::Kind::Percent, 0, 0.2 };
    QTest::addRow("exact integer is not rounded up")
        << k1 << 50.0 << noSpare << 20 << 20 << u"1000 req/s ÷ 50 req/s per server = 20 servers"_s;
    QTest::addRow("rounds up, N+2") << k1 << 58.3 << n2 << 18 << 20
                                    << u"1000 req/s ÷ 58.3 req/s per server = 17.2 → 18 servers; N+2 → 20"_s;
    QTest::addRow("exact, N+2") << k1 << 50.0 << n2 << 20 << 22
                                << u"1000 req/s ÷ 50 req/s per server = 20 servers; N+2 → 22"_s;
    QTest::addRow("exact, 20%%") << k1 << 50.0 << pct20 << 20 << 24
                                 << u"1000 req/s ÷ 50 req/s per server = 20 servers; +20% → 24"_s;
    QTest::addRow("rounds up twice, 20%%")
        << k1 << 58.3 << pct20 << 18 << 22
        << u"1000 req/s ÷ 58.3 req/s per server = 17.2 → 18 servers; +20% → 21.6 → 22"_s;
    QTest::addRow("just above an integer") << PeakDemand { 1001, DemandUnit::RequestsPerS } << 50.0 << noSpare << 21
                                           << 21 << u"1001 req/s ÷ 50 req/s per server = 20.02 → 21 servers"_s;
    // 1.1 / 0.1 is 11.000000000000002 in binary, and 10 × 1.1 is 11.000000000000002.
    QTest::addRow("binary fraction quotient") << PeakDemand { 1.1, DemandUnit::RequestsPerS } << 0.1 << noSpare << 11
                                              << 11 << u"1.1 req/s ÷ 0.1 req/s per server = 11 servers"_s;
    QTest::addRow("binary fraction percentage")
        << PeakDemand { 100, DemandUnit::RequestsPerS } << 10.0 << Redundancy { Redundancy::Kind::Percent, 0, 0.1 }
        << 10 << 11 << u"100 req/s ÷ 10 req/s per server = 10 servers; +10% → 11"_s;
    QTest::addRow("tokens") << PeakDemand { 250000, DemandUnit::OutputTokensPerS } << 6420.0 << n2 << 39 << 41
                            << u"250000 tok/s ÷ 6420 tok/s per server = 38.9 → 39 servers; N+2 → 41"_s;
    QTest::addRow("less than one server") << PeakDemand { 1, DemandUnit::RequestsPerS } << 2.0 << noSpare << 1 << 1
                                          << u"1 req/s ÷ 2 req/s per server = 0.5 → 1 server"_s;
    QTest::addRow("no peak") << PeakDemand { 0, DemandUnit::RequestsPerS } << 50.0 << noSpare << 0 << 0
                             << u"the peak demand must be a positive number of req/s, not 0"_s;
    QTest::addRow("no capacity") << k1 << 0.0 << noSpare << 0 << 0
                                 << u"the per-server capacity must be a positive number of req/s, not 0"_s;
}

void TestKneeAnalysis::capacityArithmetic()
{
    QFETCH(PeakDemand, peak);
    QFETCH(double, perServer);
    QFETCH(Redundancy, redundancy);
    QFETCH(int, servers);
    QFETCH(int, withRedundancy);
    QFETCH(QString, arithmetic);
    const CapacityPlan plan = CapacityPlan::compute(peak, perServer, redundancy);
    if (servers == 0) {
        QCOMPARE(plan.error.text(), arithmetic);
        return;
    }
    QVERIFY2(plan.ok(), qPrintable(plan.error.text()));
    QCOMPARE(plan.servers, servers);
    QCOMPARE(plan.serversWithRedundancy, withRedundancy);
    QCOMPARE(plan.arithmetic.text(), arithmetic);
}

void TestKneeAnalysis::capacityFromAnalysis_data()
{
    QTest::addColumn<Points>("points");
    QTest::addColumn<Slo>("slo");
    QTest::addColumn<PeakDemand>("peak");
    QTest::addColumn<Redundancy>("redundancy");
    QTest::addColumn<QString>("basis"); // empty: an error
    QTest::addColumn<double>("perServer");
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("withRedundancy");
    QTest::addColumn<QString>("text"); // a part of the arithmetic or the error

    const PeakDemand k1 { 1000, DemandUnit::RequestsPerS };
    const Redundancy n2 { Redundancy::Kind::Spares, 2, 0 };
    QTest::addRow("SLO capacity, req/s") << hockeyStick() << ttftSlo(500) << k1 << n2 << u"slo_capacity"_s << 51.0 << 20
                                         << 22 << u"1000 req/s ÷ 51 req/s per server = 19.6 → 20 servers; N+2 → 22"_s;
    QTest::addRow("SLO capacity, tok/s")
        << hockeyStick() << ttftSlo(500) << PeakDemand { 250000, DemandUnit::OutputTokensPerS }
        << Redundancy { Redundancy::Kind::Percent, 0, 0.2 } << u"slo_capacity"_s << 51.0 * outputTokens << 39 << 47
        << u"250000 tok/s ÷ 6528 tok/s per server = 38.3 → 39 servers; +20% → 46.8 → 47"_s;
    QTest::addRow("no SLO: the recommended point") << hockeyStick() << Slo {} << k1 << Redundancy {} << u"recommended"_s
                                                   << 51.75 << 20 << 20 << u"= 19.3 → 20 servers"_s;
    QTest::addRow("SLO never met")
        << hockeyStick() << ttftSlo(100) << k1 << n2 << QString() << 0.0 << 0 << 0
        << u"there is no per-server capacity under the SLO: No SLO capacity: even the lowest "
           u"load"_s;
    QTest::addRow("SLO capacity at per-limit percentiles")
        << hockeyStickWithP90() << perLimitSlo(200, 28) << k1 << n2 << u"slo_capacity"_s << 50.0 << 20 << 22
        << u"1000 req/s ÷ 50 req/s per server = 20 servers; N+2 → 22"_s;
    Points noTokens = hockeyStick();
    for (SweepPoint& p : noTokens)
        p.metrics.outputThroughput = 0;
    QTest::addRow("tok/s without token data")
        << noTokens << ttftSlo(500) << PeakDemand { 250000, DemandUnit::OutputTokensPerS } << n2 << QString() << 0.0
        << 0 << 0 << u"the steps report no output token throughput at the SLO capacity"_s;
}

void TestKneeAnalysis::capacityFromAnalysis()
{
    QFETCH(Points, points);
    QFETCH(Slo, slo);
    QFETCH(PeakDemand, peak);
    QFETCH(Redundancy, redundancy);
    QFETCH(QString, basis);
    QFETCH(double, perServer);
    QFETCH(int, servers);
    QFETCH(int, withRedundancy);
    QFETCH(QString, text);
    AnalysisOptions options;
    options.slo = slo;
    const CapacityPlan plan = CapacityPlan::fromAnalysis(KneeAnalysis::analyze(points, options), peak, redundancy);
    if (basis.isEmpty()) {
        QVERIFY(!plan.ok());
        QVERIFY2(plan.error.text().startsWith(text), qPrintable(plan.error.text()));
        return;
    }
    QVERIFY2(plan.ok(), qPrintable(plan.error.text()));
    QCOMPARE(plan.basis, basis);
    QVERIFY2(std::abs(plan.perServer - perServer) < 1e-9, qPrintable(QString::number(plan.perServer, 'g', 17)));
    QCOMPARE(plan.servers, servers);
    QCOMPARE(plan.serversWithRedundancy, withRedundancy);
    QVERIFY2(plan.arithmetic.text().contains(text), qPrintable(plan.arithmetic.text()));
}

void TestKneeAnalysis::json()
{
    // No usable step: the peak is unknown (null), not 0.
    const QJsonValue nothing = analysisJson(KneeAnalysis::analyze({}, AnalysisOptions {})).value(u"peak_throughput"_s);
    QVERIFY2(nothing.isNull(), qPrintable(QString::number(nothing.toDouble())));

    const AnalysisResult result = KneeAnalysis::analyze(neverSaturates(), AnalysisOptions {});
    const QJsonObject json = analysisJson(result);
    QCOMPARE(json.value(u"peak_throughput"_s).toDouble(), result.peakThroughput);
    QVERIFY(result.peakStep >= 0 && result.peakThroughput > 0);
    // Serialises and reads back as the same object (numbers are not written through the locale).
    QCOMPARE(QJsonDocument::fromJson(QJsonDocument(json).toJson()).object(), json);
    const QJsonObject reasons = json.value(u"reasons"_s).toObject();
    for (const QString& key :
        { u"knee"_s, u"saturation"_s, u"collapse"_s, u"slo_capacity"_s, u"throughput_knee"_s, u"capacity_plan"_s }) {
        QVERIFY2(json.contains(key), qPrintable(key));
        QVERIFY2(json.value(key).isNull(), qPrintable(key));
        QVERIFY2(!reasons.value(key).toString().isEmpty(), qPrintable(key));
    }
    QVERIFY(reasons.value(u"saturation"_s).toString().startsWith(u"The sweep never saturated"));
    QVERIFY(reasons.value(u"knee"_s).toString().contains(u"add higher rates"));
    QCOMPARE(reasons.value(u"capacity_plan"_s).toString(), u"no peak demand was given (for example --peak 1000)"_s);
    // The recommended point exists (90% of the highest throughput), so it has no reason entry.
    const QJsonObject recommended = json.value(u"recommended"_s).toObject();
    QVERIFY(!reasons.contains(u"recommended"_s));
    for (const QString& key : { u"offered"_s, u"achieved"_s, u"reason"_s })
        QVERIFY2(recommended.contains(key), qPrintable(key));
    QVERIFY(recommended.value(u"step_index"_s).isNull()); // interpolated
    QCOMPARE(json.value(u"mode"_s).toString(), u"rate"_s);
    QCOMPARE(json.value(u"regions"_s).toArray().size(), 1);
    QCOMPARE(json.value(u"regions"_s).toArray().at(0).toObject().value(u"kind"_s).toString(), u"linear"_s);
    QCOMPARE(json.value(u"steps"_s).toArray().size(), 8);
    QCOMPARE(json.value(u"text"_s).toArray().size(), analysisText(result).size());
}

void TestKneeAnalysis::jsonWithPlan()
{
    AnalysisOptions options;
    options.slo = ttftSlo(500);
    Points points = hockeyStick();
    points.push_back(point(inf, 58.1, 9000));
    const AnalysisResult result = KneeAnalysis::analyze(points, options);
    const CapacityPlan plan
        = CapacityPlan::fromAnalysis(result, { 1000, DemandUnit::RequestsPerS }, { Redundancy::Kind::Spares, 2, 0 });
    const QJsonObject json = analysisJson(result, &plan);

    const QJsonObject knee = json.value(u"knee"_s).toObject();
    QCOMPARE(knee.value(u"offered"_s).toDouble(), 50.0);
    QCOMPARE(knee.value(u"achieved"_s).toDouble(), 49.0);
    QCOMPARE(knee.value(u"step_index"_s).toInt(), 4);
    QVERIFY(knee.value(u"reason"_s).toString().startsWith(u"The knee is at 50 req/s"));
    QCOMPARE(json.value(u"saturation"_s).toObject().value(u"offered"_s).toDouble(), 60.0);
    const QJsonObject slo = json.value(u"slo_capacity"_s).toObject();
    QCOMPARE(slo.value(u"binding"_s).toString(), u"ttft"_s);
    QCOMPARE(slo.value(u"achieved"_s).toDouble(), 51.0);
    QVERIFY(json.value(u"collapse"_s).isNull());
    const QJsonObject reasons = json.value(u"reasons"_s).toObject();
    QCOMPARE(reasons.keys(), QStringList { u"collapse"_s });

    const QJsonObject capacity = json.value(u"capacity_plan"_s).toObject();
    QCOMPARE(capacity.value(u"per_server"_s).toDouble(), 51.0);
    QCOMPARE(capacity.value(u"servers"_s).toInt(), 20);
    QCOMPARE(capacity.value(u"servers_with_redundancy"_s).toInt(), 22);
    QCOMPARE(capacity.value(u"basis"_s).toString(), u"slo_capacity"_s);
    QCOMPARE(capacity.value(u"redundancy"_s).toString(), u"N+2"_s);

    // The all-at-once step keeps an offered rate JSON can hold.
    const QJsonObject last = json.value(u"steps"_s).toArray().last().toObject();
    QCOMPARE(last.value(u"offered"_s).toString(), u"inf"_s);
    QVERIFY(!last.value(u"used_for_throughput"_s).toBool());
    QVERIFY(last.value(u"meets_slo"_s).isNull());
    QCOMPARE(json.value(u"steps"_s).toArray().at(5).toObject().value(u"meets_slo"_s).toBool(true), false);
    QCOMPARE(json.value(u"steps"_s).toArray().at(5).toObject().value(u"slo_detail"_s).toString(),
        u"P99 TTFT 900 ms > 500 ms"_s);
}

void TestKneeAnalysis::sloSpec_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<Slo>("expected");
    QTest::addColumn<QString>("error");

    Slo ttft = ttftSlo(500);
    QTest::addRow("metric:percentile:ms") << u"ttft:p99:500"_s << ttft << QString();
    QTest::addRow("metric:ms means p99") << u"ttft:500"_s << ttft << QString();
    QTest::addRow("units") << u"ttft:0.5s"_s << ttft << QString();
    QTest::addRow("ms suffix") << u"TTFT:P99:500ms"_s << ttft << QString();
    Slo several = ttftSlo(300);
    several.tpotMs = 50;
    several.e2elMs = 20000;
    several.percentile = 95;
    several.maxErrorRate = 0.01;
    QTest::addRow("several, one percentile") << u"ttft:p95:300, tpot:50 e2el:20s errors:1%"_s << several << QString();
    Slo ttfc;
    ttfc.ttftMs = 300;
    ttfc.ttfcMs = 800;
    ttfc.ttfcPercentile = 90;
    ttfc.ttftPercentile = 99;
    QTest::addRow("ttfc, own percentile") << u"ttft:p99:300 ttfc:p90:800"_s << ttfc << QString();
    Slo fraction;
    fraction.maxErrorRate = 0.005;
    QTest::addRow("error fraction") << u"errors:0.005"_s << fraction << QString();
    QTest::addRow("empty") << u"  "_s << Slo {} << u"empty SLO: write metric:percentile:ms, for example ttft:p99:500"_s;
    QTest::addRow("unknown metric") << u"ttfb:500"_s << Slo {}
                                    << u"\"ttfb:500\": unknown metric \"ttfb\"; use ttft, ttfc, tpot, e2el or errors"_s;
    QTest::addRow("itl") << u"itl:p99:30"_s << Slo {}
                         << u"\"itl:p99:30\": ITL has no SLO; use ttft, ttfc, tpot, e2el or errors"_s;
    QTest::addRow("bad time") << u"ttft:p99:fast"_s << Slo {}
                              << u"\"ttft:p99:fast\": \"fast\" is not a time; write milliseconds (500 or 500ms) or "
                                 u"seconds (0.5s)"_s;
    QTest::addRow("negative time")
        << u"tpot:-5"_s << Slo {}
        << u"\"tpot:-5\": \"-5\" is not a time; write milliseconds (500 or 500ms) or seconds "
           u"(0.5s)"_s;
    QTest::addRow("bad percentile") << u"ttft:p101:500"_s << Slo {}
                                    << u"\"ttft:p101:500\": \"p101\" is not a percentile; write p50, p99 or p99.9"_s;
    Slo own = ttftSlo(500);
    own.ttftPercentile = 99;
    own.tpotMs = 50;
    own.tpotPercentile = 90;
    own.e2elMs = 20000;
    QTest::addRow("two percentiles: each limit keeps its own")
        << u"ttft:p99:500 tpot:p90:50 e2el:20s"_s << own << QString();
    Slo sameTwice = ttftSlo(300);
    sameTwice.tpotMs = 50;
    sameTwice.percentile = 90;
    QTest::addRow("one percentile named twice is the shared one")
        << u"ttft:p90:300 tpot:p90:50"_s << sameTwice << QString();
    QTest::addRow("too many parts") << u"ttft:p99:500:1"_s << Slo {}
                                    << u"\"ttft:p99:500:1\": write metric:percentile:ms (ttft:p99:500) or metric:ms "
                                       u"(ttft:500)"_s;
    QTest::addRow("bad error rate") << u"errors:150%"_s << Slo {}
                                    << u"\"errors:150%\": \"150%\" is not an error rate; write a percentage such as 1% "
                                       u"(or a fraction from 0 to 1)"_s;
}

void TestKneeAnalysis::sloSpec()
{
    QFETCH(QString, spec);
    QFETCH(Slo, expected);
    QFETCH(QString, error);
    Slo slo;
    QCOMPARE(parseSloSpec(spec, slo), error);
    QCOMPARE(slo, expected); // unchanged on error
}

void TestKneeAnalysis::peakSpec_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<PeakDemand>("expected");
    QTest::addColumn<QString>("error");
    QTest::addRow("bare number") << u"1000"_s << PeakDemand { 1000, DemandUnit::RequestsPerS } << QString();
    QTest::addRow("req/s") << u"1000 req/s"_s << PeakDemand { 1000, DemandUnit::RequestsPerS } << QString();
    QTest::addRow("rps") << u"12.5rps"_s << PeakDemand { 12.5, DemandUnit::RequestsPerS } << QString();
    QTest::addRow("tok/s") << u"250000tok/s"_s << PeakDemand { 250000, DemandUnit::OutputTokensPerS } << QString();
    QTest::addRow("k multiplier") << u"250k tok/s"_s << PeakDemand { 250000, DemandUnit::OutputTokensPerS }
                                  << QString();
    QTest::addRow("M multiplier") << u"1.5M tok/s"_s << PeakDemand { 1500000, DemandUnit::OutputTokensPerS }
                                  << QString();
    QTest::addRow("unknown unit") << u"1000 qps/node"_s << PeakDemand {}
                                  << u"\"1000 qps/node\": unknown unit \"qps/node\"; use req/s or tok/s"_s;
    QTest::addRow("zero") << u"0"_s << PeakDemand {} << u"\"0\": \"0\" is not a positive number"_s;
    QTest::addRow("no number")
        << u"lots"_s << PeakDemand {}
        << u"\"lots\" is not a peak demand; write a number of requests or tokens per second, for "
           u"example 1000 or 250000tok/s"_s;
}

void TestKneeAnalysis::peakSpec()
{
    QFETCH(QString, text);
    QFETCH(PeakDemand, expected);
    QFETCH(QString, error);
    PeakDemand peak;
    QCOMPARE(parsePeakDemand(text, peak), error);
    QCOMPARE(peak, expected);
}

void TestKneeAnalysis::redundancySpec_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<Redundancy>("expected");
    QTest::addColumn<QString>("error");
    QTest::addRow("N+2") << u"N+2"_s << Redundancy { Redundancy::Kind::Spares, 2, 0 } << QString();
    QTest::addRow("lower case") << u"n+1"_s << Redundancy { Redundancy::Kind::Spares, 1, 0 } << QString();
    QTest::addRow("plus only") << u"+3"_s << Redundancy { Redundancy::Kind::Spares, 3, 0 } << QString();
    QTest::addRow("percent") << u"20%"_s << Redundancy { Redundancy::Kind::Percent, 0, 0.2 } << QString();
    QTest::addRow("none") << u"none"_s << Redundancy {} << QString();
    QTest::addRow("bad spares") << u"N+two"_s << Redundancy {}
                                << u"\"N+two\": \"two\" is not a whole number of spare servers"_s;
    QTest::addRow("bad percent") << u"x%"_s << Redundancy {} << u"\"x%\": \"x\" is not a percentage"_s;
    QTest::addRow("neither") << u"2N"_s << Redundancy {}
                             << u"\"2N\" is not a redundancy policy; write N+k (N+2) or a percentage (20%)"_s;
}

void TestKneeAnalysis::redundancySpec()
{
    QFETCH(QString, text);
    QFETCH(Redundancy, expected);
    QFETCH(QString, error);
    Redundancy redundancy;
    QCOMPARE(parseRedundancy(text, redundancy), error);
    QCOMPARE(redundancy, expected);
}

void TestKneeAnalysis::pointsFromSteps()
{
    StepSetup rate;
    rate.requestRate = 12.5;
    rate.numPrompts = 1000;
    StepMetrics metrics;
    metrics.completed = 990;
    metrics.failed = 10;
    SweepPoint p = SweepPoint::fromStep(rate, metrics);
    QVERIFY(!p.concurrencyMode);
    QCOMPARE(p.offered, 12.5);
    QCOMPARE(p.planned, qint64(1000));

    StepSetup users; // the reference's --max-concurrency sweeps: rate inf, a concurrency limit
    users.maxConcurrency = 32;
    p = SweepPoint::fromStep(users, metrics);
    QVERIFY(p.concurrencyMode);
    QCOMPARE(p.offered, 32.0);

    StepResult result;
    result.config.mode = LoadMode::Concurrency;
    result.config.concurrency = 16;
    result.clientBound = true;
    result.metrics = metrics;
    p = SweepPoint::fromResult(result);
    QVERIFY(p.concurrencyMode);
    QCOMPARE(p.offered, 16.0);
    QVERIFY(p.clientBound);
    QVERIFY(!p.partial);
    QCOMPARE(p.metrics, metrics);

    // A step that lost requests on the way is not used.
    rate.numPrompts = 1200;
    const AnalysisResult analysed = KneeAnalysis::analyze({ SweepPoint::fromStep(rate, metrics) }, AnalysisOptions {});
    QCOMPARE(analysed.steps.front().excluded.text(), u"only 1000 of its 1200 requests ended"_s);
}

// 200 requests at 100 req/s take 2 s to arrive; with a 0.5 s drain the reference's throughput reads
// 200 / 2.5 = 80 req/s although nothing queues. That is not saturation; 70 req/s (87.5% of 80) is.
void TestKneeAnalysis::drainIsNotSaturation()
{
    auto step = [](double offered, double achieved) {
        SweepPoint p = point(offered, achieved, 100);
        p.metrics.completed = 200;
        p.metrics.e2el.mean = 500;
        return p;
    };
    AnalysisOptions options;
    const AnalysisResult unsaturated = KneeAnalysis::analyze({ step(20, 200 / (10 + 0.5)), step(100, 80) }, options);
    QVERIFY2(!unsaturated.saturation.found, qPrintable(unsaturated.saturation.reason.text()));
    const AnalysisResult saturated = KneeAnalysis::analyze({ step(20, 200 / (10 + 0.5)), step(100, 70) }, options);
    QVERIFY(saturated.saturation.found);
    QCOMPARE(saturated.saturation.offered, 100.0);
    QVERIFY2(
        saturated.saturation.reason.text().contains(u"of the 80 req/s a step this long reads without saturation"_s),
        qPrintable(saturated.saturation.reason.text()));
}

// An auto plan in rate mode runs a one-user floor step first, then the all-at-once ceiling, then
// rates: the analysis is of the rate axis (the floor is named as left out, step numbers stay those of
// the run), whether the profile's mode is given or left to the steps.
void TestKneeAnalysis::floorStepStaysOffARateAxis()
{
    Points points = curve({ 10, 20, 30, 40, 50, 60 }, { 10, 20, 30, 39, 41, 41 }, { 200, 210, 220, 600, 2500, 6000 });
    SweepPoint ceiling = point(inf, 42, 9000);
    points.insert(points.begin(), ceiling);
    SweepPoint floor = point(1, 2.5, 150);
    floor.concurrencyMode = true;
    points.insert(points.begin(), floor);

    AnalysisOptions options;
    const AnalysisResult guessed = KneeAnalysis::analyze(points, options);
    options.mode = LoadMode::Rate;
    const AnalysisResult given = KneeAnalysis::analyze(points, options);
    for (const AnalysisResult* r : { &guessed, &given }) {
        QVERIFY(!r->concurrencyMode);
        QCOMPARE(r->steps.size(), std::size_t(8));
        QVERIFY2(
            r->steps[0].excluded.text().contains(u"with a number of users"), qPrintable(r->steps[0].excluded.text()));
        QVERIFY(r->knee.found);
        QCOMPARE(r->knee.offered, 30.0); // the last step before P99 TTFT climbs (220 ms; 600 ms at 40 req/s)
        QCOMPARE(r->knee.stepIndex, 4);
    }
    // Told that the sweep varies users, the rate steps are the ones left out.
    options.mode = LoadMode::Concurrency;
    const AnalysisResult users = KneeAnalysis::analyze(points, options);
    QVERIFY(users.concurrencyMode);
    QVERIFY2(users.steps[2].excluded.text().contains(u"at a request rate"), qPrintable(users.steps[2].excluded.text()));
    QVERIFY(!users.knee.found);
}

QTEST_GUILESS_MAIN(TestKneeAnalysis)
#include "tst_kneeanalysis.moc"
