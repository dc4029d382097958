#include "metrics/chunktimes.h"
#include "metrics/latencystats.h"
#include "metrics/resultjson.h"
#include "metrics/stepintervals.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "metrics/stepsummary.h"
#include "metrics/sweeptable.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QtTest>

#include <clocale>
#include <cmath>
#include <limits>
#include <random>

using namespace kp;

using Doubles = std::vector<double>;
Q_DECLARE_METATYPE(Doubles)

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 ms = 1'000'000;
constexpr double inf = std::numeric_limits<double>::infinity();

// A request in milliseconds from the step start; the first chunk is the first token and the last ends E2EL.
RequestRecord request(qint64 scheduledMs, qint64 sentMs, std::vector<qint64> chunksMs, qint64 firstContentMs,
    qint64 endMs, int promptTokens, int serverPromptTokens, int outputTokens, bool fromUsage = true,
    FailureClass failure = FailureClass::None)
{
    RequestRecord r;
    r.scheduledNs = scheduledMs * ms;
    r.sentNs = sentMs * ms;
    for (qint64 chunk : chunksMs)
        r.chunkNs.push_back(chunk * ms);
    if (!r.chunkNs.empty()) {
        r.firstTokenNs = r.chunkNs.front();
        r.lastTokenNs = r.chunkNs.back();
    }
    r.firstContentNs = firstContentMs < 0 ? -1 : firstContentMs * ms;
    r.endNs = endMs * ms;
    r.promptTokens = promptTokens;
    r.serverPromptTokens = serverPromptTokens;
    r.outputTokens = outputTokens;
    r.outputTokensFromUsage = fromUsage;
    r.failure = failure;
    r.httpStatus = failure == FailureClass::None ? 200 : 500;
    return r;
}

// Four completed and two failed requests; every expected number below is worked out by hand in the
// comments of fromRecordsFixture().
std::vector<RequestRecord> fixtureRecords()
{
    return {
        request(0, 1, { 101, 121, 141, 161 }, 121, 162, 10, 10, 4),
        request(100, 100, { 300, 350 }, 300, 351, 20, 22, 6),
        request(200, 205, { 1405 }, 1405, 1406, 5, -1, 1, false),
        request(300, 300, {}, -1, 310, 7, -1, 0, true, FailureClass::HttpServerError),
        request(400, 2400, { 2500 }, 2500, 5000, 8, -1, 0, true, FailureClass::IdleTimeout),
        request(500, 520, { 900, 1000, 1100, 2600 }, 900, 2601, 30, 30, 9),
    };
}

MetricsOptions fixtureOptions()
{
    MetricsOptions options;
    options.percentiles = { 50, 90, 99, 99.9 };
    return options;
}

void comparePercentiles(const LatencyStats& stats, const Doubles& expected)
{
    const Doubles ps { 50, 90, 99, 99.9 };
    QCOMPARE(stats.percentiles.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(stats.percentiles[i].first, ps[i]);
        QCOMPARE(stats.percentiles[i].second, expected[i]);
    }
}

StepMetrics exampleMetrics()
{
    // The numbers of the reference's summary-example.txt.
    StepMetrics m;
    m.completed = 1000;
    m.failed = 0;
    m.durationS = 52.34;
    m.totalInputTokens = 128450;
    m.totalOutputTokens = 256800;
    m.requestThroughput = 19.11;
    m.outputThroughput = 4906.32;
    m.maxOutputTokensPerS = 6120;
    m.maxConcurrentRequests = 41;
    m.totalTokenThroughput = 7360.15;
    m.ttft = { 1000, 186.42, 172.10, 61.0, 80.0, 700.0, { { 99, 412.55 } } };
    m.tpot = { 1000, 18.73, 17.95, 3.0, 10.0, 40.0, { { 99, 31.20 } } };
    m.itl = { 255800, 18.70, 17.80, 5.0, 1.0, 90.0, { { 99, 45.10 } } };
    return m;
}

