#pragma once

#include "profile/profile.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace kp {

// One prompt to send. Token counts follow the dataset's own count: for the built-in sources a
// token is a whitespace-separated word, which is also how the simulator counts.
struct Prompt
{
    QString text;
    int promptTokens = 0;
    int outputTokens = 0; // requested output length (max_tokens)
};

struct RandomDatasetOptions
{
    int numPrompts = 100;
    int inputLen = 128; // mean prompt length, tokens
    int outputLen = 128; // mean output length, tokens
    double rangeRatio = 0.0; // lengths are uniform in [len·(1−r), len·(1+r)], as the reference's random dataset
    quint64 seed = 0;
};

struct DatasetResult
{
    std::vector<Prompt> prompts;
    QString error; // names the file and line when loading failed
    QStringList warnings;
    bool ok() const { return error.isEmpty(); }
};

// Word-count tokens: the number of whitespace-separated words in text.
int countWords(QStringView text);

// Synthetic prompts of random words (seeded, deterministic).
DatasetResult randomDataset(const RandomDatasetOptions& options);

// Custom JSONL: one object per line with "prompt" (or chat "messages") and optional "output_tokens".
// Bad lines are skipped with a warning naming the line unless strict is set, then the first fails.
DatasetResult loadJsonl(const QString& path, int defaultOutputTokens, bool strict);

// ShareGPT JSON ([{"conversations": [{"from", "value"}, ...]}, ...]): the first turn is the prompt, the
// second's length the output length (unless fixedOutputTokens > 0). The reference's filters apply:
// prompt or output under 4 tokens, prompt over 1024, prompt + output over 2048 are dropped.
DatasetResult loadShareGpt(const QString& path, int fixedOutputTokens);

// Takes numPrompts prompts from source: a seeded shuffle, then repeats (oversampling) when short.
std::vector<Prompt> samplePrompts(const std::vector<Prompt>& source, int numPrompts, quint64 seed);

// The prompts a workload describes: numPrompts of them, seeded. Errors name the file or field.
DatasetResult loadWorkload(const Workload& workload);

} // namespace kp
