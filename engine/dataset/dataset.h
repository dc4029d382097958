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
};

struct RandomDatasetOptions
{
    int numPrompts = 100;
    int inputLen = 128; // mean prompt length, tokens
    int outputLen = 128; // mean output length, tokens
    double rangeRatio = 0.0; // lengths are uniform in [len·(1−r), len·(1+r)], as the reference's random dataset
    quint64 seed = 0;
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
    bool operator==(const ShareGptStats&) const = default;
};

struct DatasetResult
{
    std::vector<Prompt> prompts; // single-turn workloads
    std::vector<Conversation> sessions; // multi-turn workloads (workload.multi_turn): prompts stays empty
    QString error; // names the file and line (or byte offset) when loading failed
    QStringList warnings;
    ShareGptStats shareGpt; // sharegpt only
    qint64 badLines = 0; // jsonl/replay: lines skipped
    bool ok() const { return error.isEmpty(); }
};

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

// The text to send for a prompt: its own text, or for a trace prompt (hashIds set) the blocks of its
// hash ids, kTraceBlockTokens words each (the same words for the same id and seed), cut to promptTokens.
QString promptText(const Prompt& prompt, quint64 seed);

// Takes numPrompts prompts from source: a seeded shuffle, then repeats (oversampling) when short.
std::vector<Prompt> samplePrompts(const std::vector<Prompt>& source, int numPrompts, quint64 seed);

// The prompts a workload describes: numPrompts of them, seeded (replay: the whole log, in time order).
// Errors name the file or field.
DatasetResult loadWorkload(const Workload& workload, const DatasetProgress& progress = {});

} // namespace kp
