#pragma once

#include "profile/profile.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace kp {

// Values given on the command line (the reference tool's flag names), applied on top of a profile.
// Unset fields leave the profile as it is.
struct ProfileOverrides
{
    std::optional<QString> baseUrl; // --base-url
    std::optional<QString> endpoint; // --endpoint
    std::optional<Backend> backend; // --backend
    std::optional<QString> model; // --model
    std::optional<QString> servedModelName; // --served-model-name
    std::optional<QString> apiKey; // --api-key
    std::optional<TransportKind> transport; // --transport
    std::optional<QString> datasetName; // --dataset-name ("custom" is read as "jsonl")
    std::optional<QString> datasetPath; // --dataset-path
    std::optional<int> numPrompts; // --num-prompts
    std::optional<qint64> seed; // --seed
    std::optional<int> inputLen; // --random-input-len
    std::optional<int> outputLen; // --random-output-len
    std::optional<double> rangeRatio; // --random-range-ratio
    std::optional<QString> inputLenDist; // --input-len-dist
    std::optional<double> inputLenStd; // --input-len-std
    std::optional<QString> outputLenDist; // --output-len-dist
    std::optional<double> outputLenStd; // --output-len-std
    std::optional<bool> multiTurn; // --multi-turn
    std::optional<QString> multiTurnHistory; // --multi-turn-history recorded|live
    std::optional<double> thinkTimeS; // --think-time
    std::optional<int> turns; // --turns
    std::optional<int> systemPromptLen; // --system-prompt-len
    std::optional<int> maxModelLen; // --max-model-len
    std::optional<double> replaySpeed; // --replay-speed
    std::optional<bool> ignoreEos; // --ignore-eos
    std::optional<bool> stream; // --no-stream sets false
    std::optional<int> embeddingBatch; // --embedding-batch
    std::optional<QString> modelMix; // --model-mix
    std::optional<int> imageCount; // --image-count
    std::optional<QString> imageSize; // --image-size
    std::optional<QString> imageFormat; // --image-format
    std::optional<QString> imageDir; // --image-dir
    std::optional<double> temperature; // --temperature
    std::optional<QList<double>> rates; // --request-rate (one or more); switches to rate mode
    std::optional<QList<int>> concurrencies; // --concurrency; switches to concurrency mode
    std::optional<double> burstiness; // --burstiness
    std::optional<int> maxConcurrency; // --max-concurrency
    std::optional<int> warmupRequests; // --warmup-requests
    std::optional<int> promptPool; // --prompt-pool
    std::optional<bool> resetCacheBetweenSteps; // --reset-prefix-cache
    std::optional<double> sloTtftMs; // --goodput ttft:MS (see applyGoodput)
    std::optional<double> sloTpotMs; // --goodput tpot:MS
    std::optional<double> sloE2elMs; // --goodput e2el:MS
    std::optional<bool> saveResult; // --save-result
    std::optional<bool> saveDetailed; // --save-detailed
    std::optional<QString> resultDir; // --result-dir
    std::optional<QString> resultFilename; // --result-filename
    std::optional<QString> label; // --label
    // --metadata KEY=VALUE: added to output.metadata, a key given again replacing its value there
    std::optional<QList<std::pair<QString, QString>>> metadata;
    std::optional<QStringList> percentileMetrics; // --percentile-metrics
    std::optional<QList<double>> metricPercentiles; // --metric-percentiles
};

// Applies overrides and returns the profile paths it changed ("load.rates", ...), for logs and the
// run snapshot. The result is not validated: call validateProfile() afterwards.
QStringList applyOverrides(Profile& profile, const ProfileOverrides& overrides);

} // namespace kp
