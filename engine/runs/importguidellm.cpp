// GuideLLM's benchmarks report: {"benchmarks": [...]}, every generation from args.strategy/run_stats to
// config.strategy/scheduler_state.
#include "runs/importformats.h"

#include <QDateTime>
#include <QJsonArray>

#include <cmath>
#include <limits>

namespace kp::importdetail {

namespace {

using Step = ImportedFileStep;

// ---- GuideLLM -------------------------------------------------------------------------------------------

class GuidellmReader
{
public:
    GuidellmReader(const QString& path, QString* error)
        : m_path(path)
        , m_error(error)
    { }

    bool read(const QJsonObject& report, FileContents& out);

private:
    bool fail(const QString& where, const QString& message)
    {
        *m_error = QStringLiteral("%1: %2: %3").arg(m_path, where, message);
        return false;
    }
    bool readBenchmark(const QJsonObject& b, const QString& where, Step& step);
    // A StatusDistributionSummary's "successful" part as LatencyStats (values times scale).
    static LatencyStats stats(const QJsonObject& metrics, const char* key, double scale);
    static double successful(const QJsonObject& metrics, const char* key, const char* field, double otherwise);

    QString m_path;
    QString* m_error;
};

QJsonObject successfulPart(const QJsonObject& metrics, const char* key)
{
    return metrics.value(QLatin1String(key)).toObject().value(u"successful").toObject();
}

LatencyStats GuidellmReader::stats(const QJsonObject& metrics, const char* key, double scale)
{
    const QJsonObject d = successfulPart(metrics, key);
    LatencyStats s = LatencyStats::unknown();
    if (d.isEmpty())
        return s;
    if (d.value(u"count").isDouble())
        s.count = qint64(d.value(u"count").toDouble());
    s.mean = d.value(u"mean").toDouble(kUnknown) * scale;
    s.median = d.value(u"median").toDouble(kUnknown) * scale;
    s.stddev = d.value(u"std_dev").toDouble(kUnknown) * scale;
    s.min = d.value(u"min").toDouble(kUnknown) * scale;
    s.max = d.value(u"max").toDouble(kUnknown) * scale;
    static const std::pair<const char*, double> names[] = { { "p001", 0.1 }, { "p01", 1 }, { "p05", 5 }, { "p10", 10 },
        { "p25", 25 }, { "p50", 50 }, { "p75", 75 }, { "p90", 90 }, { "p95", 95 }, { "p99", 99 }, { "p999", 99.9 } };
    const QJsonObject p = d.value(u"percentiles").toObject();
    for (const auto& [name, percentile] : names) {
        const QJsonValue v = p.value(QLatin1String(name));
        if (v.isDouble())
            s.percentiles.emplace_back(percentile, v.toDouble() * scale);
    }
    return s;
}

double GuidellmReader::successful(const QJsonObject& metrics, const char* key, const char* field, double otherwise)
{
    const QJsonValue v = successfulPart(metrics, key).value(QLatin1String(field));
    return v.isDouble() ? v.toDouble() : otherwise;
}

QJsonObject firstObject(const QJsonObject& o, std::initializer_list<const char*> keys)
{
    for (const char* key : keys) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isObject())
            return v.toObject();
    }
    return {};
}

// The first string under one of `keys`, searched depth-first through nested objects.
QString findString(const QJsonObject& o, std::initializer_list<const char*> keys, int depth = 0)
{
    for (const char* key : keys) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
    }
    if (depth >= 3)
        return {};
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.value().isObject()) {
            const QString found = findString(it.value().toObject(), keys, depth + 1);
            if (!found.isEmpty())
                return found;
        }
    }
    return {};
}

