#pragma once

#include "profile/profile.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace kp {

// One prompt to send. Token counts follow the dataset's own count: for the built-in sources a
// token is a whitespace-separated word, which is also how the simulator counts.
struct Prompt
{
    QString text;
    int promptTokens = 0;
    int outputTokens = 0; // requested output length (max_tokens)
    qint64 atNs = -1; // replay: send time from the first request of the log, ns; -1 for other sources
    // Trace replay (mooncake): the prompt's blocks of kTraceBlockTokens tokens, equal ids being identical
    // text; text stays empty and is made when the request is sent (promptText), so a long trace costs
    // no memory for its prompts.
    std::vector<qint64> hashIds;
    // Which distinct prompt this is: copies made to fill num_prompts from a shorter source keep their
    // source's id, so a ledger of sent prompts sees them as the same text; -1: its place in the list.
    int id = -1;
    // Synthetic prompts (random, shared-prefix) without a prompt_pool: the text is made anew for every
    // request (freshText), keeping its first sharedChars characters (sharedTokens words), the prefix it
    // shares on purpose.
    bool synthetic = false;
    int sharedChars = 0;
    int sharedTokens = 0;
};

// Tokens per hash id in a Mooncake trace.
inline constexpr int kTraceBlockTokens = 512;

// One turn of a conversation: the user's message and the answer the dataset recorded for it.
struct Turn
{
    QString user;
    int userTokens = 0;
    QString answer; // the dataset's assistant answer (synthetic sessions: random words of the turn's output length)
    int answerTokens = 0;
    int outputTokens = 0; // requested output length (max_tokens) of this turn
};

// A conversation of a multi-turn workload: its turns are sent in order, each request carrying the
// history so far (system prompt, earlier user turns and answers).
struct Conversation
{
    QString system; // system prompt, may be empty
    int systemTokens = 0;
    std::vector<Turn> turns; // at least one
    QString origin; // where it came from, for messages: "FILE:LINE" or "FILE: entry N"
    int id = -1; // which distinct conversation this is (copies keep their source's id); -1: its place in the list
    bool synthetic = false; // synthetic sessions: the turns may be made anew for every session (freshSession)
};

// How a synthetic length is drawn around its mean.
enum class LengthShape {
    Uniform, // uniform in [mean·(1−r), mean·(1+r)] (range_ratio r), as the reference's random dataset
    Fixed, // always the mean
    Normal, // normal with the given mean and standard deviation, rounded
    Lognormal, // lognormal whose own mean and standard deviation are the given ones, rounded
};
std::optional<LengthShape> lengthShapeFromName(QStringView name);

struct RandomDatasetOptions
{
    int numPrompts = 100;
    int inputLen = 128; // mean prompt length, tokens
    int outputLen = 128; // mean output length, tokens
    double rangeRatio = 0.0; // Uniform: lengths are in [len·(1−r), len·(1+r)]
    quint64 seed = 0;
    LengthShape inputShape = LengthShape::Uniform;
    LengthShape outputShape = LengthShape::Uniform;
    double inputStd = 0; // Normal, Lognormal: standard deviation of the prompt length, tokens
    double outputStd = 0; // Normal, Lognormal: standard deviation of the output length, tokens
    // Every length is at least 1; with a known context, a prompt is at most maxModelLen − 1 tokens and
    // its output at most what is left of the context.
    std::optional<int> maxModelLen;
};

// The reference's length filters for ShareGPT, in dataset tokens.
struct LengthFilter
{
    bool enabled = true;
    int minLen = 4; // prompt, and output unless its length is fixed, at least this long
    int maxPromptLen = 1024;
    int maxTotalLen = 2048; // prompt + output
};

// Bytes read so far and the file's size; called every few megabytes and once at the end.
using DatasetProgress = std::function<void(qint64 bytesRead, qint64 totalBytes)>;

struct ShareGptOptions
{
    int numPrompts = 1000;
    quint64 seed = 0;
    int fixedOutputTokens = 0; // > 0: max_tokens of every request (and no minimum on the dataset's output)
    LengthFilter filter;
    DatasetProgress progress;
    // Conversations (sessions) instead of single prompts: every turn of each conversation is kept.
    bool multiTurn = false;
    // A malformed conversation (a value of the wrong type in it; multiTurn: roles out of order) fails
    // the read instead of being counted, named (the first 20) and skipped.
    bool strict = false;
};

