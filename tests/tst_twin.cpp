#include "support/simclient.h"
#include "support/simsweep.h"
#include "support/summarytable.h"

#include "client/transport.h"
#include "dataset/dataset.h"
#include "metrics/phrase.h"
#include "metrics/resultjson.h"
#include "runs/comparison.h"
#include "runs/importers.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"
#include "sim/filelimit.h"
#include "sim/simconfig.h"
#include "sim/simhost.h"
#include "sim/simparameters.h"
#include "sim/simtimedriver.h"
#include "sweep/analysistext.h"
#include "sweep/kneeanalysis.h"
#include "twin/twin.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>
#include <tuple>

using namespace kp;
using namespace Qt::StringLiterals;
using kp::testing::publishedTable;
using kp::testing::TableRow;
using kp::testing::writeVllmResultFiles;

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

// Whether a twin fitted on the simulator predicts it: throughput within 10% at every step and, when asked, P99 TTFT
// within 25% up to the peak (the step with the most throughput measured). Empty when it does, else where it misses.
QString predictionMiss(const twin::Twin& t, const char* name, bool ttftUpToPeak = true)
{
    double peak = 0;
    for (const twin::StepFitQuality& q : t.steps)
        peak = std::max(peak, q.measuredRps);
    bool pastPeak = false;
    for (const twin::StepFitQuality& q : t.steps) {
        const QString where = QStringLiteral("%1 at %2 req/s").arg(QLatin1String(name)).arg(q.offered);
        if (std::abs(q.predictedRps / q.measuredRps - 1) > 0.10)
            return where
                + QStringLiteral(": throughput %1 predicted, %2 measured").arg(q.predictedRps).arg(q.measuredRps);
        if (ttftUpToPeak && !pastPeak && std::abs(q.predictedTtftP99 / q.measuredTtftP99 - 1) > 0.25)
            return where
                + QStringLiteral(": P99 TTFT %1 ms predicted, %2 measured")
                      .arg(q.predictedTtftP99)
                      .arg(q.measuredTtftP99);
        pastPeak = pastPeak || q.measuredRps == peak;
    }
    return {};
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
    for (const Sentence& d : t.disagreements)
        qInfo("disagreement: %s", qPrintable(d.english()));
}

// A twin as a fit leaves it: the small preset's server, 100 requests of 200 prompt tokens a step.
twin::Twin smallTwin()
{
    twin::Twin t;
    t.params = sim::presetByName(QStringLiteral("small"))->params;
    t.sourceRuns = QStringList { QStringLiteral("20261130-043500-sim-a") };
    std::mt19937_64 rng(3);
    for (int i = 0; i < 100; ++i)
        t.workload.push_back({ 200, sim::SimModel::drawOutputTokens(rng, 400, 0.6), -1 });
    t.requestsPerStep = 100;
    return t;
}

