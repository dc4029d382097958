#include "profile/profilestore.h"

#include "metrics/boundedread.h"
#include "metrics/filewrite.h"
#include "metrics/phrase.h"
#include "profile/profile_p.h"
#include "profile/profilereader_p.h"
#include "profile/sourcedocument_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

using detail::Json;

// Larger files are not profiles; refusing them keeps a wrong path from eating memory.

ProfileFormat detectFormat(const QByteArray& data, const QString& name)
{
    const QString suffix = QFileInfo(name).suffix().toLower();
    qsizetype i = data.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < data.size()) {
        const char c = data[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            ++i;
        } else if (data.mid(i, 2) == "//") {
            i = data.indexOf('\n', i);
            if (i < 0)
                break;
        } else if (data.mid(i, 2) == "/*") {
            i = data.indexOf("*/", i + 2);
            if (i < 0)
                break;
            i += 2;
        } else {
            if (c == '{')
                return ProfileFormat::Json;
            break;
        }
    }
    if (suffix == u"toml")
        return ProfileFormat::Toml;
    if (suffix == u"json")
        return ProfileFormat::Json;
    // Anything else that does not open with '{' can only be TOML ("[service]", "key = value", "#").
    return (i < data.size()) ? ProfileFormat::Toml : ProfileFormat::Json;
}

// Integral values are written without a fraction ("rates": [1, 2.5]), as people write them.
Json number(double v)
{
    if (std::isfinite(v) && std::trunc(v) == v && std::abs(v) < 9.0e15)
        return Json(qint64(v));
    return Json(v);
}

Json rateValue(double rate)
{
    if (std::isinf(rate))
        return Json(formatRate(rate).toStdString());
    return number(rate);
}

std::string str(const QString& s)
{
    return s.toStdString();
}

template <typename T> void putOptional(Json& object, const char* key, const std::optional<T>& value)
{
    if (!value)
        return;
    if constexpr (std::is_floating_point_v<T>)
        object[key] = number(*value);
    else
        object[key] = *value;
}

void putNonEmpty(Json& object, const char* key, const QString& value)
{
    if (!value.isEmpty())
        object[key] = str(value);
}

std::string dumpScalar(const Json& v)
{
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Like dump(2), except that lists of plain values stay on one line ("rates": [1, 2, 4, "inf"]),
// which keeps a sweep readable and diffable.
void writePretty(const Json& v, std::string& out, int indent)
{
    const std::string pad(size_t(indent) + 2, ' ');
    if (v.is_object()) {
        if (v.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += pad + dumpScalar(Json(it.key())) + ": ";
            writePretty(it.value(), out, indent + 2);
            out += std::next(it) == v.end() ? "\n" : ",\n";
        }
        out += std::string(size_t(indent), ' ') + '}';
    } else if (v.is_array()) {
        const bool flat = std::none_of(v.begin(), v.end(), [](const Json& e) { return e.is_structured(); });
        if (flat) {
            out += '[';
            for (auto it = v.begin(); it != v.end(); ++it)
                out += (it == v.begin() ? "" : ", ") + dumpScalar(*it);
            out += ']';
            return;
        }
        out += "[\n";
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += pad;
            writePretty(*it, out, indent + 2);
            out += std::next(it) == v.end() ? "\n" : ",\n";
        }
        out += std::string(size_t(indent), ' ') + ']';
    } else {
        out += dumpScalar(v);
    }
}

