// Server telemetry: the Prometheus text parser on real-shaped vLLM, SGLang and TGI output, the
// statistics a step derives from its scrapes, the analysis sentences they feed, and a sweep of the
// simulator that scrapes it (and one whose metrics URL answers 404).
#include "metrics/resultjson.h"
#include "metrics/stepsetup.h"
#include "profile/profilestore.h"
#include "sim/filelimit.h"
#include "sim/simhost.h"
#include "support/livesweep.h"
#include "sweep/analysisjson.h"
#include "sweep/analysistext.h"
#include "sweep/builtinsimulator.h"
#include "sweep/capacityplan.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplan.h"
#include "sweep/sweeprunner.h"
#include "telemetry/environment.h"
#include "telemetry/prometheustext.h"
#include "telemetry/scraper.h"
#include "telemetry/servermetrics.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace kp;

namespace {

constexpr int kSweepTimeoutMs = 300000;

QByteArray fixture(const char* name)
{
    QFile file(QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/telemetry/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read fixture %s", name);
    return file.readAll();
}

ServerSample sample(double atS, double running, double waiting, double kv, double preemptions)
{
    ServerSample s;
    s.atS = atS;
    s.running = running;
    s.waiting = waiting;
    s.kvUsage = kv;
    s.preemptionsTotal = preemptions;
    return s;
}

PromHistogram histogram(std::vector<std::pair<double, double>> buckets, double sum)
{
    PromHistogram h;
    h.buckets = std::move(buckets);
    h.count = h.buckets.back().second;
    h.sum = sum;
    return h;
}

SweepPoint point(double offered, double kvMax, double waitingMean, double preemptions)
{
    SweepPoint p;
    p.offered = offered;
    p.metrics.completed = 100;
    ServerStepStats s;
    s.engine = QStringLiteral("vllm");
    s.samples = 5;
    s.kvUsageMax = kvMax;
    s.kvUsageMean = kvMax * 0.8;
    s.waitingMean = waitingMean;
    s.waitingMax = waitingMean * 2;
    s.preemptions = preemptions;
    p.server = s;
    return p;
}

// A short rate sweep of the simulator: a light step, then everything at once.
Profile simProfile()
{
    Profile p;
    // 4 req/s of simulated load, then all at once; scraped every 50 ms, 1 s of simulated time.
    p.target.baseUrl = QStringLiteral("sim://small?time_scale=20&seed=3");
    p.target.backend = Backend::OpenAi;
    p.target.metricsIntervalS = 0.05;
    p.workload.inputLen = 256;
    p.workload.outputLen = 128;
    p.workload.rangeRatio = 0.0;
    p.workload.ignoreEos = true;
    p.workload.numPrompts = 120;
    p.load.rates = { 80.0, std::numeric_limits<double>::infinity() };
    p.load.cooldownS = 0.2;
    return p;
}

using testing::LiveSweep;

// A GPU exporter on 127.0.0.1: every request gets the same canned /metrics text.
class CannedExporter : public QObject
{
public:
    explicit CannedExporter(QByteArray body)
        : m_body(std::move(body))
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    if (!socket->readAll().contains("\r\n\r\n"))
                        return;
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                        + QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_server.serverPort()); }

private:
    QByteArray m_body;
    QTcpServer m_server;
};

// A metrics URL that takes the request and never answers.
class SilentServer : public QObject
{
public:
    SilentServer()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection())
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_server.serverPort()); }

private:
    QTcpServer m_server;
};

// The sweep against the built-in simulator; a metrics URL "BASE" is its /metrics, "missing" a path it
// does not serve.
LiveSweep runSimSweep(const Profile& profile)
{
    return testing::runLiveSweep(profile, kSweepTimeoutMs, [](Profile& started) {
        for (QString& url : started.target.metricsUrls) {
            if (url == QLatin1String("BASE"))
                url = serverUrl(started.target, QStringLiteral("/metrics")).toString();
        }
        if (started.target.metricsUrl == QLatin1String("missing"))
            started.target.metricsUrl = serverUrl(started.target, QStringLiteral("/no-metrics-here")).toString();
    });
}

} // namespace

