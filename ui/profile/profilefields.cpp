#include "profilefields.h"
#include "profileform.h"
#include "serversweepsection.h"

#include <limits>

namespace kp::ui {

namespace {

constexpr double maxTokens = 10'000'000;
constexpr double maxInt = std::numeric_limits<int>::max();

} // namespace

const QList<SectionSpec>& ProfileForm::formSections()
{
    static const QList<SectionSpec> sections = {
        { .key = "profile",
            .title = QT_TR_NOOP("Profile"),
            .rows = {
                { .label = QT_TR_NOOP("Name"),
                    .fields = { { .key = "name",
                        .tooltip = QT_TR_NOOP("Shown in the profile library and kept with every run.") } } },
                { .label = QT_TR_NOOP("Description"),
                    .fields = { { .key = "description",
                        .tooltip = QT_TR_NOOP("What this profile is for; kept with every run.") } } },
            } },

        { .key = "target",
            .title = QT_TR_NOOP("Target"),
            .rows = {
                { .label = QT_TR_NOOP("Saved target"),
                    .fields = { { .key = "target",
                        .accessor = [](Profile& p) -> QString& { return p.targetName; },
                        .placeholder = QT_TR_NOOP("none: the endpoint below"),
                        .tooltip = QT_TR_NOOP(
                            "The name of a target kept on the Targets page. When set, the run uses that endpoint, "
                            "model and key, and the fields below are not used; editing the target updates every "
                            "profile that names it."),
                        .build = &ProfileForm::addSavedTarget } } },
                { .label = QT_TR_NOOP("Base URL"),
                    .fields = { { .key = "target.base_url",
                        .placeholder = QT_TR_NOOP("http://gpu-box:8000 or sim://default"),
                        .tooltip = QT_TR_NOOP(
                            "Required. An http:// or https:// URL with a host, optionally a path prefix. A trailing "
                            "/v1 is fine. sim://PRESET[?time_scale=F] runs the built-in simulator for the run.") } } },
                { .label = QT_TR_NOOP("Backend"),
                    .fields = { { .key = "target.backend",
                        .accessor = ChoiceAccessor { .get = [](const Profile& p) { return backendName(p.target.backend); },
                            .set =
                                [](Profile& p, const QString& v) {
                                    if (auto b = backendFromName(v))
                                        p.target.backend = *b;
                                } },
                        .items = { { QT_TR_NOOP("openai-chat — chat completions"), backendName(Backend::OpenAiChat) },
                            { QT_TR_NOOP("openai — completions"), backendName(Backend::OpenAi) },
                            { QT_TR_NOOP("vllm — vLLM completions"), backendName(Backend::Vllm) },
                            { QT_TR_NOOP("openai-responses — Responses API"), backendName(Backend::OpenAiResponses) },
                            { QT_TR_NOOP("anthropic-messages — Anthropic Messages API"),
                                backendName(Backend::AnthropicMessages) },
                            { QT_TR_NOOP("openai-embeddings — embeddings"), backendName(Backend::OpenAiEmbeddings) } },
                        .tooltip = QT_TR_NOOP(
                            "openai: POST /v1/completions. openai-chat: POST /v1/chat/completions. vllm: vLLM's "
                            "completions server (same wire format as openai). openai-responses: POST /v1/responses. "
                            "anthropic-messages: POST /v1/messages, the key sent as x-api-key. openai-embeddings: "
                            "POST /v1/embeddings, never streamed.") } } },
                { .label = QT_TR_NOOP("Endpoint"),
                    .fields = { { .key = "target.endpoint",
                        .tooltip = QT_TR_NOOP("Path appended to the base URL, starting with /. Empty: the backend's "
                                              "default. May carry a query.") } } },
                { .label = QT_TR_NOOP("Model"),
                    .fields = { { .key = "target.model",
                        .placeholder = QT_TR_NOOP("empty: the first model the server lists"),
                        .tooltip = QT_TR_NOOP("Model name. Empty: the first model GET /v1/models lists.") } } },
                { .label = QT_TR_NOOP("Served model name"),
                    .fields = { { .key = "target.served_model_name",
                        .placeholder = QT_TR_NOOP("empty: the model name"),
                        .tooltip = QT_TR_NOOP("The model sent in requests when it differs from the model name.") } } },
                { .label = QT_TR_NOOP("API key"),
                    .fields = { { .key = "target.api_key",
                        .accessor = [](Profile& p) -> QString& { return p.target.apiKey; },
                        .placeholder = QT_TR_NOOP("${ENV_VAR}, file:PATH, keychain:ENTRY, a key, or empty"),
                        .tooltip = QT_TR_NOOP(
                            "A literal key, a ${NAME} reference read from the environment when the run starts, "
                            "file:PATH (the file's first line), keychain:ENTRY (the desktop keychain), or empty "
                            "(then OPENAI_API_KEY if set). Prefer a reference: profiles get shared. Sent as "
                            "Authorization: Bearer."),
                        .build = &ProfileForm::addApiKey } } },
                { .label = QT_TR_NOOP("Extra headers"),
                    .fields = { { .key = "target.headers",
                        .placeholder = QT_TR_NOOP("Name: value, one per line; values may use ${ENV_VAR}"),
                        .tooltip = QT_TR_NOOP(
                            "Sent with every request, in this order. Values may contain ${NAME} references."),
                        .build = &ProfileForm::addHeaders } } },
                { .label = QT_TR_NOOP("Timeouts"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "target.timeouts.connect_s",
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("connect"),
                            .tooltip = QT_TR_NOOP("TCP (and TLS) connection, seconds.") },
                        { .key = "target.timeouts.first_token_s",
                            .step = 10,
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("first token"),
                            .tooltip = QT_TR_NOOP("Request sent → first byte of the response body, seconds. Long on "
                                                  "purpose: under overload, queueing is what is being measured.") },
                        { .key = "target.timeouts.idle_s",
                            .step = 10,
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("idle"),
                            .tooltip = QT_TR_NOOP("Longest silence between two chunks, seconds.") },
                        { .key = "target.timeouts.total_s",
                            .step = 60,
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("total"),
                            .tooltip = QT_TR_NOOP("Request sent → last byte, seconds.") },
                    },
                    .tipKey = "target.timeouts",
                    .tooltip = QT_TR_NOOP("Seconds.") },
                { .label = QT_TR_NOOP("Server metrics"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "target.metrics_url",
                            .placeholder = QT_TR_NOOP("<base_url>/metrics"),
                            .caption = QT_TR_NOOP("URL"),
                            .tooltip = QT_TR_NOOP("The server's Prometheus metrics, read while each step runs. "
                                                  "Empty: <base_url>/metrics; \"off\": not read.") },
                        { .key = "target.metrics_interval_s",
                            .min = 0.05,
                            .step = 0.5,
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("every"),
                            .tooltip = QT_TR_NOOP("Seconds between two reads.") },
                    },
                    .tipKey = "target.metrics_url",
                    .tooltip = QT_TR_NOOP("KV cache, queue and preemptions explain the knee.") },
                { .label = QT_TR_NOOP("Metrics URLs"),
                    .fields = { { .key = "target.metrics_urls",
                        .placeholder = QT_TR_NOOP("several: one URL per line (replicas, GPU exporters)"),
                        .tooltip = QT_TR_NOOP(
                            "Several Prometheus metrics URLs, one per line or comma-separated: the model servers "
                            "behind a load balancer and GPU exporters (NVIDIA DCGM, AMD). Each is read and kept "
                            "apart; their figures are added up or averaged. Used instead of the URL above, which "
                            "then stays empty."),
                        .build = &ProfileForm::addMetricsUrls } } },
                { .fields = { { .key = "target.tls_verify",
                      .text = QT_TR_NOOP("Verify the server's TLS certificate"),
                      .tooltip = QT_TR_NOOP("Turn off only for servers with self-signed certificates.") } } },
                { .label = QT_TR_NOOP("Proxy"),
                    .fields = { { .key = "target.proxy",
                        .placeholder = QT_TR_NOOP("none, system or a proxy URL"),
                        .tooltip = QT_TR_NOOP(
                            "none: connect directly. system: the system or environment proxy settings. Otherwise a "
                            "proxy URL: http://proxy:3128, socks5://host:1080."),
                        .build = &ProfileForm::addProxy } } },
            } },