// A sweep of the simulator at 10 to 140 req/s, 200 requests of 100 prompt and 128 output tokens a step (a random
// dataset with ignore_eos: the summaries' mean request is every request), as fit steps from its records and from
// its summaries alone (the records dropped, as a vLLM result file has them).
void simulatedSweep(
    const sim::SimParams& truth, std::vector<twin::FitStep>& records, std::vector<twin::FitStep>& summaries)
{
    for (const double rate : { 10, 20, 40, 60, 80, 100, 140 }) {
        StepConfig step;
        step.mode = LoadMode::Rate;
        step.rate = rate;
        step.numPrompts = 200;
        step.seed = 7;
        for (int i = 0; i < step.numPrompts; ++i) {
            Prompt p;
            p.promptTokens = 100;
            p.outputTokens = 128;
            step.prompts.push_back(p);
        }
        MetricsOptions metrics;
        metrics.percentiles = { 50, 90, 99 };
        const StepResult result = kp::testing::simulateStep(truth, 1.0, step, metrics);
        records.push_back(twin::fitStepFromRecords(LoadMode::Rate, rate, 1.0, result.records));
        summaries.push_back(twin::fitStepFromSummary(LoadMode::Rate, rate, 1.0, records.back().metrics));
    }
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestTwin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fitReproducesPresetSweep_data();
    void fitReproducesPresetSweep();
    void refusesWhatCannotIdentify();
    void noRequestFitsIsSaid();
    void overrides_data();
    void overrides();
    void twinFileIsSimulatorConfig();
    void replicasSplitTheLoad();
    void fitsSavedRun();
    void savedPredictionIsLabelled();
    void fitsImportedRun();
    void fitsPublishedSummaryTable();
    void summariesPredictTheSimulator();
    void fitFindsPreEngineLatency();
    void fitFindsApiServerQueue();
    void simulatorServesTheTwin();
    void demoPlanFormsKneeAndSaturation();
    void parameterBoundsAreTheSameEverywhere_data();
    void parameterBoundsAreTheSameEverywhere();
    void twinFileWritesEveryParameter();
    void typedAdjustments();
    void simTimeDriverWritesTokensAsRecords();
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
    QTest::addRow("unknown")
        << u"gpu_speed=2"_s
        << u"--set gpu_speed=2: 'gpu_speed' is not a parameter of the twin (parameters: "
           "max_num_seqs, kv_capacity_tokens, max_num_batched_tokens, max_model_len, block_size, "
           "t_base_ms, per_decode_ms, per_prefill_token_ms, per_kv_token_ms, per_waiting_ms, pre_engine_ms, "
           "pre_engine_spread_ms, api_server_ms, kv_watermark)"_s
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

// A KV cache smaller than any request: nothing completes, and the prediction says so instead of
// printing TTFT 0.00 ms and a "0 req/s peak".
void TestTwin::noRequestFitsIsSaid()
{
    twin::Twin t;
    t.params = sim::presetByName(QStringLiteral("small"))->params;
    for (int i = 0; i < 20; ++i)
        t.workload.push_back({ 200, 100, -1 });
    twin::PredictOptions options;
    options.requestsPerStep = 20;
    QVERIFY(twin::noRequestFits(t, twin::predict(t, { { LoadMode::Rate, 5 } }, options)).isEmpty());
    QCOMPARE(twin::applyOverride(t.params, QStringLiteral("kv_capacity_tokens=1")), QString());
    const std::vector<SweepPoint> points = twin::predict(t, { { LoadMode::Rate, 5 }, { LoadMode::Rate, 10 } }, options);
    QCOMPARE(points.size(), std::size_t(2));
    QCOMPARE(points[0].metrics.completed, qint64(0));
    QCOMPARE(twin::noRequestFits(t, points),
        QStringLiteral("no request completes at any load: all 40 predicted requests failed; the KV cache holds 1 "
                       "tokens (kv_capacity_tokens) and the largest request needs 300"));
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

void TestTwin::savedPredictionIsLabelled()
{
    twin::Twin t = smallTwin();
    QCOMPARE(twin::applyOverride(t.params, QStringLiteral("max_num_seqs=128")), QString());
    twin::PredictOptions options;
    const std::vector<SweepPoint> points
        = twin::predict(t, { { LoadMode::Rate, 2 }, { LoadMode::Rate, 8 }, { LoadMode::Rate, 32 } }, options);
    QCOMPARE(points.size(), std::size_t(3));
    twin::SavedPredictionSpec spec;
    spec.twinFile = QStringLiteral("twin.json");
    spec.overrides = { { QStringLiteral("max_num_seqs"), QStringLiteral("128") } };
    spec.points = points;
    for (const SweepPoint& p : points) {
        StepSetup setup;
        setup.backend = QStringLiteral("kneepoint-twin");
        setup.requestRate = p.offered;
        spec.setups.push_back(setup);
    }
    QTemporaryDir root;
    const twin::SavedPrediction saved = twin::savePrediction(t, spec, root.path());
    QVERIFY2(!saved.dir.isEmpty(), qPrintable(saved.error));
    // Written aside and renamed into place: nothing else is left under the root.
    QCOMPARE(QDir(root.path()).entryList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot),
        QStringList { QDir(saved.dir).dirName() });
    QVERIFY(QDir(saved.dir).dirName().endsWith(u"-prediction-of-20261130-043500-sim-a"_s));

    const QJsonObject run = QJsonDocument::fromJson(readAll(saved.dir + u"/run.json"_s)).object();
    QCOMPARE(run.value(u"format").toString(), u"kneepoint.run/1"_s);
    QCOMPARE(run.value(u"predicted").toBool(), true);
    QCOMPARE(run.value(u"source").toString(), u"twin"_s);
    QCOMPARE(run.value(u"status").toString(), u"finished"_s);
    QCOMPARE(run.value(u"name").toString(), u"prediction of 20261130-043500-sim-a"_s);
    QCOMPARE(run.value(u"prediction").toObject(),
        QJsonObject(
            { { u"twin_file"_s, u"twin.json"_s }, { u"source_runs"_s, QJsonArray { u"20261130-043500-sim-a"_s } },
                { u"overrides"_s, QJsonObject { { u"max_num_seqs"_s, u"128"_s } } }, { u"replicas"_s, 1 } }));
    const QJsonArray entries = run.value(u"steps").toArray();
    QCOMPARE(entries.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const QJsonObject entry = entries.at(i).toObject();
        QCOMPARE(entry.value(u"predicted").toBool(), true);
        QCOMPARE(entry.value(u"file").toString(), QStringLiteral("%1.json").arg(i, 3, 10, QLatin1Char('0')));
        QCOMPARE(entry.value(u"load").toString(), QStringList({ u"2 req/s"_s, u"8 req/s"_s, u"32 req/s"_s }).at(i));
        const QJsonObject step
            = QJsonDocument::fromJson(readAll(saved.dir + u"/steps/"_s + entry.value(u"file").toString())).object();
        QCOMPARE(step.value(u"predicted").toBool(), true);
        QCOMPARE(step.value(u"backend").toString(), u"kneepoint-twin"_s);
        QCOMPARE(step.value(u"request_rate").toDouble(), points[std::size_t(i)].offered);
        QCOMPARE(step.value(u"completed").toInt(), points[std::size_t(i)].metrics.completed);
    }
    // A prediction has no requests: no request records.
    QCOMPARE(QDir(saved.dir + u"/steps"_s).entryList({ u"*.requests.jsonl"_s }, QDir::Files), QStringList());

    const SavedRunRead read = readSavedRun(saved.dir);
    QVERIFY2(read.ok(), qPrintable(read.error));
    QVERIFY(read.run->predicted());
    QCOMPARE(read.run->prediction->sourceRuns, QStringList { u"20261130-043500-sim-a"_s });
    QCOMPARE(read.run->prediction->overrides, QStringList { u"max_num_seqs=128"_s });
    QCOMPARE(read.run->target(), u"twin of 20261130-043500-sim-a (predicted)"_s);
    QCOMPARE(read.run->steps.size(), std::size_t(3));
    for (const SavedStep& step : read.run->steps)
        QVERIFY(step.requestsPath.isEmpty());
    QCOMPARE(predictionSentence(*read.run->prediction).english(),
        u"Predicted by a twin fitted to 20261130-043500-sim-a, with overrides max_num_seqs=128; not a measurement"_s);
    Prediction three = *read.run->prediction;
    three.overrides.clear();
    three.replicas = 3;
    QCOMPARE(predictionSentence(three).english(),
        u"Predicted by a twin fitted to 20261130-043500-sim-a, without overrides, 3 replicas; not a measurement"_s);

    const std::vector<RunEntry> list = RunCatalog(root.path()).list();
    QCOMPARE(list.size(), std::size_t(1));
    QVERIFY(list.front().predicted);
    QCOMPARE(list.front().source, u"twin"_s);

    // Beside a measured run, the comparison marks the prediction in its files.
    const SavedRunRead measured = readSavedRun(QFINDTESTDATA("data/export/runs/20261130-043500-sim-a"));
    QVERIFY2(measured.ok(), qPrintable(measured.error));
    QVERIFY(!measured.run->predicted());
    const Comparison c = compareRuns({ *measured.run, *read.run }, 0, CompareMetric::Throughput, {});
    QVERIFY(!c.curves[0].predicted);
    QVERIFY(c.curves[1].predicted);
    const QJsonArray runs = comparisonJson(c).value(u"runs").toArray();
    QCOMPARE(runs.at(0).toObject().value(u"predicted").toBool(), false);
    QCOMPARE(runs.at(1).toObject().value(u"predicted").toBool(), true);
    const QList<QByteArray> csv = comparisonCsv(c).trimmed().split('\n');
    QVERIFY(csv.front().endsWith(",note,predicted"));
    QVERIFY2(csv.at(1).endsWith(",false"), csv.at(1).constData());
    QVERIFY2(csv.back().endsWith(",true"), csv.back().constData());
}

void TestTwin::fitsImportedRun()
{
    // A sweep as vLLM's benchmark_serving.py saves it, one summary file per rate and no per-request lists
    // (the real files under data/import hold one load each, not a sweep): here the small preset's steps
    // written with the same keys, then imported. The fit takes what summaries allow and names the rest.
    const sim::SimParams truth = sim::presetByName(QStringLiteral("small"))->params;
    QTemporaryDir files;
    QStringList paths;
    for (const double rate : { 2.0, 4.0, 8.0, 16.0, 32.0 }) {
        const twin::FitStep step = measuredStep(truth, rate, 120, 200, 400);
        StepSetup setup;
        setup.date = QStringLiteral("20261201-120000");
        setup.backend = QStringLiteral("vllm");
        setup.modelId = truth.modelId;
        setup.numPrompts = 120;
        setup.requestRate = rate;
        setup.burstiness = 1;
        const QString path = files.filePath(QStringLiteral("vllm-%1qps.json").arg(rate));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(ResultJson::write(setup, step.metrics));
        paths << path;
    }
    QTemporaryDir root;
    ImportOptions options;
    options.format = ImportFormat::Vllm;
    const ImportResult imported = importRun(paths, root.path(), options);
    QVERIFY2(imported.ok(), qPrintable(imported.error));
    const SavedRunRead read = readSavedRun(imported.dir);
    QVERIFY2(read.ok(), qPrintable(read.error));
    QStringList notes;
    const std::vector<twin::FitStep> steps = twin::fitSteps(*read.run, &notes);
    QCOMPARE(notes, QStringList());
    QCOMPARE(steps.size(), std::size_t(5));
    for (const twin::FitStep& s : steps)
        QVERIFY(!s.fromRecords);
    const twin::FitResult fit = twin::fitTwin(steps, { read.run->id });
    QVERIFY2(fit.ok(), qPrintable(fit.error));
    dump(*fit.twin);
    QVERIFY(fit.notes.contains(u"some steps have no request records (an imported summary): their requests are taken "
                               u"as equal to the mean prompt and output lengths, sent at the offered rate"_s));
    // Summaries show no queue: the cost per waiting request is bounded from above only (a larger one would
    // slow the saturated steps), at or above the truth; three parameters no data identify.
    QCOMPARE(fit.twin->unidentified, QStringList({ u"max_num_batched_tokens"_s, u"block_size"_s, u"kv_watermark"_s }));
    const twin::ParameterFit* waiting = parameter(*fit.twin, u"per_waiting_ms"_s);
    QVERIFY(waiting && waiting->identified && !waiting->lo && waiting->hi);
    QVERIFY2(*waiting->hi >= truth.perWaitingMs, qPrintable(QString::number(*waiting->hi)));
    // The small preset's cache limits its batch (64 running requests of these lengths need more than its
    // 16384 tokens): the steps past saturation bound the cache on both sides and max_num_seqs from below.
    const twin::ParameterFit* kv = parameter(*fit.twin, u"kv_capacity_tokens"_s);
    QVERIFY(kv && kv->identified && kv->lo && kv->hi);
    const twin::ParameterFit* seqs = parameter(*fit.twin, u"max_num_seqs"_s);
    QVERIFY(seqs && seqs->identified && seqs->lo && !seqs->hi);
    // Every request of a summary is the mean request, where the sweep drew output lengths from 0 to 400:
    // the twin's saturated throughput runs up to 10% high on that alone, so 15% (in simulated time, the
    // figures are the same on every run).
    QCOMPARE(fit.twin->steps.size(), std::size_t(5));
    for (const twin::StepFitQuality& q : fit.twin->steps)
        QVERIFY2(std::abs(q.predictedRps / q.measuredRps - 1) <= 0.15, qPrintable(QString::number(q.offered)));
}

void TestTwin::fitsPublishedSummaryTable()
{
    // A sweep as a user gets it from a report: eight vLLM result files, one per rate, 1000 requests of 128
    // prompt and about 257 output tokens each, no per-request lists. Throughput peaks at 100 req/s and
    // falls after it; TPOT grows with the load.
    const std::vector<TableRow> table = publishedTable();
    QTemporaryDir files;
    QVERIFY(writeVllmResultFiles(table, files.path()));
    // The folder, as `import`, `analyze` and `twin fit` read it.
    const ImportContents contents = readImport({ files.path() });
    QVERIFY2(contents.ok(), qPrintable(contents.error));
    QCOMPARE(contents.curves.size(), std::size_t(1));
    QStringList notes;
    const std::vector<twin::FitStep> steps = twin::fitSteps(contents.curves.front(), &notes);
    QCOMPARE(notes, QStringList());
    QCOMPARE(steps.size(), table.size());
    // The files give no end-to-end latency: Little's law gives each step's mean concurrency from its
    // throughput, median TTFT and mean TPOT over 256 later tokens, and marks it derived.
    for (std::size_t i = 0; i < table.size(); ++i) {
        const TableRow& row = table[i];
        QCOMPARE(steps[i].metrics.meanConcurrency, row.rps * (row.medianTtft + row.meanTpot * 256) / 1000);
        QCOMPARE(std::count(steps[i].metrics.derived.begin(), steps[i].metrics.derived.end(), u"concurrency"_s), 1);
    }
    QCOMPARE(steps[5].metrics.meanConcurrency, 60.12 * (577.3 + 23.0 * 256) / 1000); // about 389 at 100 req/s
    twin::FitOptions options;
    options.maxEvaluations = 200;
    const twin::FitResult fit = twin::fitTwin(steps, { contents.curves.front().name }, options);
    QVERIFY2(fit.ok(), qPrintable(fit.error));
    dump(*fit.twin);
    const twin::Twin& t = *fit.twin;
    // 132 ms to the first token of 128 prompt tokens, alone on a server that serves 60 req/s of them: the
    // prefill takes at most a quarter of the time at the peak, so most of it is latency before the engine.
    QVERIFY2(fit.notes.contains(u"the lightest step's TTFT (132 ms) is more than the prefill of its 128-token "
                                u"prompts can take at the measured peak of 60.1 req/s: at most 31.9 ms of it is "
                                u"the server's (the wait for an iteration, and the iteration that prefills it), "
                                u"the rest is latency before the engine (the API server, tokenization, the "
                                u"network): pre_engine_ms and pre_engine_spread_ms start from it"_s),
        qPrintable(fit.notes.join(u'\n')));
    // The batch limit starts from Little's law, not from the highest mean concurrency of the old start (8).
    const twin::ParameterFit* seqs = parameter(t, u"max_num_seqs"_s);
    QVERIFY(seqs && seqs->identified);
    QVERIFY2(seqs->note.startsWith(u"started from the most requests running at once by Little's law (derived"_s),
        qPrintable(seqs->note));
    QVERIFY2(seqs->value >= 300, qPrintable(QString::number(seqs->value)));
    // One request length: the cost of the cache cannot be told from the cost of a decode, so nothing bounds it from
    // below (none of it may be the cache's); the slope of TPOT at the peak bounds it from above at most.
    const twin::ParameterFit* perKv = parameter(t, u"per_kv_token_ms"_s);
    QVERIFY(perKv && !perKv->lo);
    QCOMPARE(t.steps.size(), table.size());
    // Not every row is a measurement a server can give. vLLM's request throughput is the completed requests over
    // the benchmark's duration, from the first send to the end of the last request. The last of n Poisson
    // arrivals is sent after n − 1 gaps, (n − 1) / rate seconds give or take √(n − 1) / rate, and then takes at
    // least its 256 later tokens at the TPOT of a request alone: the table's TPOT against the requests running
    // (throughput × TPOT × 256, Little's law) below the knee, extrapolated to none, 18.03 ms. So no server
    // measures more than n / ((n − 1 − 3√(n − 1)) / rate + 256 × 18.03 ms) (the last send three standard
    // deviations early, a first token at once): at 40 req/s 1000 / (22.60 + 4.62) = 36.7 req/s against the
    // table's 38.11, at 60 req/s 1000 / (15.07 + 4.62) = 50.8 against 52.34. Those two rows are impossible for any
    // server whose requests take as long as the table says; the others are possible (10 req/s: at most 10.5).
    double sr = 0, st = 0, srr = 0, srt = 0;
    for (const TableRow& row : { table[0], table[1], table[2] }) {
        const double running = row.rps * row.meanTpot * 256 / 1000;
        sr += running;
        st += row.meanTpot;
        srr += running * running;
        srt += running * row.meanTpot;
    }
    const double aloneTpot = (st * srr - sr * srt) / (3 * srr - sr * sr);
    QVERIFY2(std::abs(aloneTpot - 18.03) < 0.01, qPrintable(QString::number(aloneTpot)));
    constexpr double n = 1000;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const TableRow& row = table[i];
        const twin::StepFitQuality& q = t.steps[i];
        const double most = n / ((n - 1 - 3 * std::sqrt(n - 1)) / row.rate + 256 * aloneTpot / 1000);
        const bool possible = row.rps <= most;
        QCOMPARE(possible, row.rate != 40 && row.rate != 60);
        const QByteArray where = QByteArray::number(row.rate) + " req/s: predicted "
            + QByteArray::number(q.predictedRps) + ", measured " + QByteArray::number(row.rps) + ", at most "
            + QByteArray::number(most);
        if (possible) {
            // Within 10% of the measurement.
            QVERIFY2(std::abs(q.predictedRps / row.rps - 1) <= 0.10, where.constData());
        } else {
            // Within 10% of what a server with the row's own latencies measures on a typical schedule: the last
            // request sent after (n − 1) / rate and done a median TTFT and 256 mean TPOTs later (33.0 req/s at
            // 40 req/s, 44.9 at 60), and never above the most any server measures.
            const double typical = n / ((n - 1) / row.rate + (row.medianTtft + 256 * row.meanTpot) / 1000);
            QVERIFY2(std::abs(q.predictedRps / typical - 1) <= 0.10 && q.predictedRps <= most, where.constData());
        }
    }
    // The collapse: the predicted throughput peaks at the table's peak (100 req/s) and falls after it, at 200 req/s
    // more than 5% below its peak (the table: 13%).
    const auto top = std::max_element(t.steps.begin(), t.steps.end(),
        [](const twin::StepFitQuality& a, const twin::StepFitQuality& b) { return a.predictedRps < b.predictedRps; });
    QCOMPARE(top->offered, 100.0);
    QVERIFY2(t.steps.back().predictedRps < 0.95 * top->predictedRps,
        qPrintable(QString::number(t.steps.back().predictedRps)));
    // The knee and the saturation of the project's analysis, on the table and on the twin's prediction of it.
    std::vector<SweepPoint> measuredPoints;
    std::vector<twin::PredictLoad> loads;
    for (const twin::FitStep& s : steps) {
        SweepPoint point;
        point.offered = s.offered;
        point.metrics = s.metrics;
        measuredPoints.push_back(point);
        loads.push_back({ LoadMode::Rate, s.offered });
    }
    const AnalysisResult measured = KneeAnalysis::analyze(measuredPoints, {});
    const AnalysisResult forecast = KneeAnalysis::analyze(twin::predict(t, loads, {}), {});
    qInfo("knee %g/%g saturation %g/%g", measured.knee.offered, forecast.knee.offered, measured.saturation.offered,
        forecast.saturation.offered);

    // The two rows no server can measure are named, and their TTFTs weigh a quarter in the fit.
    for (const auto& [rate, stated, most] : { std::tuple { 40, u"38.1"_s, u"36.7"_s }, { 60, u"52.3"_s, u"50.8"_s } }) {
        QVERIFY2(fit.notes.contains(u"the step at %1 req/s states %2 req/s, more than any server whose request alone "
                                    u"takes 18 ms per later token can measure from 1000 requests sent at that rate "
                                    u"(at most %3 req/s): its TTFTs weigh a quarter"_s.arg(rate)
                                        .arg(stated, most)),
            qPrintable(fit.notes.join(u'\n')));
    }
    // The median TTFT grows 15.3 ms from 10 to 20 req/s while the throughput follows the load. One API server in
    // front of the engine (a queue with a fixed time per request, M/D/1: a mean wait of λ·S²/(2·(1 − λ·S))) that
    // lets the measured peak through takes at most S = 1000/60.12 = 16.6 ms a request, and its wait grows by at most
    // 4.15 − 1.66 = 2.49 ms from 10 to 20 req/s (its median by less: it is 0 below half its rate): the growth is not
    // that queue's, so the fit starts it at 0 (and says why), and the scan bounds it from above.
    const double most = 1000 / 60.12;
    const auto wait = [most](double rate) { return rate * most / 1000 * most / (2 * (1 - rate * most / 1000)); };
    QVERIFY2(std::abs(wait(20) - wait(10) - 2.49) < 0.01, qPrintable(QString::number(wait(20) - wait(10))));
    QVERIFY2(std::any_of(fit.notes.begin(), fit.notes.end(),
                 [](const QString& note) {
                     return note.startsWith(u"the median TTFT grows by "_s)
                         && note.endsWith(
                             u"more than the queue of one API server that lets the measured peak of "
                             u"60.1 req/s through can give (2.17 ms at most): api_server_ms starts at 0"_s);
                 }),
        qPrintable(fit.notes.join(u'\n')));
    const twin::ParameterFit* api = parameter(t, u"api_server_ms"_s);
    QVERIFY(api && api->value == 0 && api->hi && *api->hi < most);
    // The analysis reads the table without a drain (the files give no end-to-end latency), so its saturation at
    // 60 req/s rests on the row at 40 req/s serving 38.11 ≥ 95% of 40 = 38 req/s, which no server measures (at most
    // 36.7 req/s, above): any consistent forecast read that way saturates at 40 req/s. The forecast carries its own
    // end-to-end latency, and so its drain: read with it, it saturates past 60 req/s.
    QCOMPARE(measured.saturation.offered, 60.0);
    // The twin says where it does not reproduce the table: the tail at 10 and 100 req/s among others (the objective's
    // best misses there: the table's P99 grows from 20 req/s on, faster than its median, which the model's queues give
    // only near saturation), and the knee and saturation the analysis finds on its figures against the table's.
    QCOMPARE(t.disagreements.size(), 3);
    const QString tail = t.disagreements[0].english();
    QVERIFY2(tail.startsWith(u"The twin's P99 TTFT misses the measured by more than 25% at 10 req/s (+"_s)
            && tail.contains(u", 100 req/s (+"_s),
        qPrintable(tail));
    QCOMPARE(t.disagreements[1].english(),
        u"The measured steps put the knee at %1 req/s, the twin's figures for them at %2 req/s: its forecast of where "
        u"latency turns is that far off."_s.arg(measured.knee.offered)
            .arg(forecast.knee.offered));
    QCOMPARE(t.disagreements[2].english(),
        u"The measured steps saturate at 60 req/s, the twin's figures for them at %1 req/s."_s.arg(
            forecast.saturation.offered));
    QVERIFY(0.95 * 40 > n / ((n - 1 - 3 * std::sqrt(n - 1)) / 40 + 256 * aloneTpot / 1000));
    QVERIFY2(forecast.saturation.offered > 60, qPrintable(QString::number(forecast.saturation.offered)));
}

