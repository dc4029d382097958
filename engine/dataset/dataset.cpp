#include "dataset/dataset.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace kp {

namespace {

// A small fixed vocabulary; words are joined by single spaces so the word count is the token count.
constexpr std::array<const char*, 64> kVocabulary = {
    "the",
    "load",
    "server",
    "token",
    "model",
    "batch",
    "cache",
    "queue",
    "request",
    "stream",
    "latency",
    "knee",
    "graph",
    "kernel",
    "memory",
    "block",
    "tensor",
    "layer",
    "vector",
    "matrix",
    "prompt",
    "answer",
    "engine",
    "worker",
    "thread",
    "socket",
    "packet",
    "signal",
    "metric",
    "sample",
    "window",
    "buffer",
    "record",
    "margin",
    "scale",
    "weight",
    "value",
    "index",
    "label",
    "chart",
    "curve",
    "point",
    "limit",
    "range",
    "burst",
    "shard",
    "cluster",
    "node",
    "route",
    "proxy",
    "header",
    "status",
    "result",
    "report",
    "capacity",
    "planner",
    "budget",
    "device",
    "driver",
    "version",
    "profile",
    "target",
    "sweep",
    "step",
};

QString randomWords(std::mt19937_64& rng, int count)
{
    std::uniform_int_distribution<std::size_t> pick(0, kVocabulary.size() - 1);
    QString text;
    text.reserve(count * 7);
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            text += QLatin1Char(' ');
        text += QLatin1StringView(kVocabulary[pick(rng)]);
    }
    return text;
}

int drawLength(std::mt19937_64& rng, int mean, double rangeRatio)
{
    const int lo = std::max(1, static_cast<int>(std::floor(mean * (1.0 - rangeRatio))));
    const int hi = std::max(lo, static_cast<int>(std::ceil(mean * (1.0 + rangeRatio))));
    if (lo == hi)
        return lo;
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

} // namespace

int countWords(QStringView text)
{
    int words = 0;
    bool inWord = false;
    for (const QChar c : text) {
        const bool space = c.isSpace();
        if (!space && !inWord)
            ++words;
        inWord = !space;
    }
    return words;
}

DatasetResult randomDataset(const RandomDatasetOptions& options)
{
    DatasetResult result;
    if (options.numPrompts < 1 || options.inputLen < 1 || options.outputLen < 1) {
        result.error = QStringLiteral("random dataset: num_prompts, input_len and output_len must be >= 1");
        return result;
    }
    if (options.rangeRatio < 0.0 || options.rangeRatio >= 1.0) {
        result.error = QStringLiteral("random dataset: range_ratio must be in [0, 1)");
        return result;
    }
    std::mt19937_64 rng(options.seed);
    result.prompts.reserve(options.numPrompts);
    for (int i = 0; i < options.numPrompts; ++i) {
        Prompt p;
        p.promptTokens = drawLength(rng, options.inputLen, options.rangeRatio);
        p.outputTokens = drawLength(rng, options.outputLen, options.rangeRatio);
        p.text = randomWords(rng, p.promptTokens);
        result.prompts.push_back(std::move(p));
    }
    return result;
}

DatasetResult loadJsonl(const QString& path, int defaultOutputTokens, bool strict)
{
    DatasetResult result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return result;
    }
    int lineNo = 0;
    int skipped = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        ++lineNo;
        if (line.isEmpty())
            continue;
        QString problem;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        Prompt p;
        if (parseError.error != QJsonParseError::NoError) {
            problem
                = QStringLiteral("not JSON (%1 at column %2)").arg(parseError.errorString()).arg(parseError.offset + 1);
        } else if (!doc.isObject()) {
            problem = QStringLiteral("not a JSON object");
        } else {
            const QJsonObject obj = doc.object();
            if (obj.value(QLatin1String("prompt")).isString()) {
                p.text = obj.value(QLatin1String("prompt")).toString();
            } else if (obj.value(QLatin1String("messages")).isArray()) {
                QStringList parts;
                for (const auto& m : obj.value(QLatin1String("messages")).toArray())
                    parts << m.toObject().value(QLatin1String("content")).toString();
                p.text = parts.join(QLatin1Char('\n'));
            } else {
                problem = QStringLiteral("needs a string \"prompt\" or a \"messages\" array");
            }
            const QJsonValue out = obj.value(QLatin1String("output_tokens"));
            if (problem.isEmpty() && !out.isUndefined() && (!out.isDouble() || out.toInt() < 1))
                problem = QStringLiteral("\"output_tokens\" must be an integer >= 1");
            p.outputTokens = out.isUndefined() ? defaultOutputTokens : out.toInt();
        }
        if (problem.isEmpty() && countWords(p.text) == 0)
            problem = QStringLiteral("empty prompt");
        if (!problem.isEmpty()) {
            const QString message = QStringLiteral("%1:%2: %3").arg(path).arg(lineNo).arg(problem);
            if (strict) {
                result.error = message;
                result.prompts.clear();
                return result;
            }
            if (++skipped <= 20)
                result.warnings << message;
            continue;
        }
        p.promptTokens = countWords(p.text);
        result.prompts.push_back(std::move(p));
    }
    if (skipped > 20)
        result.warnings << QStringLiteral("%1: %2 more bad lines skipped").arg(path).arg(skipped - 20);
    if (skipped > 0)
        result.warnings << QStringLiteral("%1: skipped %2 of %3 lines").arg(path).arg(skipped).arg(lineNo);
    if (result.prompts.empty())
        result.error = QStringLiteral("%1: no usable prompts").arg(path);
    return result;
}