        { .key = "workload",
            .title = QT_TR_NOOP("Workload"),
            .rows = {
                { .label = QT_TR_NOOP("Dataset"),
                    .fields = { { .key = "workload.dataset",
                        .tooltip = QT_TR_NOOP(
                            "random: synthetic prompts of the lengths below. sharegpt: a ShareGPT JSON file. jsonl: "
                            "one JSON object per line. replay: a request log replayed at its own timestamps. "
                            "shared-prefix: synthetic prompts in groups that share a prefix (prefix caching). mooncake: an "
                            "agent trace of input and output lengths and hash ids of shared blocks, replayed at its "
                            "own timestamps."),
                        .build = &ProfileForm::addDataset } } },
                { .label = QT_TR_NOOP("Dataset file"),
                    .fields = { { .key = "workload.dataset_path",
                        .accessor = [](Profile& p) -> QString& { return p.workload.datasetPath; },
                        .placeholder = QT_TR_NOOP("required for sharegpt, jsonl, replay and mooncake"),
                        .tooltip = QT_TR_NOOP("The dataset file; required for sharegpt, jsonl, replay and mooncake. A "
                                              "relative path is relative to the working directory."),
                        .build = &ProfileForm::addDatasetFile } } },
                { .label = QT_TR_NOOP("Prompts per step"),
                    .fields = { { .key = "workload.num_prompts",
                        .min = 1,
                        .max = maxInt,
                        .suffix = QT_TR_NOOP(" requests"),
                        .tooltip = QT_TR_NOOP(
                            "Requests per step (per rate or concurrency), unless a step duration is set.") } } },
                { .label = QT_TR_NOOP("Prompt pool"),
                    .fields = { { .key = "workload.prompt_pool",
                        .max = maxInt,
                        .suffix = QT_TR_NOOP(" prompts"),
                        .special = QT_TR_NOOP("fresh prompts"),
                        .tooltip = QT_TR_NOOP(
                            "fresh prompts: every request of the run sends a prompt no earlier request sent. N: the "
                            "requests draw from the dataset's first N prompts (sessions, with multi-turn) over and "
                            "over, so prompts repeat and a prefix-caching server looks faster than under real "
                            "traffic. Not used by replay and mooncake, which send their log as recorded.") } } },
                { .label = QT_TR_NOOP("Seed"),
                    .fields = { { .key = "workload.seed",
                        .tooltip = QT_TR_NOOP("Seed for prompt sampling and arrival times."),
                        .build = &ProfileForm::addSeed } } },
                { .label = QT_TR_NOOP("Random prompts"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "workload.input_len",
                            .min = 1,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("input"),
                            .tooltip = QT_TR_NOOP("random: prompt length, tokens.") },
                        { .key = "workload.output_len",
                            .min = 1,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("output"),
                            .tooltip = QT_TR_NOOP("random: max_tokens per request.") },
                        { .key = "workload.range_ratio",
                            .max = 0.99,
                            .step = 0.05,
                            .caption = QT_TR_NOOP("spread"),
                            .tooltip = QT_TR_NOOP(
                                "random: lengths drawn uniformly from [len·(1−r), len·(1+r)]; in [0, 1).") },
                        { .key = "workload.prefix_len",
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("shared prefix"),
                            .tooltip = QT_TR_NOOP("random: a shared prefix in front of every prompt, tokens.") },
                    },
                    .tipKey = "workload",
                    .tooltip = QT_TR_NOOP("Lengths of the synthetic prompts (datasets random and shared-prefix; for "
                                          "shared-prefix, input is the length after the prefix).") },
                { .label = QT_TR_NOOP("Length shapes"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "workload.input_len_dist",
                            .accessor = ChoiceAccessor { .get = [](const Profile& p) { return p.workload.inputLenDist; },
                                .set = [](Profile& p, const QString& v) { p.workload.inputLenDist = v; } },
                            .items = { { QT_TR_NOOP("uniform (spread)"), QStringLiteral("uniform") },
                                { QT_TR_NOOP("fixed"), QStringLiteral("fixed") },
                                { QT_TR_NOOP("normal"), QStringLiteral("normal") },
                                { QT_TR_NOOP("lognormal"), QStringLiteral("lognormal") } },
                            .caption = QT_TR_NOOP("input"),
                            .tooltip = QT_TR_NOOP("random, shared-prefix: how prompt lengths are drawn around the "
                                                  "input length: uniform within the spread, all equal, or normal or "
                                                  "lognormal with the standard deviation beside.") },
                        { .key = "workload.input_len_std",
                            .step = 16,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("input std"),
                            .tooltip = QT_TR_NOOP("Standard deviation of normal or lognormal prompt lengths, tokens; "
                                                  "required for those shapes.") },
                        { .key = "workload.output_len_dist",
                            .accessor = ChoiceAccessor { .get = [](const Profile& p) { return p.workload.outputLenDist; },
                                .set = [](Profile& p, const QString& v) { p.workload.outputLenDist = v; } },
                            .items = { { QT_TR_NOOP("uniform (spread)"), QStringLiteral("uniform") },
                                { QT_TR_NOOP("fixed"), QStringLiteral("fixed") },
                                { QT_TR_NOOP("normal"), QStringLiteral("normal") },
                                { QT_TR_NOOP("lognormal"), QStringLiteral("lognormal") } },
                            .caption = QT_TR_NOOP("output"),
                            .tooltip = QT_TR_NOOP("random, shared-prefix: how output lengths (max_tokens) are drawn "
                                                  "around the output length.") },
                        { .key = "workload.output_len_std",
                            .step = 16,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("output std"),
                            .tooltip = QT_TR_NOOP("Standard deviation of normal or lognormal output lengths, tokens; "
                                                  "required for those shapes.") },
                    },
                    .tipKey = "workload.input_len_dist",
                    .tooltip = QT_TR_NOOP("Shapes of the synthetic prompts' and answers' length distributions.") },
                { .label = QT_TR_NOOP("Model mix"),
                    .fields = { { .key = "workload.model_mix",
                        .placeholder = QT_TR_NOOP("e.g. base:0.7,lora-a:0.3; empty: the target's model"),
                        .tooltip = QT_TR_NOOP("Spread each step's requests over several model names by weight "
                                              "(LoRA adapters behind one server); each step reports per model.") } } },
                { .label = QT_TR_NOOP("Images"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "workload.image_count",
                            .special = QT_TR_NOOP("none"),
                            .caption = QT_TR_NOOP("per request"),
                            .tooltip = QT_TR_NOOP("Images attached to each chat request (openai-chat, "
                                                  "openai-responses, anthropic-messages), for vision models.") },
                        { .key = "workload.image_size",
                            .placeholder = QT_TR_NOOP("e.g. 448x448"),
                            .caption = QT_TR_NOOP("size"),
                            .tooltip = QT_TR_NOOP("Synthetic images' width x height in pixels; each prompt gets its "
                                                  "own images, the same on every run of the seed.") },
                        { .key = "workload.image_format",
                            .accessor = ChoiceAccessor { .get = [](const Profile& p) { return p.workload.imageFormat; },
                                .set = [](Profile& p, const QString& v) { p.workload.imageFormat = v; } },
                            .items = { { QT_TR_NOOP("PNG"), QStringLiteral("png") },
                                { QT_TR_NOOP("JPEG"), QStringLiteral("jpeg") } },
                            .caption = QT_TR_NOOP("format"),
                            .tooltip = QT_TR_NOOP("The synthetic images' format.") },
                    },
                    .columns = 3,
                    .tipKey = "workload.image_count",
                    .tooltip = QT_TR_NOOP("Images in each request; the server counts their tokens in its "
                                          "prompt tokens, which the results then use.") },
                { .label = QT_TR_NOOP("Image folder"),
                    .fields = { { .key = "workload.image_dir",
                        .placeholder = QT_TR_NOOP("empty: synthetic images"),
                        .tooltip = QT_TR_NOOP("Attach this folder's images instead (PNG, JPEG, WebP or GIF; sorted "
                                              "by name, cycled by prompt).") } } },
                { .label = QT_TR_NOOP("Shared prefixes"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "workload.num_prefixes",
                            .min = 1,
                            .caption = QT_TR_NOOP("prefixes"),
                            .tooltip = QT_TR_NOOP(
                                "shared-prefix: distinct prefixes, each of the shared prefix length above.") },
                        { .key = "workload.suffixes_per_prefix",
                            .special = QT_TR_NOOP("auto"),
                            .caption = QT_TR_NOOP("prompts each"),
                            .tooltip = QT_TR_NOOP("shared-prefix: prompts per prefix; auto: the prompts per step "
                                                  "divided among the prefixes.") },
                    },
                    .tipKey = "workload.num_prefixes",
                    .tooltip = QT_TR_NOOP(
                        "Groups of prompts that share a prefix, to measure prefix caching (dataset shared-prefix).") },
                { .label = QT_TR_NOOP("Fixed output length"),
                    .fields = { { .key = "workload.fixed_output_len",
                        .suffix = QT_TR_NOOP(" tokens"),
                        .tooltip = QT_TR_NOOP(
                            "sharegpt/jsonl: max_tokens for every request instead of the dataset's own output "
                            "length.") } } },
                { .label = QT_TR_NOOP("ShareGPT filters"),
                    .shape = RowShape::CheckOverGrid,
                    .fields = {
                        { .key = "workload.filter_lengths",
                            .text = QT_TR_NOOP("Filter by length, as the reference does"),
                            .tooltip = QT_TR_NOOP(
                                "sharegpt: leave out conversations whose prompt or answer is shorter than the "
                                "minimum, whose prompt is longer than the maximum, or whose prompt and answer "
                                "together are longer than the total.") },
                        { .key = "workload.min_len",
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("minimum"),
                            .tooltip = QT_TR_NOOP("sharegpt: shortest prompt or answer kept.") },
                        { .key = "workload.max_prompt_len",
                            .min = 1,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("prompt at most"),
                            .tooltip = QT_TR_NOOP("sharegpt: longest prompt kept.") },
                        { .key = "workload.max_total_len",
                            .min = 1,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("total at most"),
                            .tooltip = QT_TR_NOOP("sharegpt: longest prompt and answer together kept.") },
                    },
                    .tipKey = "workload.filter_lengths",
                    .tooltip = QT_TR_NOOP("The length filters of the reference benchmark, on the dataset's token "
                                          "counts (dataset sharegpt).") },
                { .label = QT_TR_NOOP("Bad lines"),
                    .fields = { { .key = "workload.bad_lines",
                        .accessor = ChoiceAccessor { .get = [](const Profile& p) { return p.workload.badLines; },
                            .set = [](Profile& p, const QString& v) { p.workload.badLines = v; } },
                        .items = { { QT_TR_NOOP("skip them and report how many"), QStringLiteral("skip") },
                            { QT_TR_NOOP("fail at the first"), QStringLiteral("fail") } },
                        .tooltip = QT_TR_NOOP("jsonl/replay/mooncake, and malformed conversations: what a line "
                                              "that is not usable does.") } } },
                { .label = QT_TR_NOOP("Replay speed"),
                    .fields = { { .key = "workload.replay_speed",
                        .min = 0.01,
                        .step = 0.5,
                        .suffix = QT_TR_NOOP(" ×"),
                        .tooltip = QT_TR_NOOP(
                            "replay, mooncake: the log's time runs this many times faster (in steps at rate inf; a "
                            "step at a finite rate scales the log to that mean rate instead).") } } },
                { .label = QT_TR_NOOP("Conversations"),
                    .shape = RowShape::CheckOverGrid,
                    .fields = {
                        { .key = "workload.multi_turn",
                            .text = QT_TR_NOOP("Send each conversation as a session, turn by turn"),
                            .tooltip = QT_TR_NOOP(
                                "sharegpt, jsonl, random: each conversation's user turns are sent in order, each "
                                "request carrying the history so far. The rate or concurrency applies to session "
                                "starts; prompts per step still counts requests (turns).") },
                        { .key = "workload.think_time_s",
                            .step = 0.5,
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("think time"),
                            .tooltip = QT_TR_NOOP("Mean pause between an answer's end and the next turn "
                                                  "(exponentially distributed; 0: none).") },
                        { .key = "workload.turns",
                            .min = 1,
                            .caption = QT_TR_NOOP("turns"),
                            .tooltip = QT_TR_NOOP("random: turns per synthetic session.") },
                        { .key = "workload.system_prompt_len",
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("system prompt"),
                            .tooltip = QT_TR_NOOP("random: a system prompt of this length, the same text for "
                                                  "every session, so that a prefix cache can share it.") },
                    },
                    .tipKey = "workload.multi_turn",
                    .tooltip = QT_TR_NOOP("Multi-turn sessions: chat traffic, where every turn resends the "
                                          "history and the server's prefix cache serves most of it.") },
                { .label = QT_TR_NOOP("History"),
                    .fields = { { .key = "workload.multi_turn_history",
                        .accessor = ChoiceAccessor { .get = [](const Profile& p) { return p.workload.multiTurnHistory; },
                            .set = [](Profile& p, const QString& v) { p.workload.multiTurnHistory = v; } },
                        .items = { { QT_TR_NOOP("the dataset's recorded answers"), QStringLiteral("recorded") },
                            { QT_TR_NOOP("the server's live answers"), QStringLiteral("live") } },
                        .tooltip = QT_TR_NOOP("Multi-turn: the assistant answers a later turn's history "
                                              "carries.") } } },
                { .label = QT_TR_NOOP("Max model length"),
                    .fields = { { .key = "workload.max_model_len",
                        .max = maxInt,
                        .suffix = QT_TR_NOOP(" tokens"),
                        .tooltip = QT_TR_NOOP("mooncake: a trace line whose input and output lengths together "
                                              "exceed this is a bad line.") } } },
                { .fields = { { .key = "workload.ignore_eos",
                      .text = QT_TR_NOOP("Ignore end-of-sequence (every request produces max_tokens)"),
                      .tooltip = QT_TR_NOOP("Ask the server to ignore end-of-sequence so that every request "
                                            "produces max_tokens tokens (vLLM extension).") } } },
                { .fields = { { .key = "workload.stream",
                      .text = QT_TR_NOOP("Stream answers"),
                      .tooltip = QT_TR_NOOP("Off: whole answers (stream: false). E2EL and throughput are measured; "
                                            "TTFT, TPOT and ITL are unknown.") } } },
                { .label = QT_TR_NOOP("Embedding batch"),
                    .fields = { { .key = "workload.embedding_batch",
                        .min = 1,
                        .caption = QT_TR_NOOP("prompts per request"),
                        .tooltip = QT_TR_NOOP("openai-embeddings: prompts sent together in each request's "
                                              "input.") } } },
                { .label = QT_TR_NOOP("Length buckets"),
                    .fields = { { .key = "workload.length_buckets",
                        .accessor = [](Profile& p) -> QList<int>& { return p.workload.lengthBuckets; },
                        .placeholder = QT_TR_NOOP("e.g. 0, 256, 512, 1024, 2048"),
                        .text = QT_TR_NOOP("prompt tokens"),
                        .invalid = QT_TR_NOOP("\"%1\" is not a whole number of tokens") } },
                    // The label has the tooltip, the input none.
                    .tipKey = "workload.length_buckets",
                    .tooltip = QT_TR_NOOP("Edges of the prompt-length buckets the results are also reported by (the "
                                          "\"By length\" tab); the last bucket has no upper end.") },
                { .label = QT_TR_NOOP("Sampling"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "workload.sampling.temperature",
                            .max = 10,
                            .step = 0.1,
                            .caption = QT_TR_NOOP("temperature"),
                            .tooltip = QT_TR_NOOP("≥ 0. 0: greedy, as the reference does.") },
                        { .key = "workload.sampling.top_p",
                            .step = 0.05,
                            .caption = QT_TR_NOOP("top p"),
                            .tooltip = QT_TR_NOOP("In (0, 1]. Sent only when set.") },
                        { .key = "workload.sampling.top_k",
                            .min = -2,
                            .max = 1'000'000,
                            .caption = QT_TR_NOOP("top k"),
                            .tooltip = QT_TR_NOOP("≥ −1; −1 or 0 disable it (vLLM). Sent only when set.") },
                        { .key = "workload.sampling.min_p",
                            .min = -0.01,
                            .step = 0.01,
                            .caption = QT_TR_NOOP("min p"),
                            .tooltip = QT_TR_NOOP("In [0, 1]. Sent only when set.") },
                        { .key = "workload.sampling.presence_penalty",
                            .accessor = [](Profile& p) -> std::optional<double>& {
                                return p.workload.sampling.presencePenalty;
                            },
                            .min = -2.1,
                            .step = 0.1,
                            .caption = QT_TR_NOOP("presence"),
                            .tooltip = QT_TR_NOOP("In [−2, 2]. Sent only when set.") },
                        { .key = "workload.sampling.frequency_penalty",
                            .accessor = [](Profile& p) -> std::optional<double>& {
                                return p.workload.sampling.frequencyPenalty;
                            },
                            .min = -2.1,
                            .step = 0.1,
                            .caption = QT_TR_NOOP("frequency"),
                            .tooltip = QT_TR_NOOP("In [−2, 2]. Sent only when set.") },
                        { .key = "workload.sampling.repetition_penalty",
                            .accessor = [](Profile& p) -> std::optional<double>& {
                                return p.workload.sampling.repetitionPenalty;
                            },
                            .max = 10,
                            .step = 0.05,
                            .caption = QT_TR_NOOP("repetition"),
                            .tooltip = QT_TR_NOOP("> 0. Sent only when set.") },
                    },
                    .tipKey = "workload.sampling",
                    .tooltip = QT_TR_NOOP("Sampling parameters sent with every request; \"unset\" ones are left out. "
                                          "Step below the lowest value to unset one.") },
                { .label = QT_TR_NOOP("Extra body"),
                    .fields = { { .key = "workload.extra_body",
                        .placeholder = QT_TR_NOOP("{ \"priority\": 1 }"),
                        .tooltip = QT_TR_NOOP("A JSON object merged into every request body last, so it overrides "
                                              "Kneepoint's own keys."),
                        .build = &ProfileForm::addExtraBody } } },
            } },

        { .key = "load",
            .title = QT_TR_NOOP("Load"),
            .rows = {
                { .label = QT_TR_NOOP("Mode"),
                    .fields = { { .key = "load.mode",
                        .accessor = ChoiceAccessor { .get = [](const Profile& p) { return loadModeName(p.load.mode); },
                            .set =
                                [](Profile& p, const QString& v) {
                                    if (auto m = loadModeFromName(v))
                                        p.load.mode = *m;
                                } },
                        .items = { { QT_TR_NOOP("rate — open loop, requests arrive at the rates"),
                                       loadModeName(LoadMode::Rate) },
                            { QT_TR_NOOP("concurrency — closed loop, N users"), loadModeName(LoadMode::Concurrency) } },
                        .tooltip = QT_TR_NOOP(
                            "rate: open loop, requests arrive at the given rates. concurrency: closed loop, N users "
                            "each send their next request when the last one ends.") } } },
                { .label = QT_TR_NOOP("Plan"),
                    .fields = { { .key = "load.plan.kind",
                        .accessor = ChoiceAccessor {
                            .get = [](const Profile& p) { return planKindName(p.load.plan.kind); },
                            .set =
                                [](Profile& p, const QString& v) {
                                    if (auto k = planKindFromName(v))
                                        p.load.plan.kind = *k;
                                } },
                        .items = { { QT_TR_NOOP("list — the rates or concurrencies below"), planKindName(PlanKind::List) },
                            { QT_TR_NOOP("linear — evenly spaced from start to stop"), planKindName(PlanKind::Linear) },
                            { QT_TR_NOOP("geometric — a geometric progression"), planKindName(PlanKind::Geometric) },
                            { QT_TR_NOOP("auto — measure floor and ceiling, then fill"),
                                planKindName(PlanKind::Auto) } },
                        .tooltip = QT_TR_NOOP(
                            "list: the rates or concurrencies as given. linear / geometric: `steps` loads from start "
                            "to stop. auto: a synchronous step and an all-out step measure the floor and ceiling of "
                            "the server, then `steps` rates fill the range, denser near the ceiling, with two beyond "
                            "it.") } } },
                { .label = QT_TR_NOOP("Rates"),
                    .fields = { { .key = "load.rates",
                        .placeholder = QT_TR_NOOP("e.g. 1, 2, 4, 8, 16, inf"),
                        .text = QT_TR_NOOP("req/s"),
                        .tooltip = QT_TR_NOOP("Requests per second, one step each, separated by commas. inf sends all "
                                              "requests at once."),
                        .build = &ProfileForm::addRates } } },
                { .label = QT_TR_NOOP("Concurrencies"),
                    .fields = { { .key = "load.concurrencies",
                        .accessor = [](Profile& p) -> QList<int>& { return p.load.concurrencies; },
                        .placeholder = QT_TR_NOOP("e.g. 1, 8, 32, 128"),
                        .text = QT_TR_NOOP("users"),
                        .invalid = QT_TR_NOOP("\"%1\" is not an integer"),
                        .tooltip = QT_TR_NOOP(
                            "Users in flight, one step each, separated by commas (concurrency mode).") } } },
                { .label = QT_TR_NOOP("Range"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "load.plan.start",
                            .max = 1e6,
                            .caption = QT_TR_NOOP("start"),
                            .tooltip = QT_TR_NOOP("linear, geometric: the first load (> 0).") },
                        { .key = "load.plan.stop",
                            .max = 1e6,
                            .caption = QT_TR_NOOP("stop"),
                            .tooltip = QT_TR_NOOP("linear, geometric: the last load (≥ start).") },
                        { .key = "load.plan.steps",
                            .caption = QT_TR_NOOP("steps"),
                            .tooltip = QT_TR_NOOP("linear, geometric: the number of loads (≥ 2). auto: rates between "
                                                  "floor and ceiling (0: 8).") },
                    },
                    .columns = 3,
                    .tipKey = "load.plan",
                    .tooltip = QT_TR_NOOP("The range for linear and geometric plans.") },
                { .label = QT_TR_NOOP("Arrivals"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "load.burstiness",
                            .max = 1000,
                            .step = 0.1,
                            .caption = QT_TR_NOOP("burstiness"),
                            .tooltip = QT_TR_NOOP("Shape of the gamma distribution of inter-arrival times: 1 is "
                                                  "Poisson, below 1 burstier, above 1 more regular.") },
                        { .key = "load.max_concurrency",
                            .max = 1'000'000,
                            .suffix = QT_TR_NOOP(" in flight"),
                            .caption = QT_TR_NOOP("at most"),
                            .tooltip = QT_TR_NOOP("rate mode: the most requests in flight; later arrivals wait for a "
                                                  "slot (shown as dispatch lag).") },
                    },
                    .tipKey = "load",
                    .tooltip = QT_TR_NOOP("How requests arrive in rate mode.") },
                { .label = QT_TR_NOOP("Steps"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "load.ramp_up_s",
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("ramp-up"),
                            .tooltip = QT_TR_NOOP("The rate rises linearly from zero to the step's rate over this "
                                                  "time at the start of each step.") },
                        { .key = "load.warmup_requests",
                            .suffix = QT_TR_NOOP(" requests"),
                            .caption = QT_TR_NOOP("warm-up"),
                            .tooltip = QT_TR_NOOP("Sent before each step and left out of its metrics.") },
                        { .key = "load.cooldown_s",
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("cooldown"),
                            .tooltip = QT_TR_NOOP("Pause between steps.") },
                        { .key = "load.step_duration_s",
                            .step = 10,
                            .suffix = QT_TR_NOOP(" s"),
                            .caption = QT_TR_NOOP("duration"),
                            .tooltip = QT_TR_NOOP("Run each step for this long (prompts reused in order) instead of a "
                                                  "number of prompts.") },
                    },
                    .tipKey = "load",
                    .tooltip = QT_TR_NOOP("How each step starts and ends.") },
                { .fields = { { .key = "load.reset_cache_between_steps",
                      .text = QT_TR_NOOP("Reset the server's prefix cache between steps"),
                      .tooltip = QT_TR_NOOP(
                          "Before every step after the first, POST /reset_prefix_cache (vLLM, served only with "
                          "VLLM_SERVER_DEV_MODE=1), else /flush_cache (SGLang), so that no step is answered from "
                          "prompts an earlier step cached. A server that refuses both gets one note and no further "
                          "tries.") } } },
                { .label = QT_TR_NOOP("Refinement"),
                    .shape = RowShape::CheckOverGrid,
                    .fields = {
                        { .key = "load.plan.refine",
                            .text = QT_TR_NOOP("Refine at the SLO boundary"),
                            .tooltip = QT_TR_NOOP(
                                "After the coarse pass, add steps at the SLO boundary (and around the knee).") },
                        { .key = "load.plan.tolerance",
                            .max = 0.99,
                            .step = 0.01,
                            .caption = QT_TR_NOOP("tolerance"),
                            .tooltip = QT_TR_NOOP(
                                "Refine until the boundary is known within this fraction of the load; in (0, 1).") },
                        { .key = "load.plan.max_refine_steps",
                            .suffix = QT_TR_NOOP(" steps"),
                            .caption = QT_TR_NOOP("at most"),
                            .tooltip = QT_TR_NOOP("Upper bound on the steps refinement adds.") },
                    },
                    .tipKey = "load.plan.refine",
                    .tooltip = QT_TR_NOOP("Steps added after the coarse pass.") },
                { .label = QT_TR_NOOP("Stopping"),
                    .shape = RowShape::CheckOverGrid,
                    .fields = {
                        { .key = "load.plan.repeats",
                            .suffix = QT_TR_NOOP(" times"),
                            .caption = QT_TR_NOOP("repeats"),
                            .tooltip = QT_TR_NOOP("Run the loads below this many more times, to show their spread "
                                                  "(confidence intervals over the repeats).") },
                        { .key = "load.plan.early_stop",
                            .text = QT_TR_NOOP("Stop escalating once the server collapses"),
                            .tooltip = QT_TR_NOOP("Stop once throughput fell for two steps in a row while the SLO's "
                                                  "latency rose (a collapse).") },
                        { .key = "load.plan.stop_error_rate",
                            .step = 0.01,
                            .caption = QT_TR_NOOP("stop at error rate"),
                            .tooltip = QT_TR_NOOP("Also stop escalating once a step's error rate passes this "
                                                  "fraction, in (0, 1] (0.2 = 20 %).") },
                    },
                    .tipKey = "load.plan",
                    .tooltip = QT_TR_NOOP("When escalation stops, and what is repeated.") },
                { .label = QT_TR_NOOP("Repeated loads"),
                    .fields = { { .key = "load.plan.repeat_scope",
                        .accessor = ChoiceAccessor { .get =
                                                         [](const Profile& p) {
                                                             return p.load.plan.repeatScope == Plan::RepeatScope::All
                                                                 ? QStringLiteral("all")
                                                                 : QStringLiteral("best");
                                                         },
                            .set =
                                [](Profile& p, const QString& v) {
                                    p.load.plan.repeatScope
                                        = v == u"all" ? Plan::RepeatScope::All : Plan::RepeatScope::Best;
                                } },
                        .items = { { QT_TR_NOOP("the highest load that met the SLO"), QStringLiteral("best") },
                            { QT_TR_NOOP("every load of the pass"), QStringLiteral("all") } },
                        .tooltip = QT_TR_NOOP("Which loads the repeats run: the best one (needs an SLO), or every "
                                              "load, round by round after the pass.") } } },
            } },

        { .key = "slo",
            .title = QT_TR_NOOP("Service-level objectives"),
            .rows = {
                { .label = QT_TR_NOOP("Latency limits"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "slo.ttft_ms",
                            .max = 1e7,
                            .step = 50,
                            .suffix = QT_TR_NOOP(" ms"),
                            .caption = QT_TR_NOOP("TTFT"),
                            .tooltip = QT_TR_NOOP("Time to first token, ms (> 0).") },
                        { .key = "slo.tpot_ms",
                            .max = 1e7,
                            .step = 5,
                            .suffix = QT_TR_NOOP(" ms"),
                            .caption = QT_TR_NOOP("TPOT"),
                            .tooltip = QT_TR_NOOP("Time per output token (excluding the first), ms (> 0).") },
                        { .key = "slo.e2el_ms",
                            .max = 1e8,
                            .step = 500,
                            .suffix = QT_TR_NOOP(" ms"),
                            .caption = QT_TR_NOOP("E2EL"),
                            .tooltip = QT_TR_NOOP("End-to-end latency, ms (> 0).") },
                        { .key = "slo.ttfc_ms",
                            .max = 1e7,
                            .step = 50,
                            .suffix = QT_TR_NOOP(" ms"),
                            .caption = QT_TR_NOOP("TTFC"),
                            .tooltip = QT_TR_NOOP("Time to first content token: to a reasoning model's first answer "
                                                  "token, after its thinking, ms (> 0).") },
                    },
                    .columns = 3,
                    .tipKey = "slo",
                    .tooltip = QT_TR_NOOP(
                        "A step meets the SLO when the percentile below of each metric with a limit is within it.") },
                { .label = QT_TR_NOOP("Own percentiles"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "slo.ttft_percentile",
                            .prefix = "P",
                            .caption = QT_TR_NOOP("TTFT"),
                            .tooltip = QT_TR_NOOP("The TTFT limit's own percentile, in (0, 100]; unset: the "
                                                  "percentile below.") },
                        { .key = "slo.tpot_percentile",
                            .prefix = "P",
                            .caption = QT_TR_NOOP("TPOT"),
                            .tooltip = QT_TR_NOOP("The TPOT limit's own percentile, in (0, 100]; unset: the "
                                                  "percentile below.") },
                        { .key = "slo.e2el_percentile",
                            .prefix = "P",
                            .caption = QT_TR_NOOP("E2EL"),
                            .tooltip = QT_TR_NOOP("The E2EL limit's own percentile, in (0, 100]; unset: the "
                                                  "percentile below.") },
                        { .key = "slo.ttfc_percentile",
                            .prefix = "P",
                            .caption = QT_TR_NOOP("TTFC"),
                            .tooltip = QT_TR_NOOP("The TTFC limit's own percentile, in (0, 100]; unset: the "
                                                  "percentile below.") },
                    },
                    .columns = 3,
                    .tipKey = "slo",
                    .tooltip = QT_TR_NOOP("Each limit may have its own percentile: P90 TTFT and P99 TPOT.") },
                { .label = QT_TR_NOOP("Applies to"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "slo.percentile",
                            .prefix = "P",
                            .caption = QT_TR_NOOP("percentile"),
                            .tooltip = QT_TR_NOOP("The percentile of every limit without its own, in (0, 100].") },
                        { .key = "slo.max_error_rate",
                            .min = -0.01,
                            .step = 0.01,
                            .caption = QT_TR_NOOP("max error rate"),
                            .tooltip = QT_TR_NOOP("Failed ÷ sent, in [0, 1]: 0.01 is 1 %. Step below 0 to unset.") },
                    },
                    .tipKey = "slo",
                    .tooltip = QT_TR_NOOP("The same limits define goodput.") },
            } },

        { .key = "server",
            .title = QT_TR_NOOP("Server info (kept with the results)"),
            .rows = {
                { .label = QT_TR_NOOP("Engine"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "server.engine",
                            .placeholder = QT_TR_NOOP("vllm, sglang, …"),
                            .caption = QT_TR_NOOP("name"),
                            .tooltip = QT_TR_NOOP("What the server runs, e.g. vllm, sglang.") },
                        { .key = "server.engine_version",
                            .caption = QT_TR_NOOP("version"),
                            .tooltip = QT_TR_NOOP("Its version.") },
                    },
                    .tipKey = "server",
                    .tooltip = QT_TR_NOOP("Informational: nothing here changes how the test runs.") },
                { .label = QT_TR_NOOP("Address"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "server.host",
                            .caption = QT_TR_NOOP("host"),
                            .tooltip = QT_TR_NOOP("The server's host name.") },
                        { .key = "server.port",
                            .caption = QT_TR_NOOP("port"),
                            .tooltip = QT_TR_NOOP("1–65535.") },
                    },
                    .tipKey = "server",
                    .tooltip = QT_TR_NOOP("Where the server runs.") },
                { .label = QT_TR_NOOP("Engine settings"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "server.max_num_seqs",
                            .max = maxInt,
                            .caption = QT_TR_NOOP("max seqs"),
                            .tooltip = QT_TR_NOOP("Sequences batched at once (≥ 1).") },
                        { .key = "server.max_num_batched_tokens",
                            .max = maxInt,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("batched tokens"),
                            .tooltip = QT_TR_NOOP("Tokens per batch (≥ 1).") },
                        { .key = "server.max_model_len",
                            .max = maxInt,
                            .suffix = QT_TR_NOOP(" tokens"),
                            .caption = QT_TR_NOOP("model length"),
                            .tooltip = QT_TR_NOOP("Context length (≥ 1).") },
                        { .key = "server.gpu_memory_utilization",
                            .accessor = [](Profile& p) -> std::optional<double>& {
                                return p.server.gpuMemoryUtilization;
                            },
                            .step = 0.05,
                            .caption = QT_TR_NOOP("GPU memory"),
                            .tooltip = QT_TR_NOOP("In (0, 1].") },
                        { .key = "server.tensor_parallel_size",
                            .max = 4096,
                            .caption = QT_TR_NOOP("tensor parallel"),
                            .tooltip = QT_TR_NOOP("≥ 1.") },
                        { .key = "server.pipeline_parallel_size",
                            .max = 4096,
                            .caption = QT_TR_NOOP("pipeline parallel"),
                            .tooltip = QT_TR_NOOP("≥ 1.") },
                    },
                    .tipKey = "server",
                    .tooltip = QT_TR_NOOP("The engine's settings, as the server was started.") },
                { .label = QT_TR_NOOP("Hardware"),
                    .fields = { { .key = "server.hardware",
                        .placeholder = QT_TR_NOOP("e.g. 2x H100 80GB SXM"),
                        .tooltip = QT_TR_NOOP("The accelerators the server runs on.") } } },
                { .label = QT_TR_NOOP("Accelerators"),
                    .shape = RowShape::Grid,
                    .fields = {
                        { .key = "server.accelerator",
                            .placeholder = QT_TR_NOOP("e.g. NVIDIA H100 80GB HBM3"),
                            .caption = QT_TR_NOOP("model"),
                            .tooltip = QT_TR_NOOP("The accelerator model.") },
                        { .key = "server.accelerator_count",
                            .max = 4096,
                            .caption = QT_TR_NOOP("count"),
                            .tooltip = QT_TR_NOOP("How many serve the model (≥ 1).") },
                        { .key = "server.driver_version",
                            .caption = QT_TR_NOOP("driver"),
                            .tooltip = QT_TR_NOOP("The accelerator driver's version.") },
                        { .key = "server.runtime_version",
                            .placeholder = QT_TR_NOOP("CUDA 12.4, ROCm 6.1"),
                            .caption = QT_TR_NOOP("CUDA/ROCm"),
                            .tooltip = QT_TR_NOOP("CUDA or ROCm version.") },
                        { .key = "server.precision",
                            .placeholder = QT_TR_NOOP("bf16, fp8, awq int4"),
                            .caption = QT_TR_NOOP("precision"),
                            .tooltip = QT_TR_NOOP("Weights' dtype and quantisation.") },
                    },
                    .tipKey = "server",
                    .tooltip = QT_TR_NOOP("Kept with every run: the same command differs across drivers and "
                                          "versions.") },
                { .label = QT_TR_NOOP("Notes"),
                    .fields = { { .key = "server.notes",
                        .tooltip = QT_TR_NOOP("Anything else worth keeping with the results.") } } },
            } },

        serverSweepSection(),

        { .key = "output",
            .title = QT_TR_NOOP("Output"),
            .rows = {
                { .label = QT_TR_NOOP("Result files"),
                    .shape = RowShape::Checks,
                    .fields = {
                        { .key = "output.save_result",
                            .text = QT_TR_NOOP("Write the reference-compatible result JSON"),
                            .tooltip = QT_TR_NOOP("Also write the reference-compatible result JSON per step.") },
                        { .key = "output.save_detailed",
                            .text = QT_TR_NOOP("with per-request lists"),
                            .tooltip = QT_TR_NOOP("Include per-request lists (input_lens, ttfts, itls, …).") },
                    },
                    .tipKey = "output",
                    .tooltip = QT_TR_NOOP("Files written next to Kneepoint's own run records.") },
                { .label = QT_TR_NOOP("Result directory"),
                    .fields = { { .key = "output.result_dir",
                        .accessor = [](Profile& p) -> QString& { return p.output.resultDir; },
                        .placeholder = QT_TR_NOOP("directory for result files"),
                        .tooltip = QT_TR_NOOP("Directory for result files."),
                        .build = &ProfileForm::addResultDirectory } } },
                { .label = QT_TR_NOOP("File name"),
                    .fields = { { .key = "output.result_filename",
                        .placeholder = QT_TR_NOOP("{backend}-{rate}qps-{model}-{date}.json"),
                        .tooltip = QT_TR_NOOP("Empty: the reference's {backend}-{rate}qps-{model}-{date}.json.") } } },
                { .label = QT_TR_NOOP("Label"),
                    .fields = { { .key = "output.label",
                        .tooltip = QT_TR_NOOP("Written into results as label.") } } },
                { .label = QT_TR_NOOP("Percentiles of"),
                    .fields = { { .key = "output.percentile_metrics",
                        .tooltip = QT_TR_NOOP("Metrics to report percentiles for."),
                        .build = &ProfileForm::addPercentileMetrics } } },
                { .label = QT_TR_NOOP("Percentiles"),
                    .fields = { { .key = "output.metric_percentiles",
                        .placeholder = QT_TR_NOOP("e.g. 50, 90, 99, 99.9"),
                        .tooltip = QT_TR_NOOP("Which percentiles, each in (0, 100]: 99 is P99."),
                        .build = &ProfileForm::addPercentiles } } },
            } },
    };
    return sections;
}

} // namespace kp::ui
