#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace kp {

// The schema identifier written at the top of every profile Kneepoint saves.
QString profileSchemaId();

enum class Backend {
    OpenAi, // POST /v1/completions
    OpenAiChat, // POST /v1/chat/completions
    Vllm, // vLLM's OpenAI completions server (same wire format as OpenAi)
    OpenAiResponses, // POST /v1/responses (OpenAI's Responses API)
    AnthropicMessages, // POST /v1/messages (Anthropic's Messages API: x-api-key, anthropic-version)
    OpenAiEmbeddings, // POST /v1/embeddings: a batch of inputs per request, never streamed
};
QString backendName(Backend backend);
// Canonical names only (allBackends()' names); the loader also maps the reference
// tool's other names (sglang, vllm-chat, ...) and says so in a warning.
std::optional<Backend> backendFromName(QStringView name);
QString defaultEndpoint(Backend backend);
bool isChatBackend(Backend backend);
QList<Backend> allBackends();
QString backendNames(); // "openai, openai-chat, ... or openai-embeddings", for messages
bool isEmbeddingsBackend(Backend backend); // no output tokens: TTFT, TPOT and ITL do not exist

enum class LoadMode {
    Rate, // open loop: requests arrive at load.rates (requests per second)
    Concurrency, // closed loop: load.concurrencies users, each sends again when its request ends
};
QString loadModeName(LoadMode mode);
std::optional<LoadMode> loadModeFromName(QStringView name);

enum class ProxyMode { None, System, Url };

// How requests reach the server: Kneepoint's own HTTP/1.1 client on plain sockets, or Qt's
// QNetworkAccessManager (proxies, HTTP/2). Auto picks the socket client unless a proxy applies.
enum class TransportKind { Auto, Qnam, Socket };
QString transportKindName(TransportKind kind);
std::optional<TransportKind> transportKindFromName(QStringView name);

// "inf" for infinity, otherwise the shortest decimal that reads back as the same double.
QString formatRate(double rate);
// "inf"/"infinity" (any case) or a number; nullopt unless the result is > 0 (or infinite).
std::optional<double> parseRate(QStringView text);

// Dataset names the workload accepts ("custom" is read as "jsonl").
QStringList knownDatasets();
// Shapes of the random dataset's length distributions (workload.input_len_dist, output_len_dist).
QStringList knownLengthDistributions();
// Formats of synthetic images (workload.image_format).
QStringList knownImageFormats();
// "WxH" (workload.image_size, --image-size): the width and height, each 1..8192 pixels; nullopt otherwise.
std::optional<std::pair<int, int>> parseImageSize(QStringView text);
// The most bytes of pixels (3 per pixel) a request's synthetic images may hold: image_count × width ×
// height × 3. Past it one request would take seconds and gigabytes to encode.
inline constexpr qint64 kMaxImagePixelBytes = 256LL * 1024 * 1024;
// Metric names for output.percentile_metrics.
QStringList knownPercentileMetrics();

struct HttpHeader
{
    QString name;
    QString value; // may contain ${VAR} references, expanded at use
    bool operator==(const HttpHeader&) const = default;
};

// Seconds. Kneepoint enforces these itself rather than through QNetworkRequest's transfer timeout.
struct Timeouts
{
    double connectS = 10;
    double firstTokenS = 600; // request sent → first byte of the response body
    double idleS = 120; // longest silence between two chunks of a stream
    double totalS = 3600; // request sent → last byte
    bool operator==(const Timeouts&) const = default;
};

struct ApiKeyResolution
{
    enum class Source {
        None, // no key: requests carry no Authorization header
        Literal, // written in the profile
        Environment, // ${VAR} in the profile, read from the environment
        OpenAiApiKey, // no key in the profile, OPENAI_API_KEY is set
        File, // "file:PATH" in the profile: the key is the file's first line
        Keychain, // "keychain:ENTRY" in the profile: the desktop keychain's entry ENTRY of service "Kneepoint"
    };
    QString key;
    Source source = Source::None;
    QString variable; // the environment variable read, if any; for File, the file's path; for Keychain, the entry
    QString error; // set when a ${VAR}, file: or keychain: reference cannot be resolved
    bool ok() const { return error.isEmpty(); }
    QString describe() const; // "environment variable FOO", for messages and logs; never the key
};