class TestTelemetry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { sim::raiseFileLimit(); }

    void parsesVllmMetrics()
    {
        const PromText text = PromText::parse(fixture("vllm.prom"));
        QCOMPARE(text.skippedLines, 0);
        QCOMPARE(text.samples.size(), std::size_t(28));
        QCOMPARE(text.typeOf("vllm:num_requests_running"), PromType::Gauge);
        QCOMPARE(text.typeOf("vllm:num_preemptions_total"), PromType::Counter);
        QCOMPARE(text.typeOf("vllm:time_to_first_token_seconds"), PromType::Histogram);
        QCOMPARE(text.help.at("vllm:kv_cache_usage_perc"), QByteArray("KV-cache usage. 1 means 100 percent usage."));
        QCOMPARE(*text.sum("vllm:request_success_total"), 100.0);
        QCOMPARE(*text.sum("vllm:prompt_tokens_total"), 1234500.0);
        QCOMPARE(
            text.labelOf("vllm:num_requests_running", "model_name"), QByteArray("meta-llama/Llama-3.1-8B-Instruct"));

        const ServerMetricNames* names = detectServerMetrics(text);
        QVERIFY(names);
        QCOMPARE(QByteArray(names->engine), QByteArray("vllm"));
        const ServerSample s = ServerSample::extract(text, *names, 1.5);
        QCOMPARE(*s.running, 12.0);
        QCOMPARE(*s.waiting, 3.0);
        QCOMPARE(*s.kvUsage, 0.4375);
        QCOMPARE(*s.preemptionsTotal, 7.0);
        QCOMPARE(*s.generationTokensTotal, 654321.0);
        QCOMPARE(s.ttft.count, 100.0);
        QCOMPARE(s.ttft.sum, 12.5);
        QCOMPARE(s.ttft.buckets.size(), std::size_t(13));
        QVERIFY(std::isinf(s.ttft.buckets.back().first));
        QVERIFY(s.queueTime.isEmpty());
        // histogram_quantile: linear inside the bucket that holds the rank.
        QCOMPARE(*s.ttft.quantile(0.5), 0.1);
        QCOMPARE(*s.ttft.quantile(0.9), 0.25);
        QVERIFY(std::abs(*s.ttft.quantile(0.99) - 0.475) < 1e-12);
        QCOMPARE(s.toJsonLine(),
            QByteArray("{\"generation_tokens_total\":654321,\"kv_usage\":0.4375,\"preemptions_total\":7,"
                       "\"prompt_tokens_total\":1234500,\"running\":12,\"t\":1.5,\"ttft_count\":100,"
                       "\"ttft_sum_s\":12.5,\"waiting\":3}"));
        const std::optional<ServerSample> back = ServerSample::fromJsonLine(s.toJsonLine());
        QVERIFY(back);
        QCOMPARE(*back->kvUsage, 0.4375);
        QCOMPARE(back->ttft.count, 100.0);
    }

    void parsesGpuExporters()
    {
        const PromText dcgm = PromText::parse(fixture("dcgm.prom"));
        QCOMPARE(dcgm.skippedLines, 0);
        QVERIFY(!detectServerMetrics(dcgm)); // an exporter, not an engine
        const GpuMetricNames* nvidia = detectGpuMetrics(dcgm);
        QVERIFY(nvidia);
        QCOMPARE(QByteArray(nvidia->exporter), QByteArray("dcgm"));
        ServerSample s;
        s.extractGpu(dcgm, *nvidia);
        QCOMPARE(s.gpuCount, 2.0);
        QCOMPARE(s.gpuUtilisation, 80.0);
        QCOMPARE(s.gpuPowerW, 1100.0);
        QCOMPARE(s.gpuFbUsedMiB, 71234.0); // the fuller GPU
        QCOMPARE(s.gpuEnergyTotalJ, 223456789.0); // mJ counters added up, in J

        const PromText amd = PromText::parse(fixture("amd.prom"));
        const GpuMetricNames* instinct = detectGpuMetrics(amd);
        QVERIFY(instinct);
        QCOMPARE(QByteArray(instinct->exporter), QByteArray("amd"));
        ServerSample a;
        a.extractGpu(amd, *instinct);
        QCOMPARE(a.gpuCount, 2.0);
        QCOMPARE(a.gpuUtilisation, 50.0);
        QCOMPARE(a.gpuPowerW, 900.0); // gpu_package_power where gpu_power_usage is absent
        QCOMPARE(a.gpuFbUsedMiB, 160000.0);
        QCOMPARE(a.gpuEnergyTotalJ, 5000.0); // µJ

        // The line format keeps the GPU figures and the URL; a line written before them still reads.
        s.atS = 2;
        s.url = QStringLiteral("http://node-1:9400/metrics");
        QCOMPARE(s.toJsonLine(),
            QByteArray("{\"gpu_count\":2,\"gpu_energy_total_j\":223456789,\"gpu_fb_used_mib\":71234,"
                       "\"gpu_power_w\":1100,\"gpu_util_pct\":80,\"t\":2,\"url\":\"http://node-1:9400/metrics\"}"));
        QCOMPARE(ServerSample::fromJsonLine(s.toJsonLine()), s);
        const auto old = ServerSample::fromJsonLine("{\"running\":3,\"t\":1}");
        QVERIFY(old && old->url.isEmpty() && !old->gpuCount);
        StepTelemetry both;
        both.samples = { *old };
        both.serverSamples = { { s } };
        QCOMPARE(StepTelemetry::samplesFromJsonl(both.samplesJsonl()), std::vector<ServerSample>({ *old }));
        QCOMPARE(StepTelemetry::samplesFromJsonl(both.samplesJsonl(), s.url), std::vector<ServerSample>({ s }));
    }

    void energyPerOutputToken()
    {
        auto gpuSample = [](double atS, double util, double powerW, double fb, std::optional<double> energyJ) {
            ServerSample s;
            s.atS = atS;
            s.gpuCount = 2;
            s.gpuUtilisation = util;
            s.gpuPowerW = powerW;
            s.gpuFbUsedMiB = fb;
            s.gpuEnergyTotalJ = energyJ;
            return s;
        };
        // The counters say 11000 J in 10 s; the step's 5500 output tokens cost 2 J each.
        const auto counted
            = ServerStepStats::derive({ gpuSample(0, 0, 150, 30000, 1e6), gpuSample(5, 80, 1000, 70000, 1e6 + 5000),
                                          gpuSample(10, 100, 1400, 72000, 1e6 + 11000) },
                QStringLiteral("vllm"), {});
        QVERIFY(counted);
        QCOMPARE(counted->gpuCount, 2);
        QCOMPARE(counted->energyJ, 11000.0);
        QCOMPARE(counted->energySource, QStringLiteral("counter"));
        QCOMPARE(counted->gpuUtilisationMean, 90.0); // the samples after the baseline
        QCOMPARE(counted->gpuUtilisationMax, 100.0);
        QCOMPARE(counted->gpuPowerMeanW, 1200.0);
        QCOMPARE(counted->gpuFbUsedMaxMiB, 72000.0);
        QCOMPARE(counted->gpuFbUsedMeanMiB, 71000.0);
        QCOMPARE(counted->joulesPerOutputToken(5500), 2.0);
        QVERIFY(!counted->joulesPerOutputToken(0)); // unknown, never a division by zero
        QCOMPARE(ServerStepStats::fromJson(counted->toJson()), counted);
        const QJsonObject json = counted->toJson();
        QCOMPARE(json.value(u"energy_j").toDouble(), 11000.0);
        QCOMPARE(json.value(u"gpu_count").toInt(), 2);
        // Without counters: the mean power over the step's time on the server's clock (twice the wall's here).
        const auto powered = ServerStepStats::derive(
            { gpuSample(0, 0, 150, 30000, {}), gpuSample(5, 80, 1000, 70000, {}), gpuSample(10, 100, 1400, 72000, {}) },
            QStringLiteral("vllm"), {}, 2.0);
        QCOMPARE(powered->energyJ, 1200.0 * 10 * 2);
        QCOMPARE(powered->energySource, QStringLiteral("power"));
        QCOMPARE(powered->joulesPerOutputToken(4800), 5.0);
        // No exporter: no energy, no GPU figures.
        const auto none = ServerStepStats::derive({ sample(0, 1, 0, 0.1, 0), sample(1, 2, 0, 0.2, 0) }, {}, {});
        QVERIFY(!none->energyJ && !none->gpuCount && !none->joulesPerOutputToken(100));
        QVERIFY(!none->toJson().contains(u"energy_j"));
    }

    void combinesSeveralServers()
    {
        ServerSample a = sample(1, 10, 4, 0.75, 2);
        a.generationTokensTotal = 100;
        ServerSample b = sample(1, 6, 0, 0.25, 1);
        b.generationTokensTotal = 50;
        ServerSample gpus;
        gpus.gpuCount = 2;
        gpus.gpuUtilisation = 90;
        gpus.gpuPowerW = 1000;
        ServerSample more;
        more.gpuCount = 6;
        more.gpuUtilisation = 50;
        more.gpuPowerW = 2000;
        const ServerSample c = ServerSample::combine({ a, b, gpus, more }, 1.5);
        QCOMPARE(c.atS, 1.5);
        QCOMPARE(c.running, 16.0);
        QCOMPARE(c.waiting, 4.0);
        QCOMPARE(c.preemptionsTotal, 3.0);
        QCOMPARE(c.generationTokensTotal, 150.0);
        QCOMPARE(c.kvUsage, 0.5); // the mean of the model servers
        QCOMPARE(c.gpuCount, 8.0);
        QCOMPARE(c.gpuUtilisation, 60.0); // weighted by GPUs: (2·90 + 6·50) / 8
        QCOMPARE(c.gpuPowerW, 3000.0);
    }

    void parsesOlderVllmCacheName()
    {
        const PromText text = PromText::parse(
            "vllm:num_requests_running{model_name=\"m\"} 1\nvllm:gpu_cache_usage_perc{model_name=\"m\"} 0.25\n");
        const ServerSample s = ServerSample::extract(text, *detectServerMetrics(text), 0);
        QCOMPARE(*s.kvUsage, 0.25);
        QVERIFY(!s.preemptionsTotal);
    }

    void parsesSglangMetrics()
    {
        const PromText text = PromText::parse(fixture("sglang.prom"));
        QCOMPARE(text.skippedLines, 0);
        const ServerMetricNames* names = detectServerMetrics(text);
        QVERIFY(names);
        QCOMPARE(QByteArray(names->engine), QByteArray("sglang"));
        QCOMPARE(text.labelOf(names->running, names->modelLabel), QByteArray("Qwen/Qwen3-8B"));
        const ServerSample s = ServerSample::extract(text, *names, 0);
        QCOMPARE(*s.running, 24.0);
        QCOMPARE(*s.waiting, 5.0);
        QCOMPARE(*s.kvUsage, 0.82);
        QCOMPARE(*s.preemptionsTotal, 2.0);
        QCOMPARE(*s.promptTokensTotal, 8128902.0);
        QCOMPARE(*s.generationTokensTotal, 7557572.0);
        QCOMPARE(s.ttft.count, 40.0);
        QCOMPARE(s.ttft.sum, 3.2);
        QCOMPARE(*s.ttft.quantile(0.5), 0.08); // rank 20 ends the 0.08 bucket
        QCOMPARE(s.queueTime.count, 40.0);
        QCOMPARE(s.queueTime.buckets.front(), std::make_pair(0.0, 0.0));
        QCOMPARE(*s.prefixCacheHitRate, 0.007507552643049313);
        QVERIFY(!s.prefixCacheQueriesTotal && !s.prefixCacheHitsTotal);
    }

    void readsPrefixCacheFigures()
    {
        // vLLM's counters (two data-parallel ranks add up) and the older gauge beside them.
        const PromText vllm = PromText::parse("vllm:num_requests_running{model_name=\"m\"} 4\n"
                                              "vllm:prefix_cache_queries_total{model_name=\"m\",rank=\"0\"} 6000\n"
                                              "vllm:prefix_cache_queries_total{model_name=\"m\",rank=\"1\"} 4000\n"
                                              "vllm:prefix_cache_hits_total{model_name=\"m\",rank=\"0\"} 4500\n"
                                              "vllm:prefix_cache_hits_total{model_name=\"m\",rank=\"1\"} 2500\n"
                                              "vllm:gpu_prefix_cache_hit_rate{model_name=\"m\",rank=\"0\"} 0.6\n"
                                              "vllm:gpu_prefix_cache_hit_rate{model_name=\"m\",rank=\"1\"} 0.8\n");
        const ServerSample s = ServerSample::extract(vllm, *detectServerMetrics(vllm), 2.0);
        QCOMPARE(*s.prefixCacheQueriesTotal, 10000.0);
        QCOMPARE(*s.prefixCacheHitsTotal, 7000.0);
        QCOMPARE(*s.prefixCacheHitRate, 0.7); // the ranks' mean
        QCOMPARE(s.toJsonLine(),
            QByteArray("{\"prefix_cache_hit_rate\":0.7,\"prefix_cache_hits_total\":7000,"
                       "\"prefix_cache_queries_total\":10000,\"running\":4,\"t\":2}"));
        QCOMPARE(ServerSample::fromJsonLine(s.toJsonLine()), s);

        // A server that exposes none: unknown, never 0, and nothing in the line.
        const PromText bare = PromText::parse("vllm:num_requests_running 1\n");
        const ServerSample none = ServerSample::extract(bare, *detectServerMetrics(bare), 0);
        QVERIFY(!none.prefixCacheQueriesTotal && !none.prefixCacheHitsTotal && !none.prefixCacheHitRate);
        QVERIFY(!none.toJsonLine().contains("prefix"));
        const auto noneStats = ServerStepStats::derive({ none, none, none }, QStringLiteral("vllm"), {});
        QVERIFY(!noneStats->prefixCacheHitRate && !noneStats->prefixCacheQueries && !noneStats->prefixCacheHits);
        QVERIFY(!noneStats->toJson().contains(QStringLiteral("prefix_cache_hit_rate")));
        QVERIFY(!noneStats->summary().contains(QStringLiteral("prefix")));
        // TGI has no prefix-cache metric at all.
        const PromText tgi = PromText::parse(fixture("tgi.prom"));
        QVERIFY(!ServerSample::extract(tgi, *detectServerMetrics(tgi), 0).prefixCacheHitRate);
    }

    void derivesThePrefixCacheHitRate()
    {
        auto counters = [](double atS, double queries, double hits, double gauge) {
            ServerSample s;
            s.atS = atS;
            s.running = 1;
            s.prefixCacheQueriesTotal = queries;
            s.prefixCacheHitsTotal = hits;
            s.prefixCacheHitRate = gauge;
            return s;
        };
        // Counters: the step's hits over its queries (tokens), whatever the gauge says.
        const auto st = ServerStepStats::derive(
            { counters(0, 1000, 200, 0.2), counters(1, 5000, 2200, 0.9), counters(2, 9000, 5300, 0.9) },
            QStringLiteral("vllm"), {});
        QCOMPARE(*st->prefixCacheQueries, 8000.0);
        QCOMPARE(*st->prefixCacheHits, 5100.0);
        QCOMPARE(*st->prefixCacheHitRate, 0.6375);
        QCOMPARE(st->summary(), QStringLiteral("server: running 1.0 avg / 1 max, prefix-cache hit rate 64%"));
        const QJsonObject json = st->toJson();
        QCOMPARE(json.value(QStringLiteral("prefix_cache_queries")).toDouble(), 8000.0);
        QCOMPARE(json.value(QStringLiteral("prefix_cache_hits")).toDouble(), 5100.0);
        QCOMPARE(json.value(QStringLiteral("prefix_cache_hit_rate")).toDouble(), 0.6375);
        QCOMPARE(ServerStepStats::fromJson(json), st);
        // No query during the step: no rate (not 0), and no fallback to the gauge beside the counters.
        const auto idle = ServerStepStats::derive({ counters(0, 1000, 200, 0.2), counters(1, 1000, 200, 0.2) }, {}, {});
        QCOMPARE(*idle->prefixCacheQueries, 0.0);
        QVERIFY(!idle->prefixCacheHitRate);

        // Without counters, the gauge's mean over the samples after the baseline (older vLLM, SGLang).
        auto gauge = [](double atS, double rate) {
            ServerSample s;
            s.atS = atS;
            s.running = 1;
            s.prefixCacheHitRate = rate;
            return s;
        };
        const auto older = ServerStepStats::derive(
            { gauge(0, 0.1), gauge(1, 0.5), gauge(2, 0.7), gauge(3, 0.3) }, QStringLiteral("sglang"), {});
        QCOMPARE(*older->prefixCacheHitRate, 0.5);
        QVERIFY(!older->prefixCacheQueries);
        QCOMPARE(ServerStepStats::fromJson(older->toJson()), older);
    }

    void parsesTgiMetrics()
    {
        const PromText text = PromText::parse(fixture("tgi.prom"));
        QCOMPARE(text.skippedLines, 0);
        const ServerMetricNames* names = detectServerMetrics(text);
        QVERIFY(names);
        QCOMPARE(QByteArray(names->engine), QByteArray("tgi"));
        const ServerSample s = ServerSample::extract(text, *names, 0);
        QCOMPARE(*s.running, 8.0);
        QCOMPARE(*s.waiting, 5.0);
        QVERIFY(!s.kvUsage);
        QVERIFY(!s.preemptionsTotal);
        QVERIFY(s.ttft.isEmpty());
        QCOMPARE(*s.promptTokensTotal, 32000.0);
        QCOMPARE(*s.generationTokensTotal, 64000.0);
        QCOMPARE(s.queueTime.count, 250.0);
        QCOMPARE(s.queueTime.sum, 12.5);
        // Label sets of one family add up; `le` is the only one that tells buckets apart.
        const PromHistogram prefill = text.histogram("tgi_batch_inference_duration");
        QCOMPARE(prefill.count, 12.0);
        QCOMPARE(prefill.buckets.size(), std::size_t(2));
    }

    void skipsGarbageAndCountsIt()
    {
        const PromText text = PromText::parse(fixture("garbage.prom"));
        QCOMPARE(text.skippedLines, 8);
        QCOMPARE(text.problems.size(), 5); // the first few, each with its line
        QCOMPARE(text.problems.first(), QStringLiteral("line 9: this: no number where the value should be"));
        QCOMPARE(text.samples.size(), std::size_t(5));
        const PromSample& escaped = text.samples[0];
        QCOMPARE(escaped.name, QByteArray("odd_metric"));
        QCOMPARE(escaped.label("path"), QByteArray("C:\\dir\"q\""));
        QCOMPARE(escaped.label("note"), QByteArray("two\nlines"));
        QVERIFY(escaped.label("absent").isNull());
        QCOMPARE(escaped.value, 3.5);
        QCOMPARE(*escaped.timestampMs, qint64(1700000000000));
        QCOMPARE(text.samples[1].label("spaced"), QByteArray("yes"));
        QVERIFY(std::isinf(text.samples[1].value) && text.samples[1].value < 0);
        QVERIFY(std::isnan(text.samples[2].value));
        QVERIFY(std::isinf(text.samples[3].value) && text.samples[3].value > 0);
        QCOMPARE(text.samples[4].name, QByteArray("last_line"));
        QCOMPARE(text.samples[4].value, 42.0);
        QCOMPARE(text.help.at("odd_metric"), QByteArray("A help text with a backslash \\ and a line\nbreak."));
        QCOMPARE(text.typeOf("odd_metric"), PromType::Gauge);
        QVERIFY(!detectServerMetrics(text));
        QVERIFY(!text.sum("odd_nan")); // NaN is no value
        QCOMPARE(PromText::parse("").samples.size(), std::size_t(0));
    }

    // A hostile /metrics: NaN, infinities, negative counts, a KV usage beyond 0..1 and totals that
    // overflow are no readings; none reaches a figure ("KV cache -inf% avg", "nan W").
    void hostileValuesAreUnknown()
    {
        const PromText text = PromText::parse("vllm:num_requests_running{model_name=\"m\"} NaN\n"
                                              "vllm:num_requests_waiting -3\n"
                                              "vllm:kv_cache_usage_perc{engine=\"0\"} 0.5\n"
                                              "vllm:kv_cache_usage_perc{engine=\"1\"} -Inf\n"
                                              "vllm:num_preemptions_total +Inf\n"
                                              "vllm:prompt_tokens_total 1e308\n"
                                              "vllm:prompt_tokens_total 1e308\n"
                                              "vllm:generation_tokens_total 40\n"
                                              "vllm:time_to_first_token_seconds_bucket{le=\"1\"} NaN\n"
                                              "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"} 3\n"
                                              "vllm:time_to_first_token_seconds_sum 1\n"
                                              "vllm:time_to_first_token_seconds_count 3\n"
                                              "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 250\n"
                                              "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} +Inf\n"
                                              "DCGM_FI_DEV_FB_USED{gpu=\"0\"} -1\n"
                                              "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\"} -Inf\n");
        const ServerMetricNames* names = detectServerMetrics(text);
        QVERIFY(names);
        ServerSample s = ServerSample::extract(text, *names, 1.0);
        s.extractGpu(text, *detectGpuMetrics(text));
        QVERIFY(!s.running); // NaN, the only label set
        QVERIFY(!s.waiting);
        QVERIFY(!s.kvUsage); // one rank at -Inf: the highest is unknown
        QVERIFY(!s.preemptionsTotal);
        QVERIFY(!s.promptTokensTotal); // 2e308 overflows
        QCOMPARE(*s.generationTokensTotal, 40.0);
        QVERIFY(s.ttft.isEmpty());
        QCOMPARE(*s.gpuCount, 1.0);
        QVERIFY(!s.gpuUtilisation);
        QVERIFY(!s.gpuPowerW);
        QVERIFY(!s.gpuFbUsedMiB);
        QVERIFY(!s.gpuEnergyTotalJ);

        // Samples carrying such values anyway (built by hand) give no figure made of them.
        std::vector<ServerSample> samples = { sample(0, 1, 0, 0.1, 0), sample(1, 3, 0, 0.2, 0) };
        samples[1].kvUsage = -std::numeric_limits<double>::infinity();
        samples[1].gpuPowerW = std::numeric_limits<double>::quiet_NaN();
        samples[0].gpuCount = samples[1].gpuCount = 1.0;
        const auto st = ServerStepStats::derive(samples, QStringLiteral("vllm"), {});
        QCOMPARE(*st->kvUsageMean, 0.1);
        QVERIFY(!st->gpuPowerMeanW);
        QVERIFY(!st->energyJ);
        QCOMPARE(st->summary(),
            QStringLiteral(
                "server: running 2.0 avg / 3 max, waiting 0.0 / 0, KV cache 10% avg / 10% max, 0 preemptions"));
    }

    // Counters as Prometheus' increase() reads them: every decrease between two scrapes is a reset,
    // after which the counter's value is what it counted since; a rise, reset and rise adds up.
    void countersResetAsPrometheusSays()
    {
        auto energy = [](std::initializer_list<double> joules) {
            std::vector<ServerSample> samples;
            double t = 0;
            for (double j : joules) {
                ServerSample s;
                s.atS = t++;
                s.gpuCount = 1;
                s.gpuPowerW = 100;
                s.gpuEnergyTotalJ = j;
                samples.push_back(s);
            }
            return ServerStepStats::derive(samples, QString(), {});
        };
        // 7.5 MJ since the driver loaded, 200 J during the step, then the exporter restarts with 40 J.
        auto st = energy({ 7.5e6, 7.5e6 + 200, 40 });
        QCOMPARE(*st->energyJ, 240.0);
        QCOMPARE(st->energySource, QStringLiteral("counter"));
        // A dip in the middle: 100 → 50 (reset, 50 since) → 150 (100 more).
        QCOMPARE(*energy({ 100, 50, 150 })->energyJ, 150.0);
        QCOMPARE(*energy({ 100, 120, 130 })->energyJ, 30.0);
        // A scrape without the counter in between is passed over.
        std::vector<ServerSample> gap = { sample(0, 1, 0, 0.1, 5), sample(1, 1, 0, 0.1, 9), sample(2, 1, 0, 0.1, 12) };
        gap[1].preemptionsTotal.reset();
        QCOMPARE(*ServerStepStats::derive(gap, QStringLiteral("vllm"), {})->preemptions, 7.0);
        gap[2].preemptionsTotal.reset();
        QVERIFY(!ServerStepStats::derive(gap, QStringLiteral("vllm"), {})->preemptions);
    }

    // A body cut at the cap: the lines up to the last line break, without the last family written.
    void parsesACutBody()
    {
        const PromText text = PromText::parseCut("vllm:num_requests_running 4\n"
                                                 "h_bucket{le=\"1\"} 2\n"
                                                 "h_bucket{le=\"+Inf\"} 3\n"
                                                 "h_co");
        QVERIFY(text.cut);
        QCOMPARE(text.samples.size(), std::size_t(1));
        QCOMPARE(text.samples[0].name, QByteArray("vllm:num_requests_running"));
        QVERIFY(text.histogram("h").isEmpty());
        QCOMPARE(PromText::parseCut("no_line_break 1").samples.size(), std::size_t(0));
        QVERIFY(!PromText::parse("a 1\n").cut);
    }

    // A /metrics body past the cap is read up to it, the scrape is still used, and the cut is said once
    // and counted with the step.
    void cutsALongMetricsBody()
    {
        QByteArray body = "vllm:num_requests_running{model_name=\"m\"} 7\nvllm:num_requests_waiting 2\n"
                          "# TYPE filler gauge\n";
        for (int i = 0; body.size() < 64 * 1024; ++i)
            body += "filler{i=\"" + QByteArray::number(i) + "\"} 1\n";
        body += "vllm:num_preemptions_total 5\n";
        CannedExporter server(body);
        TelemetryScraper scraper;
        TelemetryOptions options;
        options.metricsUrls = { QUrl(server.url()) };
        options.intervalS = 0.05;
        options.maxBodyBytes = 16 * 1024;
        scraper.setOptions(options);
        QSignalSpy notes(&scraper, &TelemetryScraper::note);
        bool prepared = false;
        scraper.prepare([&] { prepared = true; });
        QTRY_VERIFY(prepared);
        QVERIFY(scraper.available());
        scraper.beginStep();
        std::optional<StepTelemetry> telemetry;
        scraper.endStep([&](StepTelemetry t) { telemetry = std::move(t); });
        QTRY_VERIFY(telemetry);
        QVERIFY(telemetry->stats);
        QCOMPARE(telemetry->stats->scrapesCut, int(telemetry->samples.size()));
        QVERIFY(telemetry->stats->scrapesCut >= 2);
        QCOMPARE(*telemetry->stats->runningMax, 7.0);
        QVERIFY(!telemetry->stats->preemptions); // past the cap
        QCOMPARE(telemetry->stats->toJson().value(QStringLiteral("scrapes_cut")).toInt(), telemetry->stats->scrapesCut);
        QCOMPARE(notes.count(), 1);
        QCOMPARE(notes.at(0).at(0).toString(),
            QStringLiteral("the metrics of %1 are longer than 0.0156 MiB: each scrape is read up to there and the "
                           "metrics after it are left out")
                .arg(server.url()));
    }

    // A metrics URL that never answers says how long it was given, not Qt's "operation canceled".
    void silentMetricsUrlSaysTheTimeout()
    {
        SilentServer server;
        TelemetryScraper scraper;
        TelemetryOptions options;
        options.metricsUrls = { QUrl(server.url()) };
        options.intervalS = 0.05;
        scraper.setOptions(options);
        bool prepared = false;
        scraper.prepare([&] { prepared = true; });
        QTRY_VERIFY_WITH_TIMEOUT(prepared, 30000);
        QVERIFY(!scraper.available());
        QCOMPARE(scraper.facts().metricsUnavailable, server.url() + QStringLiteral(": no answer within 2 s"));
    }

    // A step's telemetry is folded as the scrapes come: the statistics of every scrape in fixed memory, the
    // series for the metrics file thinned to at most its limit. 10x the scrapes hold no more.
    void stepTelemetryHeldDoesNotGrowWithScrapes()
    {
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const auto makeSamples = [&](std::size_t n) {
            std::vector<ServerSample> out;
            double preemptions = 0, tokens = 0, energy = 0, ttftCount = 0, ttftSum = 0;
            for (std::size_t i = 0; i < n; ++i) {
                ServerSample s = sample(0.05 * double(i), std::floor(unit(rng) * 40), std::floor(unit(rng) * 9),
                    unit(rng), preemptions += std::floor(unit(rng) * 2));
                if (unit(rng) < 0.05)
                    s.running.reset(); // a scrape without the gauge
                if (unit(rng) < 0.01)
                    s.waiting = std::numeric_limits<double>::infinity(); // no reading
                tokens = unit(rng) < 0.002 ? 0.0 : tokens + std::floor(unit(rng) * 500); // a restart now and then
                s.generationTokensTotal = tokens;
                s.gpuCount = 2;
                s.gpuPowerW = 300 + 100 * unit(rng);
                s.gpuEnergyTotalJ = energy += 20 * unit(rng);
                ttftCount += std::floor(unit(rng) * 5);
                ttftSum += 0.1 * ttftCount;
                s.ttft = histogram(
                    { { 0.1, std::floor(ttftCount / 3) }, { 1.0, std::floor(ttftCount / 2) }, { INFINITY, ttftCount } },
                    ttftSum);
                out.push_back(std::move(s));
            }
            return out;
        };
        const std::size_t limit = 256;
        std::vector<std::size_t> held;
        for (const std::size_t n : { std::size_t(1000), std::size_t(10000) }) {
            const std::vector<ServerSample> samples = makeSamples(n);
            ServerStatsAccumulator fold;
            ServerSeries series(limit);
            for (const ServerSample& s : samples) {
                fold.add(s);
                series.add(s);
                QVERIFY(series.size() <= limit);
            }
            QCOMPARE(fold.samples(), int(n));
            held.push_back(series.size());
            QVERIFY2(series.size() > limit / 2, qPrintable(QString::number(series.size())));
            // The statistics are those of every scrape, not of the series kept.
            const std::optional<ServerStepStats> folded = fold.stats(QStringLiteral("vllm"), QStringLiteral("m"), 2.0);
            QVERIFY(folded);
            QCOMPARE(*folded, *ServerStepStats::derive(samples, QStringLiteral("vllm"), QStringLiteral("m"), 2.0));
            QCOMPARE(folded->samples, int(n));
            QCOMPARE(*folded->preemptions, *samples.back().preemptionsTotal - *samples.front().preemptionsTotal);
            const double drawn = *samples.back().gpuEnergyTotalJ - *samples.front().gpuEnergyTotalJ;
            QVERIFY(std::abs(*folded->energyJ - drawn) <= 1e-9 * drawn);
            QCOMPARE(*folded->ttftCount, samples.back().ttft.count - samples.front().ttft.count);
            // The series: the first scrape, then evenly spaced ones, the last scrape at the end; histograms
            // as the metrics file keeps them.
            const std::size_t stride = series.stride();
            std::vector<ServerSample> kept = series.take();
            QCOMPARE(series.size(), std::size_t(0));
            QCOMPARE(kept.front().atS, samples.front().atS);
            QCOMPARE(kept.back().atS, samples.back().atS);
            for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
                ServerSample expected = samples[i * stride];
                expected.dropBuckets();
                QCOMPARE(kept[i], expected);
            }
            QCOMPARE(kept.back().ttft.count, samples.back().ttft.count);
            QCOMPARE(kept.back().ttft.buckets.size(), std::size_t(1));
            QCOMPARE(ServerSample::fromJsonLine(kept.back().toJsonLine())->ttft, kept.back().ttft);
        }
        QVERIFY2(held[1] <= limit && held[0] <= limit, qPrintable(QStringLiteral("%1 %2").arg(held[0]).arg(held[1])));
        // Up to the limit nothing is left out.
        ServerSeries whole(limit);
        for (const ServerSample& s : makeSamples(limit - 1))
            whole.add(s);
        QCOMPARE(whole.size(), limit - 1);
        QCOMPARE(whole.stride(), std::size_t(1));
    }

    // The scraper itself: a step of many scrapes holds at most the series' limit of each URL's and of the
    // combined samples, and its statistics are those of every scrape it took.
    void scraperHoldsBoundedSamplesPerStep()
    {
        CannedExporter engine(fixture("vllm.prom"));
        CannedExporter gpus(fixture("dcgm.prom"));
        TelemetryScraper scraper;
        TelemetryOptions options;
        options.metricsUrls = { QUrl(engine.url()), QUrl(gpus.url()) };
        options.intervalS = 0.05;
        options.maxStepSamples = 4;
        scraper.setOptions(options);
        bool prepared = false;
        scraper.prepare([&] { prepared = true; });
        QTRY_VERIFY(prepared);
        QVERIFY(scraper.available());
        std::vector<ServerSample> seen;
        connect(&scraper, &TelemetryScraper::sampled, this, [&](const ServerSample& s) { seen.push_back(s); });
        scraper.beginStep();
        QTRY_VERIFY_WITH_TIMEOUT(seen.size() >= 20, 60000);
        QVERIFY2(scraper.heldSamples() <= 3 * 4, qPrintable(QString::number(scraper.heldSamples())));
        std::optional<StepTelemetry> telemetry;
        scraper.endStep([&](StepTelemetry t) { telemetry = std::move(t); });
        QTRY_VERIFY(telemetry);
        QVERIFY(telemetry->stats);
        QVERIFY(telemetry->samples.size() <= 4);
        QCOMPARE(telemetry->serverSamples.size(), std::size_t(2));
        QVERIFY(telemetry->serverSamples[0].size() <= 4 && telemetry->serverSamples[1].size() <= 4);
        QCOMPARE(telemetry->stats->samples, int(seen.size()));
        QCOMPARE(telemetry->samples.back().atS, seen.back().atS);
        QCOMPARE(telemetry->stats->servers.size(), std::size_t(2));
        QCOMPARE(telemetry->stats->servers[1].samples, int(seen.size()));
        std::optional<ServerStepStats> all = ServerStepStats::derive(
            seen, scraper.facts().metricsEngine, scraper.facts().metricsModel, scraper.facts().timeScale);
        QVERIFY(all);
        all->servers = telemetry->stats->servers;
        all->kvUsageMax = telemetry->stats->kvUsageMax;
        QCOMPARE(*telemetry->stats, *all);
        QCOMPARE(scraper.heldSamples(), std::size_t(0));
    }

    void derivesStepStatistics()
    {
        std::vector<ServerSample> samples = {
            sample(0.0, 0, 0, 0.05, 10),
            sample(1.0, 10, 2, 0.50, 10),
            sample(2.0, 20, 6, 1.00, 13),
            sample(3.0, 0, 0, 0.10, 14),
        };
        samples[0].ttft = histogram({ { 0.1, 10 }, { 0.5, 10 }, { 1.0, 10 }, { INFINITY, 10 } }, 0.5);
        samples[3].ttft = histogram({ { 0.1, 30 }, { 0.5, 90 }, { 1.0, 110 }, { INFINITY, 110 } }, 30.5);
        const std::optional<ServerStepStats> st
            = ServerStepStats::derive(samples, QStringLiteral("vllm"), QStringLiteral("m"), 2.0);
        QVERIFY(st);
        QCOMPARE(st->samples, 4);
        QCOMPARE(*st->runningMean, 10.0); // samples after the baseline
        QCOMPARE(*st->runningMax, 20.0);
        QCOMPARE(*st->waitingMean, 8.0 / 3.0);
        QCOMPARE(*st->waitingMax, 6.0);
        QCOMPARE(*st->kvUsageMax, 1.0);
        QCOMPARE(*st->preemptions, 4.0);
        QCOMPARE(*st->ttftCount, 100.0);
        // 30 s over 100 first tokens in server seconds, at time scale 2: 150 ms on the wall clock.
        QCOMPARE(*st->ttftMeanMs, 150.0);
        // p50: rank 50 in the delta histogram (20 ≤ 0.1, 80 ≤ 0.5): 0.1 + 0.4 × 30/60 = 0.3 s → 150 ms.
        QCOMPARE(st->ttftPercentilesMs.at(50.0), 150.0);
        QCOMPARE(st->ttftPercentilesMs.at(99.0), (0.5 + 0.5 * 19.0 / 20.0) * 1000.0 / 2.0);
        QCOMPARE(st->summary(140.0),
            QStringLiteral("server: running 10.0 avg / 20 max, waiting 2.7 / 6, KV cache 53% avg / 100% max, 4 "
                           "preemptions, TTFT mean 150 ms, p99 488 ms (client 140 ms)"));
        const QJsonObject json = st->toJson();
        QCOMPARE(json.value(QStringLiteral("ttft_p99_ms")).toDouble(), 487.5);
        QCOMPARE(json.value(QStringLiteral("time_scale")).toDouble(), 2.0);
        QCOMPARE(ServerStepStats::fromJson(json), st);

        QVERIFY(!ServerStepStats::derive({}, QStringLiteral("vllm"), {}));
        // A counter that went down (a restart in between) counts from zero.
        const auto restarted = ServerStepStats::derive(
            { sample(0, 1, 0, 0.1, 50), sample(1, 1, 0, 0.1, 3) }, QStringLiteral("vllm"), {});
        QCOMPARE(*restarted->preemptions, 3.0);
    }

    // vLLM's request phase histograms, scraped at a step's start and end: counts and means from the
    // differences (exact), percentiles estimated from the buckets and marked so in run.json; a server without
    // them (SGLang has queue and e2e only) leaves the rest unknown.
    void derivesRequestPhases()
    {
        auto text = [](double queued, double prefilled, double decoded) {
            QByteArray t = "vllm:num_requests_running{model_name=\"m\"} 1\n";
            const auto family = [&](const char* name, double n, double sum, double underHalf) {
                const QByteArray base = QByteArray("vllm:") + name;
                t += base + "_bucket{le=\"0.3\",model_name=\"m\"} " + QByteArray::number(underHalf / 2) + '\n';
                t += base + "_bucket{le=\"0.5\",model_name=\"m\"} " + QByteArray::number(underHalf) + '\n';
                t += base + "_bucket{le=\"1.0\",model_name=\"m\"} " + QByteArray::number(n) + '\n';
                t += base + "_bucket{le=\"+Inf\",model_name=\"m\"} " + QByteArray::number(n) + '\n';
                t += base + "_count{model_name=\"m\"} " + QByteArray::number(n) + '\n';
                t += base + "_sum{model_name=\"m\"} " + QByteArray::number(sum) + '\n';
            };
            family("request_queue_time_seconds", queued, queued * 0.6, queued / 2);
            family("request_prefill_time_seconds", prefilled, prefilled * 0.2, prefilled);
            family("request_decode_time_seconds", decoded, decoded * 0.9, 0);
            family("request_inference_time_seconds", decoded, decoded * 1.1, 0);
            family("e2e_request_latency_seconds", decoded, decoded * 1.7, 0);
            return PromText::parse(t);
        };
        const PromText before = text(10, 10, 10);
        const PromText after = text(50, 50, 50);
        const ServerMetricNames* names = detectServerMetrics(after);
        QVERIFY(names);
        const ServerSample a = ServerSample::extract(before, *names, 0.0);
        const ServerSample b = ServerSample::extract(after, *names, 2.0);
        QCOMPARE(b.prefillTime.count, 50.0);
        const std::optional<ServerStepStats> st
            = ServerStepStats::derive({ a, b }, QStringLiteral("vllm"), QStringLiteral("m"), 2.0);
        QVERIFY(st);
        // 40 requests finished in the step; means on the wall clock at time scale 2.
        QCOMPARE(*st->queueTime.count, 40.0);
        QCOMPARE(*st->queueTime.meanMs, 0.6 * 1000.0 / 2.0);
        QCOMPARE(*st->queueTimeMeanMs, 300.0);
        QCOMPARE(*st->prefillTime.meanMs, 100.0);
        QCOMPARE(*st->decodeTime.meanMs, 450.0);
        QCOMPARE(*st->inferenceTime.meanMs, 550.0);
        QCOMPARE(*st->e2eLatency.meanMs, 850.0);
        // Queue: 10 of 40 ≤ 0.3 s, 20 ≤ 0.5 s, 40 ≤ 1 s: p50 ends the 0.5 bucket, p90 is 0.5 + 0.5 × 16/20.
        QCOMPARE(*st->queueTime.percentile(50), 250.0);
        QCOMPARE(*st->queueTime.percentile(90), (0.5 + 0.5 * 16.0 / 20.0) * 1000.0 / 2.0);
        QVERIFY(!st->queueTime.percentile(75));
        const QJsonObject json = st->toJson();
        QCOMPARE(json.value(QStringLiteral("queue_time_mean_ms")).toDouble(), 300.0);
        QCOMPARE(json.value(QStringLiteral("queue_time_count")).toDouble(), 40.0);
        QCOMPARE(json.value(QStringLiteral("queue_time_p90_est_ms")).toDouble(), 450.0);
        QCOMPARE(json.value(QStringLiteral("prefill_time_mean_ms")).toDouble(), 100.0);
        QCOMPARE(json.value(QStringLiteral("decode_time_mean_ms")).toDouble(), 450.0);
        QCOMPARE(json.value(QStringLiteral("e2e_mean_ms")).toDouble(), 850.0);
        QVERIFY(!json.contains(QStringLiteral("queue_time_p90_ms"))); // a bucket estimate says so in its key
        QCOMPARE(ServerStepStats::fromJson(json), st);
        QVERIFY2(
            st->summary().contains(QStringLiteral("queue time mean 300 ms, prefill mean 100 ms, decode mean 450 ms")),
            qPrintable(st->summary()));
        // The samples file keeps each histogram's count and sum.
        const std::optional<ServerSample> line = ServerSample::fromJsonLine(b.toJsonLine());
        QVERIFY(line);
        QCOMPARE(line->decodeTime.count, 50.0);
        QCOMPARE(line->decodeTime.sum, 45.0);
        QCOMPARE(line->e2eLatency.sum, 85.0);
        // Several servers: added bucket by bucket.
        QCOMPARE(ServerSample::combine({ b, b }, 2.0).prefillTime.count, 100.0);

        // SGLang: queue and end to end, no prefill or decode histogram: those are unknown, not 0.
        const PromText sglang = PromText::parse(fixture("sglang.prom"));
        const ServerMetricNames* sg = detectServerMetrics(sglang);
        const ServerSample s0
            = ServerSample::extract(PromText::parse(QByteArray("sglang:num_running_reqs 0\n")), *sg, 0);
        const ServerSample s1 = ServerSample::extract(sglang, *sg, 1.0);
        const std::optional<ServerStepStats> sgStats
            = ServerStepStats::derive({ s0, s1 }, QStringLiteral("sglang"), {});
        QVERIFY(sgStats);
        QCOMPARE(*sgStats->queueTime.count, 40.0);
        QCOMPARE(*sgStats->queueTime.meanMs, 25.0);
        QVERIFY(!sgStats->prefillTime.isKnown() && !sgStats->prefillTime.count);
        QVERIFY(!sgStats->decodeTime.isKnown());
        QVERIFY(!sgStats->toJson().contains(QStringLiteral("prefill_time_mean_ms")));
        QVERIFY(!sgStats->toJson().contains(QStringLiteral("prefill_time_count")));
        // A step in which no request finished: a count of 0 and no mean.
        const std::optional<ServerStepStats> idle = ServerStepStats::derive({ b, b }, QStringLiteral("vllm"), {});
        QCOMPARE(*idle->prefillTime.count, 0.0);
        QVERIFY(!idle->prefillTime.meanMs && idle->prefillTime.percentilesMs.empty());
    }

    // Where TTFT went as the load grew: the part that carried the growth at two steps or more, named with
    // its share; nothing from one step, nothing without the histograms.
    void analysisNamesTheGrowingTtftPart_data()
    {
        QTest::addColumn<QList<double>>("queue"); // per step at 10, 20, 30, 40 req/s, ms; < 0: unknown
        QTest::addColumn<QList<double>>("prefill");
        QTest::addColumn<QList<double>>("ttft"); // the client's mean
        QTest::addColumn<QString>("sentence"); // empty: none
        QTest::addRow("queue grows from 30 req/s")
            << QList<double> { 1, 2, 80, 400 } << QList<double> { 20, 21, 22, 23 } << QList<double> { 25, 27, 106, 430 }
            << QStringLiteral("From 30 req/s on, queue time is 75% of mean TTFT: requests wait for a batch slot; "
                              "max_num_seqs or more replicas raise the knee, a faster prefill does not.");
        QTest::addRow("prefill grows") << QList<double> { 1, 1, 2, 2 } << QList<double> { 20, 22, 60, 90 }
                                       << QList<double> { 25, 27, 66, 97 }
                                       << QStringLiteral("From 30 req/s on, prefill time is 91% of mean TTFT: prompts "
                                                         "take longer to process as the batch fills; a larger token "
                                                         "budget per step (max_num_batched_tokens), prefix caching or "
                                                         "a faster GPU raise the knee, more batch slots do not.");
        QTest::addRow("outside the server")
            << QList<double> { 1, 1, 1, 1 } << QList<double> { 20, 20, 20, 20 } << QList<double> { 25, 26, 80, 120 }
            << QStringLiteral("From 30 req/s on, 74% of mean TTFT is spent outside "
                              "the server's queue and prefill (network, new "
                              "connections, the client): check the client's health "
                              "and the network before tuning the server.");
        QTest::addRow("only the last step") << QList<double> { 1, 2, 3, 400 } << QList<double> { 20, 21, 22, 23 }
                                            << QList<double> { 25, 27, 29, 430 } << QString();
        QTest::addRow("within the noise") << QList<double> { 1, 2, 4, 6 } << QList<double> { 20, 20, 20, 20 }
                                          << QList<double> { 25, 26, 28, 30 } << QString();
        QTest::addRow("no histograms") << QList<double> { -1, -1, -1, -1 } << QList<double> { -1, -1, -1, -1 }
                                       << QList<double> { 25, 27, 106, 430 } << QString();
    }

    void analysisNamesTheGrowingTtftPart()
    {
        QFETCH(QList<double>, queue);
        QFETCH(QList<double>, prefill);
        QFETCH(QList<double>, ttft);
        QFETCH(QString, sentence);
        std::vector<SweepPoint> points;
        for (int i = 0; i < 4; ++i) {
            SweepPoint p = point(10.0 * (i + 1), 0.3, 0.0, 0);
            p.metrics.ttft.count = 100;
            p.metrics.ttft.mean = ttft[i];
            p.metrics.ttft.median = ttft[i];
            if (queue[i] >= 0) {
                p.server->queueTime.count = 100;
                p.server->queueTime.meanMs = queue[i];
                p.server->prefillTime.count = 100;
                p.server->prefillTime.meanMs = prefill[i];
            }
            points.push_back(p);
        }
        const ServerFindings f = analyzeServer(points);
        QStringList said;
        for (const AnalysisSentence& s : serverSentences(f, false)) {
            if (s.text.contains(QStringLiteral("of mean TTFT")))
                said << s.text;
        }
        const QJsonValue json = serverFindingsJson(f).toObject().value(QStringLiteral("ttft_growth"));
        if (sentence.isEmpty()) {
            QVERIFY2(said.isEmpty(), qPrintable(said.join(u'\n')));
            QVERIFY(json.isNull());
            return;
        }
        QCOMPARE(said, QStringList { sentence });
        QCOMPARE(f.ttftPartStep, 2);
        QCOMPARE(json.toObject().value(QStringLiteral("from")).toDouble(), 30.0);
    }

    // Several model servers behind the target, with a GPU exporter: the analysis names the replica that
    // saturated first and says what the GPUs drew; the capacity plan turns the per-server load into power.
    void analysisSaysWhichReplicaAndWhatTheGpusDrew()
    {
        auto replica = [](const QString& url, double kvMax, double waitingMean) {
            ServerStepStats s;
            s.engine = QStringLiteral("vllm");
            s.url = url;
            s.samples = 5;
            s.kvUsageMax = kvMax;
            s.waitingMean = waitingMean;
            return s;
        };
        const QString a = QStringLiteral("http://10.0.0.1:8000/metrics");
        const QString b = QStringLiteral("http://10.0.0.2:8000/metrics");
        const QString dcgm = QStringLiteral("http://10.0.0.1:9400/metrics");
        const double loads[] = { 10, 40, 80 };
        const double kvA[] = { 0.5, 0.97, 1.0 }, kvB[] = { 0.3, 0.6, 0.96 };
        const double util[] = { 35, 92, 99 }, power[] = { 800, 2400, 2800 };
        std::vector<SweepPoint> points;
        for (int i = 0; i < 3; ++i) {
            SweepPoint p = point(loads[i], std::max(kvA[i], kvB[i]), 0.0, 0);
            p.metrics.totalOutputTokens = 100000;
            ServerStepStats& s = *p.server;
            s.gpuCount = 8;
            s.gpuUtilisationMean = util[i];
            s.gpuPowerMeanW = power[i];
            s.energyJ = power[i] * 10; // a 10 s step
            s.energySource = QStringLiteral("counter");
            ServerStepStats exporter;
            exporter.url = dcgm;
            exporter.gpuCount = 8;
            s.servers = { replica(a, kvA[i], 0.0), replica(b, kvB[i], 0.0), exporter };
            points.push_back(p);
        }
        const ServerFindings f = analyzeServer(points);
        QCOMPARE(f.replicas, 2); // the exporter serves no requests
        QCOMPARE(f.firstSaturatedUrl, a);
        QCOMPARE(*f.firstSaturatedAt, 40.0);
        QCOMPARE(*f.othersSaturateAt, 80.0);
        QCOMPARE(f.gpuSteps.size(), std::size_t(3));
        QCOMPARE(*f.gpuSteps[1].joulesPerOutputToken, 0.24); // 24000 J over 100000 tokens
        QCOMPARE(*f.gpuBusyAt, 40.0);
        QCOMPARE(*f.gpuPowerAt(60), 2600.0); // halfway between the 40 and 80 req/s steps
        QCOMPARE(*f.gpuPowerAt(5), 800.0);
        QStringList text;
        for (const AnalysisSentence& s : serverSentences(f, false))
            text << s.text;
        QVERIFY2(text.contains(QStringLiteral(
                     "One server saturated before the others: http://10.0.0.1:8000/metrics at 40 req/s (its KV cache "
                     "reached 97%), the next of the 2 servers only at 80 req/s; the load is not spread evenly, or "
                     "that server is slower.")),
            qPrintable(text.join(u'\n')));
        QVERIFY2(text.contains(QStringLiteral("The 8 GPUs were 99% busy, drawing 2.8 kW, 0.28 J per output token at "
                                              "80 req/s. They were 92% busy from 40 req/s on.")),
            qPrintable(text.join(u'\n')));
        // Busy at the lightest load already: the analysis says what the figure does not measure.
        std::vector<SweepPoint> busy = points;
        busy[0].server->gpuUtilisationMean = 97;
        QStringList busyText;
        for (const AnalysisSentence& s : serverSentences(analyzeServer(busy), false))
            busyText << s.text;
        QVERIFY2(busyText.contains(QStringLiteral(
                     "The 8 GPUs were 99% busy, drawing 2.8 kW, 0.28 J per output token at 80 req/s. They were "
                     "already 97% busy at 10 req/s: GPU utilisation counts the time any kernel runs, not how full "
                     "the batch is, so it says little about the headroom left.")),
            qPrintable(busyText.join(u'\n')));
        const QJsonObject json = serverFindingsJson(f).toObject();
        QCOMPARE(
            json.value(QStringLiteral("first_saturated_replica")).toObject().value(QStringLiteral("url")).toString(),
            a);
        QCOMPARE(json.value(QStringLiteral("gpus")).toObject().value(QStringLiteral("busy_from")).toDouble(), 40.0);

        // Replicas that fill at the same load, or never: no replica stands out.
        for (SweepPoint& p : points)
            p.server->servers[1].kvUsageMax = p.server->servers[0].kvUsageMax;
        QVERIFY(!analyzeServer(points).firstSaturatedAt);

        // The capacity plan at the saturation point (40 req/s; no SLO): 8 GPUs drawing 2.4 kW per server.
        AnalysisResult result;
        result.saturation.found = true;
        result.saturation.offered = 40;
        result.saturation.achieved = 39;
        result.server = f;
        const CapacityPlan plan = CapacityPlan::fromAnalysis(result, { 390, DemandUnit::RequestsPerS }, {});
        QVERIFY(plan.ok());
        QCOMPARE(plan.servers, 10);
        QCOMPARE(*plan.powerPerServerW, 2400.0);
        QCOMPARE(*plan.totalPowerW(), 24000.0);
        QCOMPARE(*plan.tokensPerJoule, 1.0 / 0.24);
        QVERIFY2(plan.sentence().endsWith(QStringLiteral(
                     " They draw about 24 kW (2.4 kW each at that load, the GPUs' own figures; 4.17 output tokens "
                     "per joule).")),
            qPrintable(plan.sentence()));
        QCOMPARE(plan.toJson().value(QStringLiteral("total_power_w")).toDouble(), 24000.0);
        // Without GPU figures the plan says nothing of power.
        result.server = {};
        const CapacityPlan bare = CapacityPlan::fromAnalysis(result, { 390, DemandUnit::RequestsPerS }, {});
        QVERIFY(!bare.powerPerServerW && !bare.toJson().contains(QStringLiteral("total_power_w")));
        QVERIFY(!bare.sentence().contains(QStringLiteral("draw")));
    }

    void analysisSaysWhereTheCacheFilled()
    {
        const std::vector<SweepPoint> points = {
            point(10, 0.20, 0.0, 0),
            point(40, 0.60, 0.0, 0),
            point(70, 1.00, 4.0, 0),
            point(90, 1.00, 30.0, 12),
        };
        const ServerFindings f = analyzeServer(points);
        QVERIFY(f.available);
        QCOMPARE(*f.kvFullAt, 70.0);
        QCOMPARE(f.kvFullStep, 2);
        QCOMPARE(*f.queueGrowsAt, 70.0);
        QCOMPARE(*f.preemptionsFrom, 90.0);
        QStringList text;
        for (const AnalysisSentence& s : serverSentences(f, false))
            text << s.text;
        QCOMPARE(text,
            QStringList({ QStringLiteral("KV cache reached 100% at 70 req/s; the waiting queue grew from there."),
                QStringLiteral("Preemptions began at 90 req/s (12 in that step).") }));

        // KneeAnalysis carries them: its sentences, its JSON.
        const AnalysisResult r = KneeAnalysis::analyze(points, AnalysisOptions {});
        QCOMPARE(r.server, f);
        const QStringList lines = analysisLines(r);
        QVERIFY(lines.contains(QStringLiteral("Preemptions began at 90 req/s (12 in that step).")));
        QCOMPARE(
            analysisJson(r).value(QStringLiteral("server")).toObject().value(QStringLiteral("kv_full_at")).toDouble(),
            70.0);

        // A cache that never filled, a queue that grew later on its own.
        const std::vector<SweepPoint> light = { point(10, 0.20, 0.0, 0), point(20, 0.42, 2.0, 0) };
        QStringList lightText;
        for (const AnalysisSentence& s : serverSentences(analyzeServer(light), false))
            lightText << s.text;
        QCOMPARE(lightText,
            QStringList({ QStringLiteral("KV cache usage peaked at 42% (at 20 req/s): the cache did not fill."),
                QStringLiteral("The server's waiting queue grew from 20 req/s on.") }));
        // The all-at-once step has no rate to name.
        const std::vector<SweepPoint> burst
            = { point(20, 0.30, 0.0, 0), point(std::numeric_limits<double>::infinity(), 1.0, 40.0, 24) };
        const ServerFindings b = analyzeServer(burst);
        QCOMPARE(serverSentences(b, false).constFirst().text,
            QStringLiteral("KV cache reached 100% at the all-at-once step; the waiting queue grew from there."));
        QCOMPARE(
            serverFindingsJson(b).toObject().value(QStringLiteral("kv_full_at")).toString(), QStringLiteral("inf"));
        // Without telemetry: nothing, and null in the JSON.
        SweepPoint bare;
        bare.offered = 5;
        QVERIFY(serverSentences(analyzeServer({ bare }), false).isEmpty());
        QVERIFY(
            analysisJson(KneeAnalysis::analyze({ bare }, AnalysisOptions {})).value(QStringLiteral("server")).isNull());
    }

    void analysisSaysHowTheHitRateMoved_data()
    {
        QTest::addColumn<QList<double>>("rates"); // per step at 10, 20, 30, 40 req/s; < 0: none
        QTest::addColumn<QList<double>>("kvMax");
        QTest::addColumn<bool>("serverSide");
        QTest::addColumn<QString>("sentence");
        QTest::addColumn<int>("step");
        QTest::addRow("fell as the cache filled")
            << QList<double> { 0.78, 0.77, 0.5, 0.31 } << QList<double> { 0.4, 0.8, 1.0, 1.0 } << true
            << QStringLiteral("The prefix-cache hit rate fell from 78% to 31% from 30 req/s on, as the KV cache "
                              "filled and evicted prefixes (the server's figures).")
            << 2;
        QTest::addRow("fell, cache never full")
            << QList<double> { 0.6, 0.8, 0.7, 0.5 } << QList<double> { 0.4, 0.5, 0.6, 0.7 } << true
            << QStringLiteral("The prefix-cache hit rate fell from 80% to 50% from 30 req/s on (the server's figures).")
            << 2;
        QTest::addRow("rose") << QList<double> { 0.2, 0.5, -1, 0.9 } << QList<double> { 0.4, 0.5, 0.6, 0.7 } << true
                              << QStringLiteral("The prefix-cache hit rate rose from 20% at 10 req/s to 90% at 40 "
                                                "req/s (the server's figures).")
                              << 3;
        QTest::addRow("steady") << QList<double> { 0.5, 0.52, 0.48, 0.5 } << QList<double> { 0.4, 0.5, 0.6, 0.7 }
                                << true
                                << QStringLiteral("The prefix-cache hit rate held steady at about 50% from 10 req/s to "
                                                  "40 req/s (the server's figures).")
                                << 3;
        QTest::addRow("nothing reused") << QList<double> { 0.0, 0.002, 0.0, 0.001 }
                                        << QList<double> { 0.4, 0.5, 0.6, 0.7 } << true
                                        << QStringLiteral("The prefix cache found almost nothing to reuse (a hit rate "
                                                          "under 0.5% from 10 req/s to 40 req/s, the server's "
                                                          "figures): the prompts share no prefix.")
                                        << 3;
        QTest::addRow("client side") << QList<double> { 0.75, 0.75, 0.5, 0.25 } << QList<double> { 1, 1, 1, 1 } << false
                                     << QStringLiteral("The prefix-cache hit rate fell from 75% to 25% from 30 req/s "
                                                       "on, as the KV cache filled and evicted prefixes (the client's "
                                                       "figures: the cached tokens the responses reported).")
                                     << 2;
        QTest::addRow("one step") << QList<double> { -1, -1, 0.4, -1 } << QList<double> { 0.4, 0.5, 0.6, 0.7 } << false
                                  << QStringLiteral("The prefix-cache hit rate was 40% at 30 req/s (the client's "
                                                    "figures: the cached tokens the responses reported).")
                                  << 2;
        QTest::addRow("none") << QList<double> { -1, -1, -1, -1 } << QList<double> { 0.4, 0.5, 0.6, 0.7 } << false
                              << QString() << -1;
    }

    void analysisSaysHowTheHitRateMoved()
    {
        QFETCH(QList<double>, rates);
        QFETCH(QList<double>, kvMax);
        QFETCH(bool, serverSide);
        QFETCH(QString, sentence);
        QFETCH(int, step);
        std::vector<SweepPoint> points;
        for (qsizetype i = 0; i < rates.size(); ++i) {
            SweepPoint p = point(10.0 * double(i + 1), kvMax[i], 0.0, 0);
            p.metrics.totalInputTokens = 10000;
            if (rates[i] >= 0 && serverSide)
                p.server->prefixCacheHitRate = rates[i];
            else if (rates[i] >= 0)
                p.metrics.totalCachedTokens = qint64(std::llround(rates[i] * 10000));
            points.push_back(p);
        }
        // The client's figure is the fallback: with the server's, a client figure is not read.
        if (serverSide)
            points[0].metrics.totalCachedTokens = 10000;
        const ServerFindings f = analyzeServer(points);
        QList<AnalysisSentence> hit;
        for (const AnalysisSentence& s : serverSentences(f, false)) {
            if (s.text.startsWith(QStringLiteral("The prefix-cache"))
                || s.text.startsWith(QStringLiteral("The prefix cache")))
                hit << s;
        }
        const QJsonValue json = serverFindingsJson(f).toObject().value(QStringLiteral("prefix_cache_hit_rate"));
        if (sentence.isEmpty()) {
            QVERIFY(hit.isEmpty());
            QVERIFY(!f.hitRateSide);
            QVERIFY(json.isNull());
            return;
        }
        QCOMPARE(hit.size(), 1);
        QCOMPARE(hit.constFirst().text, sentence);
        QCOMPARE(hit.constFirst().stepIndex, step);
        QCOMPARE(json.toObject().value(QStringLiteral("side")).toString(),
            serverSide ? QStringLiteral("server") : QStringLiteral("client"));
        QCOMPARE(json.toObject().value(QStringLiteral("step")).toInt(), step);
    }

    void hitRateWithoutServerTelemetry()
    {
        // No /metrics at all, cached tokens in the responses' usage: the analysis still says it.
        std::vector<SweepPoint> points(2);
        points[0].offered = 1;
        points[1].offered = 2;
        for (SweepPoint& p : points) {
            p.concurrencyMode = true;
            p.metrics.completed = 10;
            p.metrics.totalInputTokens = 4000;
            p.metrics.totalCachedTokens = 3000;
        }
        const ServerFindings f = analyzeServer(points);
        QVERIFY(!f.available);
        QCOMPARE(*f.hitRateSide, HitRateSide::Client);
        const QList<AnalysisSentence> text = serverSentences(f, true);
        QCOMPARE(text.size(), 1);
        QCOMPARE(text.constFirst().text,
            QStringLiteral("The prefix-cache hit rate held steady at about 75% from 1 user to 2 users (the client's "
                           "figures: the cached tokens the responses reported)."));
        const QJsonObject json = serverFindingsJson(f).toObject();
        QVERIFY(json.value(QStringLiteral("engine")).isNull());
        QCOMPARE(
            json.value(QStringLiteral("prefix_cache_hit_rate")).toObject().value(QStringLiteral("from")).toDouble(),
            0.75);
    }

    void metricsUrlsFollowTheTarget()
    {
        Target t;
        t.baseUrl = QStringLiteral("https://gw.example/llm/v1/");
        TelemetryOptions o = telemetryOptions(t, {}, {});
        QCOMPARE(o.metricsUrls, QList<QUrl>({ QUrl(QStringLiteral("https://gw.example/llm/metrics")) }));
        QCOMPARE(o.versionUrl, QUrl(QStringLiteral("https://gw.example/llm/version")));
        QCOMPARE(o.modelsUrl, QUrl(QStringLiteral("https://gw.example/llm/v1/models")));
        QCOMPARE(o.intervalS, 1.0);
        t.metricsUrl = QStringLiteral("http://node:9400/metrics");
        t.metricsIntervalS = 2.5;
        o = telemetryOptions(t, {}, {});
        QCOMPARE(o.metricsUrls, QList<QUrl>({ QUrl(QStringLiteral("http://node:9400/metrics")) }));
        QCOMPARE(o.intervalS, 2.5);
        t.metricsUrl = QStringLiteral("off");
        QVERIFY(!telemetryOptions(t, {}, {}).enabled());
        t.metricsUrl.clear();
        t.metricsUrls = { QStringLiteral("http://a:8000/metrics"), QStringLiteral("http://b:8000/metrics"),
            QStringLiteral("http://a:9400/metrics") };
        o = telemetryOptions(t, {}, {});
        QCOMPARE(o.metricsUrls,
            QList<QUrl>({ QUrl(QStringLiteral("http://a:8000/metrics")), QUrl(QStringLiteral("http://b:8000/metrics")),
                QUrl(QStringLiteral("http://a:9400/metrics")) }));
        t.metricsUrls = { QStringLiteral("off") };
        QVERIFY(!telemetryOptions(t, {}, {}).enabled());
    }

    void profileKeepsMetricsAndServerFields()
    {
        Profile p = Profile::demo(QUrl(QStringLiteral("http://127.0.0.1:8000")));
        p.target.metricsUrl = QStringLiteral("http://127.0.0.1:9400/metrics");
        p.target.metricsIntervalS = 2.5;
        p.server.accelerator = QStringLiteral("NVIDIA H100 80GB HBM3");
        p.server.acceleratorCount = 2;
        p.server.driverVersion = QStringLiteral("550.54.15");
        p.server.runtimeVersion = QStringLiteral("CUDA 12.4");
        p.server.precision = QStringLiteral("bf16");
        const QJsonObject json = ProfileStore::toJsonObject(p);
        const QJsonObject server = json.value(QStringLiteral("server")).toObject();
        QCOMPARE(server.value(QStringLiteral("accelerator_count")).toInt(), 2);
        QCOMPARE(server.value(QStringLiteral("runtime_version")).toString(), QStringLiteral("CUDA 12.4"));
        QCOMPARE(json.value(QStringLiteral("target")).toObject().value(QStringLiteral("metrics_interval_s")).toDouble(),
            2.5);
        const ProfileLoadResult back = ProfileStore::fromJsonObject(json, QStringLiteral("p.json"));
        QVERIFY2(back.ok(), qPrintable(back.errors.join(u'\n')));
        QCOMPARE(back.profile->target, p.target);
        QCOMPARE(back.profile->server, p.server);
        QVERIFY(validateProfile(p).isEmpty());

        p.target.metricsUrl = QStringLiteral("gopher://x/metrics");
        p.target.metricsIntervalS = 0;
        p.server.acceleratorCount = 0;
        QStringList issues;
        for (const ProfileIssue& issue : validateProfile(p))
            issues << issue.toString();
        QCOMPARE(issues,
            QStringList({ QStringLiteral("target.metrics_url: must be an http:// or https:// URL, or \"off\", got "
                                         "\"gopher://x/metrics\""),
                QStringLiteral("target.metrics_interval_s: must be > 0"),
                QStringLiteral("server.accelerator_count: must be >= 1") }));
    }

    void clientEnvironmentNamesTheMachine()
    {
        const QJsonObject env = clientEnvironment();
        QCOMPARE(env.value(QStringLiteral("kneepoint_version")).toString(), QStringLiteral(KNEEPOINT_VERSION));
        QCOMPARE(env.value(QStringLiteral("qt_version")).toString(), QString::fromLatin1(qVersion()));
        QVERIFY(env.value(QStringLiteral("cpu_cores")).toInt() >= 1);
        QVERIFY(!env.value(QStringLiteral("os")).toString().isEmpty());
#ifdef Q_OS_LINUX
        QVERIFY(env.value(QStringLiteral("memory_mib")).toInt() > 0);
#endif
#if defined(Q_OS_LINUX) && defined(Q_PROCESSOR_X86)
        QVERIFY(!env.value(QStringLiteral("cpu_model")).toString().isEmpty());
#endif
    }

    void sweepOfTheSimulatorScrapesItsMetrics()
    {
        const LiveSweep run = runSimSweep(simProfile());
        QVERIFY(run.finished);
        QCOMPARE(run.results.size(), std::size_t(2));
        QVERIFY2(run.notes.isEmpty(), qPrintable(run.notes.join(u'\n')));
        QCOMPARE(run.serverReported.value(QStringLiteral("metrics_engine")).toString(), QStringLiteral("vllm"));
        QCOMPARE(run.serverReported.value(QStringLiteral("metrics_model")).toString(),
            QStringLiteral("kneepoint/sim-small"));
        QCOMPARE(run.serverReported.value(QStringLiteral("max_model_len")).toInt(), 2048);
        QCOMPARE(run.serverReported.value(QStringLiteral("time_scale")).toDouble(), 20.0);
        QCOMPARE(run.serverReported.value(QStringLiteral("server")).toString(), QStringLiteral("kneepoint-sim"));
        int stored = 0;
        for (const StepResult& r : run.results) {
            QVERIFY(r.server.samples.size() >= 2); // the baseline and the last scrape at least
            QVERIFY(r.server.stats);
            QCOMPARE(r.server.stats->engine, QStringLiteral("vllm"));
            stored += int(r.server.samples.size());
            // The step's first tokens show in the server's histogram: all of them, but for the few that may
            // beat the baseline scrape, which goes out as the step's first requests do.
            QVERIFY2(*r.server.stats->ttftCount <= double(r.metrics.completed)
                    && *r.server.stats->ttftCount >= 0.9 * double(r.metrics.completed),
                qPrintable(QStringLiteral("%1 first tokens for %2 requests")
                               .arg(*r.server.stats->ttftCount)
                               .arg(r.metrics.completed)));
            const std::vector<ServerSample> back = StepTelemetry::samplesFromJsonl(r.server.samplesJsonl());
            QCOMPARE(back.size(), r.server.samples.size());
        }
        QCOMPARE(run.liveSamples, stored);
        const ServerStepStats& low = *run.results[0].server.stats;
        const ServerStepStats& high = *run.results[1].server.stats;
        // 4 req/s of simulated load keeps a few sequences of ~384 tokens in a 16384-token cache; 120
        // requests at once fill it and queue the rest.
        QVERIFY2(*low.kvUsageMax < 0.5, qPrintable(low.summary()));
        QVERIFY2(*high.kvUsageMax > 0.8, qPrintable(high.summary()));
        QVERIFY(*high.kvUsageMax > *low.kvUsageMax);
        QVERIFY2(*high.waitingMax > *low.waitingMax, qPrintable(high.summary()));
        QVERIFY(*high.runningMax > *low.runningMax);
        // The server's TTFT on the wall clock sits below the client's, which adds the network.
        QVERIFY2(*low.ttftMeanMs <= run.results[0].metrics.ttft.mean * 1.05 + 1.0, qPrintable(low.summary()));
        qInfo("low step: %s", qPrintable(low.summary(run.results[0].metrics.ttft.mean)));
        qInfo("high step: %s", qPrintable(high.summary(run.results[1].metrics.ttft.mean)));
    }

    // The simulator's request histograms against its own sweep: per step, queue + prefill is the server's
    // TTFT (the same requests, counted at their end rather than at their first token), the client's TTFT
    // lies above them by its own overhead, and past the knee the part that grows is the queue.
    void sweepOfTheSimulatorBreaksTtftDown()
    {
        Profile profile = simProfile();
        // Time scale 5, so that the server's times are long against what a loaded machine adds to the
        // client's: 4 req/s of simulated load, then 40 (about twice the small preset's plateau with these
        // lengths), then all at once.
        profile.target.baseUrl = QStringLiteral("sim://small?time_scale=5&seed=3");
        profile.workload.numPrompts = 60;
        profile.load.rates = { 20.0, 200.0, std::numeric_limits<double>::infinity() };
        const LiveSweep run = runSimSweep(profile);
        QVERIFY(run.finished);
        QCOMPARE(run.results.size(), std::size_t(3));
        std::vector<SweepPoint> points;
        for (const StepResult& r : run.results) {
            QVERIFY(r.server.stats);
            const ServerStepStats& st = *r.server.stats;
            qInfo("%s", qPrintable(st.summary(r.metrics.ttft.mean)));
            // Every request of the step finished within it: each is counted once in each phase.
            QCOMPARE(*st.queueTime.count, double(r.metrics.completed));
            QCOMPARE(*st.prefillTime.count, double(r.metrics.completed));
            QCOMPARE(*st.decodeTime.count, double(r.metrics.completed));
            QCOMPARE(*st.inferenceTime.count, double(r.metrics.completed));
            const double queue = *st.queueTime.meanMs, prefill = *st.prefillTime.meanMs;
            QVERIFY2(std::fabs(*st.inferenceTime.meanMs - prefill - *st.decodeTime.meanMs) < 1e-6,
                qPrintable(QStringLiteral("inference %1, prefill %2, decode %3")
                               .arg(*st.inferenceTime.meanMs, 0, 'g', 17)
                               .arg(prefill, 0, 'g', 17)
                               .arg(*st.decodeTime.meanMs, 0, 'g', 17)));
            // The server's TTFT: the same sum, but for first tokens a request gave before the step's first
            // scrape (those few fall out of the TTFT difference, not of the phases counted at the end).
            const double serverTtftSum = *st.ttftMeanMs * *st.ttftCount;
            const double phasesSum = (queue + prefill) * *st.queueTime.count;
            QVERIFY2(serverTtftSum <= phasesSum + 1e-6 && serverTtftSum >= 0.9 * phasesSum,
                qPrintable(QStringLiteral("%1 against %2").arg(serverTtftSum).arg(phasesSum)));
            // The client's TTFT adds the network, connections and the client, never takes any away: on the
            // wall clock, within a millisecond of the simulator's own clock's rounding.
            QVERIFY2(r.metrics.ttft.mean >= queue + prefill - 1.0,
                qPrintable(QStringLiteral("client %1 ms, queue %2 + prefill %3")
                               .arg(r.metrics.ttft.mean)
                               .arg(queue)
                               .arg(prefill)));
            points.push_back(SweepPoint::fromResult(r));
        }
        // Below the knee requests barely wait; past it the queue is most of TTFT, and the analysis says so.
        QVERIFY(*run.results[0].server.stats->queueTime.meanMs < *run.results[2].server.stats->queueTime.meanMs);
        const ServerFindings f = analyzeServer(points);
        QCOMPARE(f.ttftBreakdownSteps, 3);
        QVERIFY2(f.ttftPart == ServerFindings::TtftPart::Queue, qPrintable(QString::number(int(f.ttftPart))));
        QCOMPARE(*f.ttftPartFrom, 200.0);
        QVERIFY(f.ttftPartShare >= ServerFindings::kTtftPartShare);
        // The client side: a dispatch lag per request, and the connect time of each new connection (the
        // first step opens some; later ones reuse them, kept alive, and open more as more are in flight).
        QVERIFY(run.results[0].metrics.connectTime.count >= 1);
        for (const StepResult& r : run.results) {
            QCOMPARE(r.metrics.dispatchLag.count, r.metrics.completed + r.metrics.failed);
            QVERIFY(r.metrics.connectTime.count <= r.metrics.completed);
            if (r.metrics.connectTime.count > 0)
                QVERIFY(r.metrics.connectTime.max <= r.metrics.ttft.max);
        }
    }

    void sweepWithGpusGivesEnergyPerToken()
    {
        Profile p = simProfile();
        p.target.baseUrl = QStringLiteral("sim://small?time_scale=20&seed=3&gpus=2");
        p.workload.numPrompts = 60;
        const LiveSweep run = runSimSweep(p);
        QVERIFY(run.finished);
        QCOMPARE(run.results.size(), std::size_t(2));
        QVERIFY2(run.notes.isEmpty(), qPrintable(run.notes.join(u'\n')));
        for (const StepResult& r : run.results) {
            QVERIFY(r.server.stats);
            const ServerStepStats& st = *r.server.stats;
            QVERIFY(st.servers.empty()); // one URL that is both the engine and its GPUs
            QCOMPARE(st.gpuCount, 2);
            QCOMPARE(st.energySource, QStringLiteral("counter"));
            // Two GPUs draw at least 75 W each over the step's simulated time, at most 700 W. The samples'
            // times are the client's, taken when each scrape came back: on a loaded machine a reply can
            // come up to half a second (10 simulated seconds) after the server read its counter.
            const double simS = (r.server.samples.back().atS - r.server.samples.front().atS) * 20.0;
            constexpr double kScrapeLagSimS = 10.0;
            QVERIFY2(*st.energyJ >= 2 * 75.0 * std::max(0.0, simS - kScrapeLagSimS)
                    && *st.energyJ <= 2 * 700.0 * (simS + kScrapeLagSimS),
                qPrintable(QStringLiteral("%1 over %2 simulated s").arg(st.summary()).arg(simS)));
            QCOMPARE(r.metrics.joulesPerOutputToken, *st.energyJ / double(r.metrics.totalOutputTokens));
            // The result file carries it at the top level, and reads it back.
            const QByteArray file = ResultJson::write(StepSetup {}, r.metrics);
            const QJsonObject doc = QJsonDocument::fromJson(file).object();
            QCOMPARE(doc.value(u"joules_per_output_token").toDouble(), *r.metrics.joulesPerOutputToken);
            const ResultFileContents back = ResultJson::read(file, QStringLiteral("step.json"));
            QCOMPARE(back.steps.front().metrics.joulesPerOutputToken, r.metrics.joulesPerOutputToken);
        }
        const ServerStepStats& low = *run.results[0].server.stats;
        const ServerStepStats& high = *run.results[1].server.stats;
        QVERIFY(*high.gpuUtilisationMean > 0 && *high.gpuUtilisationMean <= 100);
        QVERIFY2(*high.gpuFbUsedMaxMiB > *low.gpuFbUsedMaxMiB, qPrintable(high.summary())); // KV usage
    }

    void sweepScrapesSeveralUrlsApart()
    {
        sim::SimHost idle; // a second replica the load balancer never sends to
        sim::SimServerOptions options;
        options.timeScale = 20;
        QVERIFY2(idle.start(options), qPrintable(idle.errorString()));
        CannedExporter exporter(fixture("dcgm.prom"));
        Profile p = simProfile();
        p.workload.numPrompts = 40;
        p.target.metricsUrls
            = { QStringLiteral("BASE"), idle.baseUrl().toString() + QStringLiteral("/metrics"), exporter.url() };
        const LiveSweep run = runSimSweep(p);
        QVERIFY(run.finished);
        QVERIFY2(run.notes.isEmpty(), qPrintable(run.notes.join(u'\n'))); // the exporter is accepted
        QCOMPARE(run.serverReported.value(u"metrics_urls").toArray().size(), 3);
        for (const StepResult& r : run.results) {
            QVERIFY(r.server.stats);
            const ServerStepStats& st = *r.server.stats;
            QCOMPARE(st.engine, QStringLiteral("vllm"));
            QCOMPARE(st.servers.size(), std::size_t(3));
            QCOMPARE(r.server.serverSamples.size(), std::size_t(3));
            QCOMPARE(st.servers[1].url, idle.baseUrl().toString() + QStringLiteral("/metrics"));
            QCOMPARE(st.servers[1].runningMax, 0.0);
            QCOMPARE(st.servers[1].generationTokens, 0.0);
            QCOMPARE(st.servers[2].url, exporter.url());
            QCOMPARE(st.servers[2].engine, QString());
            QCOMPARE(st.servers[2].gpuCount, 2);
            QCOMPARE(st.servers[2].energyJ, 0.0); // the canned counters do not move
            // Counters add up over the replicas: all of them from the loaded one.
            QCOMPARE(st.generationTokens, st.servers[0].generationTokens);
            QCOMPARE(st.kvUsageMax, st.servers[0].kvUsageMax);
            QCOMPARE(st.gpuCount, 2);
            const QJsonArray servers = st.serversJson();
            QCOMPARE(servers.at(2).toObject().value(u"url").toString(), exporter.url());
            // The metrics file keeps each URL's samples apart and the combined ones readable as before.
            const QByteArray jsonl = r.server.samplesJsonl();
            QCOMPARE(StepTelemetry::samplesFromJsonl(jsonl).size(), r.server.samples.size());
            QCOMPARE(StepTelemetry::samplesFromJsonl(jsonl, exporter.url()).size(), r.server.serverSamples[2].size());
        }
    }

    void targetWithoutMetricsIsNotedOnce()
    {
        Profile p = simProfile();
        p.target.metricsUrl = QStringLiteral("missing");
        p.workload.numPrompts = 20;
        const LiveSweep run = runSimSweep(p);
        QVERIFY(run.finished);
        QCOMPARE(run.results.size(), std::size_t(2));
        QCOMPARE(run.notes.size(), 1);
        QVERIFY2(run.notes.first().startsWith(QStringLiteral("no server metrics (")), qPrintable(run.notes.first()));
        QVERIFY2(run.notes.first().contains(QStringLiteral("HTTP 404")), qPrintable(run.notes.first()));
        for (const StepResult& r : run.results) {
            QVERIFY(r.server.isEmpty());
            QVERIFY(!r.server.stats);
            QCOMPARE(r.metrics.completed, qint64(20));
        }
        QCOMPARE(run.liveSamples, 0);
        QVERIFY(run.serverReported.value(QStringLiteral("metrics_unavailable")).toString().contains(u"404"));
        // /version and /v1/models still answered.
        QCOMPARE(run.serverReported.value(QStringLiteral("max_model_len")).toInt(), 2048);
    }
};

QTEST_GUILESS_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
