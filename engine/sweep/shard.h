#pragma once

#include "profile/profile.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringView>

#include <optional>

namespace kp {

// One of K clients that together offer a sweep's load (kneepoint-cli run|sweep --shard I/K).
//
// Shard I of K runs the same plan as a single client would, with its share of every step:
//  - rate mode: rate / K, its own arrival seed (derived from the seed, the step and I), and the
//    requests whose index in the single client's step is I-1 modulo K (num_prompts split exactly,
//    the first num_prompts mod K shards taking one more); the same prompts go out as from one client;
//  - concurrency mode: the users split the same way, and the requests (or the step duration) too;
//  - max_concurrency (the gate in rate mode) split the same way.
// The plan must be fixed (list, linear, geometric): shards cannot agree on adaptive decisions
// (auto floor and ceiling, refinement, repeats), and early stop is turned off for them.
struct ShardSpec
{
    int index = 1; // 1-based
    int count = 1;

    bool active() const { return count > 1; }
    QString toString() const { return QStringLiteral("%1/%2").arg(index).arg(count); }
    // This shard's part of a total split K ways: total / K, one more for the first total % K shards.
    qint64 share(qint64 total) const;
    // The offset and stride of this shard's requests in the single client's order.
    int firstRequest() const { return index - 1; }
    int stride() const { return count; }
    // The arrival seed of a step: the unsharded seed when count is 1, else a mix of seed and index.
    quint64 seed(quint64 stepSeed) const;

    bool operator==(const ShardSpec&) const = default;
};

// "I/K" with 1 <= I <= K; with zeroBased, "I/K" with 0 <= I < K (a Kubernetes completion index).
std::optional<ShardSpec> parseShard(QStringView text, bool zeroBased, QString* error);

// A shared start: an ISO 8601 date-time ("2026-11-30T04:00:00Z"; without an offset it is UTC) or
// seconds since the epoch ("1796011200", fractions allowed).
std::optional<QDateTime> parseStartTime(QStringView text, QString* error);

// Why this profile cannot be run as shards of `shard`, naming the field; empty when it can.
// Checks the plan kind, refinement, repeats, and that every step gives each shard at least one
// request and one user.
QString shardProblem(const Profile& profile, const ShardSpec& shard);

// The profile as a shard runs it: early stop and the error-rate stop turned off. Returns notes
// saying what changed (empty when nothing did).
QStringList prepareShardProfile(Profile& profile);

// Where the steps of a run start on the wall clock: step 0 at `startAt`, step k at
// startAt + k * intervalS when intervalS > 0 (else each after the previous one and the cooldown).
struct StepAlignment
{
    std::optional<QDateTime> startAt;
    double intervalS = 0.0;

    bool active() const { return startAt.has_value(); }
    // The wall-clock time step `index` should start at, when aligned.
    std::optional<QDateTime> startOf(int index) const;
};

// run.json "shard": {"index", "count", "start_at", "step_interval_s"}.
QJsonObject shardJson(const ShardSpec& shard, const StepAlignment& alignment);

} // namespace kp