struct Target
{
    QString baseUrl; // scheme://host[:port][/prefix]; required
    QString endpoint; // path appended to baseUrl; empty: defaultEndpoint(backend)
    Backend backend = Backend::OpenAiChat;
    QString model; // empty: the first model GET /v1/models lists
    QString servedModelName; // the "model" sent in requests when it differs from model
    QString apiKey; // literal, ${VAR}, file:PATH, keychain:ENTRY, or empty (then OPENAI_API_KEY if set)
    QList<HttpHeader> headers; // sent with every request, in this order
    Timeouts timeouts;
    bool tlsVerify = true;
    ProxyMode proxyMode = ProxyMode::None;
    QString proxyUrl; // when proxyMode is Url
    QString metricsUrl; // the server's Prometheus metrics; empty: <base_url>/metrics; "off": not scraped
    // target.metrics_urls: several (the replicas behind a load balancer, GPU exporters), each scraped and
    // kept apart; ["off"] as metricsUrl "off". Empty: metricsUrl decides. Not both at once.
    QStringList metricsUrls;
    // The URLs to scrape: metricsUrls, else metricsUrl as a one-item list; empty for "off" (and for "",
    // which the caller turns into <base_url>/metrics).
    QStringList effectiveMetricsUrls() const;
    double metricsIntervalS = 1.0; // between two scrapes while a step runs
    TransportKind transport = TransportKind::Auto;

    QString effectiveEndpoint() const;
    // base_url "sim://PRESET[?time_scale=F&seed=N]": the built-in simulator, started for the run.
    bool isBuiltinSimulator() const;
    // baseUrl + effectiveEndpoint(). A baseUrl ending in /v1 (as OpenAI SDK settings are written)
    // does not double the /v1 of the endpoint.
    QUrl requestUrl() const;
    // The URL of another path on the same server, e.g. "/v1/models" or "/health", with the same
    // /v1 handling as requestUrl().
    QUrl urlFor(const QString& path) const;
    QString requestModel() const; // servedModelName if set, else model
    // The key and where it comes from. A "keychain:ENTRY" key is read from the keychain (which may wait
    // for its password) unless readKeychain is false: then only its source is told, without key or error.
    ApiKeyResolution resolvedApiKey(bool readKeychain = true) const;
    // Where the key comes from, without reading it (no environment, file or keychain access).
    ApiKeyResolution::Source apiKeySource() const;
    // The warning for a key written into the profile file itself (a literal api_key: neither "${VAR}",
    // "file:PATH" nor "keychain:ENTRY"), naming the file, never the key; empty when there is nothing to warn.
    QString plainTextKeyWarning(const QString& fileName) const;
    // Header values with ${VAR} expanded; the error names the header and the variable.
    QList<HttpHeader> resolvedHeaders(QString* error = nullptr) const;
    bool operator==(const Target&) const = default;
};

struct Sampling
{
    double temperature = 0; // greedy unless set, as the reference does
    std::optional<double> topP;
    std::optional<int> topK;
    std::optional<double> minP;
    std::optional<double> presencePenalty;
    std::optional<double> frequencyPenalty;
    std::optional<double> repetitionPenalty;
    bool operator==(const Sampling&) const = default;
};

