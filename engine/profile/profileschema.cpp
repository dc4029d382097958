#include "profile/profileschema.h"

#include "metrics/phrase.h"
#include "profile/modelmix.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>
#include <limits>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

// A field's place in the profile: `REF(workload.turns)` is a function returning p.workload.turns.
#define REF(member)                                                                                                    \
    +[](Profile & p) -> auto&                                                                                          \
    {                                                                                                                  \
        return p.member;                                                                                               \
    }

constexpr double kMaxTokens = 10'000'000; // one prompt, output or prefix: a documented cap (docs/PROFILES.md)
constexpr double kMaxTimeoutS = 86'400; // one day
constexpr double kMaxTotalS = 864'000; // ten days: a request, a step
constexpr double kMaxCount = 1'000'000; // warm-up requests, prefixes, suffixes per prefix

constexpr FieldBound above(double v)
{
    return { v, true, false };
}
constexpr FieldBound atLeast(double v)
{
    return { v, false, false };
}
constexpr FieldBound atMost(double v)
{
    return { v, false, false };
}
constexpr FieldBound below(double v)
{
    return { v, true, false };
}
constexpr FieldBound limit(double v)
{
    return { v, false, true };
}

bool rangePlan(const Profile& p)
{
    return p.load.plan.kind == PlanKind::Linear || p.load.plan.kind == PlanKind::Geometric;
}
bool steppedPlan(const Profile& p)
{
    return p.load.plan.kind != PlanKind::List;
}
bool soakMode(const Profile& p)
{
    return p.load.soak;
}

QString parseModelMixFlag(const QString& text, QString* value)
{
    const ModelMix mix = parseModelMix(text);
    *value = text.trimmed();
    return mix.error;
}

QString parseImageSizeFlag(const QString& text, QString* value)
{
    *value = text.trimmed().toLower();
    return parseImageSize(text) ? QString()
                                : u"\"%1\" is not WIDTHxHEIGHT in pixels, each 1 to 8192 (e.g. 448x448)"_s.arg(text);
}

QString parseImageFormatFlag(const QString& text, QString* value)
{
    const QString format = text.trimmed().toLower();
    *value = format == u"jpg" ? u"jpeg"_s : format;
    return knownImageFormats().contains(*value)
        ? QString()
        : u"unknown format \"%1\" (%2)"_s.arg(text, knownImageFormats().join(u", "_s));
}

QString parseDistributionFlag(const QString& text, QString* value)
{
    *value = text.trimmed().toLower();
    return knownLengthDistributions().contains(*value)
        ? QString()
        : u"unknown distribution \"%1\" (%2)"_s.arg(text, knownLengthDistributions().join(u", "_s));
}

QString parseHistoryFlag(const QString& text, QString* value)
{
    *value = text.trimmed().toLower();
    return *value == u"recorded" || *value == u"live" ? QString() : u"unknown mode \"%1\" (recorded, live)"_s.arg(text);
}

using G = LegacyGroup;
using W = WritePolicy;