void TestTwin::summariesPredictTheSimulator()
{
    // A sweep of the simulator (max_num_seqs binds: 128 sequences), fitted once from its request records
    // and once from its summaries alone (the records dropped, as a vLLM result file has them): both twins
    // predict the simulator within the same bounds. Every request has the same lengths (a random dataset
    // with ignore_eos), so the summaries' mean request is every request.
    const sim::SimParams truth = sim::presetByName(u"long-context"_s)->params;
    std::vector<twin::FitStep> records, summaries;
    simulatedSweep(truth, records, summaries);
    for (const auto& [steps, name] : { std::pair { &records, "records" }, std::pair { &summaries, "summaries" } }) {
        const twin::FitResult fit = twin::fitTwin(*steps, { u"simulated"_s });
        QVERIFY2(fit.ok(), qPrintable(fit.error));
        qInfo("fitted from %s:", name);
        dump(*fit.twin);
        const QString miss = predictionMiss(*fit.twin, name);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        // It reproduces the steps it was fitted to: nothing to say of them.
        QVERIFY2(fit.twin->disagreements.isEmpty(), qPrintable(fit.notes.join(u'\n')));
    }
}

void TestTwin::fitFindsPreEngineLatency()
{
    // The same sweep with 40 ms of latency before the engine and an exponential spread of mean 10 ms (an API
    // server, a tokenizer, a network): fitted from its records and from its summaries, the twin puts that
    // latency in pre_engine_ms and pre_engine_spread_ms, not in the prefill, and still predicts the simulator.
    sim::SimParams truth = sim::presetByName(u"long-context"_s)->params;
    truth.preEngineMs = 40;
    truth.preEngineSpreadMs = 10;
    std::vector<twin::FitStep> records, summaries;
    simulatedSweep(truth, records, summaries);
    for (const auto& [steps, name] : { std::pair { &records, "records" }, std::pair { &summaries, "summaries" } }) {
        const twin::FitResult fit = twin::fitTwin(*steps, { u"simulated"_s });
        QVERIFY2(fit.ok(), qPrintable(fit.error));
        qInfo("fitted from %s:", name);
        dump(*fit.twin);
        const twin::ParameterFit* fixed = parameter(*fit.twin, u"pre_engine_ms"_s);
        const twin::ParameterFit* spread = parameter(*fit.twin, u"pre_engine_spread_ms"_s);
        QVERIFY(fixed && spread);
        QVERIFY2(fixed->identified && std::abs(fixed->value / truth.preEngineMs - 1) <= 0.10,
            qPrintable(QStringLiteral("%1: pre_engine_ms %2").arg(QLatin1String(name)).arg(fixed->value)));
        QVERIFY2(fixed->lo && fixed->hi, qPrintable(fixed->note));
        QVERIFY2(std::abs(spread->value / truth.preEngineSpreadMs - 1) <= 0.25,
            qPrintable(QStringLiteral("%1: pre_engine_spread_ms %2").arg(QLatin1String(name)).arg(spread->value)));
        // Not in the prefill: 40 ms over 100 prompt tokens would be 0.4 ms a token, sixteen times the truth.
        QVERIFY2(fit.twin->params.perPrefillTokenMs <= 2 * truth.perPrefillTokenMs,
            qPrintable(QString::number(fit.twin->params.perPrefillTokenMs)));
        const QString miss = predictionMiss(*fit.twin, name);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
    }
}