Json toDocument(const Profile& p)
{
    Json root = Json::object();
    root["schema"] = str(profileSchemaId());
    putNonEmpty(root, "name", p.name);
    putNonEmpty(root, "description", p.description);

    const Target& t = p.target;
    Json& target = root["target"] = Json::object();
    target["base_url"] = str(t.baseUrl);
    putNonEmpty(target, "endpoint", t.endpoint);
    target["backend"] = str(backendName(t.backend));
    target["model"] = str(t.model);
    putNonEmpty(target, "served_model_name", t.servedModelName);
    putNonEmpty(target, "api_key", t.apiKey);
    Json& headers = target["headers"] = Json::object();
    for (const HttpHeader& h : t.headers)
        headers[str(h.name)] = str(h.value);
    target["timeouts"]
        = Json { { "connect_s", number(t.timeouts.connectS) }, { "first_token_s", number(t.timeouts.firstTokenS) },
              { "idle_s", number(t.timeouts.idleS) }, { "total_s", number(t.timeouts.totalS) } };
    target["tls_verify"] = t.tlsVerify;
    target["proxy"] = t.proxyMode == ProxyMode::None ? "none"
        : t.proxyMode == ProxyMode::System           ? "system"
                                                     : str(t.proxyUrl);
    if (t.transport != TransportKind::Auto)
        target["transport"] = str(transportKindName(t.transport));
    putNonEmpty(target, "metrics_url", t.metricsUrl);
    if (!t.metricsUrls.isEmpty()) {
        Json& urls = target["metrics_urls"] = Json::array();
        for (const QString& url : t.metricsUrls)
            urls.push_back(str(url));
    }
    if (t.metricsIntervalS != Target {}.metricsIntervalS)
        target["metrics_interval_s"] = number(t.metricsIntervalS);

    const Workload& w = p.workload;
    Json& workload = root["workload"] = Json::object();
    workload["dataset"] = str(w.dataset);
    putNonEmpty(workload, "dataset_path", w.datasetPath);
    workload["num_prompts"] = w.numPrompts;
    if (w.promptPool != 0)
        workload["prompt_pool"] = w.promptPool;
    workload["seed"] = w.seed;
    workload["input_len"] = w.inputLen;
    workload["output_len"] = w.outputLen;
    workload["range_ratio"] = number(w.rangeRatio);
    putNonEmpty(workload, "model_mix", w.modelMix);
    if (w.imageCount != 0)
        workload["image_count"] = w.imageCount;
    putNonEmpty(workload, "image_size", w.imageSize);
    if (w.imageFormat != Workload {}.imageFormat)
        workload["image_format"] = str(w.imageFormat);
    putNonEmpty(workload, "image_dir", w.imageDir);
    if (w.inputLenDist != Workload {}.inputLenDist)
        workload["input_len_dist"] = str(w.inputLenDist);
    if (w.outputLenDist != Workload {}.outputLenDist)
        workload["output_len_dist"] = str(w.outputLenDist);
    if (w.inputLenStd)
        workload["input_len_std"] = number(*w.inputLenStd);
    if (w.outputLenStd)
        workload["output_len_std"] = number(*w.outputLenStd);
    workload["prefix_len"] = w.prefixLen;
    putOptional(workload, "fixed_output_len", w.fixedOutputLen);
    // Dataset settings are written only when they differ from the defaults, to keep saved profiles short.
    const Workload defaults;
    if (w.filterLengths != defaults.filterLengths)
        workload["filter_lengths"] = w.filterLengths;
    if (w.minLen != defaults.minLen)
        workload["min_len"] = w.minLen;
    if (w.maxPromptLen != defaults.maxPromptLen)
        workload["max_prompt_len"] = w.maxPromptLen;
    if (w.maxTotalLen != defaults.maxTotalLen)
        workload["max_total_len"] = w.maxTotalLen;
    if (w.badLines != defaults.badLines)
        workload["bad_lines"] = str(w.badLines);
    if (w.replaySpeed != defaults.replaySpeed)
        workload["replay_speed"] = number(w.replaySpeed);
    if (w.numPrefixes != defaults.numPrefixes)
        workload["num_prefixes"] = w.numPrefixes;
    if (w.suffixesPerPrefix != defaults.suffixesPerPrefix)
        workload["suffixes_per_prefix"] = w.suffixesPerPrefix;
    if (w.multiTurn != defaults.multiTurn)
        workload["multi_turn"] = w.multiTurn;
    if (w.multiTurnHistory != defaults.multiTurnHistory)
        workload["multi_turn_history"] = str(w.multiTurnHistory);
    if (w.thinkTimeS != defaults.thinkTimeS)
        workload["think_time_s"] = number(w.thinkTimeS);
    if (w.turns != defaults.turns)
        workload["turns"] = w.turns;
    if (w.systemPromptLen != defaults.systemPromptLen)
        workload["system_prompt_len"] = w.systemPromptLen;
    putOptional(workload, "max_model_len", w.maxModelLen);
    if (w.lengthBuckets != defaults.lengthBuckets) {
        Json edges = Json::array();
        for (int edge : w.lengthBuckets)
            edges.push_back(edge);
        workload["length_buckets"] = edges;
    }
    workload["ignore_eos"] = w.ignoreEos;
    if (!w.stream)
        workload["stream"] = false;
    if (w.embeddingBatch != defaults.embeddingBatch)
        workload["embedding_batch"] = w.embeddingBatch;
    Json& sampling = workload["sampling"] = Json::object();
    sampling["temperature"] = number(w.sampling.temperature);
    putOptional(sampling, "top_p", w.sampling.topP);
    putOptional(sampling, "top_k", w.sampling.topK);
    putOptional(sampling, "min_p", w.sampling.minP);
    putOptional(sampling, "presence_penalty", w.sampling.presencePenalty);
    putOptional(sampling, "frequency_penalty", w.sampling.frequencyPenalty);
    putOptional(sampling, "repetition_penalty", w.sampling.repetitionPenalty);
    workload["extra_body"] = Json::parse(QJsonDocument(w.extraBody).toJson(QJsonDocument::Compact).toStdString());

    const Load& l = p.load;
    Json& load = root["load"] = Json::object();
    load["mode"] = str(loadModeName(l.mode));
    Json& rates = load["rates"] = Json::array();
    for (double r : l.rates)
        rates.push_back(rateValue(r));
    Json& concurrencies = load["concurrencies"] = Json::array();
    for (int c : l.concurrencies)
        concurrencies.push_back(c);
    load["burstiness"] = number(l.burstiness);
    putOptional(load, "max_concurrency", l.maxConcurrency);
    load["ramp_up_s"] = number(l.rampUpS);
    load["warmup_requests"] = l.warmupRequests;
    load["cooldown_s"] = number(l.cooldownS);
    if (l.resetCacheBetweenSteps)
        load["reset_cache_between_steps"] = true;
    putOptional(load, "step_duration_s", l.stepDurationS);
    Json& plan = load["plan"] = Json::object();
    plan["kind"] = str(planKindName(l.plan.kind));
    if (l.plan.kind == PlanKind::Linear || l.plan.kind == PlanKind::Geometric) {
        plan["start"] = number(l.plan.start);
        plan["stop"] = number(l.plan.stop);
    }
    if (l.plan.kind != PlanKind::List)
        plan["steps"] = l.plan.steps;
    plan["refine"] = l.plan.refine;
    plan["tolerance"] = number(l.plan.tolerance);
    plan["max_refine_steps"] = l.plan.maxRefineSteps;
    plan["repeats"] = l.plan.repeats;
    if (l.plan.repeatScope == Plan::RepeatScope::All) // the default, best, is what files without the key mean
        plan["repeat_scope"] = "all";
    plan["early_stop"] = l.plan.earlyStop;
    putOptional(plan, "stop_error_rate", l.plan.stopErrorRate);

    const Slo& s = p.slo;
    Json& slo = root["slo"] = Json::object();
    putOptional(slo, "ttft_ms", s.ttftMs);
    putOptional(slo, "tpot_ms", s.tpotMs);
    putOptional(slo, "e2el_ms", s.e2elMs);
    putOptional(slo, "ttfc_ms", s.ttfcMs);
    slo["percentile"] = number(s.percentile);
    putOptional(slo, "ttft_percentile", s.ttftPercentile);
    putOptional(slo, "tpot_percentile", s.tpotPercentile);
    putOptional(slo, "e2el_percentile", s.e2elPercentile);
    putOptional(slo, "ttfc_percentile", s.ttfcPercentile);
    putOptional(slo, "max_error_rate", s.maxErrorRate);

    const ServerInfo& si = p.server;
    Json& server = root["server"] = Json::object();
    putNonEmpty(server, "engine", si.engine);
    putNonEmpty(server, "engine_version", si.engineVersion);
    putNonEmpty(server, "host", si.host);
    putOptional(server, "port", si.port);
    putOptional(server, "max_num_seqs", si.maxNumSeqs);
    putOptional(server, "max_num_batched_tokens", si.maxNumBatchedTokens);
    putOptional(server, "max_model_len", si.maxModelLen);
    putOptional(server, "gpu_memory_utilization", si.gpuMemoryUtilization);
    putOptional(server, "tensor_parallel_size", si.tensorParallelSize);
    putOptional(server, "pipeline_parallel_size", si.pipelineParallelSize);
    putNonEmpty(server, "hardware", si.hardware);
    putNonEmpty(server, "accelerator", si.accelerator);
    putOptional(server, "accelerator_count", si.acceleratorCount);
    putNonEmpty(server, "driver_version", si.driverVersion);
    putNonEmpty(server, "runtime_version", si.runtimeVersion);
    putNonEmpty(server, "precision", si.precision);
    putNonEmpty(server, "notes", si.notes);

    const Output& o = p.output;
    Json& output = root["output"] = Json::object();
    output["save_result"] = o.saveResult;
    output["save_detailed"] = o.saveDetailed;
    putNonEmpty(output, "result_dir", o.resultDir);
    putNonEmpty(output, "result_filename", o.resultFilename);
    putNonEmpty(output, "label", o.label);
    if (!o.metadata.isEmpty()) {
        Json& metadata = output["metadata"] = Json::object();
        for (const auto& [key, value] : o.metadata)
            metadata[str(key)] = str(value);
    }
    Json& metrics = output["percentile_metrics"] = Json::array();
    for (const QString& m : o.percentileMetrics)
        metrics.push_back(str(m));
    Json& percentiles = output["metric_percentiles"] = Json::array();
    for (double v : o.metricPercentiles)
        percentiles.push_back(number(v));
    if (!p.targetName.isEmpty())
        root["target"] = str(p.targetName); // a reference stays one: editing the saved target updates this profile
    return root;
}

} // namespace