// In the order a saved profile writes its keys; sections are contiguous.
const ProfileField kFields[] = {
    { .key = "name", .ref = REF(name), .write = W::UnlessDefault, .legacy = G::Root },
    { .key = "description", .ref = REF(description), .write = W::UnlessDefault, .legacy = G::Root },

    { .key = "target.base_url",
        .ref = REF(target.baseUrl),
        .legacy = G::Service,
        .flags = { "base-url" },
        .flagValue = "URL",
        .help = "Server base URL, e.g. http://127.0.0.1:8000." },
    { .key = "target.endpoint",
        .ref = REF(target.endpoint),
        .write = W::UnlessDefault,
        .legacy = G::Service,
        .flags = { "endpoint" },
        .flagValue = "PATH",
        .help = "API path, e.g. /v1/completions." },
    { .key = "target.backend", .legacy = G::Service },
    { .key = "target.model",
        .ref = REF(target.model),
        .legacy = G::Service,
        .aliases = { "model_id", "model" },
        .flags = { "model" },
        .flagValue = "ID",
        .help = "Model id (default: the first the server lists). sweep: repeat for a matrix of models." },
    { .key = "target.served_model_name",
        .ref = REF(target.servedModelName),
        .write = W::UnlessDefault,
        .legacy = G::Service,
        .flags = { "served-model-name" },
        .flagValue = "NAME",
        .help = "Model name sent in requests, when it differs." },
    { .key = "target.api_key",
        .ref = REF(target.apiKey),
        .write = W::UnlessDefault,
        .legacy = G::Service,
        .flags = { "api-key" },
        .flagValue = "KEY",
        .help = "API key (discouraged: visible in the process list; use ${VAR} in the profile or OPENAI_API_KEY)." },
    { .key = "target.headers", .legacy = G::Service },
    { .key = "target.timeouts.connect_s",
        .ref = REF(target.timeouts.connectS),
        .min = above(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .legacy = G::Service,
        .aliases = { "connect_timeout" } },
    { .key = "target.timeouts.first_token_s",
        .ref = REF(target.timeouts.firstTokenS),
        .min = above(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .legacy = G::Service,
        .aliases = { "first_token_timeout" } },
    { .key = "target.timeouts.idle_s",
        .ref = REF(target.timeouts.idleS),
        .min = above(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .legacy = G::Service,
        .aliases = { "idle_timeout" } },
    { .key = "target.timeouts.total_s",
        .ref = REF(target.timeouts.totalS),
        .min = above(0),
        .max = limit(kMaxTotalS),
        .unit = "s",
        .legacy = G::Service,
        .aliases = { "timeout" } },
    { .key = "target.tls_verify",
        .ref = REF(target.tlsVerify),
        .legacy = G::Service,
        .aliases = { "tls_verify", "verify_ssl" } },
    { .key = "target.proxy", .legacy = G::Service },
    { .key = "target.transport", .write = W::UnlessDefault },
    { .key = "target.metrics_url", .ref = REF(target.metricsUrl), .write = W::UnlessDefault },
    { .key = "target.metrics_urls", .write = W::UnlessDefault },
    { .key = "target.metrics_interval_s",
        .ref = REF(target.metricsIntervalS),
        .min = above(0),
        .max = limit(3600),
        .unit = "s",
        .write = W::UnlessDefault },

    { .key = "workload.dataset", .legacy = G::Load, .aliases = { "dataset_name", "dataset" } },
    { .key = "workload.dataset_path",
        .ref = REF(workload.datasetPath),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "dataset-path" },
        .flagValue = "FILE",
        .help = "Dataset file." },
    { .key = "workload.num_prompts",
        .ref = REF(workload.numPrompts),
        .min = atLeast(1),
        .legacy = G::Load,
        .flags = { "num-prompts" },
        .flagValue = "N",
        .help = "Requests per step." },
    { .key = "workload.prompt_pool",
        .ref = REF(workload.promptPool),
        .min = atLeast(0),
        .write = W::UnlessDefault,
        .flags = { "prompt-pool" },
        .flagValue = "N",
        .help = "Draw the requests' prompts from N prompts, so that they repeat (default 0: a prompt no earlier "
                "request of the run sent)." },
    { .key = "workload.seed",
        .ref = REF(workload.seed),
        .legacy = G::Load,
        .flags = { "seed" },
        .flagValue = "N",
        .help = "Random seed." },
    { .key = "workload.input_len",
        .ref = REF(workload.inputLen),
        .min = atLeast(1),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .legacy = G::Load,
        .aliases = { "random_input_len", "input_len" },
        .flags = { "random-input-len", "input-len" },
        .flagValue = "N",
        .help = "Random dataset: prompt tokens (the mean of a distribution)." },
    { .key = "workload.output_len",
        .ref = REF(workload.outputLen),
        .min = atLeast(1),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .legacy = G::Load,
        .aliases = { "random_output_len", "output_len" },
        .flags = { "random-output-len", "output-len" },
        .flagValue = "N",
        .help = "Random dataset: output tokens (max_tokens; the mean of a distribution)." },
    { .key = "workload.range_ratio",
        .ref = REF(workload.rangeRatio),
        .min = atLeast(0),
        .max = below(1),
        .legacy = G::Load,
        .aliases = { "random_range_ratio", "range_ratio" },
        .flags = { "random-range-ratio" },
        .flagValue = "R",
        .help = "Random dataset: length spread, 0..1." },
    { .key = "workload.model_mix",
        .ref = REF(workload.modelMix),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "model-mix" },
        .flagValue = "NAME:WEIGHT,...",
        .help = "Spread each step's requests over model names by weight, e.g. a:0.7,b:0.3 (LoRA adapters behind one "
                "server); seeded by --seed.",
        .parseFlag = parseModelMixFlag },
    { .key = "workload.image_count",
        .ref = REF(workload.imageCount),
        .min = atLeast(0),
        .max = limit(64),
        .unit = "images",
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "image-count" },
        .flagValue = "N",
        .help = "Attach N images to each chat request (openai-chat, openai-responses, anthropic-messages)." },
    { .key = "workload.image_size",
        .ref = REF(workload.imageSize),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "image-size" },
        .flagValue = "WxH",
        .help = "Synthetic images' size in pixels, e.g. 448x448; seeded by --seed, distinct per prompt.",
        .parseFlag = parseImageSizeFlag },
    { .key = "workload.image_format",
        .ref = REF(workload.imageFormat),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "image-format" },
        .flagValue = "FORMAT",
        .help = "Synthetic images' format: png (default) | jpeg.",
        .parseFlag = parseImageFormatFlag },
    { .key = "workload.image_dir",
        .ref = REF(workload.imageDir),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "image-dir" },
        .flagValue = "DIR",
        .help = "Attach the images of this folder instead (PNG, JPEG, WebP, GIF; sorted by name, cycled by prompt); "
                "--image-count defaults to 1." },
    { .key = "workload.input_len_dist",
        .ref = REF(workload.inputLenDist),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "input-len-dist" },
        .flagValue = "SHAPE",
        .help = "Random dataset: prompt lengths uniform (range ratio, default) | fixed | normal | lognormal.",
        .parseFlag = parseDistributionFlag },
    { .key = "workload.output_len_dist",
        .ref = REF(workload.outputLenDist),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "output-len-dist" },
        .flagValue = "SHAPE",
        .help = "Random dataset: output lengths uniform (range ratio, default) | fixed | normal | lognormal.",
        .parseFlag = parseDistributionFlag },
    { .key = "workload.input_len_std",
        .ref = REF(workload.inputLenStd),
        .min = atLeast(0),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .below = QT_TRANSLATE_NOOP("Profile", "must be a number >= 0"),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "input-len-std" },
        .flagValue = "TOKENS",
        .help = "Random dataset: standard deviation of normal or lognormal prompt lengths, tokens." },
    { .key = "workload.output_len_std",
        .ref = REF(workload.outputLenStd),
        .min = atLeast(0),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .below = QT_TRANSLATE_NOOP("Profile", "must be a number >= 0"),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "output-len-std" },
        .flagValue = "TOKENS",
        .help = "Random dataset: standard deviation of normal or lognormal output lengths, tokens." },
    { .key = "workload.prefix_len",
        .ref = REF(workload.prefixLen),
        .min = atLeast(0),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .legacy = G::Load,
        .aliases = { "random_prefix_len", "prefix_len" } },
    { .key = "workload.fixed_output_len",
        .ref = REF(workload.fixedOutputLen),
        .min = atLeast(1),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .aliases = { "sharegpt_output_len", "custom_output_len", "fixed_output_len" } },
    { .key = "workload.filter_lengths", .ref = REF(workload.filterLengths), .write = W::UnlessDefault },
    { .key = "workload.min_len",
        .ref = REF(workload.minLen),
        .min = atLeast(0),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .write = W::UnlessDefault },
    { .key = "workload.max_prompt_len",
        .ref = REF(workload.maxPromptLen),
        .min = atLeast(1),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .write = W::UnlessDefault },
    { .key = "workload.max_total_len",
        .ref = REF(workload.maxTotalLen),
        .min = atLeast(1),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .write = W::UnlessDefault },
    { .key = "workload.bad_lines", .ref = REF(workload.badLines), .write = W::UnlessDefault },
    { .key = "workload.replay_speed",
        .ref = REF(workload.replaySpeed),
        .min = above(0),
        .max = limit(1000),
        .below = QT_TRANSLATE_NOOP("Profile", "must be a number > 0"),
        .write = W::UnlessDefault,
        .appliesText = "replay and mooncake datasets",
        .flags = { "replay-speed" },
        .flagValue = "X",
        .help = "Replay and mooncake datasets: the log's time runs this many times faster." },
    { .key = "workload.num_prefixes",
        .ref = REF(workload.numPrefixes),
        .min = atLeast(1),
        .max = limit(kMaxCount),
        .unit = "prefixes",
        .write = W::UnlessDefault },
    { .key = "workload.suffixes_per_prefix",
        .ref = REF(workload.suffixesPerPrefix),
        .min = atLeast(0),
        .max = limit(kMaxCount),
        .unit = "suffixes",
        .below = QT_TRANSLATE_NOOP("Profile", "must be >= 0 (0: num_prompts / num_prefixes)"),
        .write = W::UnlessDefault },
    { .key = "workload.multi_turn",
        .ref = REF(workload.multiTurn),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "multi-turn" },
        .help
        = "Send each conversation of the dataset as a session: its turns in order, each with the history so far." },
    { .key = "workload.multi_turn_history",
        .ref = REF(workload.multiTurnHistory),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "multi-turn-history" },
        .flagValue = "MODE",
        .help = "History of later turns: recorded (the dataset's answers, default) | live (the server's).",
        .parseFlag = parseHistoryFlag },
    { .key = "workload.think_time_s",
        .ref = REF(workload.thinkTimeS),
        .min = atLeast(0),
        .max = limit(3600),
        .unit = "s",
        .below = QT_TRANSLATE_NOOP("Profile", "must be a number >= 0"),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .aliases = { "think_time", "think_time_s" },
        .appliesText = "multi_turn",
        .flags = { "think-time" },
        .flagValue = "SECONDS",
        .help = "Mean pause in seconds between an answer and the next turn (exponential; 0 allowed)." },
    { .key = "workload.turns",
        .ref = REF(workload.turns),
        .min = atLeast(1),
        .max = limit(10'000),
        .unit = "turns",
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .appliesText = "random dataset with multi_turn",
        .flags = { "turns" },
        .flagValue = "N",
        .help = "Random dataset with --multi-turn: turns per session." },
    { .key = "workload.system_prompt_len",
        .ref = REF(workload.systemPromptLen),
        .min = atLeast(0),
        .max = limit(kMaxTokens),
        .unit = "tokens",
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .appliesText = "random dataset with multi_turn",
        .flags = { "system-prompt-len" },
        .flagValue = "TOKENS",
        .help = "Random dataset with --multi-turn: tokens of the system prompt all sessions share." },
    { .key = "workload.max_model_len",
        .ref = REF(workload.maxModelLen),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .flags = { "max-model-len" },
        .flagValue = "TOKENS",
        .help = "Mooncake trace: a line needing more tokens (input + output) is a bad line. Random dataset: lengths "
                "are clamped to it." },
    { .key = "workload.length_buckets", .write = W::UnlessDefault },
    { .key = "workload.ignore_eos",
        .ref = REF(workload.ignoreEos),
        .legacy = G::Load,
        .flags = { "ignore-eos" },
        .help = "Ask the server to generate exactly max_tokens." },
    { .key = "workload.stream",
        .ref = REF(workload.stream),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "no-stream" },
        .switchSets = false,
        .help = "Ask for whole answers (stream: false): E2EL and throughput only; TTFT, TPOT and ITL are unknown." },
    { .key = "workload.embedding_batch",
        .ref = REF(workload.embeddingBatch),
        .min = atLeast(1),
        .max = limit(10'000),
        .unit = "prompts",
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .appliesText = "openai-embeddings",
        .flags = { "embedding-batch" },
        .flagValue = "N",
        .help = "openai-embeddings: prompts sent together in each request's input (default 1)." },
    { .key = "workload.sampling.temperature",
        .ref = REF(workload.sampling.temperature),
        .min = atLeast(0),
        .legacy = G::Load,
        .aliases = { "temperature" } },
    { .key = "workload.sampling.top_p",
        .ref = REF(workload.sampling.topP),
        .min = above(0),
        .max = atMost(1),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .aliases = { "top_p" } },
    { .key = "workload.sampling.top_k",
        .ref = REF(workload.sampling.topK),
        .min = atLeast(-1),
        .below = QT_TRANSLATE_NOOP("Profile", "must be >= -1 (-1 or 0: disabled)"),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .aliases = { "top_k" } },
    { .key = "workload.sampling.min_p",
        .ref = REF(workload.sampling.minP),
        .min = atLeast(0),
        .max = atMost(1),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .aliases = { "min_p" } },
    { .key = "workload.sampling.presence_penalty",
        .ref = REF(workload.sampling.presencePenalty),
        .min = atLeast(-2),
        .max = atMost(2),
        .write = W::UnlessDefault },
    { .key = "workload.sampling.frequency_penalty",
        .ref = REF(workload.sampling.frequencyPenalty),
        .min = atLeast(-2),
        .max = atMost(2),
        .write = W::UnlessDefault },
    { .key = "workload.sampling.repetition_penalty",
        .ref = REF(workload.sampling.repetitionPenalty),
        .min = above(0),
        .write = W::UnlessDefault },
    { .key = "workload.extra_body", .legacy = G::Load },

    { .key = "load.mode", .legacy = G::Load },
    { .key = "load.rates", .legacy = G::Load },
    { .key = "load.concurrencies", .legacy = G::Load },
    { .key = "load.burstiness",
        .ref = REF(load.burstiness),
        .min = above(0),
        .legacy = G::Load,
        .flags = { "burstiness" },
        .flagValue = "B",
        .help = "Gamma shape of inter-arrival times; 1 = Poisson." },
    { .key = "load.max_concurrency",
        .ref = REF(load.maxConcurrency),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "max-concurrency" },
        .flagValue = "N",
        .help = "Cap on requests in flight." },
    { .key = "load.ramp_up_s",
        .ref = REF(load.rampUpS),
        .min = atLeast(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .legacy = G::Load },
    { .key = "load.warmup_requests",
        .ref = REF(load.warmupRequests),
        .min = atLeast(0),
        .max = limit(kMaxCount),
        .unit = "requests",
        .legacy = G::Load,
        .aliases = { "warmup_requests", "num_warmups" },
        .flags = { "warmup" },
        .flagValue = "N",
        .help = "Warm-up requests before each step (not measured)." },
    { .key = "load.cooldown_s",
        .ref = REF(load.cooldownS),
        .min = atLeast(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .legacy = G::Load,
        .flags = { "cooldown" },
        .flagValue = "S",
        .help = "Seconds between steps." },
    { .key = "load.reset_cache_between_steps",
        .ref = REF(load.resetCacheBetweenSteps),
        .write = W::UnlessDefault,
        .flags = { "reset-prefix-cache" },
        .help = "Empty the server's prefix cache before every step after the first (vLLM /reset_prefix_cache, SGLang "
                "/flush_cache)." },
    { .key = "load.step_duration_s",
        .ref = REF(load.stepDurationS),
        .min = above(0),
        .max = limit(kMaxTotalS),
        .unit = "s",
        .write = W::UnlessDefault,
        .legacy = G::Load,
        .flags = { "step-duration" },
        .flagValue = "S",
        .help = "Run each step this many seconds instead of a prompt count." },
    // load.mode "soak" (docs/PROFILES.md, "Soak"): one step at the first rate, reported per window. The CLI's
    // soak command sets them from --duration and --window, which take units (1h, 90s).
    { .key = "load.soak_duration_s",
        .ref = REF(load.soakDurationS),
        .min = above(0),
        .max = limit(kMaxTotalS),
        .unit = "s",
        .write = W::WhenApplies,
        .applies = soakMode,
        .appliesText = "load.mode soak",
        .help = "Soak: how long the one step sends requests at the rate." },
    { .key = "load.soak_window_s",
        .ref = REF(load.soakWindowS),
        .min = atLeast(0.1),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .write = W::WhenApplies,
        .applies = soakMode,
        .appliesText = "load.mode soak",
        .help = "Soak: the figures are reported per window of this many seconds." },
    { .key = "load.plan.kind" },
    { .key = "load.plan.start",
        .ref = REF(load.plan.start),
        .min = above(0),
        .write = W::WhenApplies,
        .applies = rangePlan,
        .appliesText = "linear and geometric plans" },
    { .key = "load.plan.stop",
        .ref = REF(load.plan.stop),
        .min = above(0),
        .write = W::WhenApplies,
        .applies = rangePlan,
        .appliesText = "linear and geometric plans" },
    // Its lower bound depends on the plan (sweepplanrules.h); the cap holds for every plan.
    { .key = "load.plan.steps",
        .ref = REF(load.plan.steps),
        .max = limit(1000),
        .unit = "steps",
        .write = W::WhenApplies,
        .applies = steppedPlan,
        .appliesText = "linear, geometric and auto plans" },
    { .key = "load.plan.refine",
        .ref = REF(load.plan.refine),
        .flags = { "refine" },
        .help = "After the coarse pass, add steps at the SLO boundary." },
    { .key = "load.plan.tolerance",
        .ref = REF(load.plan.tolerance),
        .min = above(0),
        .max = below(1),
        .flags = { "tolerance" },
        .flagValue = "F",
        .help = "Refine until the boundary is known within this fraction of load (default 0.05)." },
    { .key = "load.plan.max_refine_steps",
        .ref = REF(load.plan.maxRefineSteps),
        .min = atLeast(0),
        .max = limit(1000),
        .unit = "steps" },
    { .key = "load.plan.repeats",
        .ref = REF(load.plan.repeats),
        .min = atLeast(0),
        .max = limit(1000),
        .unit = "repeats",
        .flags = { "repeats" },
        .flagValue = "N",
        .help = "Run every load this many more times, round by round after the pass (--repeat-scope best: only the "
                "highest load that met the SLO)." },
    { .key = "load.plan.repeat_scope", .write = W::UnlessDefault },
    { .key = "load.plan.early_stop",
        .ref = REF(load.plan.earlyStop),
        .flags = { "no-early-stop" },
        .switchSets = false,
        .help = "Keep escalating after the server collapsed." },
    { .key = "load.plan.stop_error_rate",
        .ref = REF(load.plan.stopErrorRate),
        .min = above(0),
        .max = atMost(1),
        .write = W::UnlessDefault,
        .flags = { "stop-error-rate" },
        .flagValue = "F",
        .help = "Stop escalating once a step's error rate passes this fraction." },

    { .key = "slo.ttft_ms", .ref = REF(slo.ttftMs), .min = above(0), .write = W::UnlessDefault, .legacy = G::Slo },
    { .key = "slo.tpot_ms", .ref = REF(slo.tpotMs), .min = above(0), .write = W::UnlessDefault, .legacy = G::Slo },
    { .key = "slo.e2el_ms", .ref = REF(slo.e2elMs), .min = above(0), .write = W::UnlessDefault, .legacy = G::Slo },
    { .key = "slo.ttfc_ms", .ref = REF(slo.ttfcMs), .min = above(0), .write = W::UnlessDefault, .legacy = G::Slo },
    { .key = "slo.percentile", .ref = REF(slo.percentile), .min = above(0), .max = atMost(100), .legacy = G::Slo },
    { .key = "slo.ttft_percentile",
        .ref = REF(slo.ttftPercentile),
        .min = above(0),
        .max = atMost(100),
        .write = W::UnlessDefault,
        .legacy = G::Slo },
    { .key = "slo.tpot_percentile",
        .ref = REF(slo.tpotPercentile),
        .min = above(0),
        .max = atMost(100),
        .write = W::UnlessDefault,
        .legacy = G::Slo },
    { .key = "slo.e2el_percentile",
        .ref = REF(slo.e2elPercentile),
        .min = above(0),
        .max = atMost(100),
        .write = W::UnlessDefault,
        .legacy = G::Slo },
    { .key = "slo.ttfc_percentile",
        .ref = REF(slo.ttfcPercentile),
        .min = above(0),
        .max = atMost(100),
        .write = W::UnlessDefault,
        .legacy = G::Slo },
    { .key = "slo.max_error_rate",
        .ref = REF(slo.maxErrorRate),
        .min = atLeast(0),
        .max = atMost(1),
        .write = W::UnlessDefault,
        .legacy = G::Slo },

    { .key = "server.engine", .ref = REF(server.engine), .write = W::UnlessDefault, .legacy = G::Server },
    { .key = "server.engine_version",
        .ref = REF(server.engineVersion),
        .write = W::UnlessDefault,
        .legacy = G::Server,
        .aliases = { "engine_version", "version" } },
    { .key = "server.host", .ref = REF(server.host), .write = W::UnlessDefault, .legacy = G::Server },
    { .key = "server.port",
        .ref = REF(server.port),
        .min = atLeast(1),
        .max = atMost(65535),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.max_num_seqs",
        .ref = REF(server.maxNumSeqs),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.max_num_batched_tokens",
        .ref = REF(server.maxNumBatchedTokens),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.max_model_len",
        .ref = REF(server.maxModelLen),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.gpu_memory_utilization",
        .ref = REF(server.gpuMemoryUtilization),
        .min = above(0),
        .max = atMost(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.tensor_parallel_size",
        .ref = REF(server.tensorParallelSize),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.pipeline_parallel_size",
        .ref = REF(server.pipelineParallelSize),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.hardware", .ref = REF(server.hardware), .write = W::UnlessDefault, .legacy = G::Server },
    { .key = "server.accelerator", .ref = REF(server.accelerator), .write = W::UnlessDefault, .legacy = G::Server },
    { .key = "server.accelerator_count",
        .ref = REF(server.acceleratorCount),
        .min = atLeast(1),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.driver_version",
        .ref = REF(server.driverVersion),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.runtime_version",
        .ref = REF(server.runtimeVersion),
        .write = W::UnlessDefault,
        .legacy = G::Server },
    { .key = "server.precision", .ref = REF(server.precision), .write = W::UnlessDefault, .legacy = G::Server },
    { .key = "server.notes", .ref = REF(server.notes), .write = W::UnlessDefault, .legacy = G::Server },

    { .key = "server_sweep.command",
        .ref = REF(serverSweep.command),
        .write = W::UnlessDefault,
        .flags = { "serve" },
        .flagValue = "CMD",
        .help = "sweep: start the server with CMD for each combination of --serve-param values ({name}: a value, "
                "{port}: a free port the base URL follows), one run each." },
    { .key = "server_sweep.stop_command",
        .ref = REF(serverSweep.stopCommand),
        .write = W::UnlessDefault,
        .flags = { "serve-stop" },
        .flagValue = "CMD",
        .help = "sweep --serve in the commands mode: the command that takes the server down after each run." },
    { .key = "server_sweep.mode",
        .ref = REF(serverSweep.mode),
        .write = W::UnlessDefault,
        .flags = { "serve-mode" },
        .flagValue = "process|commands",
        .help = "sweep --serve: process (Kneepoint owns the server's process) or commands (--serve brings the "
                "server up, --serve-stop takes it down)." },
    { .key = "server_sweep.parameters", .write = W::UnlessDefault },
    { .key = "server_sweep.ready_timeout_s",
        .ref = REF(serverSweep.readyTimeoutS),
        .min = above(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .write = W::UnlessDefault,
        .flags = { "serve-ready-timeout" },
        .flagValue = "SECONDS",
        .help = "sweep --serve: how long the base URL may take to answer /health or /v1/models (default 600)." },
    { .key = "server_sweep.grace_s",
        .ref = REF(serverSweep.graceS),
        .min = atLeast(0),
        .max = limit(kMaxTimeoutS),
        .unit = "s",
        .write = W::UnlessDefault,
        .flags = { "serve-grace" },
        .flagValue = "SECONDS",
        .help = "sweep --serve: how long the server has to stop after SIGTERM before SIGKILL (default 30)." },

    { .key = "output.save_result",
        .ref = REF(output.saveResult),
        .legacy = G::Output,
        .flags = { "save-result" },
        .help = "Write the reference-compatible result JSON per step." },
    { .key = "output.save_detailed",
        .ref = REF(output.saveDetailed),
        .legacy = G::Output,
        .flags = { "save-detailed" },
        .help = "Include per-request lists in the result JSON." },
    { .key = "output.result_dir",
        .ref = REF(output.resultDir),
        .write = W::UnlessDefault,
        .legacy = G::Output,
        .flags = { "result-dir" },
        .flagValue = "DIR",
        .help = "Directory for --save-result files." },
    { .key = "output.result_filename",
        .ref = REF(output.resultFilename),
        .write = W::UnlessDefault,
        .legacy = G::Output,
        .flags = { "result-filename" },
        .flagValue = "NAME",
        .help = "File name for --save-result (run only)." },
    { .key = "output.label",
        .ref = REF(output.label),
        .write = W::UnlessDefault,
        .legacy = G::Output,
        .flags = { "label" },
        .flagValue = "TEXT",
        .help = "Label stored with the results." },
    { .key = "output.metadata", .write = W::UnlessDefault, .legacy = G::Output },
    { .key = "output.percentile_metrics", .legacy = G::Output },
    { .key = "output.metric_percentiles", .legacy = G::Output },
};

#undef REF

// The shortest decimal that reads back as the same number, with a plain exponent: 3600, 0.05, 1e9.
// Whole-number fields print whole numbers: 100000000, not 1e8.
QString formatBound(double v, bool whole = false)
{
    if (std::isinf(v))
        return v > 0 ? u"inf"_s : u"-inf"_s;
    if (whole && std::trunc(v) == v && std::abs(v) < 1e18)
        return QString::number(qint64(v));
    QString text = QString::number(v, 'g', QLocale::FloatingPointShortest);
    static const QRegularExpression exponent(u"e\\+?(-?)0*(\\d)"_s);
    text.replace(exponent, u"e\\1\\2"_s);
    return text;
}

bool isWhole(const ProfileField& f)
{
    return std::holds_alternative<IntegerRef>(f.ref) || std::holds_alternative<OptionalIntegerRef>(f.ref)
        || std::holds_alternative<Integer64Ref>(f.ref);
}

QString withUnit(const ProfileField& field, double v)
{
    const QString number = formatBound(v, isWhole(field));
    return field.unit ? number + u' ' + QLatin1String(field.unit) : number;
}

bool isLimit(const std::optional<FieldBound>& b)
{
    return b && b->limit;
}

// The interval of a field whose both ends are what the value means: "(0, 1]".
QString intervalText(const ProfileField& f)
{
    return (f.min->open ? u"("_s : u"["_s) + formatBound(f.min->value) + u", "_s + formatBound(f.max->value)
        + (f.max->open ? u")"_s : u"]"_s);
}

// The messages the validator always gave keep their source strings (and translations).
QString intervalMessage(const QString& interval)
{
    if (interval == u"(0, 100]")
        return phrase("Profile", "must be in (0, 100]");
    if (interval == u"[0, 1]")
        return phrase("Profile", "must be in [0, 1]");
    if (interval == u"(0, 1]")
        return phrase("Profile", "must be in (0, 1]");
    if (interval == u"[0, 1)")
        return phrase("Profile", "must be in [0, 1)");
    if (interval == u"(0, 1)")
        return phrase("Profile", "must be in (0, 1)");
    if (interval == u"[-2, 2]")
        return phrase("Profile", "must be in [-2, 2]");
    if (interval == u"[1, 65535]")
        return phrase("Profile", "must be in [1, 65535]");
    return phrase("Profile", "must be in %1").arg(interval);
}

QString lowerMessage(const ProfileField& f)
{
    if (f.below)
        return phrase("Profile", f.below);
    const FieldBound& b = *f.min;
    if (b.value == 0)
        return b.open ? phrase("Profile", "must be > 0") : phrase("Profile", "must be >= 0");
    if (b.value == 1 && !b.open)
        return phrase("Profile", "must be >= 1");
    return (b.open ? phrase("Profile", "must be > %1") : phrase("Profile", "must be >= %1")).arg(formatBound(b.value));
}

} // namespace

QString ProfileField::section() const
{
    const QString k = path();
    const qsizetype dot = k.lastIndexOf(u'.');
    return dot < 0 ? QString() : k.left(dot);
}

QString ProfileField::name() const
{
    const QString k = path();
    return k.mid(k.lastIndexOf(u'.') + 1);
}

bool ProfileField::isDefault(const Profile& profile) const
{
    static const Profile defaults;
    return std::visit(
        [&](auto get) {
            if constexpr (std::is_same_v<decltype(get), std::monostate>)
                return true;
            else
                return get(const_cast<Profile&>(profile)) == get(const_cast<Profile&>(defaults));
        },
        ref);
}

std::span<const ProfileField> profileFields()
{
    return kFields;
}

const ProfileField* profileField(QStringView key)
{
    for (const ProfileField& f : kFields) {
        if (key == QLatin1String(f.key))
            return &f;
    }
    return nullptr;
}

QString fieldRangeIssue(const ProfileField& f, double v)
{
    if (std::isnan(v))
        return phrase("Profile", "is not a number (nan)");
    const bool interval = f.min && f.max && !f.min->limit && !f.max->limit;
    const bool low = f.min && (v < f.min->value || (f.min->open && v == f.min->value));
    const bool high = f.max && (v > f.max->value || (f.max->open && v == f.max->value));
    if (!low && !high)
        return {};
    if (interval)
        return intervalMessage(intervalText(f));
    if (low)
        return isLimit(f.min)
            ? phrase("Profile", "%1 is below the limit %2").arg(formatBound(v, isWhole(f)), withUnit(f, f.min->value))
            : lowerMessage(f);
    if (isLimit(f.max))
        return phrase("Profile", "%1 is above the limit %2").arg(formatBound(v, isWhole(f)), withUnit(f, f.max->value));
    return (f.max->open ? phrase("Profile", "must be < %1") : phrase("Profile", "must be <= %1"))
        .arg(formatBound(f.max->value));
}

QString fieldRangeText(const ProfileField& f)
{
    if (f.min && f.max)
        return u"%1 to %2"_s.arg(formatBound(f.min->value), withUnit(f, f.max->value));
    if (f.min)
        return (f.min->open ? u"above %1"_s : u"at least %1"_s).arg(formatBound(f.min->value));
    if (f.max)
        return u"at most %1"_s.arg(withUnit(f, f.max->value));
    return {};
}

std::optional<double> fieldNumber(const Profile& profile, const ProfileField& field)
{
    Profile& p = const_cast<Profile&>(profile);
    return std::visit(
        [&](auto ref) -> std::optional<double> {
            using R = decltype(ref);
            if constexpr (std::is_same_v<R, std::monostate> || std::is_same_v<R, TextRef>) {
                return std::nullopt;
            } else if constexpr (std::is_same_v<R, OptionalNumberRef> || std::is_same_v<R, OptionalIntegerRef>) {
                const auto& v = ref(p);
                return v ? std::optional<double>(double(*v)) : std::nullopt;
            } else {
                return double(ref(p));
            }
        },
        field.ref);
}

namespace {

template <typename Int> QString toInteger(const ProfileField& f, const FieldValue& value, Int* out)
{
    double d = 0;
    if (const auto* i = std::get_if<qint64>(&value)) {
        if (*i < qint64(std::numeric_limits<Int>::min()) || *i > qint64(std::numeric_limits<Int>::max()))
            return u"%1: %2 is out of range: at most %3"_s.arg(f.path()).arg(*i).arg(std::numeric_limits<Int>::max());
        *out = Int(*i);
        return {};
    }
    if (const auto* n = std::get_if<double>(&value))
        d = *n;
    else
        return u"%1: expected a whole number"_s.arg(f.path());
    if (std::trunc(d) != d)
        return u"%1: expected a whole number, got %2"_s.arg(f.path(), formatBound(d));
    if (d < double(std::numeric_limits<Int>::min()) || d > double(std::numeric_limits<Int>::max()))
        return u"%1: %2 is out of range: at most %3"_s.arg(f.path(), formatBound(d))
            .arg(std::numeric_limits<Int>::max());
    *out = Int(d);
    return {};
}

std::optional<double> asDouble(const FieldValue& value)
{
    if (const auto* n = std::get_if<double>(&value))
        return *n;
    if (const auto* i = std::get_if<qint64>(&value))
        return double(*i);
    return std::nullopt;
}

} // namespace

QString setFieldValue(Profile& p, const ProfileField& f, const std::optional<FieldValue>& value)
{
    return std::visit(
        [&](auto ref) -> QString {
            using R = decltype(ref);
            if constexpr (std::is_same_v<R, std::monostate>) {
                return u"%1: not a plain value"_s.arg(f.path());
            } else if constexpr (std::is_same_v<R, OptionalNumberRef> || std::is_same_v<R, OptionalIntegerRef>) {
                if (!value) {
                    ref(p).reset();
                    return {};
                }
                if constexpr (std::is_same_v<R, OptionalNumberRef>) {
                    const auto d = asDouble(*value);
                    if (!d)
                        return u"%1: expected a number"_s.arg(f.path());
                    ref(p) = *d;
                    return {};
                } else {
                    int i = 0;
                    if (QString e = toInteger(f, *value, &i); !e.isEmpty())
                        return e;
                    ref(p) = i;
                    return {};
                }
            } else {
                if (!value)
                    return u"%1: a value is required"_s.arg(f.path());
                if constexpr (std::is_same_v<R, TextRef>) {
                    const auto* s = std::get_if<QString>(&*value);
                    if (!s)
                        return u"%1: expected a string"_s.arg(f.path());
                    ref(p) = *s;
                } else if constexpr (std::is_same_v<R, FlagRef>) {
                    const auto* b = std::get_if<bool>(&*value);
                    if (!b)
                        return u"%1: expected true or false"_s.arg(f.path());
                    ref(p) = *b;
                } else if constexpr (std::is_same_v<R, NumberRef>) {
                    const auto d = asDouble(*value);
                    if (!d)
                        return u"%1: expected a number"_s.arg(f.path());
                    ref(p) = *d;
                } else if constexpr (std::is_same_v<R, IntegerRef>) {
                    int i = 0;
                    if (QString e = toInteger(f, *value, &i); !e.isEmpty())
                        return e;
                    ref(p) = i;
                } else {
                    qint64 i = 0;
                    if (QString e = toInteger(f, *value, &i); !e.isEmpty())
                        return e;
                    ref(p) = i;
                }
                return {};
            }
        },
        f.ref);
}

} // namespace kp