bool GuidellmReader::readBenchmark(const QJsonObject& b, const QString& where, Step& step)
{
    // The strategy: config.strategy (current reports), args.strategy (older ones) or strategy.
    QJsonObject strategy = firstObject(b.value(u"config").toObject(), { "strategy" });
    QString strategyWhere = where + QStringLiteral(".config.strategy");
    if (strategy.isEmpty()) {
        strategy = firstObject(b.value(u"args").toObject(), { "strategy" });
        strategyWhere = where + QStringLiteral(".args.strategy");
    }
    if (strategy.isEmpty()) {
        strategy = b.value(u"strategy").toObject();
        strategyWhere = where + QStringLiteral(".strategy");
    }
    if (strategy.isEmpty())
        return fail(where, QStringLiteral("no strategy (config.strategy, args.strategy): the load is unknown"));
    QString type = strategy.value(u"type_").toString();
    if (type.isEmpty())
        type = strategy.value(u"type").toString();
    StepSetup& s = step.setup;
    if (type == QLatin1String("constant") || type == QLatin1String("poisson")) {
        const QJsonValue rate = strategy.value(u"rate");
        if (!rate.isDouble() || rate.toDouble() <= 0)
            return fail(strategyWhere + QStringLiteral(".rate"), QStringLiteral("expected a rate > 0"));
        step.mode = LoadMode::Rate;
        step.offered = s.requestRate = rate.toDouble();
        if (strategy.value(u"max_concurrency").isDouble())
            s.maxConcurrency = strategy.value(u"max_concurrency").toInt();
    } else if (type == QLatin1String("synchronous") || type == QLatin1String("concurrent")) {
        int streams = 1;
        if (type == QLatin1String("concurrent")) {
            const QJsonValue v = strategy.value(u"streams");
            if (!v.isDouble() || v.toInt() < 1)
                return fail(strategyWhere + QStringLiteral(".streams"), QStringLiteral("expected a whole number >= 1"));
            streams = v.toInt();
        }
        step.mode = LoadMode::Concurrency;
        step.offered = streams;
        s.maxConcurrency = streams;
        s.requestRate = kUnknown; // users, each sending when its last request ended: the file states no rate
    } else if (type == QLatin1String("throughput")) {
        step.mode = LoadMode::Rate;
        step.offered = s.requestRate = std::numeric_limits<double>::infinity();
        if (strategy.value(u"max_concurrency").isDouble())
            s.maxConcurrency = strategy.value(u"max_concurrency").toInt();
    } else {
        return fail(strategyWhere + QStringLiteral(".type_"),
            QStringLiteral("unknown strategy \"%1\" (synchronous, concurrent, throughput, constant, poisson)")
                .arg(type));
    }

    const QJsonValue metricsValue = b.value(u"metrics");
    if (!metricsValue.isObject())
        return fail(where + QStringLiteral(".metrics"), QStringLiteral("missing or not an object"));
    const QJsonObject m = metricsValue.toObject();
    if (!m.value(u"time_to_first_token_ms").isObject())
        return fail(where + QStringLiteral(".metrics.time_to_first_token_ms"), QStringLiteral("missing"));

    StepMetrics& out = step.metrics;
    out.markForeign();
    double duration = b.value(u"duration").toDouble(-1);
    if (duration <= 0 && b.value(u"end_time").isDouble() && b.value(u"start_time").isDouble())
        duration = b.value(u"end_time").toDouble() - b.value(u"start_time").toDouble();
    if (duration <= 0) {
        const QJsonObject sm = b.value(u"scheduler_metrics").toObject();
        if (sm.value(u"measure_end_time").isDouble() && sm.value(u"measure_start_time").isDouble())
            duration = sm.value(u"measure_end_time").toDouble() - sm.value(u"measure_start_time").toDouble();
    }
    if (duration <= 0) {
        const QJsonObject rs = b.value(u"run_stats").toObject();
        if (rs.value(u"end_time").isDouble() && rs.value(u"start_time").isDouble())
            duration = rs.value(u"end_time").toDouble() - rs.value(u"start_time").toDouble();
    }
    if (duration <= 0)
        return fail(where + QStringLiteral(".duration"),
            QStringLiteral("missing (and no start_time/end_time or scheduler_metrics to compute it)"));
    out.durationS = duration;

    QJsonObject totals = m.value(u"request_totals").toObject();
    if (totals.isEmpty())
        totals = b.value(u"request_totals").toObject();
    if (totals.isEmpty())
        totals = b.value(u"run_stats").toObject().value(u"requests_made").toObject();
    if (totals.isEmpty())
        totals = b.value(u"scheduler_metrics").toObject().value(u"requests_made").toObject();
    // What the report does not give stays unknown; what its own fields give is derived.
    const auto count = [](double value) { return isKnown(value) ? qint64(std::llround(value)) : kUnknownCount; };
    out.completed = totals.value(u"successful").isDouble()
        ? qint64(totals.value(u"successful").toDouble())
        : count(successful(m, "time_to_first_token_ms", "count", kUnknown));
    out.failed = totals.value(u"errored").isDouble() ? qint64(totals.value(u"errored").toDouble()) : kUnknownCount;
    out.options.percentiles = { 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9 };
    out.options.selectedMetrics = { LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl, LatencyMetric::E2el };
    out.requestThroughput = successful(m, "requests_per_second", "mean", kUnknown);
    if (!isKnown(out.requestThroughput) && isKnown(out.completed)) {
        out.requestThroughput = double(out.completed) / duration;
        out.derived.push_back(QStringLiteral("request_throughput"));
    }
    out.outputThroughput = successful(m, "output_tokens_per_second", "mean", kUnknown);
    out.totalTokenThroughput = successful(m, "tokens_per_second", "mean", kUnknown);
    out.totalInputTokens = count(successful(m, "prompt_token_count", "total_sum", kUnknown));
    out.totalOutputTokens = count(successful(m, "output_token_count", "total_sum", kUnknown));
    out.meanConcurrency = successful(m, "request_concurrency", "mean", kUnknown);
    out.maxConcurrentRequests = count(successful(m, "request_concurrency", "max", kUnknown));
    out.maxOutputTokensPerS = kUnknown;
    out.ttft = stats(m, "time_to_first_token_ms", 1);
    out.firstContentTtft = m.contains(u"time_to_first_output_token_ms") ? stats(m, "time_to_first_output_token_ms", 1)
                                                                        : LatencyStats::unknown();
    out.dispatchLag = LatencyStats::unknown();
    // GuideLLM's inter_token_latency_ms of a request is (last token - first token) / (output tokens - 1),
    // every generation; its distribution weights each request by its output tokens - 1 (0.2 and later), so
    // its mean is the mean over all token gaps, the reference's ITL mean where each chunk is one token.
    out.itl = stats(m, "inter_token_latency_ms", 1);
    // TPOT, derived: per request that same (last token - first token) / (output tokens - 1) is the
    // reference's TPOT, (E2EL - TTFT) / (output tokens - 1); the file has no distribution of it over
    // requests unweighted, so tpot = the inter_token_latency_ms distribution, marked derived.
    // time_per_output_token_ms is no TPOT: it divides by all output tokens and, from 0.3 on, counts from
    // the request's start (TTFT included), so it is not read.
    if (!(out.itl == LatencyStats::unknown())) {
        out.tpot = out.itl;
        out.derived.push_back(QStringLiteral("tpot"));
    } else {
        out.tpot = LatencyStats::unknown();
    }
    out.e2el = stats(m, "request_latency", 1000); // seconds
    s.numPrompts = kUnknownCount;
    // The report states the strategy, never vLLM's burstiness (a poisson strategy is not shape 1 by
    // a setting of the file): unknown.
    s.burstiness = kUnknown;
    // Requests still running when the benchmark ended.
    if (totals.value(u"incomplete").isDouble())
        out.incompleteRequests = totals.value(u"incomplete").toInteger();
    // The benchmark's end (epoch seconds), as the reference dates a step: when it finished, local time.
    double end = b.value(u"end_time").toDouble(kUnknown);
    if (!isKnown(end))
        end = b.value(u"run_stats").toObject().value(u"end_time").toDouble(kUnknown);
    if (!isKnown(end))
        end = b.value(u"scheduler_metrics").toObject().value(u"end_time").toDouble(kUnknown);
    if (isKnown(end) && end > 0) {
        s.date = StepSetup::dateString(QDateTime::fromMSecsSinceEpoch(std::llround(end * 1000.0)));
        out.derived.push_back(QStringLiteral("date")); // from end_time, as the reference writes a date
    }
    return true;
}

