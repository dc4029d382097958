#pragma once

// Helpers shared by the dataset sources (not part of the public interface).

#include "dataset/dataset.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <random>

namespace kp::detail {

// count words of the built-in vocabulary, joined by single spaces.
QString randomWords(std::mt19937_64& rng, int count);
// A length drawn uniformly from [mean·(1−r), mean·(1+r)], at least 1.
int drawLength(std::mt19937_64& rng, int mean, double rangeRatio);
// A length of the given shape around mean (Uniform: range ratio r; Normal, Lognormal: std), in [1, max].
// Normal and lognormal draws take two 53-bit uniforms from rng (Box–Muller), so they are the same on
// every standard library.
int drawLength(std::mt19937_64& rng, LengthShape shape, int mean, double rangeRatio, double std, int max);
// The prompt and output lengths of one synthetic prompt, as options asks.
std::pair<int, int> drawLengths(std::mt19937_64& rng, const RandomDatasetOptions& options);
// The built-in vocabulary: its size and word i.
int vocabularySize();
const char* vocabularyWord(int index);

// Reads a JSONL file line by line. `parse` reads one object (its line number given) and keeps what it
// made itself, or says what is wrong with it; a bad line is skipped (counted, the first 20 named) or,
// when strict, ends the read with an error naming FILE:LINE. Reading stops after maxItems usable lines
// (0: no limit). The caller checks that something usable was read.
DatasetResult readJsonLines(const QString& path, bool strict, qint64 maxItems,
    const std::function<QString(const QJsonObject& obj, qsizetype lineNo)>& parse);

// A replayed log's timestamp too far after its earliest (kMaxLogSpanS), naming FILE:LINE.
QString logSpanError(const QString& path, qsizetype line, double spanS);

// Repeats the sessions in their order until their turns add up to at least numPrompts.
std::vector<Conversation> fillSessions(std::vector<Conversation> sessions, int numPrompts);
qint64 countTurns(const std::vector<Conversation>& sessions);

} // namespace kp::detail
