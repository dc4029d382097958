#include "support/simsweep.h"

#include "runs/savedrun.h"
#include "sim/simconfig.h"
#include "twin/twin.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>

using namespace kp;
using namespace Qt::StringLiterals;

namespace {

// A rate step of the model in simulated time, as a fit step (the records a saved run would hold).
twin::FitStep measuredStep(const sim::SimParams& params, double rate, int requests, int promptTokens, int maxOutput)
{
    StepConfig step;
    step.mode = LoadMode::Rate;
    step.rate = rate;
    step.numPrompts = requests;
    step.seed = 7;
    std::mt19937_64 rng(11);
    for (int i = 0; i < requests; ++i) {
        Prompt p;
        p.promptTokens = promptTokens;
        p.outputTokens = sim::SimModel::drawOutputTokens(rng, maxOutput, 0.6);
        step.prompts.push_back(p);
    }
    MetricsOptions metrics;
    metrics.percentiles = { 50, 90, 99 };
    const StepResult result = kp::testing::simulateStep(params, 1.0, step, metrics);
    return twin::fitStepFromRecords(LoadMode::Rate, rate, 1.0, result.records);
}

const twin::ParameterFit* parameter(const twin::Twin& t, const QString& key)
{
    for (const twin::ParameterFit& f : t.parameters) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

void dump(const twin::Twin& t)
{
    for (const twin::StepFitQuality& q : t.steps)
        qInfo("offered %g: rps %.3f/%.3f ttft50 %.2f/%.2f ttft99 %.2f/%.2f tpot %.3f/%.3f", q.offered, q.measuredRps,
            q.predictedRps, q.measuredTtftP50, q.predictedTtftP50, q.measuredTtftP99, q.predictedTtftP99,
            q.measuredTpotP50, q.predictedTpotP50);
    for (const twin::ParameterFit& f : t.parameters)
        qInfo("%s = %g [%g, %g]", qPrintable(f.key), f.value, f.lo.value_or(-1), f.hi.value_or(-1));
    qInfo("error %g after %d evaluations", t.fitError, t.evaluations);
}

} // namespace

class TestTwin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fitReproducesPresetSweep_data();
    void fitReproducesPresetSweep();
    void refusesWhatCannotIdentify();
    void overrides_data();
    void overrides();
    void twinFileIsSimulatorConfig();
    void replicasSplitTheLoad();
    void fitsSavedRun();
};

void TestTwin::fitReproducesPresetSweep_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QList<double>>("rates");
    QTest::addColumn<int>("promptTokens");
    QTest::addColumn<int>("maxOutput");
    QTest::addColumn<bool>("seqBound");
    // max_num_seqs binds: short requests on the long-context preset (128 sequences, 262144 cache tokens).
    QTest::addRow("long-context, max_num_seqs-bound")
        << QStringLiteral("long-context") << QList<double> { 10, 20, 40, 60, 80, 100, 140 } << 100 << 160 << true;
    // The cache binds: ShareGPT-like requests on the small preset (64 sequences, 16384 cache tokens).
    QTest::addRow("small, KV-bound") << QStringLiteral("small") << QList<double> { 2, 4, 6, 8, 10, 12, 16, 24 } << 200
                                     << 400 << false;
}

void TestTwin::fitReproducesPresetSweep()
{
    QFETCH(QString, preset);
    QFETCH(QList<double>, rates);
    QFETCH(int, promptTokens);
    QFETCH(int, maxOutput);
    QFETCH(bool, seqBound);
    const sim::SimParams truth = sim::presetByName(preset)->params;
    std::vector<twin::FitStep> steps;
    for (double rate : rates)
        steps.push_back(measuredStep(truth, rate, 200, promptTokens, maxOutput));
    const twin::FitResult fit = twin::fitTwin(steps, { QStringLiteral("simulated") });
    QVERIFY2(fit.ok(), qPrintable(fit.error));
    const twin::Twin& t = *fit.twin;
    dump(t);
    QCOMPARE(t.steps.size(), std::size_t(rates.size()));
    for (const twin::StepFitQuality& q : t.steps) {
        const QByteArray where = QByteArray::number(q.offered) + " req/s";
        QVERIFY2(std::abs(q.predictedRps / q.measuredRps - 1) <= 0.05, where.constData());
        QVERIFY2(std::abs(q.predictedTtftP99 / q.measuredTtftP99 - 1) <= 0.15, where.constData());
    }
    const twin::ParameterFit* seqs = parameter(t, QStringLiteral("max_num_seqs"));
    const twin::ParameterFit* kv = parameter(t, QStringLiteral("kv_capacity_tokens"));
    QVERIFY(seqs && kv);
    if (seqBound) {
        // Every running sequence emits a token each iteration, so the records show the running set itself.
        QCOMPARE(int(seqs->value), truth.maxNumSeqs);
        // A cache that never filled is only bounded from below, and the bound is below the truth.
        QVERIFY(!kv->hi);
        QVERIFY(kv->lo && *kv->lo <= truth.kvCapacityTokens);
    } else {
        // Preemption starts when the cache less its 1% watermark is full: within 5% of the truth.
        QVERIFY2(std::abs(kv->value / truth.kvCapacityTokens - 1) <= 0.05, qPrintable(QString::number(kv->value)));
        // The cache limited the batch first: max_num_seqs is bounded from below only, below the truth.
        QVERIFY(!seqs->hi);
        QVERIFY(seqs->lo && *seqs->lo <= truth.maxNumSeqs);
    }
}