bool GuidellmReader::read(const QJsonObject& report, FileContents& out)
{
    const QJsonArray benchmarks = report.value(u"benchmarks").toArray();
    if (benchmarks.isEmpty())
        return fail(QStringLiteral("benchmarks"), QStringLiteral("empty: the report holds no benchmark"));
    out.source = QStringLiteral("guidellm");
    for (qsizetype i = 0; i < benchmarks.size(); ++i) {
        const QString where = QStringLiteral("benchmarks[%1]").arg(i);
        if (!benchmarks[i].isObject())
            return fail(where, QStringLiteral("expected an object"));
        const QJsonObject b = benchmarks[i].toObject();
        Step step;
        if (!readBenchmark(b, where, step))
            return false;
        if (out.model.isEmpty())
            out.model = findString(b, { "backend_model", "model" });
        if (out.target.isEmpty())
            out.target = findString(b, { "backend_target", "target" });
        step.setup.modelId = out.model;
        out.steps.push_back(std::move(step));
    }
    if (out.model.isEmpty())
        out.model = findString(report.value(u"args").toObject(), { "model" });
    if (out.target.isEmpty())
        out.target = findString(report.value(u"args").toObject(), { "target" });
    out.toolVersion = findString(report.value(u"metadata").toObject(), { "guidellm_version", "version" });
    QString backend = findString(report.value(u"args").toObject(), { "backend_type", "backend" });
    for (qsizetype i = 0; backend.isEmpty() && i < benchmarks.size(); ++i)
        backend = findString(benchmarks[i].toObject(), { "backend_type" }); // 0.2: worker.backend_type
    for (Step& s : out.steps) {
        s.setup.modelId = out.model;
        s.setup.backend = backend;
    }
    return true;
}

} // namespace

bool readGuidellm(const QString& path, const QJsonObject& report, FileContents& out, QString* error)
{
    return GuidellmReader(path, error).read(report, out);
}

} // namespace kp::importdetail
