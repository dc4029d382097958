// Mooncake traces (agent and chat traffic with prefix reuse) and the text of trace prompts.

#include "dataset/dataset.h"
#include "dataset/dataset_p.h"

#include "metrics/phrase.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace kp {

namespace {

// A whole number >= min from a JSON value, or nullopt.
std::optional<qint64> wholeNumber(const QJsonValue& v, qint64 min)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (d != std::floor(d) || d < double(min) || d > 9.0e15)
        return std::nullopt;
    return static_cast<qint64>(d);
}

quint64 mix(quint64 z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// The words of one block, joined by single spaces; a direct-mapped cache per thread keeps recent
// blocks, as a trace's prompts share most of theirs.
struct BlockCache
{
    struct Entry
    {
        bool used = false;
        qint64 id = 0;
        quint64 seed = 0;
        QString text;
    };
    std::array<Entry, 128> entries;

    const QString& block(qint64 id, quint64 seed)
    {
        const quint64 h = mix(static_cast<quint64>(id) * 0x9e3779b97f4a7c15ULL ^ seed);
        Entry& e = entries[h % entries.size()];
        if (e.used && e.id == id && e.seed == seed)
            return e.text;
        e.used = true;
        e.id = id;
        e.seed = seed;
        e.text.clear();
        e.text.reserve(kTraceBlockTokens * 8);
        quint64 state = h;
        const auto words = static_cast<quint64>(detail::vocabularySize());
        for (int i = 0; i < kTraceBlockTokens; ++i) {
            state = mix(state + 0x9e3779b97f4a7c15ULL);
            if (i > 0)
                e.text += QLatin1Char(' ');
            e.text += QLatin1StringView(detail::vocabularyWord(static_cast<int>(state % words)));
        }
        return e.text;
    }
};

} // namespace

QString promptText(const Prompt& prompt, quint64 seed)
{
    if (prompt.hashIds.empty())
        return prompt.text;
    thread_local BlockCache cache;
    int remaining
        = prompt.promptTokens > 0 ? prompt.promptTokens : kTraceBlockTokens * static_cast<int>(prompt.hashIds.size());
    QString text;
    text.reserve(static_cast<qsizetype>(remaining) * 8);
    for (const qint64 id : prompt.hashIds) {
        if (remaining <= 0)
            break;
        const QString& block = cache.block(id, seed);
        if (!text.isEmpty())
            text += QLatin1Char(' ');
        if (remaining >= kTraceBlockTokens) {
            text += block;
            remaining -= kTraceBlockTokens;
            continue;
        }
        // The first `remaining` words: up to the remaining-th space.
        qsizetype end = 0;
        for (int spaces = 0; end < block.size(); ++end) {
            if (block.at(end) == QLatin1Char(' ') && ++spaces == remaining)
                break;
        }
        text += QStringView(block).left(end);
        remaining = 0;
    }
    return text;
}

DatasetResult loadMooncake(const QString& path, const MooncakeOptions& options)
{
    std::vector<Prompt> prompts;
    std::vector<qint64> stampsMs;
    std::vector<qsizetype> lines; // each usable line's number, for messages
    const qint64 limit = std::max(1, options.numPrompts);
    DatasetResult result = detail::readJsonLines(
        path, options.strict, limit, [&](const QJsonObject& obj, qsizetype lineNo) -> QString {
            const auto timestamp = wholeNumber(obj.value(QLatin1String("timestamp")), 0);
            if (!timestamp)
                return phrase("Dataset", "needs \"timestamp\": a whole number of milliseconds >= 0");
            const auto input = wholeNumber(obj.value(QLatin1String("input_length")), 1);
            if (!input || *input > std::numeric_limits<int>::max())
                return phrase("Dataset", "needs \"input_length\": a whole number of tokens >= 1");
            const auto output = wholeNumber(obj.value(QLatin1String("output_length")), 1);
            if (!output || *output > std::numeric_limits<int>::max())
                return phrase("Dataset", "needs \"output_length\": a whole number of tokens >= 1");
            const QJsonValue ids = obj.value(QLatin1String("hash_ids"));
            if (!ids.isArray())
                return phrase("Dataset", "needs \"hash_ids\": an array of whole numbers");
            Prompt p;
            const QJsonArray array = ids.toArray();
            p.hashIds.reserve(static_cast<std::size_t>(array.size()));
            for (qsizetype i = 0; i < array.size(); ++i) {
                const auto id = wholeNumber(array.at(i), std::numeric_limits<qint64>::min());
                if (!id)
                    return phrase("Dataset", "hash_ids[%1] is not a whole number").arg(i);
                p.hashIds.push_back(*id);
            }
            const qint64 blocks = static_cast<qint64>(p.hashIds.size());
            if (*input > blocks * kTraceBlockTokens)
                return phrase("Dataset", "input_length %1 needs more than the %2 blocks of hash_ids (%3 tokens each)")
                    .arg(*input)
                    .arg(blocks)
                    .arg(kTraceBlockTokens);
            if (*input <= (blocks - 1) * kTraceBlockTokens)
                return phrase("Dataset", "input_length %1 fills fewer than the %2 blocks of hash_ids (%3 tokens each)")
                    .arg(*input)
                    .arg(blocks)
                    .arg(kTraceBlockTokens);
            if (options.maxModelLen && *input + *output > *options.maxModelLen)
                return phrase("Dataset", "input_length + output_length = %1 is over max_model_len %2")
                    .arg(*input + *output)
                    .arg(*options.maxModelLen);
            p.promptTokens = static_cast<int>(*input);
            p.outputTokens = options.fixedOutputTokens > 0 ? options.fixedOutputTokens : static_cast<int>(*output);
            prompts.push_back(std::move(p));
            stampsMs.push_back(*timestamp);
            lines.push_back(lineNo);
            return {};
        });
    if (!result.ok())
        return result;
    if (prompts.empty()) {
        result.error = phrase("Dataset", "%1: no usable trace lines").arg(path);
        return result;
    }
    // Time order (stable: equal timestamps keep their file order), relative to the earliest.
    std::vector<std::size_t> order(prompts.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (!std::is_sorted(stampsMs.begin(), stampsMs.end())) {
        std::stable_sort(
            order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return stampsMs[a] < stampsMs[b]; });
        result.warnings
            << phrase("Dataset", "%1: timestamps are not in order; requests are replayed in time order").arg(path);
    }
    const qint64 first = stampsMs[order.front()];
    // Compared in seconds as doubles: a difference of two far timestamps would overflow in nanoseconds.
    if (const std::size_t last = order.back(); double(stampsMs[last]) / 1e3 - double(first) / 1e3 > kMaxLogSpanS) {
        result.error = detail::logSpanError(path, lines[last], double(stampsMs[last]) / 1e3 - double(first) / 1e3);
        return result;
    }
    result.prompts.reserve(order.size());
    for (const std::size_t i : order) {
        Prompt p = std::move(prompts[i]);
        p.atNs = (stampsMs[i] - first) * 1'000'000;
        result.prompts.push_back(std::move(p));
    }
    // The step replays the trace from its start again when it asks for more requests than it has.
    if (static_cast<qint64>(result.prompts.size()) < options.numPrompts)
        result.warnings << phrase("Dataset", "%1: %2 prompts available for %3 requests: prompts are reused")
                               .arg(path)
                               .arg(result.prompts.size())
                               .arg(options.numPrompts);
    return result;
}

} // namespace kp
