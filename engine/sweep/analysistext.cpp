#include "sweep/analysistext.h"

#include "metrics/phrase.h"
#include "sweep/capacityplan.h"
#include "sweep/serveranalysis.h"

namespace kp {

using namespace Qt::StringLiterals;

QString analysisTopicKey(AnalysisTopic topic)
{
    switch (topic) {
    case AnalysisTopic::Region:
        return u"region"_s;
    case AnalysisTopic::Knee:
        return u"knee"_s;
    case AnalysisTopic::ThroughputKnee:
        return u"throughput_knee"_s;
    case AnalysisTopic::Saturation:
        return u"saturation"_s;
    case AnalysisTopic::Collapse:
        return u"collapse"_s;
    case AnalysisTopic::SloCapacity:
        return u"slo_capacity"_s;
    case AnalysisTopic::Recommended:
        return u"recommended"_s;
    case AnalysisTopic::CapacityPlan:
        return u"capacity_plan"_s;
    case AnalysisTopic::Note:
        return u"note"_s;
    case AnalysisTopic::Server:
        return u"server"_s;
    }
    return {};
}

QList<AnalysisSentence> analysisText(const AnalysisResult& result, const CapacityPlan* plan)
{
    QList<AnalysisSentence> sentences;
    for (std::size_t i = 0; i < result.regions.size(); ++i) {
        const Region& region = result.regions[i];
        sentences.append({ AnalysisTopic::Region, region.reason.text(), int(i), region.firstStep });
    }
    const std::pair<AnalysisTopic, const Finding*> findings[] = {
        { AnalysisTopic::Knee, &result.knee },
        { AnalysisTopic::ThroughputKnee, &result.throughputKnee },
        { AnalysisTopic::Saturation, &result.saturation },
        { AnalysisTopic::Collapse, &result.collapse },
        { AnalysisTopic::SloCapacity, &result.sloCapacity },
        { AnalysisTopic::Recommended, &result.recommended },
    };
    for (const auto& [topic, finding] : findings) {
        if (!finding->reason.isEmpty())
            sentences.append({ topic, finding->reason.text(), -1, finding->found ? finding->stepIndex : -1 });
    }
    if (plan) {
        sentences.append({ AnalysisTopic::CapacityPlan,
            plan->ok() ? plan->sentence() : phrase("KneeAnalysis", "No capacity plan: %1.").arg(plan->error.text()), -1,
            -1 });
    }
    sentences.append(serverSentences(result.server, result.concurrencyMode));
    for (const Sentence& note : result.notes)
        sentences.append({ AnalysisTopic::Note, note.text(), -1, -1 });
    return sentences;
}

QStringList analysisLines(const AnalysisResult& result, const CapacityPlan* plan)
{
    QStringList lines;
    for (const AnalysisSentence& sentence : analysisText(result, plan))
        lines << sentence.text;
    return lines;
}

} // namespace kp
