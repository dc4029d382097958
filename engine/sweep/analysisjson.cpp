#include "sweep/analysisjson.h"

#include "metrics/jsonvalues.h"
#include "metrics/phrase.h"
#include "sweep/analysistext.h"
#include "sweep/capacityplan.h"
#include "sweep/serveranalysis.h"

#include <QJsonArray>
#include <QJsonValue>

#include <cmath>

namespace kp {

using namespace Qt::StringLiterals;
using namespace jsonvalues;

namespace {

QJsonValue findingJson(const Finding& f)
{
    if (!f.found)
        return QJsonValue(QJsonValue::Null);
    QJsonObject o;
    o.insert(u"offered"_s, numberOrText(f.offered));
    o.insert(u"achieved"_s, numberOrText(f.achieved));
    o.insert(u"output_throughput"_s, numberOrText(f.outputThroughput));
    o.insert(u"step_index"_s, indexOrNull(f.stepIndex));
    o.insert(u"lower_bound"_s, f.lowerBound);
    o.insert(u"reason"_s, f.reason.text());
    return o;
}

} // namespace

QJsonObject analysisJson(const AnalysisResult& result, const CapacityPlan* plan)
{
    // For files: every sentence is worded in English, under any language of the window.
    const EnglishPhrases inEnglish;
    const AnalysisOptions& options = result.options;
    QJsonObject out;
    out.insert(u"mode"_s, result.concurrencyMode ? u"concurrency"_s : u"rate"_s);
    out.insert(u"load_unit"_s, result.concurrencyMode ? u"users"_s : u"req/s"_s);
    out.insert(u"metric"_s, latencyMetricKey(options.metric));
    out.insert(u"percentile"_s, options.percentile);

    QJsonObject settings;
    settings.insert(u"saturation_fraction"_s, options.saturationFraction);
    settings.insert(u"recommended_throughput_fraction"_s, options.recommendedThroughputFraction);
    settings.insert(u"max_error_rate"_s, options.maxErrorRate);
    settings.insert(u"collapse_drop"_s, options.collapseDrop);
    settings.insert(u"knee_sensitivity"_s, options.kneeSensitivity);
    settings.insert(u"min_latency_rise"_s, options.minLatencyRise);
    settings.insert(u"min_knee_steps"_s, options.minKneeSteps);
    out.insert(u"options"_s, settings);

    if (options.slo.isEmpty()) {
        out.insert(u"slo"_s, QJsonValue(QJsonValue::Null));
    } else {
        QJsonObject slo;
        slo.insert(u"percentile"_s, options.slo.percentile);
        slo.insert(u"ttft_ms"_s, valueOrNull(options.slo.ttftMs));
        slo.insert(u"tpot_ms"_s, valueOrNull(options.slo.tpotMs));
        slo.insert(u"e2el_ms"_s, valueOrNull(options.slo.e2elMs));
        if (options.slo.ttfcMs)
            slo.insert(u"ttfc_ms"_s, *options.slo.ttfcMs);
        slo.insert(u"max_error_rate"_s, valueOrNull(options.slo.maxErrorRate));
        // A limit's own percentile, only where it has one (old readers see the shared one).
        for (const auto& [key, p] : { std::pair { u"ttft_percentile"_s, options.slo.ttftPercentile },
                 std::pair { u"tpot_percentile"_s, options.slo.tpotPercentile },
                 std::pair { u"e2el_percentile"_s, options.slo.e2elPercentile },
                 std::pair { u"ttfc_percentile"_s, options.slo.ttfcPercentile } }) {
            if (p)
                slo.insert(key, *p);
        }
        out.insert(u"slo"_s, slo);
    }

    QJsonObject reasons;
    const std::pair<QString, const Finding*> findings[] = {
        { u"knee"_s, &result.knee },
        { u"throughput_knee"_s, &result.throughputKnee },
        { u"saturation"_s, &result.saturation },
        { u"collapse"_s, &result.collapse },
        { u"slo_capacity"_s, &result.sloCapacity },
        { u"recommended"_s, &result.recommended },
    };
    for (const auto& [key, finding] : findings) {
        out.insert(key, findingJson(*finding));
        if (!finding->found)
            reasons.insert(key, finding->reason.text());
    }
    if (result.sloCapacity.found) {
        QJsonObject slo = out.value(u"slo_capacity"_s).toObject();
        slo.insert(u"binding"_s,
            result.bindingSlo == SloLimit::None ? QJsonValue(QJsonValue::Null)
                                                : QJsonValue(sloLimitKey(result.bindingSlo)));
        out.insert(u"slo_capacity"_s, slo);
    }
    if (plan && plan->ok()) {
        out.insert(u"capacity_plan"_s, plan->toJson());
    } else {
        out.insert(u"capacity_plan"_s, QJsonValue(QJsonValue::Null));
        reasons.insert(
            u"capacity_plan"_s, plan ? plan->error.text() : u"no peak demand was given (for example --peak 1000)"_s);
    }
    out.insert(u"reasons"_s, reasons);
    // No usable step: the peak is unknown, not 0.
    out.insert(u"peak_throughput"_s,
        result.peakStep >= 0 ? numberOrText(result.peakThroughput) : QJsonValue(QJsonValue::Null));
    out.insert(u"peak_step"_s, indexOrNull(result.peakStep));

    QJsonArray regions;
    for (const Region& region : result.regions) {
        QJsonObject o;
        o.insert(u"kind"_s, regionKindKey(region.kind));
        o.insert(u"from"_s, numberOrText(region.fromOffered));
        o.insert(u"to"_s, numberOrText(region.toOffered));
        o.insert(u"first_step"_s, region.firstStep);
        o.insert(u"last_step"_s, region.lastStep);
        o.insert(u"reason"_s, region.reason.text());
        regions.append(o);
    }
    out.insert(u"regions"_s, regions);

    QJsonArray steps;
    for (const StepAssessment& a : result.steps) {
        QJsonObject o;
        o.insert(u"step_index"_s, a.stepIndex);
        o.insert(u"offered"_s, numberOrText(a.offered));
        o.insert(u"achieved"_s, numberOrText(a.achieved));
        o.insert(u"latency_ms"_s, numberOrText(a.latencyMs));
        o.insert(u"error_rate"_s, numberOrText(a.errorRate));
        o.insert(u"used_for_throughput"_s, a.usedForThroughput);
        o.insert(u"used_for_knee"_s, a.usedForKnee);
        o.insert(u"excluded"_s, a.excluded.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.excluded.text()));
        o.insert(u"meets_slo"_s, valueOrNull(a.meetsSlo));
        o.insert(
            u"slo_detail"_s, a.sloDetail.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.sloDetail.text()));
        steps.append(o);
    }
    out.insert(u"steps"_s, steps);
    QJsonArray notes;
    for (const Sentence& note : result.notes)
        notes.append(note.text());
    out.insert(u"notes"_s, notes);
    out.insert(u"server"_s, serverFindingsJson(result.server));
    out.insert(u"text"_s, QJsonArray::fromStringList(analysisLines(result, plan)));
    return out;
}

} // namespace kp
