#pragma once

#include <QList>
#include <QString>
#include <QStringView>

namespace kp {

// One model name of a mix (workload.model_mix, --model-mix) and its weight.
struct ModelShare
{
    QString model;
    double weight = 0;
    bool operator==(const ModelShare&) const = default;
};

struct ModelMix
{
    QList<ModelShare> shares; // in the order given; empty: no mix
    QString error; // names the entry that is wrong; empty when the text is a mix (or empty)
    bool ok() const { return error.isEmpty(); }
};

// "a:0.7,b:0.3": comma-separated NAME:WEIGHT entries (the name is what precedes the last colon, so
// names may hold colons themselves). Weights are finite numbers >= 0 that sum to more than 0; a name
// may appear once. Empty text is no mix.
ModelMix parseModelMix(QStringView text);

// The share a request at this position of the prompt order goes to: a seeded draw by weight, the same
// for the same seed and position whatever the step's load or sharding. shares must be non-empty.
qsizetype pickModel(const QList<ModelShare>& shares, quint64 seed, qint64 position);

} // namespace kp