DatasetResult loadShareGpt(const QString& path, int fixedOutputTokens)
{
    DatasetResult result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
        return result;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        result.error
            = QStringLiteral("%1: not JSON: %2 at byte %3").arg(path, parseError.errorString()).arg(parseError.offset);
        return result;
    }
    if (!doc.isArray()) {
        result.error = QStringLiteral("%1: expected a JSON array of conversations").arg(path);
        return result;
    }
    int filtered = 0;
    const QJsonArray entries = doc.array();
    for (const auto& entry : entries) {
        const QJsonArray turns = entry.toObject().value(QLatin1String("conversations")).toArray();
        if (turns.size() < 2) {
            ++filtered;
            continue;
        }
        Prompt p;
        p.text = turns.at(0).toObject().value(QLatin1String("value")).toString();
        p.promptTokens = countWords(p.text);
        const int completionTokens = countWords(turns.at(1).toObject().value(QLatin1String("value")).toString());
        p.outputTokens = fixedOutputTokens > 0 ? fixedOutputTokens : completionTokens;
        if (p.promptTokens < 4 || (fixedOutputTokens <= 0 && p.outputTokens < 4) || p.promptTokens > 1024
            || p.promptTokens + p.outputTokens > 2048) {
            ++filtered;
            continue;
        }
        result.prompts.push_back(std::move(p));
    }
    if (filtered > 0)
        result.warnings << QStringLiteral("%1: %2 of %3 conversations filtered out (too short, too long or one turn)")
                               .arg(path)
                               .arg(filtered)
                               .arg(entries.size());
    if (result.prompts.empty())
        result.error = QStringLiteral("%1: no usable conversations").arg(path);
    return result;
}

DatasetResult loadWorkload(const Workload& workload)
{
    DatasetResult source;
    const int fixedOutput = workload.fixedOutputLen.value_or(0);
    if (workload.dataset == QLatin1String("random")) {
        RandomDatasetOptions options;
        options.numPrompts = workload.numPrompts;
        options.inputLen = workload.inputLen;
        options.outputLen = workload.outputLen;
        options.rangeRatio = workload.rangeRatio;
        options.seed = static_cast<quint64>(workload.seed);
        source = randomDataset(options);
        if (source.ok() && workload.prefixLen > 0) {
            std::mt19937_64 rng(static_cast<quint64>(workload.seed) ^ 0x9e3779b97f4a7c15ULL);
            const QString prefix = randomWords(rng, workload.prefixLen) + QLatin1Char(' ');
            for (Prompt& p : source.prompts) {
                p.text.prepend(prefix);
                p.promptTokens += workload.prefixLen;
            }
        }
        return source;
    }
    if (workload.datasetPath.isEmpty()) {
        source.error = QStringLiteral("workload.dataset_path: required for the %1 dataset").arg(workload.dataset);
        return source;
    }
    if (workload.dataset == QLatin1String("sharegpt"))
        source = loadShareGpt(workload.datasetPath, fixedOutput);
    else if (workload.dataset == QLatin1String("jsonl") || workload.dataset == QLatin1String("custom"))
        source = loadJsonl(workload.datasetPath, fixedOutput > 0 ? fixedOutput : workload.outputLen, false);
    else
        source.error = QStringLiteral("workload.dataset: unknown dataset \"%1\"").arg(workload.dataset);
    if (!source.ok())
        return source;
    DatasetResult result;
    result.warnings = source.warnings;
    result.prompts = samplePrompts(source.prompts, workload.numPrompts, static_cast<quint64>(workload.seed));
    if (static_cast<int>(source.prompts.size()) < workload.numPrompts)
        result.warnings << QStringLiteral("%1: %2 prompts available for %3 requests: prompts are reused")
                               .arg(workload.datasetPath)
                               .arg(source.prompts.size())
                               .arg(workload.numPrompts);
    return result;
}

std::vector<Prompt> samplePrompts(const std::vector<Prompt>& source, int numPrompts, quint64 seed)
{
    std::vector<Prompt> out;
    if (source.empty() || numPrompts < 1)
        return out;
    std::vector<std::size_t> order(source.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    out.reserve(numPrompts);
    for (int i = 0; i < numPrompts; ++i)
        out.push_back(source[order[static_cast<std::size_t>(i) % order.size()]]);
    return out;
}

} // namespace kp