struct Workload
{
    QString dataset = QStringLiteral("random"); // one of knownDatasets()
    QString datasetPath; // file for sharegpt/jsonl; relative paths are relative to the working directory
    int numPrompts = 1000; // requests per step (unless load.stepDurationS is set)
    // 0: every request of a run sends a prompt no earlier request sent (synthetic datasets make each
    // anew; files continue through the file across steps). N > 0: the requests draw from N prompts only,
    // so they repeat, as a cache-friendly workload would.
    int promptPool = 0;
    qint64 seed = 0;
    int inputLen = 1024; // random: prompt tokens
    int outputLen = 128; // random: max_tokens
    double rangeRatio = 0; // random: lengths drawn from [len·(1−r), len·(1+r)]
    // random, shared-prefix: how lengths are drawn around input_len/output_len, one of
    // knownLengthDistributions(): "uniform" (range_ratio), "fixed", "normal" or "lognormal" (mean and std).
    QString inputLenDist = QStringLiteral("uniform");
    QString outputLenDist = QStringLiteral("uniform");
    std::optional<double> inputLenStd; // normal, lognormal: standard deviation of the prompt length, tokens
    std::optional<double> outputLenStd; // normal, lognormal: standard deviation of the output length, tokens
    int prefixLen = 0; // random: shared prefix tokens in front of every prompt
    std::optional<int> fixedOutputLen; // sharegpt/jsonl/replay: max_tokens for every request
    // sharegpt: the reference's length filters (dataset tokens): drop prompts or outputs under minLen,
    // prompts over maxPromptLen, prompt + output over maxTotalLen.
    bool filterLengths = true;
    int minLen = 4;
    int maxPromptLen = 1024;
    int maxTotalLen = 2048;
    QString badLines = QStringLiteral("skip"); // jsonl/replay: "skip" (counted, reported) or "fail" (the first fails)
    double replaySpeed = 1; // replay: the log's time runs this many times faster (rate inf steps only)
    int numPrefixes = 8; // shared-prefix: distinct prefixes (prefix_len tokens each)
    int suffixesPerPrefix = 0; // shared-prefix: suffixes (input_len tokens) per prefix; 0: num_prompts / num_prefixes
    // Conversations (docs/PROFILES.md, "Multi-turn sessions"): each conversation is a session whose user
    // turns are sent in order with the history so far; rate or concurrency applies to session starts,
    // num_prompts still counts requests (turns).
    bool multiTurn = false;
    QString multiTurnHistory = QStringLiteral("recorded"); // "recorded": the dataset's answers; "live": the server's
    double thinkTimeS = 0; // mean of the exponential pause between an answer's end and the next turn
    int turns = 1; // random + multi_turn: turns per synthetic session
    int systemPromptLen = 0; // random + multi_turn: system prompt tokens, the same text for every session
    std::optional<int> maxModelLen; // mooncake: a trace line needing more tokens than this is a bad line
    QList<int> lengthBuckets = { 0, 256, 512, 1024, 2048 }; // prompt-token bucket edges; the last is open-ended
    bool ignoreEos = false;
    bool stream = true; // false: whole answers, so TTFT, TPOT and ITL are unknown (embeddings never stream)
    int embeddingBatch = 1; // openai-embeddings: prompts in each request's "input"
    // "a:0.7,b:0.3": each request goes to one of these model names, drawn by weight (seeded), instead of
    // target.model; empty: no mix (modelmix.h).
    QString modelMix;
    // Images in each request (chat, Responses, Messages): image_count of them, synthetic ones of image_size
    // ("WxH" pixels) in image_format ("png" or "jpeg"), or, when image_dir is set, that folder's images.
    int imageCount = 0;
    QString imageSize;
    QString imageFormat = QStringLiteral("png");
    QString imageDir;
    Sampling sampling;
    QJsonObject extraBody; // merged into every request body last, overriding Kneepoint's own keys
    bool operator==(const Workload&) const = default;
};

// How the steps of a sweep are chosen (docs/PROFILES.md, "load.plan").
enum class PlanKind {
    List, // load.rates or load.concurrencies, as given
    Linear, // `steps` loads evenly spaced from `start` to `stop`
    Geometric, // `steps` loads in a geometric progression from `start` to `stop`
    Auto, // a synchronous step and an all-out step measure floor and ceiling; rates fill the range
};
QString planKindName(PlanKind kind);
std::optional<PlanKind> planKindFromName(QStringView name);

struct Plan
{
    PlanKind kind = PlanKind::List;
    double start = 0; // linear, geometric: first load (req/s or users)
    double stop = 0; // linear, geometric: last load
    int steps = 0; // linear, geometric: number of loads; auto: rates between floor and ceiling (default 8)
    bool refine = false; // add steps at the SLO boundary (and around the knee) after the coarse pass
    double tolerance = 0.05; // refine until the boundary is known within this fraction of load
    int maxRefineSteps = 6;
    int repeats = 0; // run loads this many more times, to measure their spread (which loads: repeatScope)
    // Best: the highest load that met the SLO, after the pass (what a profile without repeat_scope means);
    // All: every load the pass measured, round by round once the pass is done.
    enum class RepeatScope { Best, All };
    RepeatScope repeatScope = RepeatScope::Best;
    bool earlyStop = true; // stop escalating once throughput fell for two steps while latency rose
    std::optional<double> stopErrorRate; // ... or once a step's error rate passes this fraction
    bool operator==(const Plan&) const = default;
};