void TestTwin::fitFindsApiServerQueue()
{
    // The same sweep on a server with room for 512 sequences (the engine alone would pass about 90 req/s) behind an
    // API server that takes 12 ms per request, one at a time (it passes at most 83.3 req/s): the mean TTFT grows with
    // the load beyond what the engine gives (a mean wait of 10 ms at 60 req/s, 66 ms at 80), and the API server sets
    // the plateau. Fitted from its records, the twin starts the API server from that growth, finds its time within
    // 10% and bounded on both sides, and predicts the simulator as it does without one. From the summaries alone the
    // engine's first estimates are too rough to leave the growth to a queue (the fit says nothing of one there, and
    // bounds it from above): the throughput is still within 10%.
    sim::SimParams truth = sim::presetByName(u"long-context"_s)->params;
    truth.maxNumSeqs = 512;
    truth.apiServerMs = 12;
    std::vector<twin::FitStep> records, summaries;
    simulatedSweep(truth, records, summaries);
    for (const auto& [steps, name] : { std::pair { &records, "records" }, std::pair { &summaries, "summaries" } }) {
        const twin::FitResult fit = twin::fitTwin(*steps, { u"simulated"_s });
        QVERIFY2(fit.ok(), qPrintable(fit.error));
        qInfo("fitted from %s:", name);
        dump(*fit.twin);
        const twin::ParameterFit* api = parameter(*fit.twin, u"api_server_ms"_s);
        QVERIFY(api);
        const bool fromRecords = steps == &records;
        if (fromRecords) {
            QVERIFY2(fit.notes.contains(u"the mean TTFT grows by 39.2 ms from 10 req/s to 80 req/s beyond what the "
                                        u"server's iterations explain, below saturation: a queue before the engine "
                                        u"(one API server); api_server_ms starts at 11 ms"_s),
                qPrintable(fit.notes.join(u'\n')));
            QVERIFY2(api->identified && std::abs(api->value / truth.apiServerMs - 1) <= 0.10,
                qPrintable(QString::number(api->value)));
            QVERIFY2(api->lo && api->hi, qPrintable(api->note));
            QVERIFY2(fit.twin->disagreements.isEmpty(), qPrintable(fit.notes.join(u'\n')));
        } else {
            QVERIFY2(api->hi, qPrintable(api->note));
            // The summaries' twin turns earlier than the simulator did, and says so (with the notes `twin fit` prints).
            const QString knee
                = u"The measured steps put the knee at 60 req/s, the twin's figures for them at 40 req/s: "
                  u"its forecast of where latency turns is that far off."_s;
            QVERIFY2(fit.notes.contains(knee), qPrintable(fit.notes.join(u'\n')));
            QCOMPARE(fit.twin->disagreements.back().english(), knee);
        }
        const QString miss = predictionMiss(*fit.twin, name, fromRecords);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
    }
    // Without an API server the same fit leaves it at 0 and bounds it from above, well below the time at which it
    // alone would hold the peak.
    std::vector<twin::FitStep> plainRecords, plainSummaries;
    simulatedSweep(sim::presetByName(u"long-context"_s)->params, plainRecords, plainSummaries);
    const twin::FitResult plain = twin::fitTwin(plainRecords, { u"simulated"_s });
    QVERIFY2(plain.ok(), qPrintable(plain.error));
    const twin::ParameterFit* none = parameter(*plain.twin, u"api_server_ms"_s);
    QVERIFY(none);
    QCOMPARE(none->value, 0.0);
    QVERIFY2(none->hi && *none->hi < 0.1 * 1000 / 40.0, qPrintable(none->note));
}