void TestTwin::refusesWhatCannotIdentify()
{
    const sim::SimParams truth = sim::presetByName(QStringLiteral("small"))->params;
    std::vector<twin::FitStep> two { measuredStep(truth, 2, 60, 200, 400), measuredStep(truth, 16, 60, 200, 400) };
    twin::FitResult fit = twin::fitTwin(two, {});
    QVERIFY(!fit.ok());
    QCOMPARE(fit.error,
        QStringLiteral("only 2 usable steps (completed requests at a finite load); a fit needs at least 3, one of them "
                       "past saturation: sweep more loads"));

    std::vector<twin::FitStep> linear { measuredStep(truth, 0.5, 200, 200, 400), measuredStep(truth, 1, 200, 200, 400),
        measuredStep(truth, 2, 200, 200, 400) };
    fit = twin::fitTwin(linear, {});
    QVERIFY(!fit.ok());
    QCOMPARE(fit.error,
        QStringLiteral("the sweep never reached saturation (throughput kept rising with load up to 2 req/s); add loads "
                       "above 2 req/s"));

    std::vector<twin::FitStep> contradictory = linear;
    contradictory.push_back(measuredStep(truth, 16, 60, 200, 400));
    contradictory[1].metrics.requestThroughput = 3.0;
    fit = twin::fitTwin(contradictory, {});
    QVERIFY(!fit.ok());
    QCOMPARE(fit.error,
        QStringLiteral("the step at 1 req/s measured 3 req/s, above the offered rate by more than its arrivals' "
                       "spread: the steps contradict each other (check the offered rate the file gives for it, or "
                       "leave the step out)"));
}

void TestTwin::overrides_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("maxNumSeqs");
    QTest::addColumn<int>("kvCapacity");
    QTest::addColumn<double>("perDecodeMs");
    QTest::addRow("absolute") << u"max_num_seqs=128"_s << QString() << 128 << 16384 << 0.06;
    QTest::addRow("multiplier") << u"kv_capacity_tokens=x2"_s << QString() << 64 << 32768 << 0.06;
    QTest::addRow("faster decode") << u"per_decode_ms=x0.5"_s << QString() << 64 << 16384 << 0.03;
    QTest::addRow("zero seqs") << u"max_num_seqs=0"_s
                               << u"--set max_num_seqs=0: max_num_seqs must be an integer from 1 to 100000, got 0"_s
                               << 64 << 16384 << 0.06;
    QTest::addRow("negative cost")
        << u"per_decode_ms=-1"_s
        << u"--set per_decode_ms=-1: per_decode_ms must be a number from 0 to 1000000, got -1"_s << 64 << 16384 << 0.06;
    QTest::addRow("unknown") << u"gpu_speed=2"_s
                             << u"--set gpu_speed=2: 'gpu_speed' is not a parameter of the twin (parameters: "
                                "max_num_seqs, kv_capacity_tokens, max_num_batched_tokens, max_model_len, block_size, "
                                "t_base_ms, per_decode_ms, per_prefill_token_ms, per_kv_token_ms, per_waiting_ms, "
                                "kv_watermark)"_s
                             << 64 << 16384 << 0.06;
}

void TestTwin::overrides()
{
    QFETCH(QString, assignment);
    QFETCH(QString, error);
    sim::SimParams p = sim::presetByName(QStringLiteral("small"))->params;
    QCOMPARE(twin::applyOverride(p, assignment), error);
    QFETCH(int, maxNumSeqs);
    QFETCH(int, kvCapacity);
    QFETCH(double, perDecodeMs);
    QCOMPARE(p.maxNumSeqs, maxNumSeqs);
    QCOMPARE(p.kvCapacityTokens, kvCapacity);
    QCOMPARE(p.perDecodeMs, perDecodeMs);
}