StepSetup exampleSetup()
{
    StepSetup setup;
    setup.date = QStringLiteral("20250102-030405");
    setup.backend = QStringLiteral("vllm");
    setup.endpointType = setup.backend; // as a sweep sets it
    setup.modelId = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
    setup.numPrompts = 1000;
    setup.requestRate = 20;
    return setup;
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// n completed requests, one sent every 10 ms: TTFT 100..139 ms (i % 40), then 4 chunks 5 ms apart.
std::vector<RequestRecord> spreadRecords(int n)
{
    std::vector<RequestRecord> out;
    for (int i = 0; i < n; ++i) {
        const qint64 sent = 10 * i;
        const qint64 ttft = 100 + (i * 7) % 40;
        out.push_back(request(sent, sent, { sent + ttft, sent + ttft + 5, sent + ttft + 10, sent + ttft + 15 }, -1,
            sent + ttft + 16, 10, 10, 4));
    }
    return out;
}

// A uniform double in [0, 1) from the generator's bits (the standard's distributions differ between libraries).
double unit(std::mt19937_64& random)
{
    return double(random() >> 11) * 0x1.0p-53;
}

// An exponential draw of this mean, by the inverse of its distribution function.
double exponential(std::mt19937_64& random, double mean)
{
    return -mean * std::log1p(-unit(random));
}

// The bootstrap as its definition reads, slowly: draw the records with replacement (the same draws as
// bootstrapIntervals), recompute every figure with fromRecords, take the 2.5 and 97.5 percentiles of the
// draws, widened to the step's own value.
StepIntervals recomputedBootstrap(const std::vector<RequestRecord>& records, double durationS,
    const MetricsOptions& options, const StepMetrics& point, quint64 seed)
{
    StepIntervals out;
    if (point.completed < 2 || records.size() < 2)
        return out;
    const qint64 n = qint64(records.size());
    const int resamples = int(std::clamp<qint64>(kBootstrapBudget / n, kMinResamples, kMaxResamples));
    std::mt19937_64 random(seed);
    std::map<QString, std::vector<double>> draws;
    std::vector<RequestRecord> sample(records.size());
    for (int b = 0; b < resamples; ++b) {
        for (RequestRecord& r : sample)
            r = records[std::size_t(random() % quint64(n))];
        for (const auto& [key, v] : intervalFigures(StepMetrics::fromRecords(sample, durationS, options)))
            draws[key].push_back(v);
    }
    const std::map<QString, double> estimates = intervalFigures(point);
    for (auto& [key, values] : draws) {
        const auto estimate = estimates.find(key);
        if (estimate == estimates.end() || int(values.size()) != resamples)
            continue;
        std::sort(values.begin(), values.end());
        out.figures[key] = Interval { std::min(LatencyStats::numpyPercentile(values, 2.5), estimate->second),
            std::max(LatencyStats::numpyPercentile(values, 97.5), estimate->second) };
    }
    out.method = StepIntervals::Method::Bootstrap;
    out.samples = resamples;
    out.seed = seed;
    return out;
}

// Requests of every kind a step can hold, drawn at random: streamed with 1 to `maxChunks` chunks at
// skewed gaps and a per-request speed, one output token, not streamed (no first token), failed, unsent.
std::vector<RequestRecord> randomRecords(std::mt19937_64& random, int n, int maxChunks)
{
    std::vector<RequestRecord> out;
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        r.scheduledNs = qint64(i) * 7 * ms;
        r.sentNs = r.scheduledNs + qint64(exponential(random, 2.0) * double(ms));
        r.promptTokens = 10 + int(random() % 200);
        const auto kind = random() % 20;
        if (kind == 0) {
            r.failure = FailureClass::HttpServerError;
            r.endNs = r.sentNs + 3 * ms;
        } else if (kind == 1) {
            r.outputTokens = 30; // a whole answer: no first token
            r.endNs = r.sentNs + qint64(exponential(random, 300.0) * double(ms));
        } else {
            const double speed = 0.5 + unit(random);
            const int chunks = kind == 2 ? 1 : 1 + int(random() % quint64(maxChunks));
            qint64 t = r.sentNs + qint64(exponential(random, 80.0) * double(ms)) + 1;
            for (int c = 0; c < chunks; ++c) {
                r.chunkNs.push_back(t);
                // Ties on purpose: a gap rounded to whole milliseconds now and then.
                const double gap = exponential(random, 12.0 * speed);
                t += c % 5 == 0 ? qint64(std::round(gap)) * ms : qint64(gap * double(ms));
            }
            r.firstTokenNs = r.chunkNs.front();
            r.lastTokenNs = r.chunkNs.back();
            r.firstContentNs = r.firstTokenNs;
            r.endNs = r.lastTokenNs + 1;
            r.outputTokens = chunks;
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Chunk times are 4 bytes each and exact to the nanosecond: times past 4.29 s from their base, before
    // it, or at the ends of the 64-bit range open a run with a base of its own instead of being clamped.
    void chunkTimesKeepEveryNanosecond()
    {
        std::mt19937_64 rng(7);
        for (int trial = 0; trial < 500; ++trial) {
            std::vector<qint64> expected;
            ChunkTimes times;
            qint64 t = qint64(rng() % 1'000'000'000'000) - 500'000'000'000;
            for (int i = int(rng() % 60); i > 0; --i) {
                qint64 at = 0;
                switch (rng() % 4) {
                case 0: // a token gap
                    at = t += qint64(rng() % 20'000'000);
                    break;
                case 1: // past 2^32 ns, often
                    at = t += qint64(rng() % 9'000'000'000);
                    break;
                case 2: // out of order
                    at = t -= qint64(rng() % 5'000'000'000);
                    break;
                default: // the ends of the range
                    at = rng() % 2 ? std::numeric_limits<qint64>::max() - qint64(rng() % 1000)
                                   : std::numeric_limits<qint64>::min() + qint64(rng() % 1000);
                }
                expected.push_back(at);
                times.push_back(at);
            }
            QCOMPARE(times, expected);
            QCOMPARE(times.size(), expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i)
                QCOMPARE(times[i], expected[i]);
            QCOMPARE(std::vector<qint64>(times.begin(), times.end()), expected);
            if (!expected.empty()) {
                QCOMPARE(times.front(), expected.front());
                QCOMPARE(times.back(), expected.back());
            }
        }
        // A 200-token stream 15 ms apart: 4 bytes a time, one base; a 60 s one, a base per 4.29 s.
        ChunkTimes stream;
        for (qint64 i = 0; i < 200; ++i)
            stream.push_back(86'400'000'000'000 + i * 15'000'000 + i % 7);
        stream.shrink_to_fit();
        QCOMPARE(stream.heapBytes(), std::size_t(800));
        QCOMPARE(stream.extraRuns(), std::size_t(0));
        ChunkTimes minute;
        for (qint64 i = 0; i < 4000; ++i)
            minute.push_back(i * 15'000'000);
        QCOMPARE(minute.extraRuns(), std::size_t(13)); // 60 s / 4.29 s
        QCOMPARE(minute.back(), qint64(3999) * 15'000'000);
        // Moved onto another clock at once.
        minute.shift(-1'000'000'007);
        QCOMPARE(minute[0], qint64(-1'000'000'007));
        QCOMPARE(minute[3999], qint64(3999) * 15'000'000 - 1'000'000'007);
        // Assigned from a list, compared by value whatever the runs.
        ChunkTimes listed = { 10, 20, 30, 45, 50 };
        QCOMPARE(listed, (std::vector<qint64> { 10, 20, 30, 45, 50 }));
        listed = { 5'000'000'000'000'000'000, 300'000'000 };
        QCOMPARE(listed.extraRuns(), std::size_t(1));
        QCOMPARE(listed[1], qint64(300'000'000));
    }

    void bootstrapIsSeededAndContainsTheEstimate();
    void bootstrapNarrowsWithMoreRequests();
    void bootstrapCostIsBounded();
    void selectionEqualsSortedRanks();
    void bootstrapEqualsRecomputingResamples();
    void bootstrapCoversAtItsNominalRate();
    void repeatIntervalsUseStudentsT();
    void intervalsRoundTrip();
    void percentile_data();
    void percentile();
    void basicStats_data();
    void basicStats();
    void emptySampleGivesZeros();
    void pairwiseSumOfLongArrays();
    void percentileWord_data();
    void percentileWord();

    void fromRecordsFixture();
    void goodput_data();
    void goodput();
    void tpotExcludesSingleTokenRequests();
    void peaks_data();
    void peaks();
    void allFailed();
    void noRecords();
    void nonPositiveDuration();
    void stepDuration_data();
    void stepDuration();
    void failureClassKeysRoundTrip();

    void summaryMatchesReferenceExample();
    void summaryOptionalRows();
    void centredHeaders_data();
    void centredHeaders();

    void resultJsonKeyOrder();
    void resultJsonValues();
    void resultJsonDetails();
    void resultFileName_data();
    void resultFileName();
    void resultJsonMetadata();
    void resultJsonRoundTrip();
    void sessionsAndPrefixCache();
    void reasoningAndShortOutputs();
    void ttfcWithoutAnswerIsUnknown();
    void readVllmFile();
    void readVariants_data();
    void readVariants();
    void readVllm04();
    void readSglangJsonLines();
    void readAppendedJsonLinesAndArrays();
    void readErrors_data();
    void readErrors();
    void readWarnsOnWrongTypes();

    void compactLine_data();
    void compactLine();
    void csv();
    void textIgnoresLocale();
};

void TestMetrics::percentile_data()
{
    QTest::addColumn<Doubles>("values");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");

    QTest::addRow("single value, p0") << Doubles { 10 } << 0.0 << 10.0;
    QTest::addRow("single value, p99.9") << Doubles { 10 } << 99.9 << 10.0;
    QTest::addRow("1..4, p0") << Doubles { 1, 2, 3, 4 } << 0.0 << 1.0;
    QTest::addRow("1..4, p25: index 0.75") << Doubles { 1, 2, 3, 4 } << 25.0 << 1.75;
    QTest::addRow("1..4, p50: index 1.5") << Doubles { 1, 2, 3, 4 } << 50.0 << 2.5;
    QTest::addRow("1..4, p99: index 2.97") << Doubles { 1, 2, 3, 4 } << 99.0 << 3.97;
    QTest::addRow("1..4, p99.9: index 2.997") << Doubles { 1, 2, 3, 4 } << 99.9 << 3.997;
    QTest::addRow("1..4, p100") << Doubles { 1, 2, 3, 4 } << 100.0 << 4.0;
    QTest::addRow("1..10, p50: index 4.5") << Doubles { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 50.0 << 5.5;
    QTest::addRow("1..10, p90: index 8.1") << Doubles { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 90.0 << 9.1;
    QTest::addRow("1..10, p99: index 8.91") << Doubles { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 99.0 << 9.91;
    QTest::addRow("1..10, p99.9: index 8.991") << Doubles { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 99.9 << 9.991;
    QTest::addRow("unsorted, p50") << Doubles { 5, 1, 4, 2, 3 } << 50.0 << 3.0;
    QTest::addRow("unsorted, p99: index 3.96") << Doubles { 5, 1, 4, 2, 3 } << 99.0 << 4.96;
    QTest::addRow("ties") << Doubles { 7, 7, 7, 1 } << 10.0 << 2.8; // index 0.3 between 1 and 7
    QTest::addRow("wide gap, p99") << Doubles { 100, 200, 380, 1200 } << 99.0 << 1175.4;
    QTest::addRow("empty") << Doubles {} << 99.0 << 0.0;
}

void TestMetrics::percentile()
{
    QFETCH(Doubles, values);
    QFETCH(double, p);
    QFETCH(double, expected);

    const LatencyStats stats = LatencyStats::compute(values, { p });
    QCOMPARE(stats.percentiles.size(), std::size_t(1));
    QCOMPARE(stats.percentiles.front().first, p);
    QCOMPARE(stats.percentiles.front().second, expected);
    QCOMPARE(stats.percentile(p).value(), expected);
    QVERIFY(!stats.percentile(p + 0.5).has_value());
}

void TestMetrics::basicStats_data()
{
    QTest::addColumn<Doubles>("values");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("stddev");

    QTest::addRow("1..4") << Doubles { 1, 2, 3, 4 } << 2.5 << 2.5 << 1.118033988749895;
    QTest::addRow("population std is 2") << Doubles { 2, 4, 4, 4, 5, 5, 7, 9 } << 5.0 << 4.5 << 2.0;
    QTest::addRow("odd count, unsorted") << Doubles { 3, 1, 2 } << 2.0 << 2.0 << 0.816496580927726;
    QTest::addRow("single value: std 0") << Doubles { 42 } << 42.0 << 42.0 << 0.0;
    QTest::addRow("TTFT fixture") << Doubles { 100, 200, 1200, 380 } << 470.0 << 290.0 << 433.2435804486894;
}

void TestMetrics::basicStats()
{
    QFETCH(Doubles, values);
    QFETCH(double, mean);
    QFETCH(double, median);
    QFETCH(double, stddev);

    const LatencyStats stats = LatencyStats::compute(values, {});
    QCOMPARE(stats.count, qint64(values.size()));
    QCOMPARE(stats.mean, mean);
    QCOMPARE(stats.median, median);
    if (stddev == 0.0)
        QCOMPARE(stats.stddev, 0.0);
    else
        QCOMPARE(stats.stddev, stddev);
    QCOMPARE(stats.min, *std::min_element(values.begin(), values.end()));
    QCOMPARE(stats.max, *std::max_element(values.begin(), values.end()));
}

void TestMetrics::emptySampleGivesZeros()
{
    const LatencyStats stats = LatencyStats::compute({}, { 50, 99, 99.9 });
    QCOMPARE(stats.count, qint64(0));
    QCOMPARE(stats.mean, 0.0);
    QCOMPARE(stats.median, 0.0);
    QCOMPARE(stats.stddev, 0.0);
    QCOMPARE(stats.percentiles.size(), std::size_t(3));
    for (const auto& [p, value] : stats.percentiles)
        QCOMPARE(value, 0.0);
}

void TestMetrics::pairwiseSumOfLongArrays()
{
    for (std::size_t n : { 0u, 1u, 7u, 8u, 9u, 127u, 128u, 129u, 1000u, 100000u }) {
        Doubles values(n);
        for (std::size_t i = 0; i < n; ++i)
            values[i] = static_cast<double>(i + 1);
        QCOMPARE(LatencyStats::numpySum(values.data(), n), static_cast<double>(n) * static_cast<double>(n + 1) / 2.0);
    }
}

void TestMetrics::percentileWord_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<QString>("word");
    QTest::addRow("integral") << 99.0 << QStringLiteral("99");
    QTest::addRow("p99.9") << 99.9 << QStringLiteral("99.9");
    QTest::addRow("p99.99") << 99.99 << QStringLiteral("99.99");
    QTest::addRow("p0") << 0.0 << QStringLiteral("0");
    QTest::addRow("p12.5") << 12.5 << QStringLiteral("12.5");
}

void TestMetrics::percentileWord()
{
    QFETCH(double, p);
    QFETCH(QString, word);
    QCOMPARE(LatencyStats::percentileWord(p), word);
    QCOMPARE(LatencyStats::percentileFromWord(word).value(), p);
}

void TestMetrics::fromRecordsFixture()
{
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, fixtureOptions());

    QCOMPARE(m.completed, qint64(4));
    QCOMPARE(m.failed, qint64(2));
    QCOMPARE(m.failuresByClass.size(), std::size_t(2));
    QCOMPARE(m.failuresByClass.at(FailureClass::HttpServerError), qint64(1));
    QCOMPARE(m.failuresByClass.at(FailureClass::IdleTimeout), qint64(1));
    // Failed requests' 7 and 8 prompt tokens are not counted.
    QCOMPARE(m.totalInputTokens, qint64(10 + 20 + 5 + 30));
    QCOMPARE(m.totalOutputTokens, qint64(4 + 6 + 1 + 9));
    QCOMPARE(m.durationS, 4.0);
    QCOMPARE(m.requestThroughput, 1.0);
    QCOMPARE(m.outputThroughput, 5.0);
    QCOMPARE(m.totalTokenThroughput, 85.0 / 4.0);
    QVERIFY(!m.requestGoodput.has_value());

    // TTFT = first chunk - sent: 100, 200, 1200, 380 ms.
    QCOMPARE(m.ttft.count, qint64(4));
    QCOMPARE(m.ttft.mean, 470.0);
    QCOMPARE(m.ttft.median, 290.0);
    QCOMPARE(m.ttft.stddev, 433.2435804486894);
    comparePercentiles(m.ttft, { 290.0, 954.0, 1175.4, 1197.54 });

    // TPOT = (E2EL - TTFT) / (tokens - 1): 60/3 = 20, 50/5 = 10, (2080 - 380)/8 = 212.5; the 1-token request has none.
    QCOMPARE(m.tpot.count, qint64(3));
    QCOMPARE(m.tpot.mean, 242.5 / 3.0);
    QCOMPARE(m.tpot.median, 20.0);
    QCOMPARE(m.tpot.stddev, 93.19185705962848);
    comparePercentiles(m.tpot, { 20.0, 174.0, 208.65, 212.115 });

    // ITL pooled, one gap per chunk after the first: 20, 20, 20 | 50 | - | 100, 100, 1500. The failed
    // request's chunk is not counted.
    QCOMPARE(m.itl.count, qint64(7));
    QCOMPARE(m.itl.mean, 1810.0 / 7.0);
    QCOMPARE(m.itl.median, 50.0);
    QCOMPARE(m.itl.stddev, 507.8928056596356);
    comparePercentiles(m.itl, { 50.0, 660.0, 1416.0, 1491.6 });

    // E2EL = last chunk - sent: 160, 250, 1200, 2080.
    QCOMPARE(m.e2el.count, qint64(4));
    QCOMPARE(m.e2el.mean, 922.5);
    QCOMPARE(m.e2el.median, 725.0);
    QCOMPARE(m.e2el.stddev, 782.6996550401693);
    comparePercentiles(m.e2el, { 725.0, 1816.0, 2053.6, 2077.36 });

    // Peaks: starts at 1, 100, 205, 520 ms; buckets from 1 ms. Chunks per bucket: [0 s, 1 s): 4 + 2 + 2 = 8
    // (899 and 999 ms after the first start), [1 s, 2 s): 2, [2 s, 3 s): 1. All four requests are alive in
    // the first bucket.
    QCOMPARE(m.maxOutputTokensPerS, 8.0);
    QCOMPARE(m.maxConcurrentRequests, qint64(4));
    QCOMPARE(m.meanConcurrency, 3.69 / 4.0);

    // Extras.
    QCOMPARE(m.firstContentTtft.count, qint64(4));
    QCOMPARE(m.firstContentTtft.mean, 475.0); // 120, 200, 1200, 380
    QCOMPARE(m.firstContentTtft.median, 290.0);
    QCOMPARE(m.firstContentTtft.stddev, 429.0396252096069);
    // Dispatch lag over every request, failed ones included: 1, 0, 5, 0, 2000, 20.
    QCOMPARE(m.dispatchLag.count, qint64(6));
    QCOMPARE(m.dispatchLag.mean, 2026.0 / 6.0);
    QCOMPARE(m.dispatchLag.median, 3.0);
    QCOMPARE(m.dispatchLag.min, 0.0);
    QCOMPARE(m.dispatchLag.max, 2000.0);
    QCOMPARE(m.dispatchLag.stddev, 743.4506633858691);
    QCOMPARE(m.serverPromptTokensReported, qint64(3));
    QCOMPARE(m.totalServerInputTokens, qint64(10 + 22 + 30));
    QCOMPARE(m.promptTokenMismatches, qint64(1));
    QCOMPARE(m.outputTokensFromText, qint64(1));
    QCOMPARE(m.options, fixtureOptions());
}

void TestMetrics::goodput_data()
{
    QTest::addColumn<double>("ttftSlo");
    QTest::addColumn<double>("tpotSlo");
    QTest::addColumn<double>("e2elSlo");
    QTest::addColumn<qint64>("good");

    // Per completed request (TTFT, TPOT, E2EL): (100, 20, 160), (200, 10, 250), (1200, 0*, 1200), (380, 212.5, 2080);
    // * the reference counts TPOT as 0 for goodput when a request has one output token. -1: no SLO.
    QTest::addRow("ttft 400 and tpot 25") << 400.0 << 25.0 << -1.0 << qint64(2);
    QTest::addRow("ttft 380: the threshold itself is good") << 380.0 << -1.0 << -1.0 << qint64(3);
    QTest::addRow("e2el 250: boundary included") << -1.0 << -1.0 << 250.0 << qint64(2);
    QTest::addRow("tpot 0: only the 1-token request") << -1.0 << 0.0 << -1.0 << qint64(1);
    QTest::addRow("all three, generous") << 5000.0 << 500.0 << 5000.0 << qint64(4);
    QTest::addRow("all three, strict") << 99.0 << 500.0 << 5000.0 << qint64(0);
}

void TestMetrics::goodput()
{
    QFETCH(double, ttftSlo);
    QFETCH(double, tpotSlo);
    QFETCH(double, e2elSlo);
    QFETCH(qint64, good);

    MetricsOptions options = fixtureOptions();
    if (ttftSlo >= 0)
        options.ttftSloMs = ttftSlo;
    if (tpotSlo >= 0)
        options.tpotSloMs = tpotSlo;
    if (e2elSlo >= 0)
        options.e2elSloMs = e2elSlo;
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, options);
    QCOMPARE(m.goodCompleted, good);
    QVERIFY(m.requestGoodput.has_value());
    QCOMPARE(*m.requestGoodput, static_cast<double>(good) / 4.0);
}

void TestMetrics::tpotExcludesSingleTokenRequests()
{
    const std::vector<RequestRecord> records {
        request(0, 0, { 50 }, 50, 51, 1, -1, 1),
        request(0, 0, { 50 }, 50, 51, 1, -1, 0),
        request(0, 0, { 100, 130 }, 100, 131, 1, -1, 2),
    };
    const StepMetrics m = StepMetrics::fromRecords(records, 1.0, {});
    QCOMPARE(m.tpot.count, qint64(1));
    QCOMPARE(m.tpot.mean, 30.0);
    QCOMPARE(m.ttft.count, qint64(3));
    QCOMPARE(m.itl.count, qint64(1));
}

void TestMetrics::peaks_data()
{
    using Records = std::vector<RequestRecord>;
    QTest::addColumn<Records>("records");
    QTest::addColumn<double>("maxTokens");
    QTest::addColumn<qint64>("maxConcurrent");

    // A request that ends exactly 1 s after the first start is alive in bucket 1 too (int(1.0) = 1).
    QTest::addRow("end on a bucket boundary") << Records {
        request(0, 0, { 500, 1000 }, 500, 1000, 1, -1, 2),
        request(1000, 1000, { 1200, 1500 }, 1200, 1500, 1, -1, 2),
    } << 3.0 << qint64(2);
    QTest::addRow("buckets start at the first start, not at 0") << Records {
        request(700, 700, { 1600 }, 1600, 1600, 1, -1, 1),
        request(1600, 1650, { 1700, 1710 }, 1700, 1710, 1, -1, 2),
    } << 2.0 << qint64(2); // from t = 0 all three chunks would share one bucket
    QTest::addRow("disjoint requests") << Records {
        request(0, 0, { 100, 200, 300 }, 100, 300, 1, -1, 3),
        request(3000, 3000, { 3100 }, 3100, 3100, 1, -1, 1),
    } << 3.0 << qint64(1);
    QTest::addRow("failed requests are not counted") << Records {
        request(0, 0, { 100 }, 100, 100, 1, -1, 1),
        request(0, 0, { 100, 110, 120 }, 100, 130, 1, -1, 0, true, FailureClass::StreamCut),
    } << 1.0 << qint64(1);
    QTest::addRow("long request spans every bucket") << Records {
        request(0, 0, { 100, 4100 }, 100, 4100, 1, -1, 2),
        request(2000, 2000, { 2100 }, 2100, 2100, 1, -1, 1),
        request(2500, 2500, { 2600 }, 2600, 2600, 1, -1, 1),
    } << 2.0 << qint64(3);
}

void TestMetrics::peaks()
{
    using Records = std::vector<RequestRecord>;
    QFETCH(Records, records);
    QFETCH(double, maxTokens);
    QFETCH(qint64, maxConcurrent);

    const StepMetrics m = StepMetrics::fromRecords(records, 10.0, {});
    QCOMPARE(m.maxOutputTokensPerS, maxTokens);
    QCOMPARE(m.maxConcurrentRequests, maxConcurrent);
}

void TestMetrics::allFailed()
{
    const std::vector<RequestRecord> records {
        request(0, 0, {}, -1, 10, 5, -1, 0, true, FailureClass::ConnectionRefused),
        request(0, 0, {}, -1, 10, 5, -1, 0, true, FailureClass::ConnectionRefused),
        request(0, 0, {}, -1, 10, 5, -1, 0, true, FailureClass::HttpAuth),
    };
    MetricsOptions options = fixtureOptions();
    options.ttftSloMs = 100;
    const StepMetrics m = StepMetrics::fromRecords(records, 2.0, options);
    QCOMPARE(m.completed, qint64(0));
    QCOMPARE(m.failed, qint64(3));
    QCOMPARE(m.failuresByClass.at(FailureClass::ConnectionRefused), qint64(2));
    QCOMPARE(m.failuresByClass.at(FailureClass::HttpAuth), qint64(1));
    QCOMPARE(m.totalInputTokens, qint64(0));
    QCOMPARE(m.requestThroughput, 0.0);
    QCOMPARE(m.requestGoodput.value(), 0.0);
    QCOMPARE(m.maxOutputTokensPerS, 0.0);
    QCOMPARE(m.maxConcurrentRequests, qint64(0));
    for (LatencyMetric metric : allLatencyMetrics) {
        const LatencyStats& stats = m.stats(metric);
        QCOMPARE(stats.mean, 0.0);
        QCOMPARE(stats.median, 0.0);
        QCOMPARE(stats.stddev, 0.0);
        QCOMPARE(stats.percentiles.size(), std::size_t(4));
        for (const auto& [p, value] : stats.percentiles)
            QCOMPARE(value, 0.0);
    }
}

void TestMetrics::noRecords()
{
    const StepMetrics m = StepMetrics::fromRecords({}, 0.0, {});
    QCOMPARE(m.completed, qint64(0));
    QCOMPARE(m.failed, qint64(0));
    QCOMPARE(m.ttft.percentiles.size(), std::size_t(1));
    QCOMPARE(m.ttft.percentiles.front().second, 0.0);
    QCOMPARE(StepMetrics::stepDurationNs({}), qint64(0));
}

void TestMetrics::nonPositiveDuration()
{
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 0.0, fixtureOptions());
    QCOMPARE(m.completed, qint64(4));
    QCOMPARE(m.requestThroughput, 0.0);
    QCOMPARE(m.outputThroughput, 0.0);
    QCOMPARE(m.totalTokenThroughput, 0.0);
    QVERIFY(std::isfinite(m.meanConcurrency));
}

void TestMetrics::stepDuration_data()
{
    using Records = std::vector<RequestRecord>;
    QTest::addColumn<Records>("records");
    QTest::addColumn<qint64>("expectedNs");

    QTest::addRow("first scheduled to last end, failed included") << fixtureRecords() << 5000 * ms;
    QTest::addRow("scheduled later than zero") << Records {
        request(250, 260, { 300 }, 300, 400, 1, -1, 1),
        request(500, 600, { 900 }, 900, 1250, 1, -1, 1),
    } << 1000 * ms;
    RequestRecord unscheduled = request(0, 40, { 90 }, 90, 140, 1, -1, 1);
    unscheduled.scheduledNs = -1;
    QTest::addRow("unscheduled: from the send") << Records { unscheduled } << 100 * ms;
}

void TestMetrics::stepDuration()
{
    using Records = std::vector<RequestRecord>;
    QFETCH(Records, records);
    QFETCH(qint64, expectedNs);
    QCOMPARE(StepMetrics::stepDurationNs(records), expectedNs);
}

void TestMetrics::failureClassKeysRoundTrip()
{
    QSet<QString> keys;
    for (int i = 0; i <= static_cast<int>(FailureClass::Cancelled); ++i) {
        const auto failure = static_cast<FailureClass>(i);
        const QString key = failureClassKey(failure);
        QVERIFY2(key != u"unknown", qPrintable(QString::number(i)));
        QVERIFY(!keys.contains(key));
        keys.insert(key);
        QCOMPARE(failureClassFromKey(key).value(), failure);
    }
    QVERIFY(!failureClassFromKey(u"nonsense").has_value());
    for (LatencyMetric metric : allLatencyMetrics)
        QCOMPARE(latencyMetricFromKey(latencyMetricKey(metric)).value(), metric);
}

void TestMetrics::summaryMatchesReferenceExample()
{
    const QByteArray golden = readFile(QFINDTESTDATA("data/summary-example.txt"));
    QVERIFY(!golden.isEmpty());
    const QByteArray text = StepSummary::text(exampleSetup(), exampleMetrics());
    if (text != golden) {
        const QList<QByteArray> got = text.split('\n');
        const QList<QByteArray> want = golden.split('\n');
        for (qsizetype i = 0; i < std::min(got.size(), want.size()); ++i)
            QCOMPARE(got[i], want[i]);
    }
    QCOMPARE(text, golden);
}

void TestMetrics::summaryOptionalRows()
{
    StepSetup setup = exampleSetup();
    setup.requestRate = inf;
    setup.maxConcurrency = 64;
    StepMetrics m = exampleMetrics();
    m.requestGoodput = 12.345;
    m.options.selectedMetrics = { LatencyMetric::E2el, LatencyMetric::Ttft }; // printed in the fixed order
    m.ttft.percentiles = { { 50, 170.0 }, { 99.9, 1234.5678 } };
    m.e2el = { 1000, 2500.0, 2400.0, 1.0, 1.0, 9000.0, { { 50, 2400.0 }, { 99.9, 8000.0 } } };

    const QByteArray text = StepSummary::text(setup, m);
    const QList<QByteArray> lines = text.split('\n');
    const QList<QByteArray> expected {
        "============ Serving Benchmark Result ============",
        "Successful requests:                     1000      ",
        "Failed requests:                         0         ",
        "Maximum request concurrency:             64        ",
        "Benchmark duration (s):                  52.34     ",
        "Total input tokens:                      128450    ",
        "Total generated tokens:                  256800    ",
        "Request throughput (req/s):              19.11     ",
        "Request goodput (req/s):                 12.35     ",
        "Output token throughput (tok/s):         4906.32   ",
        "Peak output token throughput (tok/s):    6120.00   ",
        "Peak concurrent requests:                41.00     ",
        "Total token throughput (tok/s):          7360.15   ",
        "---------------Time to First Token----------------",
        "Mean TTFT (ms):                          186.42    ",
        "Median TTFT (ms):                        172.10    ",
        "P50 TTFT (ms):                           170.00    ",
        "P99.9 TTFT (ms):                         1234.57   ",
        "----------------End-to-end Latency----------------",
        "Mean E2EL (ms):                          2500.00   ",
        "Median E2EL (ms):                        2400.00   ",
        "P50 E2EL (ms):                           2400.00   ",
        "P99.9 E2EL (ms):                         8000.00   ",
        "==================================================",
        "",
    };
    QCOMPARE(lines, expected);
}

void TestMetrics::centredHeaders_data()
{
    QTest::addColumn<QByteArray>("title");
    QTest::addColumn<char>("fill");
    QTest::addColumn<QByteArray>("expected");

    // Python's "{:^50}": an odd leftover goes to the right.
    QTest::addRow("result header") << QByteArray(" Serving Benchmark Result ") << '='
                                   << QByteArray("============ Serving Benchmark Result ============\n");
    QTest::addRow("TTFT") << QByteArray("Time to First Token") << '-'
                          << QByteArray("---------------Time to First Token----------------\n");
    QTest::addRow("TPOT, odd leftover") << QByteArray("Time per Output Token (excl. 1st token)") << '-'
                                        << QByteArray("-----Time per Output Token (excl. 1st token)------\n");
    QTest::addRow("ITL") << QByteArray("Inter-token Latency") << '-'
                         << QByteArray("---------------Inter-token Latency----------------\n");
    QTest::addRow("E2EL") << QByteArray("End-to-end Latency") << '-'
                          << QByteArray("----------------End-to-end Latency----------------\n");
    QTest::addRow("longer than the width") << QByteArray(60, 'x') << '-' << QByteArray(60, 'x') + '\n';
}

void TestMetrics::centredHeaders()
{
    QFETCH(QByteArray, title);
    QFETCH(char, fill);
    QFETCH(QByteArray, expected);
    QCOMPARE(StepSummary::centred(title, fill), expected);
}

void TestMetrics::resultJsonKeyOrder()
{
    MetricsOptions options = fixtureOptions();
    options.selectedMetrics = { LatencyMetric::E2el, LatencyMetric::Itl, LatencyMetric::Ttft, LatencyMetric::Tpot };
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, options);
    const std::vector<RequestRecord> records = fixtureRecords();
    const QByteArray json = ResultJson::write(exampleSetup(), m, records);

    QByteArrayList keys { "date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts",
        "request_rate", "burstiness", "max_concurrency", "duration", "completed", "failed", "total_input_tokens",
        "total_output_tokens", "request_throughput", "request_goodput", "output_throughput", "total_token_throughput",
        // current vLLM's place for the per-request lists (vllm/benchmarks/serve.py)
        "input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times", "queue_times", "generated_texts",
        "errors", "max_output_tokens_per_s", "max_concurrent_requests" };
    for (const char* metric : { "ttft", "tpot", "itl", "e2el" }) {
        for (const char* stat : { "mean", "median", "std", "p50", "p90", "p99", "p99.9" })
            keys << QByteArray(stat) + '_' + metric + "_ms";
    }
    keys << "kneepoint";

    qsizetype last = -1;
    for (const QByteArray& key : keys) {
        const qsizetype at = json.indexOf('"' + key + "\":");
        QVERIFY2(at > last, key.constData());
        last = at;
    }
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    QCOMPARE(object.size(), keys.size());
}

void TestMetrics::resultJsonValues()
{
    StepSetup setup = exampleSetup();
    setup.requestRate = inf;
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, fixtureOptions());
    const QByteArray json = ResultJson::write(setup, m);
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(json, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QVERIFY(!json.contains('\n'));

    QCOMPARE(o.value(u"date").toString(), u"20250102-030405");
    QCOMPARE(o.value(u"endpoint_type").toString(), u"vllm");
    QCOMPARE(o.value(u"backend").toString(), u"vllm");
    QVERIFY(o.value(u"label").isNull());
    QVERIFY(o.value(u"tokenizer_id").isNull());
    QCOMPARE(o.value(u"request_rate").toString(), u"inf");
    QCOMPARE(o.value(u"burstiness").toDouble(), 1.0);
    QVERIFY(o.value(u"max_concurrency").isNull());
    QCOMPARE(o.value(u"completed").toInt(), 4);
    QCOMPARE(o.value(u"failed").toInt(), 2);
    QCOMPARE(o.value(u"total_input_tokens").toInt(), 65);
    QVERIFY(o.value(u"request_goodput").isNull());
    QCOMPARE(o.value(u"total_token_throughput").toDouble(), 21.25);
    QCOMPARE(o.value(u"max_concurrent_requests").toInt(), 4);
    QCOMPARE(o.value(u"p99.9_ttft_ms").toDouble(), 1197.54);
    QCOMPARE(o.value(u"std_itl_ms").toDouble(), 507.8928056596356);
    QVERIFY(!o.contains(u"mean_e2el_ms")); // not selected
    QVERIFY(!o.contains(u"input_lens")); // no details asked for

    const QJsonObject k = o.value(u"kneepoint").toObject();
    QCOMPARE(k.value(u"failures").toObject().value(u"http_server_error").toInt(), 1);
    QCOMPARE(k.value(u"failures").toObject().value(u"idle_timeout").toInt(), 1);
    QCOMPARE(k.value(u"prompt_token_mismatches").toInt(), 1);
    QCOMPARE(k.value(u"output_tokens_from_text").toInt(), 1);
    QCOMPARE(k.value(u"dispatch_lag").toObject().value(u"max_ms").toDouble(), 2000.0);
    QCOMPARE(k.value(u"first_content_ttft").toObject().value(u"mean_ms").toDouble(), 475.0);
    QCOMPARE(k.value(u"latency").toObject().value(u"e2el").toObject().value(u"p99.9_ms").toDouble(), 2077.36);

    setup.requestRate = 2.5;
    setup.maxConcurrency = 8;
    setup.label = QStringLiteral("nightly");
    MetricsOptions withSlo = fixtureOptions();
    withSlo.ttftSloMs = 400;
    const QJsonObject o2 = QJsonDocument::fromJson(
        ResultJson::write(setup, StepMetrics::fromRecords(fixtureRecords(), 4.0, withSlo), {}, 2))
                               .object();
    QCOMPARE(o2.value(u"request_rate").toDouble(), 2.5);
    QCOMPARE(o2.value(u"max_concurrency").toInt(), 8);
    QCOMPARE(o2.value(u"label").toString(), u"nightly");
    QCOMPARE(o2.value(u"request_goodput").toDouble(), 0.75);
}

void TestMetrics::resultJsonDetails()
{
    std::vector<RequestRecord> records = fixtureRecords();
    records[0].generatedText = QStringLiteral("héllo");
    records[3].errorMessage = QStringLiteral("HTTP 500 from http://127.0.0.1:8000/v1/completions");
    const StepMetrics m = StepMetrics::fromRecords(records, 4.0, {});
    const QJsonObject o = QJsonDocument::fromJson(ResultJson::write(exampleSetup(), m, records)).object();

    QCOMPARE(o.value(u"input_lens").toArray(), QJsonArray({ 10, 20, 5, 7, 8, 30 }));
    QCOMPARE(o.value(u"output_lens").toArray(), QJsonArray({ 4, 6, 1, 0, 0, 9 }));
    QCOMPARE(o.value(u"ttfts").toArray(), QJsonArray({ 0.1, 0.2, 1.2, 0.0, 0.1, 0.38 }));
    const QJsonArray itls = o.value(u"itls").toArray();
    QCOMPARE(itls.size(), 6);
    QCOMPARE(itls[0].toArray(), QJsonArray({ 0.02, 0.02, 0.02 }));
    QCOMPARE(itls[1].toArray(), QJsonArray({ 0.05 }));
    QCOMPARE(itls[2].toArray(), QJsonArray());
    QCOMPARE(itls[5].toArray(), QJsonArray({ 0.1, 0.1, 1.5 }));
    QCOMPARE(o.value(u"generated_texts").toArray().at(0).toString(), u"héllo");
    QCOMPARE(o.value(u"errors").toArray().at(3).toString(), records[3].errorMessage);
    QCOMPARE(o.value(u"errors").toArray().at(0).toString(), QString());
    // E2EL per request in s (to the last token); a failed request has none: null, not vLLM's 0.0.
    QCOMPARE(o.value(u"latencies").toArray(), QJsonArray({ 0.16, 0.25, 1.2, QJsonValue(), QJsonValue(), 2.08 }));
    // Sends in s from the step's start, and the wait from the planned send.
    QCOMPARE(o.value(u"start_times").toArray(), QJsonArray({ 0.001, 0.1, 0.205, 0.3, 2.4, 0.52 }));
    QCOMPARE(o.value(u"queue_times").toArray(), QJsonArray({ 0.001, 0.0, 0.005, 0.0, 2.0, 0.02 }));
    QVERIFY(!o.contains(u"rtfx")); // audio only

    // Not sent at all: no start, no queue time, no latency.
    records[3].sentNs = -1;
    const QJsonObject unsent = QJsonDocument::fromJson(ResultJson::write(exampleSetup(), m, records)).object();
    QVERIFY(unsent.value(u"start_times").toArray().at(3).isNull());
    QVERIFY(unsent.value(u"queue_times").toArray().at(3).isNull());
}

void TestMetrics::resultFileName_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<double>("rate");
    QTest::addColumn<int>("maxConcurrency");
    QTest::addColumn<QString>("expected");
    // vLLM's compute_result_filename: f"{label or backend}-{request_rate}qps{-concurrencyN}-{model}-{date}.json"
    QTest::addRow("no label: the backend")
        << QString() << 20.0 << 0 << u"vllm-20.0qps-Llama-3.1-8B-Instruct-20250102-030405.json"_s;
    QTest::addRow("label") << u"nightly"_s << 2.5 << 0
                           << u"nightly-2.5qps-Llama-3.1-8B-Instruct-20250102-030405.json"_s;
    QTest::addRow("label, max concurrency, inf")
        << u"framework-a"_s << inf << 8
        << u"framework-a-infqps-concurrency8-Llama-3.1-8B-Instruct-20250102-030405.json"_s;
}

void TestMetrics::resultFileName()
{
    QFETCH(QString, label);
    QFETCH(double, rate);
    QFETCH(int, maxConcurrency);
    QFETCH(QString, expected);
    StepSetup setup = exampleSetup();
    setup.label = label;
    setup.requestRate = rate;
    if (maxConcurrency > 0)
        setup.maxConcurrency = maxConcurrency;
    QCOMPARE(ResultJson::defaultFileName(setup), expected);
}

void TestMetrics::resultJsonMetadata()
{
    StepSetup setup = exampleSetup();
    setup.metadata = { { u"framework"_s, u"vllm"_s }, { u"gpu"_s, u"H100 x2"_s } };
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, fixtureOptions());
    const QByteArray json = ResultJson::write(setup, m);
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    QCOMPARE(o.value(u"framework").toString(), u"vllm"_s);
    QCOMPARE(o.value(u"gpu").toString(), u"H100 x2"_s);
    // Where vLLM puts them: after num_prompts, before request_rate.
    QVERIFY(json.indexOf("\"num_prompts\"") < json.indexOf("\"framework\""));
    QVERIFY(json.indexOf("\"framework\"") < json.indexOf("\"gpu\""));
    QVERIFY(json.indexOf("\"gpu\"") < json.indexOf("\"request_rate\""));

    for (const QString& key : { u"date"_s, u"label"_s, u"request_rate"_s, u"mean_ttft_ms"_s, u"p99.9_e2el_ms"_s,
             u"latencies"_s, u"start_times"_s, u"rtfx"_s, u"kneepoint"_s, u"spec_decode_num_drafts"_s })
        QVERIFY2(ResultJson::isReferenceKey(key), qPrintable(key));
    for (const QString& key : { u"framework"_s, u"gpu"_s, u"mean"_s, u"p99"_s, u"dataset"_s })
        QVERIFY2(!ResultJson::isReferenceKey(key), qPrintable(key));
}

void TestMetrics::resultJsonRoundTrip()
{
    StepSetup setup = exampleSetup();
    setup.label = QStringLiteral("a label");
    setup.tokenizerId = QStringLiteral("tok");
    setup.endpointType = setup.backend;
    setup.maxConcurrency = 16;
    setup.burstiness = 0.5;
    MetricsOptions options = fixtureOptions();
    options.selectedMetrics = { LatencyMetric::Ttft, LatencyMetric::E2el };
    options.ttftSloMs = 400;
    options.e2elSloMs = 3000;
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, options);

    for (int indent : { -1, 4 }) {
        const ResultFileContents read
            = ResultJson::read(ResultJson::write(setup, m, {}, indent), QStringLiteral("x.json"));
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.steps.size(), std::size_t(1));
        const ImportedStep& step = read.steps.front();
        QCOMPARE(step.format, u"kneepoint");
        QVERIFY2(step.warnings.isEmpty(), qPrintable(step.warnings.join(u'\n')));
        QCOMPARE(step.setup, setup);
        QCOMPARE(step.metrics.options, m.options);
        QCOMPARE(step.metrics.ttft, m.ttft);
        QCOMPARE(step.metrics.dispatchLag, m.dispatchLag);
        QCOMPARE(step.metrics.failuresByClass, m.failuresByClass);
        QVERIFY(step.metrics == m);
    }
}

void TestMetrics::readVllmFile()
{
    // As `vllm bench serve --save-result --metric-percentiles 50,99 --percentile-metrics ttft,tpot,itl,e2el`
    // writes it, plus a --metadata key.
    const QByteArray file = R"({"date": "20250301-101500", "endpoint_type": "openai-chat", "backend": "openai-chat",
 "label": null, "model_id": "Qwen/Qwen2.5-7B-Instruct", "tokenizer_id": "Qwen/Qwen2.5-7B-Instruct",
 "num_prompts": 200, "tp": "2", "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 32,
 "duration": 31.25, "completed": 198, "failed": 2, "total_input_tokens": 45210, "total_output_tokens": 38012,
 "request_throughput": 6.336, "request_goodput": null, "output_throughput": 1216.384,
 "total_token_throughput": 2663.104, "max_output_tokens_per_s": 1452.0, "max_concurrent_requests": 32,
 "mean_ttft_ms": 85.5, "median_ttft_ms": 80.25, "std_ttft_ms": 12.5, "p50_ttft_ms": 80.25, "p99_ttft_ms": 140.0,
 "mean_tpot_ms": 24.0, "median_tpot_ms": 23.5, "std_tpot_ms": 2.0, "p50_tpot_ms": 23.5, "p99_tpot_ms": 30.0,
 "mean_itl_ms": 23.9, "median_itl_ms": 22.0, "std_itl_ms": 6.0, "p50_itl_ms": 22.0, "p99_itl_ms": 60.0,
 "mean_e2el_ms": 4700.0, "median_e2el_ms": 4650.0, "std_e2el_ms": 800.0, "p50_e2el_ms": 4650.0, "p99_e2el_ms": 7000.0})";
    const ResultFileContents read = ResultJson::read(file, QStringLiteral("vllm.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.steps.size(), std::size_t(1));
    const ImportedStep& s = read.steps.front();
    QCOMPARE(s.format, u"vllm");
    QVERIFY(s.warnings.isEmpty());
    QCOMPARE(s.setup.backend, u"openai-chat");
    QCOMPARE(s.setup.modelId, u"Qwen/Qwen2.5-7B-Instruct");
    QVERIFY(s.setup.label.isEmpty());
    QCOMPARE(s.setup.numPrompts, qint64(200));
    QVERIFY(std::isinf(s.setup.requestRate));
    QCOMPARE(s.setup.maxConcurrency.value(), 32);
    QCOMPARE(s.metrics.durationS, 31.25);
    QCOMPARE(s.metrics.completed, qint64(198));
    QCOMPARE(s.metrics.failed, qint64(2));
    QCOMPARE(s.metrics.totalOutputTokens, qint64(38012));
    QVERIFY(!s.metrics.requestGoodput.has_value());
    QCOMPARE(s.metrics.outputThroughput, 1216.384);
    QCOMPARE(s.metrics.maxOutputTokensPerS, 1452.0);
    QCOMPARE(s.metrics.maxConcurrentRequests, qint64(32));
    QCOMPARE(s.metrics.options.percentiles, (Doubles { 50, 99 }));
    QCOMPARE(s.metrics.options.selectedMetrics,
        (std::vector<LatencyMetric> {
            LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el }));
    QCOMPARE(s.metrics.ttft.mean, 85.5);
    QCOMPARE(s.metrics.ttft.median, 80.25);
    QCOMPARE(s.metrics.ttft.stddev, 12.5);
    QCOMPARE(s.metrics.ttft.percentile(99).value(), 140.0);
    QCOMPARE(s.metrics.e2el.percentile(50).value(), 4650.0);
    QCOMPARE(s.metrics.itl.percentile(99).value(), 60.0);

    // Its summary prints as the reference would print it.
    const QByteArray summary = StepSummary::text(s.setup, s.metrics);
    QVERIFY(summary.contains("Maximum request concurrency:             32        \n"));
    QVERIFY(!summary.contains("Request rate configured"));
    QVERIFY(summary.contains("P50 E2EL (ms):                           4650.00   \n"));
}

void TestMetrics::readVariants_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<double>("goodput"); // -1: none
    QTest::addColumn<double>("outputThroughput");
    QTest::addColumn<double>("totalThroughput"); // kUnknown: the file gives none, nor its parts

    QTest::addRow("old goodput spelling") << QByteArray(
        R"({"completed": 10, "request_goodput:": 3.5, "output_throughput": 100.0, "total_token_throughput": 150.0})")
                                          << 3.5 << 100.0 << 150.0;
    QTest::addRow("output_token_throughput")
        << QByteArray(R"({"completed": 10, "output_token_throughput": 99.5})") << -1.0 << 99.5 << kUnknown;
    QTest::addRow("mean_tps") << QByteArray(R"({"completed": 10, "mean_tps": 42.0})") << -1.0 << 42.0 << kUnknown;
    QTest::addRow("total_throughput") << QByteArray(R"({"duration": 2.0, "total_throughput": 77.0})") << -1.0
                                      << kUnknown << 77.0;
    QTest::addRow("numbers as strings") << QByteArray(
        R"({"completed": "10", "request_goodput": "1.5", "output_throughput": "12.25"})")
                                        << 1.5 << 12.25 << kUnknown;
}

void TestMetrics::readVariants()
{
    QFETCH(QByteArray, file);
    QFETCH(double, goodput);
    QFETCH(double, outputThroughput);
    QFETCH(double, totalThroughput);

    const ResultFileContents read = ResultJson::read(file, QStringLiteral("variant.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.steps.size(), std::size_t(1));
    const StepMetrics& m = read.steps.front().metrics;
    QCOMPARE(m.requestGoodput.has_value(), goodput >= 0);
    if (goodput >= 0)
        QCOMPARE(*m.requestGoodput, goodput);
    // A figure the file lacks is unknown, never 0.
    QCOMPARE(std::isnan(m.outputThroughput), std::isnan(outputThroughput));
    if (!std::isnan(outputThroughput))
        QCOMPARE(m.outputThroughput, outputThroughput);
    QCOMPARE(std::isnan(m.totalTokenThroughput), std::isnan(totalThroughput));
    if (!std::isnan(totalThroughput))
        QCOMPARE(m.totalTokenThroughput, totalThroughput);
    QVERIFY(m.derived.empty());
}

// vLLM 0.4's benchmark_serving.py wrote the request throughput as "request_inthroughput", beside
// input_throughput and output_throughput, and no failed, total_token_throughput or E2EL.
void TestMetrics::readVllm04()
{
    const QByteArray file
        = R"({"duration": 50.0, "completed": 100, "total_input_tokens": 20000, )"
          R"("total_output_tokens": 5000, "request_inthroughput": 2.0, "input_throughput": 400.0, )"
          R"("output_throughput": 100.0, "mean_ttft_ms": 80.5, "median_ttft_ms": 75.0, )"
          R"("p99_ttft_ms": 210.0, "mean_tpot_ms": 20.0, "median_tpot_ms": 19.0, "p99_tpot_ms": 31.0})";
    const ResultFileContents read = ResultJson::read(file, QStringLiteral("vllm-0.4.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    const ImportedStep& s = read.steps.front();
    QCOMPARE(s.format, QStringLiteral("vllm"));
    const StepMetrics& m = s.metrics;
    QCOMPARE(m.requestThroughput, 2.0);
    QVERIFY(!m.isDerived(u"request_throughput"));
    QCOMPARE(m.totalTokenThroughput, 500.0); // (20000 + 5000) / 50
    QVERIFY(m.isDerived(u"total_token_throughput"));
    QCOMPARE(m.failed, kUnknownCount); // no num_prompts to derive it from
    QVERIFY(std::isnan(m.e2el.mean));
    QVERIFY(std::isnan(m.itl.mean));
    QVERIFY(std::isnan(m.maxOutputTokensPerS));
    QCOMPARE(m.maxConcurrentRequests, kUnknownCount);
    QCOMPARE(m.ttft.percentile(99), std::optional<double>(210.0));
    QVERIFY(std::isnan(m.ttft.stddev));
    const QByteArray summary = StepSummary::text(s.setup, m);
    QVERIFY2(summary.contains("Failed requests:                         \xe2\x80\x94         \n"), summary.constData());
    QVERIFY(summary.contains("Request throughput (req/s):              2.00      \n"));
    QVERIFY(summary.contains("Total token throughput (tok/s):          500.00 (derived)\n"));
}

void TestMetrics::readSglangJsonLines()
{
    // SGLang's bench_serving appends one object per line; a request rate of inf comes out as bare Infinity.
    const QByteArray file
        = R"({"backend": "sglang", "dataset_name": "random", "request_rate": Infinity, "max_concurrency": 64, "duration": 20.0, "completed": 500, "total_input_tokens": 512000, "total_output_tokens": 64000, "total_output_tokens_retokenized": 63990, "request_throughput": 25.0, "input_throughput": 25600.0, "output_throughput": 3200.0, "mean_e2e_latency_ms": 2400.0, "median_e2e_latency_ms": 2300.0, "std_e2e_latency_ms": 300.0, "p99_e2e_latency_ms": 4100.0, "mean_ttft_ms": 310.0, "median_ttft_ms": 290.0, "std_ttft_ms": 50.0, "p99_ttft_ms": 700.0, "mean_tpot_ms": 16.5, "median_tpot_ms": 16.0, "std_tpot_ms": 1.5, "p99_tpot_ms": 21.0, "mean_itl_ms": 16.4, "median_itl_ms": 15.0, "std_itl_ms": 4.0, "p95_itl_ms": 25.0, "p99_itl_ms": 40.0, "concurrency": 60.0, "total_throughput": 28800.0, "note": "NaN and Infinity inside strings stay"}
{"backend": "sglang", "request_rate": 8.0, "max_concurrency": null, "duration": 62.5, "completed": 500, "output_throughput": 1024.0, "mean_e2e_latency_ms": 900.0, "concurrency": 7.2}
)";
    const ResultFileContents read = ResultJson::read(file, QStringLiteral("sglang.jsonl"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.steps.size(), std::size_t(2));
    const ImportedStep& first = read.steps[0];
    QCOMPARE(first.format, u"sglang");
    QVERIFY2(first.warnings.isEmpty(), qPrintable(first.warnings.join(u'\n')));
    QVERIFY(std::isinf(first.setup.requestRate));
    QCOMPARE(first.setup.maxConcurrency.value(), 64);
    QCOMPARE(first.metrics.e2el.mean, 2400.0);
    QCOMPARE(first.metrics.e2el.median, 2300.0);
    QCOMPARE(first.metrics.e2el.percentile(99).value(), 4100.0);
    QCOMPARE(first.metrics.itl.percentile(95).value(), 25.0);
    QCOMPARE(first.metrics.totalTokenThroughput, 28800.0);
    QCOMPARE(first.metrics.meanConcurrency, 60.0);
    QCOMPARE(first.metrics.options.percentiles, (Doubles { 99, 95 }));
    QCOMPARE(first.metrics.options.selectedMetrics,
        (std::vector<LatencyMetric> {
            LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el }));
    const ImportedStep& second = read.steps[1];
    QCOMPARE(second.setup.requestRate, 8.0);
    QVERIFY(!second.setup.maxConcurrency.has_value());
    QCOMPARE(second.metrics.e2el.mean, 900.0);
    QCOMPARE(second.metrics.options.selectedMetrics, std::vector<LatencyMetric> { LatencyMetric::E2el });
}

void TestMetrics::readAppendedJsonLinesAndArrays()
{
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, fixtureOptions());
    StepSetup a = exampleSetup();
    StepSetup b = exampleSetup();
    b.requestRate = 40;
    const QByteArray lines = ResultJson::write(a, m) + '\n' + ResultJson::write(b, m) + '\n';
    ResultFileContents read = ResultJson::read(lines, QStringLiteral("appended.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.steps.size(), std::size_t(2));
    QCOMPARE(read.steps[1].setup.requestRate, 40.0);

    const QByteArray array = '[' + ResultJson::write(a, m) + ",\n" + ResultJson::write(b, m) + ']';
    read = ResultJson::read(array, QStringLiteral("array.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.steps.size(), std::size_t(2));
    QCOMPARE(read.steps[0].setup.requestRate, 20.0);
}

void TestMetrics::readErrors_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QString>("error");

    QTest::addRow("syntax error names line and column") << QByteArray("{\n  \"completed\": 10,\n  \"failed\": ,\n}")
                                                        << QStringLiteral("bad.json:3:13: invalid JSON: syntax error");
    QTest::addRow("truncated") << QByteArray("{\"completed\": 10") << QStringLiteral("bad.json:1:17: invalid JSON");
    QTest::addRow("bad second JSON line")
        << QByteArray("{\"completed\": 1}\n{\"completed\": }\n") << QStringLiteral("bad.json:2:15: invalid JSON");
    QTest::addRow("not an object") << QByteArray("42") << QStringLiteral("bad.json: $: expected an object");
    QTest::addRow("deep nesting") << QByteArray("{\"completed\": 1}\n") + QByteArray(100000, '[')
                                  << QStringLiteral("bad.json:2:513: arrays and objects nest deeper than 512 levels");
    QTest::addRow("array element") << QByteArray("[{\"completed\": 1}, \"x\"]")
                                   << QStringLiteral("bad.json: $[1]: expected an object");
    QTest::addRow("not a result") << QByteArray("{\"name\": \"profile\"}")
                                  << QStringLiteral("bad.json: $: not a benchmark result");
    QTest::addRow("empty") << QByteArray("") << QStringLiteral("bad.json:1:1: invalid JSON");
}

void TestMetrics::readErrors()
{
    QFETCH(QByteArray, file);
    QFETCH(QString, error);
    const ResultFileContents read = ResultJson::read(file, QStringLiteral("bad.json"));
    QVERIFY(!read.ok());
    QVERIFY(read.steps.empty());
    QVERIFY2(read.error.startsWith(error), qPrintable(read.error));
}

void TestMetrics::readWarnsOnWrongTypes()
{
    const ResultFileContents read = ResultJson::read(
        R"({"completed": 3, "failed": [1], "duration": true, "model_id": {}})", QStringLiteral("w.json"));
    QVERIFY(read.ok());
    const QStringList& warnings = read.steps.front().warnings;
    QCOMPARE(warnings.size(), 3);
    QVERIFY2(warnings.contains(u"w.json: $.failed: expected a number, found array"), qPrintable(warnings.join(u'\n')));
    QVERIFY(warnings.contains(u"w.json: $.duration: expected a number, found boolean"));
    QVERIFY(warnings.contains(u"w.json: $.model_id: expected a string, found object"));
    QCOMPARE(read.steps.front().metrics.completed, qint64(3));
}

void TestMetrics::compactLine_data()
{
    QTest::addColumn<double>("rate");
    QTest::addColumn<int>("concurrency"); // 0: none
    QTest::addColumn<Doubles>("percentiles");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("reference example")
        << 10.0 << 0 << Doubles { 50, 99 }
        << QByteArray("rate= 10 RPS= 9.87 Tok/s= 2534.10 TTFT_mean= 142.30ms TTFT_p99= 210.55ms");
    QTest::addRow("fractional rate")
        << 2.5 << 0 << Doubles { 99 }
        << QByteArray("rate= 2.5 RPS= 9.87 Tok/s= 2534.10 TTFT_mean= 142.30ms TTFT_p99= 210.55ms");
    QTest::addRow("inf with concurrency")
        << inf << 32 << Doubles { 99 }
        << QByteArray("rate= inf concurrency= 32 RPS= 9.87 Tok/s= 2534.10 TTFT_mean= 142.30ms TTFT_p99= 210.55ms");
    QTest::addRow("highest percentile without p99")
        << 10.0 << 0 << Doubles { 50, 99.9, 90 }
        << QByteArray("rate= 10 RPS= 9.87 Tok/s= 2534.10 TTFT_mean= 142.30ms TTFT_p99.9= 210.55ms");
    QTest::addRow("no percentile") << 10.0 << 0 << Doubles {}
                                   << QByteArray("rate= 10 RPS= 9.87 Tok/s= 2534.10 TTFT_mean= 142.30ms");
}

void TestMetrics::compactLine()
{
    QFETCH(double, rate);
    QFETCH(int, concurrency);
    QFETCH(Doubles, percentiles);
    QFETCH(QByteArray, expected);

    StepSetup setup;
    setup.requestRate = rate;
    if (concurrency > 0)
        setup.maxConcurrency = concurrency;
    StepMetrics m;
    m.requestThroughput = 9.87;
    m.outputThroughput = 2534.1;
    m.ttft.mean = 142.3;
    for (double p : percentiles)
        m.ttft.percentiles.emplace_back(p, p == 50 ? 120.0 : p == 90 ? 180.0 : 210.55);
    QCOMPARE(SweepTable::compactLine(setup, m), expected);
}

void TestMetrics::csv()
{
    const QByteArray header = SweepTable::csvHeader();
    QVERIFY(header.endsWith('\n'));
    QVERIFY(header.startsWith("request_rate,burstiness,max_concurrency,num_prompts,duration_s,completed,failed,"));
    QVERIFY(header.contains(",mean_ttft_ms,median_ttft_ms,std_ttft_ms,p90_ttft_ms,p99_ttft_ms,"));

    StepSetup setup = exampleSetup();
    setup.maxConcurrency = 8;
    MetricsOptions options = fixtureOptions();
    options.ttftSloMs = 400;
    const StepMetrics m = StepMetrics::fromRecords(fixtureRecords(), 4.0, options);
    const QByteArray row = SweepTable::csvRow(setup, m);
    QCOMPARE(row.count(','), header.count(','));
    const QByteArray expected = "20,1,8,1000,4.000,4,2,1.000,0.750,5.000,21.250,8.000,4,0.922,65,20,"
                                "470.000,290.000,433.244,954.000,1175.400," // ttft
                                "80.833,20.000,93.192,174.000,208.650," // tpot
                                "258.571,50.000,507.893,660.000,1416.000," // itl
                                "922.500,725.000,782.700,1816.000,2053.600," // e2el
                                "475.000,337.667,2000.000,1,1,,,,,," // no cached tokens, no sessions: empty
                                "290.000,954.000,1175.400,,,\n"; // TTFC; no reasoning, no max_tokens: empty
    QCOMPARE(row, expected);

    StepSetup open = setup;
    open.requestRate = inf;
    open.maxConcurrency.reset();
    StepMetrics noP99 = StepMetrics::fromRecords(fixtureRecords(), 4.0, {});
    noP99.options.percentiles = { 50 };
    noP99.ttft.percentiles = { { 50, 1.0 } };
    const QList<QByteArray> cells = SweepTable::csvRow(open, noP99).split(',');
    QCOMPARE(cells[0], QByteArray("inf"));
    QCOMPARE(cells[2], QByteArray()); // no concurrency limit
    QCOMPARE(cells[8], QByteArray()); // no goodput
    QCOMPARE(cells[20], QByteArray()); // p99_ttft_ms not computed
}

void TestMetrics::textIgnoresLocale()
{
    const QByteArray summary = StepSummary::text(exampleSetup(), exampleMetrics());
    const QByteArray row = SweepTable::csvRow(exampleSetup(), exampleMetrics());
    const QByteArray json = ResultJson::write(exampleSetup(), exampleMetrics());
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const char* previous = std::setlocale(LC_NUMERIC, nullptr);
    const QByteArray savedC(previous ? previous : "C");
    std::setlocale(LC_NUMERIC, "de_DE.UTF-8"); // may be missing; QLocale's default is changed in any case
    const QByteArray summaryDe = StepSummary::text(exampleSetup(), exampleMetrics());
    const QByteArray rowDe = SweepTable::csvRow(exampleSetup(), exampleMetrics());
    const QByteArray jsonDe = ResultJson::write(exampleSetup(), exampleMetrics());
    std::setlocale(LC_NUMERIC, savedC.constData());
    QLocale::setDefault(saved);
    QCOMPARE(summaryDe, summary);
    QCOMPARE(rowDe, row);
    QCOMPARE(jsonDe, json);
    QVERIFY(summary.contains("52.34"));
}

// Multi-turn records with the server's cached tokens: sessions, the turn groups, the hit rate, and the
// same figures through the result file, the summary block and the CSV row.
void TestMetrics::reasoningAndShortOutputs()
{
    const auto reasoning = [](RequestRecord r, int reasoningTokens, int maxTokens) {
        r.reasoningTokens = reasoningTokens;
        r.requestedOutputTokens = maxTokens;
        return r;
    };
    // TTFT is the first chunk; TTFC the first answer text (firstContentMs) after the reasoning.
    const std::vector<RequestRecord> records = {
        reasoning(request(0, 0, { 100, 110, 150 }, 150, 150, 10, 10, 32), 8, 32), // TTFC 150, full length
        reasoning(request(0, 10, { 60, 90, 130 }, 130, 130, 10, 10, 20), 12, 32), // TTFC 120, short
        reasoning(request(0, 20, { 50, 70 }, 70, 70, 10, 10, 32), 0, 32), // TTFC 50, full length
        reasoning(request(0, 30, {}, -1, 40, 10, -1, 0, false, FailureClass::HttpServerError), -1, 32),
    };
    MetricsOptions options;
    options.inputTokenSource = InputTokenSource::Dataset;
    StepMetrics m = StepMetrics::fromRecords(records, 1.0, options);
    QCOMPARE(m.completed, 3);
    QCOMPARE(m.ttft.mean, 60.0); // 100, 50, 30 (the failed request counts for nothing)
    QCOMPARE(m.firstContentTtft.mean, (150.0 + 120.0 + 50.0) / 3);
    QCOMPARE(m.firstContentTtft.median, 120.0);
    QCOMPARE(m.totalReasoningTokens, 20);
    QCOMPARE(m.reasoningTokensReported, 3);
    QCOMPARE(m.outputLimitsKnown, 3);
    QCOMPARE(m.shortOutputs, 1);
    QCOMPARE(m.shortOutputShare(), 1.0 / 3);
    m.ignoreEos = true;

    // The summary: the reference's block, then the reasoning and output-length lines.
    const StepSetup setup = exampleSetup();
    const QList<QByteArray> lines = StepSummary::text(setup, m).split('\n');
    const auto tail = [&](qsizetype n) { return lines.mid(lines.size() - n); };
    const QList<QByteArray> expected {
        "--------------------Reasoning---------------------",
        "Total reasoning tokens:                  20        ",
        "Mean TTFC (ms):                          106.67    ",
        "Median TTFC (ms):                        120.00    ",
        "P99 TTFC (ms):                           149.40    ",
        "------------------Output Length-------------------",
        "Shorter than max_tokens:                 1         ",
        "Short output share (%):                  33.33     ",
        "==================================================",
        "",
    };
    QCOMPARE(tail(expected.size()), expected);

    // The result file: TTFC after the reference's metrics, the reasoning total, the short outputs.
    const QByteArray file = ResultJson::write(setup, m, {}, 4);
    const QJsonObject json = QJsonDocument::fromJson(file).object();
    QCOMPARE(json.value(u"total_reasoning_tokens").toInt(), 20);
    QCOMPARE(json.value(u"mean_ttfc_ms").toDouble(), (150.0 + 120.0 + 50.0) / 3);
    QCOMPARE(json.value(u"median_ttfc_ms").toDouble(), 120.0);
    QCOMPARE(json.value(u"p99_ttfc_ms").toDouble(), 149.4);
    QVERIFY(json.contains(u"std_ttfc_ms"));
    const QJsonObject kneepoint = json.value(u"kneepoint").toObject();
    QCOMPARE(kneepoint.value(u"short_outputs").toInt(), 1);
    QCOMPARE(kneepoint.value(u"output_limits_known").toInt(), 3);
    QCOMPARE(kneepoint.value(u"short_output_share").toDouble(), 1.0 / 3);
    QCOMPARE(kneepoint.value(u"ignore_eos").toBool(), true);
    const ResultFileContents read = ResultJson::read(file, QStringLiteral("x.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    QVERIFY2(read.steps.front().warnings.isEmpty(), qPrintable(read.steps.front().warnings.join(u'\n')));
    QVERIFY2(read.steps.front().setup.metadata.empty(), "no figure is read back as a setting");
    const StepMetrics& back = read.steps.front().metrics;
    QCOMPARE(back.totalReasoningTokens, 20);
    QCOMPARE(back.reasoningTokensReported, 3);
    QCOMPARE(back.shortOutputs, 1);
    QCOMPARE(back.outputLimitsKnown, 3);
    QCOMPARE(back.ignoreEos, std::optional<bool>(true));
    QCOMPARE(back.firstContentTtft.median, 120.0);

    // sweep.csv: the TTFC percentiles, the reasoning total and the short outputs.
    const QByteArrayList header = SweepTable::csvHeader().trimmed().split(',');
    const QByteArrayList row = SweepTable::csvRow(setup, m).trimmed().split(',');
    QCOMPARE(row.size(), header.size());
    QCOMPARE(row[header.indexOf("median_ttfc_ms")], QByteArray("120.000"));
    QCOMPARE(row[header.indexOf("p99_ttfc_ms")], QByteArray("149.400"));
    QCOMPARE(row[header.indexOf("total_reasoning_tokens")], QByteArray("20"));
    QCOMPARE(row[header.indexOf("short_outputs")], QByteArray("1"));
    QCOMPARE(row[header.indexOf("short_output_share")], QByteArray("0.3333"));

    // Without reasoning nor max_tokens: nothing invented, and the block ends where the reference's does.
    const std::vector<RequestRecord> plainRecords = { request(0, 0, { 100, 110 }, 100, 110, 10, 10, 2) };
    const StepMetrics plain = StepMetrics::fromRecords(plainRecords, 1.0, options);
    QCOMPARE(plain.totalReasoningTokens, kUnknownCount);
    QCOMPARE(plain.shortOutputs, kUnknownCount);
    QVERIFY(!isKnown(plain.shortOutputShare()));
    const QJsonObject plainJson = QJsonDocument::fromJson(ResultJson::write(setup, plain, {}, 4)).object();
    for (const char* key : { "total_reasoning_tokens", "mean_ttfc_ms", "median_ttfc_ms", "p99_ttfc_ms" })
        QVERIFY2(!plainJson.contains(QLatin1String(key)), key);
    QVERIFY(!plainJson.value(u"kneepoint").toObject().contains(u"short_outputs"));
    const QByteArray plainText = StepSummary::text(setup, plain);
    QVERIFY(!plainText.contains("TTFC"));
    QVERIFY(!plainText.contains("max_tokens"));
    const QByteArrayList plainRow = SweepTable::csvRow(setup, plain).trimmed().split(',');
    QCOMPARE(plainRow[header.indexOf("total_reasoning_tokens")], QByteArray());
    QCOMPARE(plainRow[header.indexOf("short_output_share")], QByteArray());
}

// Reasoning used up max_tokens: no answer token arrived, so the time to first content is unknown (null in
// the file), never 0 (tst_kneeanalysis: an SLO on it is not met).
void TestMetrics::ttfcWithoutAnswerIsUnknown()
{
    std::vector<RequestRecord> records;
    for (int i = 0; i < 3; ++i) {
        RequestRecord r = request(0, 10 * i, { 100 + 10 * i, 120 + 10 * i }, -1, 130 + 10 * i, 10, 10, 16);
        r.reasoningTokens = 24;
        r.requestedOutputTokens = 16;
        records.push_back(r);
    }
    MetricsOptions options;
    options.percentiles = { 50, 99 };
    const StepMetrics m = StepMetrics::fromRecords(records, 1.0, options);
    QCOMPARE(m.completed, 3);
    QVERIFY(m.ttft.reported());
    QVERIFY(!isKnown(m.firstContentTtft.mean));
    QVERIFY(!isKnown(m.firstContentTtft.percentile(99).value_or(0.0)));
    const QJsonObject json = QJsonDocument::fromJson(ResultJson::write(exampleSetup(), m)).object();
    QVERIFY(json.value(u"mean_ttfc_ms").isNull());
    QVERIFY(json.value(u"p99_ttfc_ms").isNull());
}

void TestMetrics::sessionsAndPrefixCache()
{
    const auto turn = [](RequestRecord r, int session, int turnNumber, int cached) {
        r.session = session;
        r.turn = turnNumber;
        r.cachedTokens = cached;
        return r;
    };
    const std::vector<RequestRecord> records = {
        turn(request(0, 0, { 100, 110 }, 100, 110, 10, 10, 2), 0, 1, 0), // TTFT 100, E2EL 110
        turn(request(200, 200, { 240, 260 }, 240, 260, 30, 30, 2), 0, 2, 16), // 40, 60
        turn(request(50, 50, { 170, 180 }, 170, 180, 10, 10, 2), 1, 1, -1), // 120, 130; no cached_tokens
        turn(request(300, 300, {}, -1, 310, 30, -1, 0, false, FailureClass::HttpServerError), 1, 2, -1),
        turn(request(300, 300, { 320, 330 }, 320, 330, 50, 50, 2), 0, 3, 48), // 20, 30
    };
    MetricsOptions options;
    options.inputTokenSource = InputTokenSource::Dataset;
    const StepMetrics m = StepMetrics::fromRecords(records, 1.0, options);
    QCOMPARE(m.completed, 4);
    QCOMPARE(m.failed, 1);
    QCOMPARE(m.totalInputTokens, 100);
    QCOMPARE(m.cachedTokensReported, 3);
    QCOMPARE(m.totalCachedTokens, 64);
    QCOMPARE(m.prefixCacheHitRate(), 0.64);
    QCOMPARE(m.numSessions, 2);
    QCOMPARE(m.firstTurns.completed, 2);
    QCOMPARE(m.firstTurns.totalInputTokens, 20);
    QCOMPARE(m.firstTurns.totalCachedTokens, 0); // reported as 0 by one request: known, and none
    QCOMPARE(m.firstTurns.ttft.mean, 110.0);
    QCOMPARE(m.firstTurns.e2el.mean, 120.0);
    QCOMPARE(m.laterTurns.completed, 2);
    QCOMPARE(m.laterTurns.totalInputTokens, 80);
    QCOMPARE(m.laterTurns.totalCachedTokens, 64);
    QCOMPARE(m.laterTurns.ttft.mean, 30.0);
    QCOMPARE(m.laterTurns.e2el.mean, 45.0);
    QCOMPARE(m.meanSessionS, (0.330 + 0.260) / 2); // session 0: 0 to 330 ms; session 1: 50 to 310 ms

    // Single-turn requests without cached_tokens: unknown, not 0.
    std::vector<RequestRecord> single = { request(0, 0, { 100, 110 }, 100, 110, 10, 10, 2) };
    const StepMetrics plain = StepMetrics::fromRecords(single, 1.0, options);
    QCOMPARE(plain.totalCachedTokens, kUnknownCount);
    QVERIFY(!isKnown(plain.prefixCacheHitRate()));
    QCOMPARE(plain.numSessions, kUnknownCount);

    const StepSetup setup = exampleSetup();
    const QByteArray file = ResultJson::write(setup, m, {}, 4);
    const QJsonObject json = QJsonDocument::fromJson(file).object();
    QCOMPARE(json.value(u"total_cached_tokens").toInt(), 64);
    QCOMPARE(json.value(u"prefix_cache_hit_rate").toDouble(), 0.64);
    QCOMPARE(json.value(u"num_sessions").toInt(), 2);
    const QJsonObject later = json.value(u"kneepoint").toObject().value(u"turns").toObject().value(u"later").toObject();
    QCOMPARE(later.value(u"total_cached_tokens").toInt(), 64);
    QCOMPARE(later.value(u"ttft").toObject().value(u"mean_ms").toDouble(), 30.0);
    const QJsonObject plainJson = QJsonDocument::fromJson(ResultJson::write(setup, plain, {}, 4)).object();
    QVERIFY(!plainJson.contains(u"total_cached_tokens"));
    QVERIFY(!plainJson.contains(u"num_sessions"));

    const ResultFileContents read = ResultJson::read(file, QStringLiteral("x.json"));
    QVERIFY2(read.ok(), qPrintable(read.error));
    const StepMetrics& back = read.steps.front().metrics;
    QVERIFY2(read.steps.front().warnings.isEmpty(), qPrintable(read.steps.front().warnings.join(u'\n')));
    QVERIFY(read.steps.front().setup.metadata.empty()); // the new keys are figures, not settings
    QCOMPARE(back.totalCachedTokens, 64);
    QCOMPARE(back.cachedTokensReported, 3);
    QCOMPARE(back.numSessions, 2);
    QCOMPARE(back.firstTurns, m.firstTurns);
    QCOMPARE(back.laterTurns, m.laterTurns);
    QCOMPARE(back.meanSessionS, m.meanSessionS);

    const QByteArray summary = StepSummary::text(setup, m);
    QVERIFY(summary.contains(StepSummary::row("Sessions:", "2")));
    QVERIFY(summary.contains(StepSummary::row("Mean TTFT, first turns (ms):", "110.00")));
    QVERIFY(summary.contains(StepSummary::row("P99 TTFT, later turns (ms):", "39.80")));
    QVERIFY(summary.contains(StepSummary::row("Cached input tokens:", "64")));
    QVERIFY(summary.contains(StepSummary::row("Prefix cache hit rate (%):", "64.00")));
    QVERIFY(summary.endsWith(QByteArray(50, '=') + '\n'));
    QVERIFY(!StepSummary::text(setup, plain).contains("Prefix cache"));
    QVERIFY(SweepTable::compactLine(setup, m).endsWith(" cache_hit= 64.0%"));
    QVERIFY(!SweepTable::compactLine(setup, plain).contains("cache_hit"));

    const QByteArrayList header = SweepTable::csvHeader().trimmed().split(',');
    const QByteArrayList row = SweepTable::csvRow(setup, m).trimmed().split(',');
    QCOMPARE(row.size(), header.size());
    QCOMPARE(row[header.indexOf("total_cached_tokens")], QByteArray("64"));
    QCOMPARE(row[header.indexOf("prefix_cache_hit_rate")], QByteArray("0.6400"));
    QCOMPARE(row[header.indexOf("num_sessions")], QByteArray("2"));
    QCOMPARE(row[header.indexOf("mean_ttft_later_turns_ms")], QByteArray("30.000"));
    const QByteArrayList plainRow = SweepTable::csvRow(setup, plain).trimmed().split(',');
    QCOMPARE(plainRow.size(), header.size());
    QCOMPARE(plainRow[header.indexOf("prefix_cache_hit_rate")], QByteArray());
}

void TestMetrics::bootstrapIsSeededAndContainsTheEstimate()
{
    const std::vector<RequestRecord> records = spreadRecords(60);
    MetricsOptions options;
    options.percentiles = { 50, 99 };
    options.ttftSloMs = 120;
    const double duration = double(StepMetrics::stepDurationNs(records)) / 1e9;
    const StepMetrics m = StepMetrics::fromRecords(records, duration, options);
    const StepIntervals a = bootstrapIntervals(records, duration, options, m, 7);
    QCOMPARE(a.method, StepIntervals::Method::Bootstrap);
    QCOMPARE(a.samples, 500); // 200000 / 60 records, at most 500
    QCOMPARE(a.seed, quint64(7));
    QCOMPARE(bootstrapIntervals(records, duration, options, m, 7), a); // the same seed, the same draws
    QVERIFY(bootstrapIntervals(records, duration, options, m, 8) != a);
    const std::map<QString, double> figures = intervalFigures(m);
    for (const char* key : { "request_throughput", "output_throughput", "request_goodput", "mean_ttft_ms",
             "median_ttft_ms", "p50_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "p99_itl_ms", "p99_e2el_ms" })
        QVERIFY2(figures.count(QString::fromLatin1(key)) == 1, key);
    QCOMPARE(a.figures.size(), figures.size());
    for (const auto& [key, value] : figures) {
        const auto i = a.find(key);
        QVERIFY2(i, qPrintable(key));
        QVERIFY2(
            i->contains(value), qPrintable(u"%1: %2 not in [%3, %4]"_s.arg(key).arg(value).arg(i->low).arg(i->high)));
    }
    // Every request succeeded: resampling cannot change how many completed in the same duration.
    QCOMPARE(*a.find(u"request_throughput"), (Interval { m.requestThroughput, m.requestThroughput }));
    // TTFT varies: its mean has a real interval.
    QVERIFY(a.find(u"mean_ttft_ms")->high - a.find(u"mean_ttft_ms")->low > 1.0);
    // One completed request: no interval.
    const std::vector<RequestRecord> one(records.begin(), records.begin() + 1);
    const StepMetrics single = StepMetrics::fromRecords(one, 1.0, options);
    QVERIFY(bootstrapIntervals(one, 1.0, options, single).isEmpty());
}

void TestMetrics::bootstrapNarrowsWithMoreRequests()
{
    MetricsOptions options;
    const auto width = [&](int n) {
        const std::vector<RequestRecord> records = spreadRecords(n);
        const double duration = double(StepMetrics::stepDurationNs(records)) / 1e9;
        const StepMetrics m = StepMetrics::fromRecords(records, duration, options);
        const Interval i = *bootstrapIntervals(records, duration, options, m).find(u"mean_ttft_ms");
        return i.high - i.low;
    };
    // The same spread of TTFTs, ten times the requests: the mean's interval about √10 times narrower.
    const double few = width(40);
    const double many = width(400);
    QVERIFY2(many < few * 0.5, qPrintable(u"%1 vs %2"_s.arg(many).arg(few)));
    QVERIFY2(many > few * 0.2, qPrintable(u"%1 vs %2"_s.arg(many).arg(few)));
}

void TestMetrics::bootstrapCostIsBounded()
{
    MetricsOptions options;
    const std::vector<RequestRecord> records = spreadRecords(8000);
    const double duration = double(StepMetrics::stepDurationNs(records)) / 1e9;
    const StepMetrics m = StepMetrics::fromRecords(records, duration, options);
    // 200000 / 8000 = 25 resamples, raised to the floor of 50.
    QCOMPARE(bootstrapIntervals(records, duration, options, m).samples, kMinResamples);
}

void TestMetrics::selectionEqualsSortedRanks()
{
    // LatencyStats::compute selects ranks; the figures must be those of the fully sorted vector, bit for bit.
    std::mt19937_64 random(11);
    const std::vector<Doubles> percentileSets { {}, { 99 }, { 50, 90, 99, 99.9 }, { 0, 100, 2.5, 97.5, 12.5 },
        { 99.9, 0.1, 50, 25, 75, 1, 5, 10, 90, 95, 99, 33.3, 66.6, 100 } }; // more ranks than selections pay
    for (const std::size_t size : { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 99, 100, 101, 1000, 1001, 4096, 10007 }) {
        for (const bool ties : { false, true }) {
            Doubles values(size);
            for (double& v : values)
                v = ties ? double(random() % 7) : exponential(random, 40.0);
            Doubles sorted = values;
            std::sort(sorted.begin(), sorted.end());
            for (const Doubles& ps : percentileSets) {
                const LatencyStats s = LatencyStats::compute(values, ps);
                const QString where = u"size %1, ties %2, %3 percentiles"_s.arg(size).arg(ties).arg(ps.size());
                QVERIFY2(s.count == qint64(size), qPrintable(where));
                QVERIFY2(s.min == (size ? sorted.front() : 0.0), qPrintable(where));
                QVERIFY2(s.max == (size ? sorted.back() : 0.0), qPrintable(where));
                QVERIFY2(s.median == LatencyStats::numpyMedian(sorted), qPrintable(where));
                QVERIFY2(s.percentiles.size() == ps.size(), qPrintable(where));
                for (std::size_t i = 0; i < ps.size(); ++i) {
                    QVERIFY2(s.percentiles[i].first == ps[i], qPrintable(where));
                    QVERIFY2(s.percentiles[i].second == LatencyStats::numpyPercentile(sorted, ps[i]),
                        qPrintable(u"%1: p%2"_s.arg(where).arg(ps[i])));
                }
            }
        }
    }
}

void TestMetrics::bootstrapEqualsRecomputingResamples()
{
    // Resampling by counts gives the intervals of resampling the records and recomputing every figure:
    // the same ranks (exactly), the same means up to the order of their sums.
    std::mt19937_64 random(5);
    struct Case
    {
        int requests;
        int maxChunks; // many chunks per request: the pooled ITL is walked from anchors
        Doubles percentiles;
        bool slos;
    };
    const Case cases[] { { 2, 3, { 99 }, false }, { 3, 1, { 50, 99 }, true }, { 7, 40, { 50, 90, 99, 99.9 }, true },
        { 30, 4, { 99 }, false }, { 64, 60, { 1, 50, 99 }, true }, { 257, 30, { 90, 99, 99.9 }, false },
        { 1200, 20, { 99 }, true } };
    for (const Case& c : cases) {
        const std::vector<RequestRecord> records = randomRecords(random, c.requests, c.maxChunks);
        MetricsOptions options;
        options.percentiles = c.percentiles;
        if (c.slos) {
            options.ttftSloMs = 120;
            options.tpotSloMs = 15;
        }
        const double duration = double(StepMetrics::stepDurationNs(records)) / 1e9;
        const StepMetrics m = StepMetrics::fromRecords(records, duration, options);
        const StepIntervals fast = bootstrapIntervals(records, duration, options, m, 3);
        const StepIntervals slow = recomputedBootstrap(records, duration, options, m, 3);
        const QString where = u"%1 requests"_s.arg(c.requests);
        QCOMPARE(fast.method, slow.method);
        QCOMPARE(fast.samples, slow.samples);
        QCOMPARE(fast.seed, slow.seed);
        QStringList fastKeys;
        QStringList slowKeys;
        for (const auto& entry : fast.figures)
            fastKeys << entry.first;
        for (const auto& entry : slow.figures)
            slowKeys << entry.first;
        QVERIFY2(
            fastKeys == slowKeys, qPrintable(where + u": "_s + fastKeys.join(u' ') + u" vs "_s + slowKeys.join(u' ')));
        for (const auto& [key, expected] : slow.figures) {
            const Interval got = fast.figures.at(key);
            const bool mean = key.startsWith(u"mean_");
            const auto close = [&](double a, double b) {
                return mean ? std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)) : a == b;
            };
            QVERIFY2(close(got.low, expected.low) && close(got.high, expected.high),
                qPrintable(u"%1: %2 [%3, %4] vs [%5, %6]"_s.arg(where, key)
                               .arg(got.low, 0, 'g', 17)
                               .arg(got.high, 0, 'g', 17)
                               .arg(expected.low, 0, 'g', 17)
                               .arg(expected.high, 0, 'g', 17)));
        }
    }
}

void TestMetrics::bootstrapCoversAtItsNominalRate()
{
    // Steps drawn from known distributions: the 95 % intervals must contain the true value in about 95 % of
    // them. TTFT is exponential (mean 100 ms, median 100 ln 2, P90 100 ln 10); each request streams 20 gaps of
    // exponential length around its own speed (uniform in [0.5, 1.5] × 10 ms), so the pooled ITL's gaps are
    // correlated within a request and the true mean gap is 10 ms: an interval that treated the gaps as
    // independent would be too narrow. Seeded: the counts below are the same on every run.
    std::mt19937_64 random(2024);
    constexpr int kSteps = 300;
    constexpr int kRequests = 200;
    const std::map<QString, double> truth { { u"mean_ttft_ms"_s, 100.0 },
        { u"median_ttft_ms"_s, 100.0 * std::log(2.0) }, { u"p90_ttft_ms"_s, 100.0 * std::log(10.0) },
        { u"mean_itl_ms"_s, 10.0 } };
    std::map<QString, int> covered;
    MetricsOptions options;
    options.percentiles = { 90 };
    for (int step = 0; step < kSteps; ++step) {
        std::vector<RequestRecord> records;
        for (int i = 0; i < kRequests; ++i) {
            RequestRecord r;
            r.sentNs = r.scheduledNs = qint64(i) * 50 * ms;
            r.firstTokenNs = r.sentNs + qint64(exponential(random, 100.0 * double(ms)));
            const double speed = 0.5 + unit(random);
            qint64 t = r.firstTokenNs;
            r.chunkNs.push_back(t);
            for (int c = 0; c < 20; ++c) {
                t += qint64(exponential(random, 10.0 * speed * double(ms)));
                r.chunkNs.push_back(t);
            }
            r.lastTokenNs = r.endNs = t;
            r.outputTokens = int(r.chunkNs.size());
            records.push_back(std::move(r));
        }
        const double duration = double(StepMetrics::stepDurationNs(records)) / 1e9;
        const StepMetrics m = StepMetrics::fromRecords(records, duration, options);
        const StepIntervals intervals
            = bootstrapIntervals(records, duration, options, m, kBootstrapSeed + quint64(step));
        for (const auto& [key, value] : truth) {
            const auto i = intervals.find(key);
            QVERIFY2(i, qPrintable(key));
            covered[key] += i->contains(value) ? 1 : 0;
        }
    }
    for (const auto& [key, count] : covered) {
        // 95 % of 300 steps is 285, give or take 3.8 (binomial); a percentile bootstrap of 200 requests
        // runs a little short of its level, so the band reaches lower than it reaches higher.
        qInfo("%s: %d of %d steps covered", qPrintable(key), count, kSteps);
        QVERIFY2(count >= 267 && count <= 297, qPrintable(u"%1: %2 of %3"_s.arg(key).arg(count).arg(kSteps)));
    }
}

void TestMetrics::repeatIntervalsUseStudentsT()
{
    std::vector<StepMetrics> trials(3);
    const double rates[] = { 10, 12, 14 };
    for (std::size_t i = 0; i < trials.size(); ++i) {
        trials[i].requestThroughput = rates[i];
        trials[i].outputThroughput = 100;
        trials[i].ttft = LatencyStats::unknown(); // no TTFT: no interval for it
        trials[i].ttft.count = 0;
    }
    const StepIntervals r = repeatIntervals({ &trials[0], &trials[1], &trials[2] });
    QCOMPARE(r.method, StepIntervals::Method::Repeats);
    QCOMPARE(r.samples, 3);
    // mean 12, s = 2, t(0.975, 2) = 4.303: 12 ± 4.303 × 2 / √3
    const double half = 4.303 * 2 / std::sqrt(3.0);
    const Interval thr = *r.find(u"request_throughput");
    QVERIFY(std::abs(thr.low - (12 - half)) < 1e-12);
    QVERIFY(std::abs(thr.high - (12 + half)) < 1e-12);
    QCOMPARE(*r.find(u"output_throughput"), (Interval { 100, 100 }));
    QVERIFY(!r.find(u"mean_ttft_ms"));
    QVERIFY(repeatIntervals({ &trials[0] }).isEmpty());
}

void TestMetrics::intervalsRoundTrip()
{
    const std::vector<RequestRecord> records = spreadRecords(30);
    MetricsOptions options;
    const double duration = double(StepMetrics::stepDurationNs(records)) / 1e9;
    StepMetrics m = StepMetrics::fromRecords(records, duration, options);
    m.intervals = bootstrapIntervals(records, duration, options, m);
    QCOMPARE(intervalsFromJson(intervalsJson(m.intervals)), m.intervals);
    const QJsonObject json = intervalsJson(m.intervals);
    QCOMPARE(json.value(u"method").toString(), u"bootstrap"_s);
    QCOMPARE(json.value(u"seed").toString(), QString::number(kBootstrapSeed));
    QCOMPARE(json.value(u"level").toDouble(), 0.95);
    // In the step file under "kneepoint", beside (never instead of) the reference's keys.
    const QByteArray file = ResultJson::write(StepSetup {}, m, {}, 2);
    const QJsonObject root = QJsonDocument::fromJson(file).object();
    QVERIFY(root.contains(u"mean_ttft_ms"));
    QVERIFY(!root.contains(u"intervals"));
    QCOMPARE(root.value(u"kneepoint").toObject().value(u"intervals").toObject(), json);
    const ResultFileContents read = ResultJson::read(file, u"x.json"_s);
    QVERIFY2(read.ok(), qPrintable(read.error));
    QCOMPARE(read.steps.front().metrics.intervals, m.intervals);
    QString warning;
    QJsonObject broken = json;
    QJsonObject figures = broken.value(u"figures").toObject();
    figures.insert(u"p99_ttft_ms"_s, QJsonArray { 5, 1 });
    broken.insert(u"figures"_s, figures);
    const StepIntervals partly = intervalsFromJson(broken, &warning);
    QCOMPARE(warning, u"figures: p99_ttft_ms: expected [low, high] with low <= high"_s);
    QVERIFY(!partly.find(u"p99_ttft_ms"));
    QVERIFY(partly.find(u"mean_ttft_ms"));
}

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