void TestTwin::simulatorServesTheTwin()
{
    // kneepoint-sim --config twin.json over real HTTP: the server reads the twin file as its configuration
    // (applySimConfigFile is what kneepoint-sim --config calls) and serves the twin's model at a time
    // scale; one step far past saturation, then the twin's own prediction of that step from the same
    // requests (lengths as the server counted them, sent at the same offered rate).
    sim::raiseFileLimit();
    twin::Twin t = smallTwin();
    QTemporaryDir dir;
    const QString path = dir.filePath(u"twin.json"_s);
    QString error;
    QVERIFY2(twin::writeTwinFile(t, path, &error), qPrintable(error));
    sim::SimServerOptions options;
    QCOMPARE(sim::applySimConfigFile(path, options), QString());
    constexpr double kTimeScale = 2;
    constexpr double kRate = 40; // req/s of the twin's clock: about 4 times the small server's capacity
    constexpr int kRequests = 100;
    options.timeScale = kTimeScale;
    options.seed = 5;
    sim::SimHost host;
    QVERIFY2(host.start(options), qPrintable(host.errorString()));
    StepConfig step = testing::makeStep(host.baseUrl(), Backend::OpenAi, t.params.modelId, kRequests, 200, 200, 9);
    step.mode = LoadMode::Rate;
    step.rate = kRate * kTimeScale;
    step.seed = 1;
    const std::unique_ptr<Transport> client = makeTransport({}, step.request.url);
    MetricsOptions metrics;
    metrics.percentiles = { 50, 90, 99 };
    StepRunner runner(client.get(), metrics);
    QSignalSpy finished(&runner, &StepRunner::finished);
    runner.start(step);
    QVERIFY(finished.wait(240000));
    const StepResult result = finished.takeFirst().at(0).value<StepResult>();
    host.stop();
    QCOMPARE(result.metrics.completed, kRequests);
    std::vector<twin::TwinRequest> requests;
    for (const RequestRecord& r : result.records)
        requests.push_back({ r.serverPromptTokens >= 0 ? r.serverPromptTokens : r.promptTokens, r.outputTokens, -1 });
    const StepMetrics predicted = twin::simulateLoad(t.params, 1, LoadMode::Rate, kRate, requests, metrics);
    const double served = result.metrics.requestThroughput / kTimeScale;
    qInfo("served %.3f req/s (twin's clock), predicted %.3f req/s", served, predicted.requestThroughput);
    // Far past saturation the throughput is the server's capacity, whatever the arrivals' draws; what
    // separates the two is the real clock: the client's dispatch and reads on a loaded machine, the
    // server's late timers (at time scale 10 a loaded 2-core machine lost 20%; at 2 the server's
    // iterations last 5 ms and more of wall time). 10% covers that (measured: within 4%), far below the 4-fold
    // excess of the offered load, so a server that did not serve the twin's parameters fails.
    QVERIFY2(std::abs(served / predicted.requestThroughput - 1) <= 0.10,
        qPrintable(u"%1 %2"_s.arg(served).arg(predicted.requestThroughput)));
}

