#include "sweep/shard.h"

#include "sweep/sweepplanner.h"

#include <cmath>

namespace kp {

qint64 ShardSpec::share(qint64 total) const
{
    if (count <= 1)
        return total;
    return total / count + (index - 1 < total % count ? 1 : 0);
}

quint64 ShardSpec::seed(quint64 stepSeed) const
{
    if (count <= 1)
        return stepSeed;
    // splitmix64 over the seed and the shard: neighbouring seeds and shards give unrelated streams.
    quint64 z = stepSeed ^ (0x9E3779B97F4A7C15ULL * static_cast<quint64>(index)) ^ (static_cast<quint64>(count) << 48);
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::optional<ShardSpec> parseShard(QStringView text, bool zeroBased, QString* error)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    bool okIndex = false, okCount = false;
    const int index = slash > 0 ? text.left(slash).trimmed().toInt(&okIndex) : 0;
    const int count = slash > 0 ? text.mid(slash + 1).trimmed().toInt(&okCount) : 0;
    const int first = zeroBased ? 0 : 1;
    if (!okIndex || !okCount || count < 1 || index < first || index >= count + first) {
        *error = zeroBased ? QStringLiteral("\"%1\" is not I/K with 0 <= I < K (a 0-based completion index)").arg(text)
                           : QStringLiteral("\"%1\" is not I/K with 1 <= I <= K, e.g. 2/4").arg(text);
        return std::nullopt;
    }
    ShardSpec shard;
    shard.index = index - first + 1;
    shard.count = count;
    return shard;
}

std::optional<QDateTime> parseStartTime(QStringView text, QString* error)
{
    const QString s = text.trimmed().toString();
    bool isNumber = false;
    const double epoch = s.toDouble(&isNumber);
    if (isNumber) {
        if (!(epoch > 0) || !std::isfinite(epoch)) {
            *error = QStringLiteral("\"%1\" is not a time: seconds since the epoch must be > 0").arg(s);
            return std::nullopt;
        }
        return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(epoch * 1000.0)), Qt::UTC);
    }
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid()) {
        *error = QStringLiteral(
            "\"%1\" is not a time: give ISO 8601 (2026-11-30T04:00:00Z) or seconds since the epoch (1796011200)")
                     .arg(s);
        return std::nullopt;
    }
    if (t.timeSpec() == Qt::LocalTime) // no offset given: UTC, the same on every node of a cluster
        t.setTimeSpec(Qt::UTC);
    return t.toUTC();
}

QString shardProblem(const Profile& profile, const ShardSpec& shard)
{
    const Load& load = profile.load;
    const Plan& plan = load.plan;
    if (plan.kind == PlanKind::Auto)
        return QStringLiteral("load.plan.kind: an auto plan chooses its loads from measured steps, which shards cannot "
                              "agree on; give a list, linear or geometric plan (e.g. --range 10:80:8)");
    if (plan.refine)
        return QStringLiteral(
            "load.plan.refine: refinement chooses steps from measured results, which shards cannot agree on; "
            "drop it, or refine with a finer fixed range");
    // Repeats of every load are known once the pass is (shards run every step of it), so they pair up;
    // the best load is an SLO verdict of measured steps.
    if (plan.repeats > 0 && plan.repeatScope == Plan::RepeatScope::Best)
        return QStringLiteral("load.plan.repeats: repeats of the best load follow the SLO verdict of measured steps, "
                              "which shards cannot agree on; repeat every load (load.plan.repeat_scope \"all\", "
                              "--repeat-scope all) or list the load again instead");
    if (!shard.active())
        return {};
    const qint64 k = shard.count;
    if (load.maxConcurrency && *load.maxConcurrency < k)
        return QStringLiteral("load.max_concurrency: %1 cannot be split over %2 shards (each needs at least 1)")
            .arg(*load.maxConcurrency)
            .arg(k);
    const std::vector<PlannedStep> steps = SweepPlanner(load, profile.slo).preview();
    for (const PlannedStep& step : steps) {
        if (step.mode == LoadMode::Concurrency) {
            if (step.load < double(k))
                return QStringLiteral("load: %1 cannot be split over %2 shards (each needs at least one user)")
                    .arg(formatLoad(step.mode, step.load))
                    .arg(k);
            if (!load.stepDurationS && profile.workload.numPrompts < k)
                return QStringLiteral("workload.num_prompts: %1 requests cannot be split over %2 shards")
                    .arg(profile.workload.numPrompts)
                    .arg(k);
            continue;
        }
        const qint64 requests = load.stepDurationS && std::isfinite(step.load)
            ? std::max<qint64>(1, static_cast<qint64>(std::ceil(step.load * *load.stepDurationS)))
            : profile.workload.numPrompts;
        if (requests < k)
            return QStringLiteral("%1: %2 requests at %3 cannot be split over %4 shards (each needs at least one)")
                .arg(load.stepDurationS ? QStringLiteral("load.step_duration_s")
                                        : QStringLiteral("workload.num_prompts"))
                .arg(requests)
                .arg(formatLoad(step.mode, step.load))
                .arg(k);
    }
    return {};
}

QStringList prepareShardProfile(Profile& profile)
{
    QStringList notes;
    Plan& plan = profile.load.plan;
    if (plan.earlyStop) {
        plan.earlyStop = false;
        notes << QStringLiteral(
            "early stop is off for shards: each runs every step of the plan, so that the steps pair "
            "up when merged");
    }
    if (plan.stopErrorRate) {
        plan.stopErrorRate.reset();
        notes << QStringLiteral("the error-rate stop is off for shards: each runs every step of the plan");
    }
    return notes;
}

std::optional<QDateTime> StepAlignment::startOf(int index) const
{
    if (!startAt)
        return std::nullopt;
    if (index == 0)
        return startAt;
    if (!(intervalS > 0))
        return std::nullopt;
    return startAt->addMSecs(static_cast<qint64>(std::llround(intervalS * 1000.0 * index)));
}

QJsonObject shardJson(const ShardSpec& shard, const StepAlignment& alignment)
{
    QJsonObject o;
    o.insert(QLatin1String("index"), shard.index);
    o.insert(QLatin1String("count"), shard.count);
    if (alignment.startAt)
        o.insert(QLatin1String("start_at"), alignment.startAt->toUTC().toString(Qt::ISODateWithMs));
    if (alignment.intervalS > 0)
        o.insert(QLatin1String("step_interval_s"), alignment.intervalS);
    return o;
}

} // namespace kp