QString profileLayoutName(ProfileLayout layout)
{
    switch (layout) {
    case ProfileLayout::Unknown:
        return u"unknown"_s;
    case ProfileLayout::Kneepoint:
        return u"kneepoint"_s;
    case ProfileLayout::Nested:
        return u"nested"_s;
    case ProfileLayout::Flat:
        return u"flat"_s;
    case ProfileLayout::Tables:
        return u"tables"_s;
    }
    Q_UNREACHABLE();
}

namespace {

ProfileLoadResult loadData(const QByteArray& data, const QString& sourceName, ProfileFormat format,
    const TargetStore* targets, const QString& targetName)
{
    ProfileLoadResult result;
    result.format = format == ProfileFormat::Auto ? detectFormat(data, sourceName) : format;
    const detail::SourceDocument doc = result.format == ProfileFormat::Toml ? detail::parseTomlSource(data, sourceName)
                                                                            : detail::parseJsonSource(data, sourceName);
    result.warnings = doc.warnings;
    if (!doc.isValid()) {
        result.errors = doc.errors;
        qCDebug(lcProfile) << "cannot parse" << sourceName << result.errors;
        return result;
    }
    detail::ReadOutcome outcome = detail::readProfile(doc, sourceName, targets, targetName);
    result.layout = outcome.layout;
    result.errors = outcome.errors;
    result.warnings += outcome.warnings;
    if (result.errors.isEmpty())
        result.profile = std::move(outcome.profile);
    qCDebug(lcProfile) << "read" << sourceName << "layout" << profileLayoutName(result.layout) << "errors"
                       << result.errors.size() << "warnings" << result.warnings.size();
    return result;
}

ProfileLoadResult loadFile(
    const QString& path, ProfileFormat format, const TargetStore* targets, const QString& targetName)
{
    // A FIFO or /dev/zero given as a profile is read in pieces up to the limit, never to its end.
    QString error;
    const std::optional<QByteArray> data = readBoundedFile(path, kMaxSettingsFileBytes, &error);
    if (!data) {
        ProfileLoadResult result;
        result.errors.append(error);
        return result;
    }
    return loadData(*data, path, format, targets, targetName);
}

} // namespace