// One parameter table: the simulator's configuration, the twin's --set and the fitted twin's file
// refuse the same values, and the configuration states the limit rather than a type.
void TestTwin::parameterBoundsAreTheSameEverywhere_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("configError");
    QTest::addRow("KV cache beyond the limit") << u"kv_capacity_tokens"_s << QByteArray("1e15")
                                               << u"field 'kv_capacity_tokens': 1e15 is above the limit 1073741824"_s;
    QTest::addRow("integer beyond the limit")
        << u"max_num_seqs"_s << QByteArray("100001") << u"field 'max_num_seqs': 100001 is above the limit 100000"_s;
    QTest::addRow("below the limit") << u"block_size"_s << QByteArray("0")
                                     << u"field 'block_size': 0 is below the limit 1"_s;
    QTest::addRow("at an exclusive limit")
        << u"t_base_ms"_s << QByteArray("0") << u"field 't_base_ms': 0 is not above the limit 0"_s;
    QTest::addRow("at an exclusive upper limit")
        << u"kv_watermark"_s << QByteArray("1") << u"field 'kv_watermark': 1 is not below the limit 1"_s;
    QTest::addRow("a cost beyond the limit")
        << u"per_decode_ms"_s << QByteArray("2e6") << u"field 'per_decode_ms': 2000000 is above the limit 1000000"_s;
    QTest::addRow("not a whole number") << u"max_model_len"_s << QByteArray("100.5")
                                        << u"field 'max_model_len': 100.5 is not an integer"_s;
}

