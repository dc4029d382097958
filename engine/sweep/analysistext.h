#pragma once

#include "sweep/kneeanalysis.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace kp {

struct CapacityPlan;

enum class AnalysisTopic {
    Region,
    Knee,
    ThroughputKnee,
    Saturation,
    Collapse,
    SloCapacity,
    Recommended,
    CapacityPlan,
    Note,
    Server // the server's own metrics: KV cache, waiting queue, preemptions (serveranalysis.h)
};
QString analysisTopicKey(AnalysisTopic topic); // "region", "knee", ... as in the JSON

// One sentence of the written analysis and the chart element it is about.
struct AnalysisSentence
{
    AnalysisTopic topic = AnalysisTopic::Note;
    QString text;
    int regionIndex = -1; // into AnalysisResult::regions, for Region sentences
    int stepIndex = -1; // the step it points at, when there is one

    bool operator==(const AnalysisSentence&) const = default;
};

// The written analysis, worded now: in the window's language where translation is on, else (and
// inside an EnglishPhrases scope) in English. Sentences a capacity review can quote: regions, knee,
// throughput knee, saturation, collapse, SLO capacity, recommended point, the capacity plan when given,
// the server's own metrics, then notes.
QList<AnalysisSentence> analysisText(const AnalysisResult& result, const CapacityPlan* plan = nullptr);
QStringList analysisLines(const AnalysisResult& result, const CapacityPlan* plan = nullptr);

} // namespace kp
