#include "profile/modelmix.h"

#include "metrics/phrase.h"

#include <cmath>

namespace kp {

namespace {

// A mix with an error has no shares: nothing half-read is ever used.
ModelMix failed(ModelMix mix)
{
    mix.shares.clear();
    return mix;
}

} // namespace

ModelMix parseModelMix(QStringView text)
{
    ModelMix mix;
    if (text.trimmed().isEmpty())
        return mix;
    double total = 0;
    for (QStringView entry : text.split(u',')) {
        entry = entry.trimmed();
        const qsizetype colon = entry.lastIndexOf(u':');
        if (entry.isEmpty() || colon <= 0 || colon == entry.size() - 1) {
            mix.error
                = phrase("ModelMix", "entry \"%1\": expected NAME:WEIGHT, e.g. \"a:0.7,b:0.3\"").arg(entry.toString());
            return failed(mix);
        }
        ModelShare share;
        share.model = entry.first(colon).trimmed().toString();
        const QString weight = entry.sliced(colon + 1).trimmed().toString();
        bool ok = false;
        share.weight = weight.toDouble(&ok);
        if (!ok || !std::isfinite(share.weight)) {
            mix.error
                = phrase("ModelMix", "entry \"%1\": the weight \"%2\" is not a number").arg(entry.toString(), weight);
            return failed(mix);
        }
        if (share.weight < 0) {
            mix.error = phrase("ModelMix", "entry \"%1\": the weight must be >= 0").arg(entry.toString());
            return failed(mix);
        }
        for (const ModelShare& earlier : mix.shares) {
            if (earlier.model == share.model) {
                mix.error = phrase("ModelMix", "entry \"%1\": the model \"%2\" is listed twice")
                                .arg(entry.toString(), share.model);
                return failed(mix);
            }
        }
        total += share.weight;
        mix.shares.append(share);
    }
    if (!(total > 0)) {
        mix.error = phrase("ModelMix", "the weights of \"%1\" sum to %2; they must sum to a positive number")
                        .arg(text.trimmed().toString(), QString::number(total));
        mix.shares.clear();
    } else if (!std::isfinite(total)) {
        // 1e308 + 1e308: every draw would land on the last model.
        mix.error = phrase("ModelMix",
            "the weights of \"%1\" sum beyond what a number holds; weights are relative (a:1,b:1 is an even mix)")
                        .arg(text.trimmed().toString());
        mix.shares.clear();
    }
    return mix;
}

qsizetype pickModel(const QList<ModelShare>& shares, quint64 seed, qint64 position)
{
    // splitmix64 of (seed, position): independent of how many draws came before.
    quint64 z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<quint64>(position) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const double u = static_cast<double>(z >> 11) / 9007199254740992.0; // [0, 1)
    double total = 0;
    for (const ModelShare& s : shares)
        total += s.weight;
    double cumulative = 0;
    for (qsizetype i = 0; i < shares.size(); ++i) {
        cumulative += shares[i].weight;
        if (u * total < cumulative)
            return i;
    }
    // Rounding at the top end: the last share with a weight.
    for (qsizetype i = shares.size() - 1; i > 0; --i) {
        if (shares[i].weight > 0)
            return i;
    }
    return 0;
}

} // namespace kp