void TestTwin::parameterBoundsAreTheSameEverywhere()
{
    QFETCH(QString, key);
    QFETCH(QByteArray, value);
    QFETCH(QString, configError);
    sim::SimServerOptions options;
    const QByteArray text = "{\n  \"" + key.toUtf8() + "\": " + value + "\n}\n";
    QCOMPARE(sim::applySimConfig(text, u"config.json"_s, options), u"config.json:2: "_s + configError);
    // --set refuses it naming the same range.
    const sim::SimParameter* parameter = sim::findSimParameter(key);
    QVERIFY(parameter);
    sim::SimParams params = sim::presetByName(u"small"_s)->params;
    const QString error = twin::applyOverride(params, key + u'=' + QString::fromUtf8(value));
    QVERIFY2(error.startsWith(u"--set %1=%2: %1 must be %3"_s.arg(
                 key, QString::fromUtf8(value), sim::simParameterRange(*parameter))),
        qPrintable(error));
    // A twin file with it is refused as the configuration is.
    twin::Twin t = smallTwin();
    QJsonObject doc = QJsonDocument::fromJson(twin::twinToJson(t)).object();
    doc.insert(key, QJsonDocument::fromJson("[" + value + "]").array().at(0));
    const twin::TwinRead read = twin::readTwin(QJsonDocument(doc).toJson(), u"twin.json"_s);
    QVERIFY(!read.twin);
    QVERIFY2(read.error.contains(configError), qPrintable(read.error));
}

// The twin file holds every parameter of the table under its key, and reads back the same.
void TestTwin::twinFileWritesEveryParameter()
{
    twin::Twin t = smallTwin();
    t.params.maxNumSeqs = 77;
    t.params.perKvTokenMs = 0.000125;
    t.params.prefixCache = false;
    t.disagreements << sentence("Twin", "The measured steps saturate at %1, the twin's figures for them at %2.")
                           .arg(u"8 req/s"_s, u"16 req/s"_s);
    const QByteArray text = twin::twinToJson(t);
    const QJsonObject doc = QJsonDocument::fromJson(text).object();
    for (const sim::SimParameter& p : sim::simParameters())
        QVERIFY2(doc.contains(QLatin1String(p.key)), p.key);
    QCOMPARE(doc.size(), qsizetype(sim::simParameters().size()) + 1); // and "twin"
    QCOMPARE(doc.value(u"max_num_seqs"_s), QJsonValue(77));
    QCOMPARE(doc.value(u"prefix_cache"_s), QJsonValue(false));
    const twin::TwinRead read = twin::readTwin(text, u"twin.json"_s);
    QVERIFY2(read.twin, qPrintable(read.error));
    // Where the fit did not reproduce its steps goes with the twin.
    QCOMPARE(read.twin->disagreements.size(), 1);
    QCOMPARE(read.twin->disagreements.front().english(),
        u"The measured steps saturate at 8 req/s, the twin's figures for them at 16 req/s."_s);
    for (const sim::SimParameter& p : sim::simParameters()) {
        if (p.type == sim::SimParameterType::Text)
            QCOMPARE(p.getText(read.twin->params), p.getText(t.params));
        else
            QCOMPARE(p.get(read.twin->params), p.get(t.params));
    }
}

