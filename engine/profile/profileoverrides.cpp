#include "profile/profileoverrides.h"

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

template <typename T, typename U>
void set(QStringList& changed, const QString& path, T& field, const std::optional<U>& value)
{
    if (!value)
        return;
    field = *value;
    changed.append(path);
}

} // namespace

QStringList applyOverrides(Profile& p, const ProfileOverrides& o)
{
    QStringList changed;
    set(changed, u"target.base_url"_s, p.target.baseUrl, o.baseUrl);
    set(changed, u"target.endpoint"_s, p.target.endpoint, o.endpoint);
    set(changed, u"target.backend"_s, p.target.backend, o.backend);
    set(changed, u"target.model"_s, p.target.model, o.model);
    set(changed, u"target.served_model_name"_s, p.target.servedModelName, o.servedModelName);
    set(changed, u"target.api_key"_s, p.target.apiKey, o.apiKey);
    set(changed, u"target.transport"_s, p.target.transport, o.transport);
    if (o.datasetName) {
        const QString name = o.datasetName->toLower();
        p.workload.dataset = name == u"custom" ? u"jsonl"_s : name;
        changed.append(u"workload.dataset"_s);
    }
    set(changed, u"workload.dataset_path"_s, p.workload.datasetPath, o.datasetPath);
    set(changed, u"workload.num_prompts"_s, p.workload.numPrompts, o.numPrompts);
    set(changed, u"workload.seed"_s, p.workload.seed, o.seed);
    set(changed, u"workload.input_len"_s, p.workload.inputLen, o.inputLen);
    set(changed, u"workload.output_len"_s, p.workload.outputLen, o.outputLen);
    set(changed, u"workload.range_ratio"_s, p.workload.rangeRatio, o.rangeRatio);
    set(changed, u"workload.model_mix"_s, p.workload.modelMix, o.modelMix);
    set(changed, u"workload.image_count"_s, p.workload.imageCount, o.imageCount);
    set(changed, u"workload.image_size"_s, p.workload.imageSize, o.imageSize);
    set(changed, u"workload.image_format"_s, p.workload.imageFormat, o.imageFormat);
    set(changed, u"workload.image_dir"_s, p.workload.imageDir, o.imageDir);
    set(changed, u"workload.input_len_dist"_s, p.workload.inputLenDist, o.inputLenDist);
    set(changed, u"workload.input_len_std"_s, p.workload.inputLenStd, o.inputLenStd);
    set(changed, u"workload.output_len_dist"_s, p.workload.outputLenDist, o.outputLenDist);
    set(changed, u"workload.output_len_std"_s, p.workload.outputLenStd, o.outputLenStd);
    set(changed, u"workload.multi_turn"_s, p.workload.multiTurn, o.multiTurn);
    set(changed, u"workload.multi_turn_history"_s, p.workload.multiTurnHistory, o.multiTurnHistory);
    set(changed, u"workload.think_time_s"_s, p.workload.thinkTimeS, o.thinkTimeS);
    set(changed, u"workload.turns"_s, p.workload.turns, o.turns);
    set(changed, u"workload.system_prompt_len"_s, p.workload.systemPromptLen, o.systemPromptLen);
    set(changed, u"workload.max_model_len"_s, p.workload.maxModelLen, o.maxModelLen);
    set(changed, u"workload.replay_speed"_s, p.workload.replaySpeed, o.replaySpeed);
    set(changed, u"workload.ignore_eos"_s, p.workload.ignoreEos, o.ignoreEos);
    set(changed, u"workload.stream"_s, p.workload.stream, o.stream);
    set(changed, u"workload.embedding_batch"_s, p.workload.embeddingBatch, o.embeddingBatch);
    set(changed, u"workload.sampling.temperature"_s, p.workload.sampling.temperature, o.temperature);
    if (o.rates) {
        p.load.rates = *o.rates;
        p.load.mode = LoadMode::Rate;
        changed.append(u"load.rates"_s);
    }
    if (o.concurrencies) {
        p.load.concurrencies = *o.concurrencies;
        p.load.mode = LoadMode::Concurrency;
        changed.append(u"load.concurrencies"_s);
    }
    set(changed, u"load.burstiness"_s, p.load.burstiness, o.burstiness);
    set(changed, u"load.max_concurrency"_s, p.load.maxConcurrency, o.maxConcurrency);
    set(changed, u"load.warmup_requests"_s, p.load.warmupRequests, o.warmupRequests);
    set(changed, u"workload.prompt_pool"_s, p.workload.promptPool, o.promptPool);
    set(changed, u"load.reset_cache_between_steps"_s, p.load.resetCacheBetweenSteps, o.resetCacheBetweenSteps);
    set(changed, u"slo.ttft_ms"_s, p.slo.ttftMs, o.sloTtftMs);
    set(changed, u"slo.tpot_ms"_s, p.slo.tpotMs, o.sloTpotMs);
    set(changed, u"slo.e2el_ms"_s, p.slo.e2elMs, o.sloE2elMs);
    set(changed, u"output.save_result"_s, p.output.saveResult, o.saveResult);
    set(changed, u"output.save_detailed"_s, p.output.saveDetailed, o.saveDetailed);
    set(changed, u"output.result_dir"_s, p.output.resultDir, o.resultDir);
    set(changed, u"output.result_filename"_s, p.output.resultFilename, o.resultFilename);
    set(changed, u"output.label"_s, p.output.label, o.label);
    if (o.metadata) {
        for (const std::pair<QString, QString>& entry : *o.metadata) {
            const auto same = [&entry](const std::pair<QString, QString>& item) { return item.first == entry.first; };
            if (const auto it = std::find_if(p.output.metadata.begin(), p.output.metadata.end(), same);
                it != p.output.metadata.end())
                it->second = entry.second;
            else
                p.output.metadata.append(entry);
        }
        changed.append(u"output.metadata"_s);
    }
    set(changed, u"output.percentile_metrics"_s, p.output.percentileMetrics, o.percentileMetrics);
    set(changed, u"output.metric_percentiles"_s, p.output.metricPercentiles, o.metricPercentiles);
    return changed;
}

} // namespace kp