// What a ShareGPT read saw. Each dropped conversation counts once, under the first reason that applies
// in this order: too few turns, prompt too short, output too short, prompt too long, total too long.
struct ShareGptStats
{
    qint64 conversations = 0; // entries of the top-level array
    qint64 tooFewTurns = 0; // fewer than two turns (or no "conversations")
    qint64 promptTooShort = 0;
    qint64 outputTooShort = 0;
    qint64 promptTooLong = 0;
    qint64 totalTooLong = 0;
    qint64 usable = 0; // passed the filters
    qint64 bytes = 0; // bytes read
    qint64 badConversations
        = 0; // a value of the wrong type; multi-turn: no user turn, turns out of order, an unknown role
    // Multi-turn: conversations the length filters stopped before their last turn (the history a later
    // turn carries counts toward max_prompt_len and max_total_len), the turns that left out, and the
    // first such conversation: its index, turns kept and turns it had.
    qint64 cutByFilters = 0;
    qint64 turnsCut = 0;
    qint64 firstCut = -1;
    int firstCutKept = 0;
    int firstCutTurns = 0;
    bool operator==(const ShareGptStats&) const = default;
};

struct DatasetResult
{
    std::vector<Prompt> prompts; // single-turn workloads
    std::vector<Conversation> sessions; // multi-turn workloads (workload.multi_turn): prompts stays empty
    QString error; // names the file and line (or byte offset) when loading failed
    QStringList warnings;
    ShareGptStats shareGpt; // sharegpt only
    qint64 badLines = 0; // jsonl/replay/mooncake: lines skipped; sharegpt multi-turn: conversations skipped
    bool ok() const { return error.isEmpty(); }
};

// The most output tokens one request of a dataset may ask for: beyond any model's context, and far
// inside an int (a larger "output_tokens" would wrap to a max_tokens of 0).
inline constexpr int kMaxDatasetOutputTokens = 10'000'000;
// The longest a replayed log (replay, mooncake) may span from its earliest timestamp to its latest: ten
// days (a step's cap, load.step_duration_s) at the fastest replay_speed, 1000. A later timestamp is
// refused, naming its line, before any time is computed from it (docs/PROFILES.md, "Caps on profile values").
inline constexpr double kMaxLogSpanS = 864'000'000;
// Whether a JSONL line's "output_tokens" is absent or a whole number in [1, kMaxDatasetOutputTokens].
bool validOutputTokens(const QJsonValue& value);

// Word-count tokens: the number of whitespace-separated words in text.
int countWords(QStringView text);
// The same count over UTF-8 bytes (the same whitespace as QChar::isSpace), without decoding.
int countWordsUtf8(std::string_view utf8);

// Synthetic prompts of random words (seeded, deterministic).
DatasetResult randomDataset(const RandomDatasetOptions& options);

// N prefixes of prefixLen random words, each followed by M suffixes of about inputLen words (range
// ratio as the random dataset): N × M prompts, grouped by prefix. Seeded, deterministic.
DatasetResult sharedPrefixDataset(
    const RandomDatasetOptions& options, int prefixLen, int numPrefixes, int suffixesPerPrefix);

// The longest line a JSONL dataset may have: a longer one (or a file with no newline) is refused.
inline constexpr qint64 kMaxDatasetLineBytes = 16LL * 1024 * 1024;

// Custom JSONL: one object per line with "prompt" (or chat "messages") and optional "output_tokens".
// Bad lines are skipped with a warning naming the line unless strict is set, then the first fails.
DatasetResult loadJsonl(const QString& path, int defaultOutputTokens, bool strict);

// Log replay JSONL: a custom JSONL line plus "timestamp": ISO-8601 text (absolute) or a number of
// seconds (epoch or relative; only differences matter). Prompts come back in time order with atNs
// relative to the earliest timestamp.
DatasetResult loadReplay(const QString& path, int defaultOutputTokens, bool strict);