ProfileLoadResult ProfileStore::load(const QString& path, ProfileFormat format)
{
    return loadFile(path, format, nullptr, QString());
}

ProfileLoadResult ProfileStore::loadForRun(const QString& path, const TargetStore& targets, const QString& targetName)
{
    return loadFile(path, ProfileFormat::Auto, &targets, targetName);
}

ProfileLoadResult ProfileStore::loadFromData(const QByteArray& data, const QString& sourceName, ProfileFormat format)
{
    return loadData(data, sourceName, format, nullptr, QString());
}

ProfileLoadResult ProfileStore::fromJsonObject(const QJsonObject& object, const QString& sourceName)
{
    return loadFromData(QJsonDocument(object).toJson(QJsonDocument::Indented), sourceName, ProfileFormat::Json);
}

QByteArray ProfileStore::toJson(const Profile& profile)
{
    std::string text;
    writePretty(toDocument(profile), text, 0);
    return QByteArray::fromStdString(text) + '\n';
}

QJsonObject ProfileStore::toJsonObject(const Profile& profile)
{
    return QJsonDocument::fromJson(toJson(profile)).object();
}

ProfileSaveResult ProfileStore::save(const Profile& profile, const QString& path)
{
    if (QFileInfo(path).suffix().compare(u"toml", Qt::CaseInsensitive) == 0)
        return { phrase(
            "ProfileStore", "%1: profiles are saved as JSON in Kneepoint's schema; choose a .json file name")
                     .arg(path) };
    const QFileInfo info(path);
    if (!info.absoluteDir().exists() && !QDir().mkpath(info.absolutePath()))
        return { phrase("ProfileStore", "%1: cannot create the directory %2").arg(path, info.absolutePath()) };

    // The previous version stays next to it as PATH.bak. It is copied aside first and becomes PATH.bak
    // only once the profile is written: a failed write leaves the profile and its old PATH.bak as
    // they were.
    const QString backup = path + u".bak"_s;
    const QString pending = backup + u".new"_s;
    const bool hadFile = QFileInfo(path).isFile();
    if (hadFile) {
        QFile::remove(pending);
        if (!QFile::copy(path, pending))
            return { phrase("ProfileStore", "%1: cannot keep the previous version as %2; the profile is unchanged")
                         .arg(path, backup) };
    }
    // writeFileAtomically renames a temporary file over the profile only once everything is written
    // (a special file such as a FIFO is written, not replaced). A literal secret (API key, credential
    // header, password in a URL) makes the file owner-only.
    QString error;
    if (!writeFileAtomically(path, toJson(profile), &error, redactedProfile(profile) != profile)) {
        QFile::remove(pending);
        return { error };
    }
    if (hadFile) {
        QFile::remove(backup);
        QFile::rename(pending, backup);
    }
    qCDebug(lcProfile) << "saved" << path;
    return {};
}

} // namespace kp