struct Load
{
    LoadMode mode = LoadMode::Rate;
    QList<double> rates
        = { std::numeric_limits<double>::infinity() }; // requests/s, one step each; inf sends every request at once
    QList<int> concurrencies; // users in flight, one step each (mode Concurrency)
    double burstiness = 1; // gamma shape of inter-arrival times; 1 = Poisson
    std::optional<int> maxConcurrency; // cap on requests in flight in rate mode
    double rampUpS = 0; // linear ramp of the arrival rate at the start of each step
    int warmupRequests = 0; // sent before each step, excluded from metrics
    double cooldownS = 0; // pause between steps
    // Before every step after the first, ask the server to empty its prefix cache (vLLM's
    // /reset_prefix_cache, SGLang's /flush_cache), so that no step starts with the previous one's prompts cached.
    bool resetCacheBetweenSteps = false;
    std::optional<double> stepDurationS; // run each step this long instead of numPrompts requests
    // load.mode "soak": one step of soakDurationS at the first rate, reported per window of soakWindowS
    // (mode stays Rate; docs/PROFILES.md, "Soak").
    bool soak = false;
    double soakDurationS = 3600;
    double soakWindowS = 60;
    Plan plan;
    int stepCount() const { return int(mode == LoadMode::Rate ? rates.size() : concurrencies.size()); }
    bool operator==(const Load&) const = default;
};

// A step meets the SLO when the given percentile of each set metric is within its limit and the
// error rate is within maxErrorRate. The same limits define goodput per request.
struct Slo
{
    std::optional<double> ttftMs;
    std::optional<double> tpotMs;
    std::optional<double> e2elMs;
    std::optional<double> ttfcMs; // time to first content token: a reasoning model's first answer token
    double percentile = 99; // the percentile of every limit that names none of its own
    // A limit's own percentile (slo.ttft_percentile, --slo ttft:p90:300); unset: percentile.
    std::optional<double> ttftPercentile;
    std::optional<double> tpotPercentile;
    std::optional<double> e2elPercentile;
    std::optional<double> ttfcPercentile;
    std::optional<double> maxErrorRate; // fraction of failed requests, 0..1
    bool isEmpty() const { return !ttftMs && !tpotMs && !e2elMs && !ttfcMs && !maxErrorRate; }
    double ttftP() const { return ttftPercentile.value_or(percentile); }
    double tpotP() const { return tpotPercentile.value_or(percentile); }
    double e2elP() const { return e2elPercentile.value_or(percentile); }
    double ttfcP() const { return ttfcPercentile.value_or(percentile); }
    // The percentiles the set latency limits are judged at, ascending, each once.
    std::vector<double> limitPercentiles() const
    {
        std::vector<double> out;
        for (const auto& [limit, p] : { std::pair { ttftMs, ttftP() }, std::pair { tpotMs, tpotP() },
                 std::pair { e2elMs, e2elP() }, std::pair { ttfcMs, ttfcP() } }) {
            if (limit && std::find(out.begin(), out.end(), p) == out.end())
                out.push_back(p);
        }
        std::sort(out.begin(), out.end());
        return out;
    }
    bool operator==(const Slo&) const = default;
};

// The reference's --goodput syntax: "ttft:500 tpot:50" (milliseconds; items separated by spaces or
// commas; metrics ttft, tpot, e2el). Sets the limits it names; returns an error naming the bad item.
QString applyGoodput(QStringView spec, Slo& slo);

// Informational: what the server under test runs, kept with the results.
struct ServerInfo
{
    QString engine; // "vllm", "sglang", ...
    QString engineVersion;
    QString host;
    std::optional<int> port;
    std::optional<int> maxNumSeqs;
    std::optional<int> maxNumBatchedTokens;
    std::optional<int> maxModelLen;
    std::optional<double> gpuMemoryUtilization;
    std::optional<int> tensorParallelSize;
    std::optional<int> pipelineParallelSize;
    QString hardware;
    QString accelerator; // "NVIDIA H100 80GB HBM3"
    std::optional<int> acceleratorCount;
    QString driverVersion; // "550.54.15"
    QString runtimeVersion; // "CUDA 12.4", "ROCm 6.1"
    QString precision; // dtype and quantisation: "bf16", "fp8", "awq int4"
    QString notes;
    bool operator==(const ServerInfo&) const = default;
};