// ShareGPT JSON ([{"conversations": [{"from", "value"}, ...]}, ...]), read streaming in memory bounded by
// numPrompts: the first turn is the prompt, the second's length the output length (unless
// fixedOutputTokens > 0), the filters drop what the reference drops. As the reference does, the
// conversations are shuffled (seeded) and the first numPrompts that pass the filters are kept; when
// fewer pass, seeded picks among them fill up (oversampling, with a warning). Errors name the byte offset.
DatasetResult loadShareGpt(const QString& path, const ShareGptOptions& options);

// ShareGPT with ShareGptOptions::multiTurn: every turn of each conversation (human/user: a user turn;
// gpt/assistant/chatgpt/bard/model: its recorded answer; system first: the system prompt), kept in
// sessions in shuffle order, as many as needed for numPrompts turns; memory holds those and one
// conversation being read. Filters: the first turn (system prompt and user turn as the prompt) must pass
// the length filters or the conversation is dropped; it stops before the first later turn whose prompt
// (history + user turn) is over max_prompt_len, whose prompt + answer is over max_total_len, or whose
// answer is empty. A malformed conversation (no user turn, an answer first, two user turns in a row, an
// unknown role, a system turn after the start) is named by its index and byte offset, counted, skipped.
// A trailing user turn without an answer is left out.

// Custom JSONL with multi_turn: one conversation per line, a "messages" array of {"role", "content"}
// (system first, then user and assistant in turn; a line with just "prompt" is a one-turn session). A
// turn's max_tokens is its recorded answer's length, fixedOutputTokens when > 0, the line's
// "output_tokens" (or defaultOutputTokens) for a last user turn without an answer.
DatasetResult loadJsonlConversations(const QString& path, int defaultOutputTokens, int fixedOutputTokens, bool strict);

// Synthetic sessions of `turns` turns (user turns of about inputLen words, answers of about outputLen,
// range ratio as the random dataset), each starting with the same system prompt of systemPromptLen
// words; enough sessions for options.numPrompts turns. Seeded, deterministic.
DatasetResult randomSessions(const RandomDatasetOptions& options, int turns, int systemPromptLen);

// Takes sessions from source in a seeded shuffle, repeating them when short, until their turns add up
// to at least numPrompts.
std::vector<Conversation> sampleSessions(const std::vector<Conversation>& source, int numPrompts, quint64 seed);

struct MooncakeOptions
{
    int numPrompts = 1000; // the earliest numPrompts usable lines in file order are kept
    int fixedOutputTokens = 0; // > 0: max_tokens of every request instead of output_length
    std::optional<int> maxModelLen; // a line with input_length + output_length over this is a bad line
    bool strict = false; // the first bad line fails the read
};

// A Mooncake trace (JSONL: "timestamp" in ms, "input_length", "output_length", "hash_ids" of
// kTraceBlockTokens-token blocks), read line by line: prompts in time order with atNs from the earliest
// timestamp, hashIds set, text empty (promptText makes it).
DatasetResult loadMooncake(const QString& path, const MooncakeOptions& options);

// The text to send for a prompt: its own text, or for a trace prompt (hashIds set) the blocks of its
// hash ids, kTraceBlockTokens words each (the same words for the same id and seed), cut to promptTokens.
QString promptText(const Prompt& prompt, quint64 seed);

// The text of a synthetic prompt sent at one position of a run (the n-th request of the run in the single
// client's order): its shared prefix, then promptTokens − sharedTokens words drawn from (seed, position),
// so every position gets a text no other position sends and the same seed gives the same texts.
QString freshText(const Prompt& prompt, quint64 seed, qint64 position);
// A synthetic session started at one position of a run: the same system prompt and turn lengths, the user
// turns and answers drawn from (seed, position).
Conversation freshSession(const Conversation& session, quint64 seed, qint64 position);

// Takes numPrompts prompts from source: a seeded shuffle, then repeats (oversampling) when short.
std::vector<Prompt> samplePrompts(const std::vector<Prompt>& source, int numPrompts, quint64 seed);

// The prompts a workload describes: numPrompts of them, seeded (replay: the whole log, in time order).
// Errors name the file or field.
DatasetResult loadWorkload(const Workload& workload, const DatasetProgress& progress = {});

} // namespace kp