// The window's fields and --set make the same typed adjustments; applying them is all or nothing.
void TestTwin::typedAdjustments()
{
    const sim::SimParams small = sim::presetByName(u"small"_s)->params;
    QString error;
    const std::optional<twin::Adjustment> parsed = twin::parseAdjustment(u"kv_capacity_tokens=x2"_s, small, &error);
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(*parsed, (twin::Adjustment { u"kv_capacity_tokens"_s, 2, true }));
    QCOMPARE(parsed->text(), u"x2"_s);
    QCOMPARE((twin::Adjustment { u"max_num_seqs"_s, 128, false }).text(), u"128"_s);
    QVERIFY(!twin::parseAdjustment(u"eos_mean_fraction=0.5"_s, small, &error));
    QCOMPARE(error,
        u"--set eos_mean_fraction=0.5: 'eos_mean_fraction' is not a parameter of the twin (parameters: "
        "max_num_seqs, kv_capacity_tokens, max_num_batched_tokens, max_model_len, block_size, t_base_ms, "
        "per_decode_ms, per_prefill_token_ms, per_kv_token_ms, per_waiting_ms, pre_engine_ms, pre_engine_spread_ms, "
        "api_server_ms, kv_watermark)"_s);

    sim::SimParams p = small;
    const std::vector<twin::Adjustment> adjustments { { u"max_num_seqs"_s, 128, false },
        { u"kv_capacity_tokens"_s, 2, true }, { u"per_decode_ms"_s, 1 / 3.0, true } };
    QCOMPARE(twin::applyAdjustments(p, adjustments), QString());
    QCOMPARE(p.maxNumSeqs, 128);
    QCOMPARE(p.kvCapacityTokens, 2 * small.kvCapacityTokens);
    QCOMPARE(p.perDecodeMs, small.perDecodeMs / 3.0);
    // A factor is kept exactly, not as the 12 digits a "per_decode_ms=x0.333333333333" string would carry.
    sim::SimParams viaText = small;
    QCOMPARE(twin::applyOverride(viaText, u"per_decode_ms=x%1"_s.arg(1 / 3.0, 0, 'g', 12)), QString());
    QVERIFY(viaText.perDecodeMs != p.perDecodeMs);

    sim::SimParams unchanged = small;
    QCOMPARE(twin::applyAdjustments(unchanged, { { u"max_num_seqs"_s, 8, false }, { u"kv_watermark"_s, 1, false } }),
        u"kv_watermark must be a number from 0 to below 1, got 1"_s);
    QCOMPARE(unchanged.maxNumSeqs, small.maxNumSeqs);
}

// The driver: each token at the end of the iteration that emitted it, on the client's clock (time scale),
// and a request the model refuses failed at its send.
void TestTwin::simTimeDriverWritesTokensAsRecords()
{
    sim::SimParams params;
    params.tBaseMs = 1;
    params.perDecodeMs = params.perPrefillTokenMs = params.perKvTokenMs = params.perWaitingMs = 0;
    params.maxModelLen = 64;
    sim::SimTimeDriver driver(params, 1, 2.0);
    std::vector<qint64> rejected, finished;
    driver.onRejected = [&](qint64 index, double) { rejected.push_back(index); };
    driver.onFinished = [&](qint64 index, double, qint64 endNs) {
        finished.push_back(index);
        if (index == 0)
            driver.sendAtNs(endNs, { 8, 1 }); // a closed loop's next request
    };
    QCOMPARE(driver.sendAtNs(0, { 10, 3 }), 0);
    QCOMPARE(driver.sendAtModelMs(10, { 60, 10 }), 1); // longer than max_model_len
    driver.run();
    const std::vector<RequestRecord>& r = driver.records();
    QCOMPARE(r.size(), std::size_t(3));
    // Model iterations of 1 ms at time scale 2: tokens every 0.5 ms of the client's clock.
    QCOMPARE(r[0].chunkNs, (std::vector<qint64> { 500000, 1000000, 1500000 }));
    QCOMPARE(r[0].firstTokenNs, 500000);
    QCOMPARE(r[0].endNs, 1500000);
    QCOMPARE(r[0].outputTokens, 3);
    QCOMPARE(r[0].httpStatus, 200);
    QCOMPARE(r[1].sentNs, 5000000);
    QCOMPARE(r[1].endNs, 5000000);
    QCOMPARE(r[1].httpStatus, 400);
    QCOMPARE(r[1].failure, FailureClass::HttpOther);
    QCOMPARE(r[2].sentNs, 1500000);
    QCOMPARE(r[2].chunkNs, (std::vector<qint64> { 2000000 }));
    QCOMPARE(rejected, (std::vector<qint64> { 1 }));
    QCOMPARE(finished, (std::vector<qint64> { 0, 2 }));
}

QTEST_GUILESS_MAIN(TestTwin)
// The demo profile's plan against the simulator preset it runs on, in simulated time. Fresh prompts (the
// default) never hit the prefix cache, as requests without token content here never do. The analysis
// must find the knee and saturation inside the plan, below its highest rate, and tell one story: what
// the window and the headless demo show, whatever the machine's load.
void TestTwin::demoPlanFormsKneeAndSaturation()
{
    const Profile demo = Profile::demo(QUrl(u"sim://default"_s), QString());
    const std::optional<sim::SimPreset> preset = sim::presetByName(u"default"_s);
    QVERIFY(preset);
    QVERIFY(preset->params.prefixCache);
    QCOMPARE(demo.workload.promptPool, 0);
    RandomDatasetOptions dataset;
    dataset.numPrompts = demo.workload.numPrompts;
    dataset.inputLen = demo.workload.inputLen;
    dataset.outputLen = demo.workload.outputLen;
    dataset.rangeRatio = demo.workload.rangeRatio;
    dataset.seed = demo.workload.seed;
    const DatasetResult data = randomDataset(dataset);
    QVERIFY2(data.ok(), qPrintable(data.error));

    MetricsOptions metrics;
    metrics.percentiles = { 99 };
    std::vector<SweepPoint> points;
    std::size_t position = 0;
    for (double rate : demo.load.rates) {
        std::vector<twin::TwinRequest> requests;
        const int n = int(std::ceil(rate * demo.load.stepDurationS.value_or(10)));
        for (int i = 0; i < n; ++i, ++position) {
            const Prompt& prompt = data.prompts[position % data.prompts.size()];
            requests.push_back({ prompt.promptTokens, prompt.outputTokens, -1 });
        }
        SweepPoint point;
        point.offered = rate;
        point.metrics = twin::simulateLoad(preset->params, 1, LoadMode::Rate, rate, requests, metrics);
        points.push_back(point);
    }
    const AnalysisResult r = KneeAnalysis::analyze(points, analysisOptionsFor(demo.slo));
    const QString text = analysisLines(r).join(u'\n');
    QVERIFY2(r.knee.found, qPrintable(text));
    QVERIFY2(r.saturation.found, qPrintable(text));
    QVERIFY2(r.knee.offered <= r.saturation.offered, qPrintable(text));
    QVERIFY2(r.saturation.offered < demo.load.rates.back(), qPrintable(text));
    QVERIFY2(r.sloCapacity.found && !r.sloCapacity.lowerBound, qPrintable(text));
    for (const QString& contradiction : { u"No knee"_s, u"never saturated"_s })
        QVERIFY2(!text.contains(contradiction), qPrintable(text));
    qInfo("%s", qPrintable(text));
}

#include "tst_twin.moc"