// Server configuration sweeps (engine/serve/): the server is started (or restarted) once per combination
// of the parameters' values, and the profile's sweep runs against each; the runs form one group.
struct ServerSweep
{
    // mode "process": command starts the server, which Kneepoint owns (its process group is stopped
    // after each sweep). mode "commands": command brings the server up with the combination (docker,
    // kubectl rollout, systemd) and stop_command takes it down; Kneepoint owns no process.
    QString command; // {name} is a parameter's value, {port} a free port the base URL then uses
    QString stopCommand;
    QString mode; // "process" (the default when empty) or "commands"
    QJsonObject parameters; // name -> [values]: every combination is one run
    double readyTimeoutS = 600; // the base URL answers /health or /v1/models within this
    double graceS = 30; // after SIGTERM (or stop_command), before SIGKILL
    // As run: the combination this run's server was started with (name, value in order) and the
    // command it was started by; run.json and its environment record them. Not a profile key.
    QList<std::pair<QString, QString>> applied;
    QString appliedCommand;
    bool operator==(const ServerSweep&) const = default;
};

struct Output
{
    bool saveResult = false; // write the reference-compatible result JSON
    bool saveDetailed = false; // with per-request lists (input_lens, ttfts, itls, ...)
    QString resultDir;
    QString resultFilename; // empty: the reference's {label or backend}-{rate}qps-{model}-{date}.json
    QString label;
    // Extra top-level keys of every result file, as vLLM's --metadata KEY=VALUE writes them, in order.
    QList<std::pair<QString, QString>> metadata;
    QStringList percentileMetrics = { QStringLiteral("ttft"), QStringLiteral("tpot"), QStringLiteral("itl") };
    QList<double> metricPercentiles = { 99 };
    bool operator==(const Output&) const = default;
};

struct Profile
{
    QString name;
    QString description;
    // The name of a saved target (targets.json, see TargetStore) the profile refers to instead of
    // embedding one; `target` is filled from the store when the profile is run.
    QString targetName;
    Target target;
    Workload workload;
    Load load;
    Slo slo;
    ServerInfo server;
    ServerSweep serverSweep;
    Output output;

    // The built-in demo against the simulator: chat completions, random prompts, a rising rate list.
    static Profile demo(const QUrl& baseUrl, const QString& model = QStringLiteral("kneepoint/sim-default"));
    bool operator==(const Profile&) const = default;
};

struct ProfileIssue
{
    QString path; // e.g. "load.rates[2]"
    QString message; // e.g. "must be > 0"
    QString toString() const { return path.isEmpty() ? message : path + QStringLiteral(": ") + message; }
    bool operator==(const ProfileIssue&) const = default;
};

// Range and consistency checks; an empty list means the profile can be run.
QList<ProfileIssue> validateProfile(const Profile& profile);

// Whether a header of this name carries credentials: Authorization, Proxy-Authorization, Cookie, and any
// name with "key", "token", "secret", "password" or "auth" in it (X-Api-Key, X-Auth-Token, ...).
bool isCredentialHeader(const QString& name);

// A copy fit for run snapshots and logs: literal secrets (api_key, credential-like header values,
// passwords in URLs) become "<redacted>"; ${VAR} and file:PATH references stay as written.
Profile redactedProfile(const Profile& profile);
// A command line with the values of options and variables that name a key, token, secret or password
// replaced (server_sweep's commands as files and logs keep them).
QString redactCommandSecrets(const QString& command);
QString redactedPlaceholder();

// A URL as Kneepoint shows it (CLI output, the window, messages): a password in it becomes "***"
// (http://user:***@host/v1); anything else, even text that is no URL, is left as written.
QString displayUrl(const QString& url);

} // namespace kp

Q_DECLARE_METATYPE(kp::Profile)
Q_DECLARE_METATYPE(kp::Backend)
Q_DECLARE_METATYPE(kp::LoadMode)
Q_DECLARE_METATYPE(kp::ProxyMode)
Q_DECLARE_METATYPE(kp::ApiKeyResolution::Source)