void TestTwin::twinFileIsSimulatorConfig()
{
    twin::Twin t;
    t.params = sim::presetByName(QStringLiteral("small"))->params;
    t.params.maxNumSeqs = 77;
    t.sourceRuns = QStringList { QStringLiteral("20261130-043500-sim-a") };
    twin::ParameterFit f;
    f.key = QStringLiteral("max_num_seqs");
    f.value = 77;
    f.lo = 76;
    t.parameters.push_back(f);
    t.unidentified = QStringList { QStringLiteral("block_size") };
    t.workload = { { 100, 20, -1 }, { 300, 5, -1 } };
    t.requestsPerStep = 42;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("twin.json"));
    QString error;
    QVERIFY(twin::writeTwinFile(t, path, &error));

    // kneepoint-sim --config reads the same file: the parameters are the simulator's own keys.
    sim::SimServerOptions options;
    QCOMPARE(sim::applySimConfigFile(path, options), QString());
    QCOMPARE(options.params.maxNumSeqs, 77);
    QCOMPARE(options.params.kvCapacityTokens, t.params.kvCapacityTokens);
    QCOMPARE(options.params.perDecodeMs, t.params.perDecodeMs);

    const twin::TwinRead read = twin::readTwinFile(path);
    QVERIFY2(read.twin, qPrintable(read.error));
    QCOMPARE(read.twin->params.maxNumSeqs, 77);
    QCOMPARE(read.twin->sourceRuns, t.sourceRuns);
    QCOMPARE(read.twin->unidentified, t.unidentified);
    QCOMPARE(read.twin->requestsPerStep, 42);
    QCOMPARE(read.twin->workload.size(), std::size_t(2));
    QCOMPARE(read.twin->workload[1].promptTokens, 300);
    QCOMPARE(read.twin->parameters.size(), std::size_t(1));
    QCOMPARE(read.twin->parameters[0].lo, std::optional<double>(76));
    QVERIFY(!read.twin->parameters[0].hi);

    // A plain simulator configuration is not a twin.
    const twin::TwinRead plain = twin::readTwin(QByteArrayLiteral("{\"preset\": \"small\"}"), u"sim.json"_s);
    QCOMPARE(
        plain.error, u"sim.json: not a twin file: it has no \"twin\" object (kneepoint-cli twin fit writes one)"_s);
}

void TestTwin::replicasSplitTheLoad()
{
    // Far past one instance's capacity (about 11 req/s): three instances behind a round-robin balancer,
    // offered three times the load and the requests, each see what one instance alone sees, so together
    // they serve three times its saturated throughput (within 10%: their arrivals are not the same draws).
    twin::Twin t;
    t.params = sim::presetByName(QStringLiteral("small"))->params;
    std::mt19937_64 rng(3);
    for (int i = 0; i < 300; ++i)
        t.workload.push_back({ 200, sim::SimModel::drawOutputTokens(rng, 400, 0.6), -1 });
    twin::PredictOptions one;
    one.requestsPerStep = 300;
    twin::PredictOptions three;
    three.replicas = 3;
    three.requestsPerStep = 900;
    const double single = twin::predict(t, { { LoadMode::Rate, 40 } }, one).front().metrics.requestThroughput;
    const double triple = twin::predict(t, { { LoadMode::Rate, 120 } }, three).front().metrics.requestThroughput;
    QVERIFY2(single < 13, qPrintable(QString::number(single)));
    QVERIFY2(std::abs(triple / (3 * single) - 1) < 0.1, qPrintable(QStringLiteral("%1 %2").arg(single).arg(triple)));
}

void TestTwin::fitsSavedRun()
{
    // A saved sweep of the simulator through real HTTP at a fast time scale (19 requests a step, two
    // client-bound steps that the fit leaves out): token times smeared by the client's reads, so the fit
    // starts from percentiles, and still reproduces each step's throughput within 10%.
    const QString dir = QFINDTESTDATA("data/export/runs/20261130-043500-sim-a");
    const SavedRunRead read = readSavedRun(dir);
    QVERIFY2(read.ok(), qPrintable(read.error));
    QStringList notes;
    const std::vector<twin::FitStep> steps = twin::fitSteps(*read.run, &notes);
    QCOMPARE(notes,
        QStringList(
            { u"20261130-043500-sim-a: step 0 (10 req/s): left out, the client could not keep to the schedule"_s,
                u"20261130-043500-sim-a: step 4 (80 req/s): left out, the client could not keep to the schedule"_s }));
    const twin::FitResult fit = twin::fitTwin(steps, { read.run->id });
    QVERIFY2(fit.ok(), qPrintable(fit.error));
    dump(*fit.twin);
    QCOMPARE(fit.twin->steps.size(), std::size_t(5));
    for (const twin::StepFitQuality& q : fit.twin->steps)
        QVERIFY2(std::abs(q.predictedRps / q.measuredRps - 1) <= 0.10, qPrintable(QString::number(q.offered)));
    std::vector<twin::PredictLoad> loads;
    for (const twin::StepFitQuality& q : fit.twin->steps)
        loads.push_back({ q.mode, q.offered });
    const std::vector<SweepPoint> predicted = twin::predict(*fit.twin, loads, {});
    const AnalysisResult measured = read.run->analyze();
    const AnalysisResult forecast = KneeAnalysis::analyze(predicted, read.run->analysisOptions());
    // Saturation on the predicted steps (the project's analysis, the run's options) where the run has it.
    QVERIFY(measured.saturation.found);
    QVERIFY(forecast.saturation.found);
    QCOMPARE(forecast.saturation.offered, measured.saturation.offered);
    QCOMPARE(forecast.saturation.offered, 120.0);
}

QTEST_GUILESS_MAIN(TestTwin)
#include "tst_twin.moc"
