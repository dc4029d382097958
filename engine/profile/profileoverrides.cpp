#include "profile/profileoverrides.h"

#include <algorithm>
#include <string_view>

using namespace Qt::Literals::StringLiterals;

namespace kp {

bool ProfileOverrides::isSet(QStringView key) const
{
    return std::any_of(values.begin(), values.end(), [key](const auto& v) { return v.first == key; });
}

namespace {

// The fields the schema leaves to code of their own; true when the override changed it.
bool applyOwn(Profile& p, const ProfileField& f, const ProfileOverrides& o)
{
    const std::string_view k(f.key);
    if (k == "target.backend" && o.backend) {
        p.target.backend = *o.backend;
    } else if (k == "target.transport" && o.transport) {
        p.target.transport = *o.transport;
    } else if (k == "workload.dataset" && o.datasetName) {
        const QString name = o.datasetName->toLower();
        p.workload.dataset = name == u"custom" ? u"jsonl"_s : name;
    } else if (k == "load.rates" && o.rates) {
        p.load.rates = *o.rates;
        p.load.mode = LoadMode::Rate;
    } else if (k == "load.concurrencies" && o.concurrencies) {
        p.load.concurrencies = *o.concurrencies;
        p.load.mode = LoadMode::Concurrency;
    } else if (k == "output.metadata" && o.metadata) {
        for (const std::pair<QString, QString>& entry : *o.metadata) {
            const auto same = [&entry](const std::pair<QString, QString>& item) { return item.first == entry.first; };
            if (const auto it = std::find_if(p.output.metadata.begin(), p.output.metadata.end(), same);
                it != p.output.metadata.end())
                it->second = entry.second;
            else
                p.output.metadata.append(entry);
        }
    } else if (k == "output.percentile_metrics" && o.percentileMetrics) {
        p.output.percentileMetrics = *o.percentileMetrics;
    } else if (k == "output.metric_percentiles" && o.metricPercentiles) {
        p.output.metricPercentiles = *o.metricPercentiles;
    } else {
        return false;
    }
    return true;
}

} // namespace

QStringList applyOverrides(Profile& p, const ProfileOverrides& o, QStringList* errors)
{
    for (const auto& [key, value] : o.values) {
        const ProfileField* f = profileField(key);
        if ((!f || !f->hasValue()) && errors)
            errors->append(u"%1: not a key of a profile's plain values"_s.arg(key));
    }
    QStringList changed;
    for (const ProfileField& f : profileFields()) {
        if (!f.hasValue()) {
            if (applyOwn(p, f, o))
                changed.append(f.path());
            continue;
        }
        const auto last = std::find_if(
            o.values.rbegin(), o.values.rend(), [&f](const auto& v) { return v.first == QLatin1String(f.key); });
        if (last == o.values.rend())
            continue;
        if (const QString error = setFieldValue(p, f, last->second); !error.isEmpty()) {
            if (errors)
                errors->append(error);
            continue;
        }
        changed.append(f.path());
    }
    return changed;
}

} // namespace kp
