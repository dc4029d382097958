#include "dataset/dataset.h"
#include "dataset/dataset_p.h"

#include "metrics/phrase.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <tuple>

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

} // namespace

namespace detail {

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

int drawLength(std::mt19937_64& rng, LengthShape shape, int mean, double rangeRatio, double std, int max)
{
    double value = mean;
    switch (shape) {
    case LengthShape::Fixed:
        break;
    case LengthShape::Uniform:
        value = drawLength(rng, mean, rangeRatio);
        break;
    case LengthShape::Normal:
    case LengthShape::Lognormal: {
        constexpr double kUnit = 1.0 / 9007199254740992.0; // 2^-53
        const double u1 = static_cast<double>((rng() >> 11) + 1) * kUnit; // (0, 1]
        const double u2 = static_cast<double>(rng() >> 11) * kUnit; // [0, 1)
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
        if (shape == LengthShape::Normal) {
            value = mean + std * z;
        } else {
            // The underlying normal's mu and sigma that give the lognormal this mean and std.
            const double sigma2 = std::log1p((std * std) / (double(mean) * mean));
            value = std::exp(std::log(double(mean)) - sigma2 / 2 + std::sqrt(sigma2) * z);
        }
        break;
    }
    }
    // A spread beyond a double (lognormal std 1e300: log1p(inf) - inf) gives NaN. In the limit a lognormal
    // of endless spread puts its mass at the bottom: the shortest length, never 0 tokens.
    if (std::isnan(value))
        value = 1.0;
    return static_cast<int>(std::clamp(std::round(value), 1.0, static_cast<double>(std::max(1, max))));
}

std::pair<int, int> drawLengths(std::mt19937_64& rng, const RandomDatasetOptions& o)
{
    constexpr int kNoLimit = std::numeric_limits<int>::max();
    const int context = o.maxModelLen.value_or(kNoLimit);
    const int prompt = drawLength(
        rng, o.inputShape, o.inputLen, o.rangeRatio, o.inputStd, context == kNoLimit ? kNoLimit : context - 1);
    const int output = drawLength(
        rng, o.outputShape, o.outputLen, o.rangeRatio, o.outputStd, context == kNoLimit ? kNoLimit : context - prompt);
    return { prompt, output };
}

int vocabularySize()
{
    return static_cast<int>(kVocabulary.size());
}

const char* vocabularyWord(int index)
{
    return kVocabulary[static_cast<std::size_t>(index)];
}

} // namespace detail

using detail::drawLength;
using detail::randomWords;

std::optional<LengthShape> lengthShapeFromName(QStringView name)
{
    if (name == u"uniform")
        return LengthShape::Uniform;
    if (name == u"fixed")
        return LengthShape::Fixed;
    if (name == u"normal")
        return LengthShape::Normal;
    if (name == u"lognormal")
        return LengthShape::Lognormal;
    return std::nullopt;
}

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

int countWordsUtf8(std::string_view text)
{
    // QChar::isSpace: U+0009..U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
    // U+202F, U+205F, U+3000.
    int words = 0;
    bool inWord = false;
    const auto* b = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = b[i];
        std::size_t len = 1;
        bool space = false;
        if (c < 0x80) {
            space = c == ' ' || (c >= 0x09 && c <= 0x0d);
        } else if (c == 0xc2 && i + 1 < n) {
            space = b[i + 1] == 0x85 || b[i + 1] == 0xa0;
            len = 2;
        } else if (c == 0xe2 && i + 2 < n && b[i + 1] == 0x80) {
            const unsigned char d = b[i + 2];
            space = d <= 0x8a || d == 0xa8 || d == 0xa9 || d == 0xaf;
            len = 3;
        } else if (i + 2 < n
            && ((c == 0xe1 && b[i + 1] == 0x9a && b[i + 2] == 0x80) // U+1680 ogham space mark
                || (c == 0xe2 && b[i + 1] == 0x81 && b[i + 2] == 0x9f) // U+205F medium mathematical space
                || (c == 0xe3 && b[i + 1] == 0x80 && b[i + 2] == 0x80))) { // U+3000 ideographic space
            space = true;
            len = 3;
        }
        if (!space && !inWord)
            ++words;
        inWord = !space;
        i += len;
    }
    return words;
}

DatasetResult randomDataset(const RandomDatasetOptions& options)
{
    DatasetResult result;
    if (options.numPrompts < 1 || options.inputLen < 1 || options.outputLen < 1) {
        result.error = phrase("Dataset", "random dataset: num_prompts, input_len and output_len must be >= 1");
        return result;
    }
    if (options.rangeRatio < 0.0 || options.rangeRatio >= 1.0) {
        result.error = phrase("Dataset", "random dataset: range_ratio must be in [0, 1)");
        return result;
    }
    std::mt19937_64 rng(options.seed);
    result.prompts.reserve(options.numPrompts);
    for (int i = 0; i < options.numPrompts; ++i) {
        Prompt p;
        std::tie(p.promptTokens, p.outputTokens) = detail::drawLengths(rng, options);
        p.text = randomWords(rng, p.promptTokens);
        p.synthetic = true;
        result.prompts.push_back(std::move(p));
    }
    return result;
}

namespace {

// The prompt of one custom JSONL object; an empty return means it is usable.
QString readPromptObject(const QJsonObject& obj, int defaultOutputTokens, Prompt& p)
{
    if (obj.contains(QLatin1String("prompt")) && obj.contains(QLatin1String("messages")))
        return phrase("Dataset", "has both \"prompt\" and \"messages\": keep one of them");
    if (obj.value(QLatin1String("prompt")).isString()) {
        p.text = obj.value(QLatin1String("prompt")).toString();
    } else if (obj.value(QLatin1String("messages")).isArray()) {
        QStringList parts;
        for (const auto& m : obj.value(QLatin1String("messages")).toArray())
            parts << m.toObject().value(QLatin1String("content")).toString();
        p.text = parts.join(QLatin1Char('\n'));
    } else {
        return phrase("Dataset", "needs a string \"prompt\" or a \"messages\" array");
    }
    const QJsonValue out = obj.value(QLatin1String("output_tokens"));
    if (!validOutputTokens(out))
        return phrase("Dataset", "\"output_tokens\" must be a whole number from 1 to %1").arg(kMaxDatasetOutputTokens);
    p.outputTokens = out.isUndefined() ? defaultOutputTokens : out.toInt();
    p.promptTokens = countWords(p.text);
    if (p.promptTokens == 0)
        return phrase("Dataset", "empty prompt");
    return {};
}

// Reads a JSONL file of prompts; `parse` turns one object into a prompt or says what is wrong.
DatasetResult readLines(const QString& path, bool strict,
    const std::function<QString(const QJsonObject& obj, qsizetype lineNo, Prompt& p)>& parse)
{
    std::vector<Prompt> prompts;
    DatasetResult result = detail::readJsonLines(path, strict, 0, [&](const QJsonObject& obj, qsizetype lineNo) {
        Prompt p;
        QString problem = parse(obj, lineNo, p);
        if (problem.isEmpty())
            prompts.push_back(std::move(p));
        return problem;
    });
    if (!result.ok())
        return result;
    result.prompts = std::move(prompts);
    if (result.prompts.empty())
        result.error = phrase("Dataset", "%1: no usable prompts").arg(path);
    return result;
}

// Seconds of an ISO-8601 timestamp (with or without fraction and offset; no offset: UTC).
std::optional<double> isoSeconds(const QString& text)
{
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid())
        return std::nullopt;
    if (t.timeSpec() == Qt::LocalTime)
        t.setTimeSpec(Qt::UTC);
    return static_cast<double>(t.toMSecsSinceEpoch()) / 1e3;
}

} // namespace

namespace detail {

DatasetResult readJsonLines(const QString& path, bool strict, qint64 maxItems,
    const std::function<QString(const QJsonObject& obj, qsizetype lineNo)>& parse)
{
    DatasetResult result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = phrase("Dataset", "%1: cannot open: %2").arg(path, file.errorString());
        return result;
    }
    qsizetype lineNo = 0;
    qint64 skipped = 0;
    qint64 usable = 0;
    while (maxItems <= 0 || usable < maxItems) {
        // Read to just past the limit (Qt's readLine(n) gives at most n - 1 bytes): a file without
        // newlines (or /dev/zero, which atEnd() calls empty) is one endless line. An empty read is
        // the end: a blank line still has its newline.
        QByteArray line = file.readLine(kMaxDatasetLineBytes + 2);
        if (line.isEmpty())
            break;
        ++lineNo;
        if (line.size() > kMaxDatasetLineBytes) {
            result.error = phrase("Dataset", "%1:%2: a line longer than %3 MB; a JSONL dataset has one prompt a line")
                               .arg(path)
                               .arg(lineNo)
                               .arg(kMaxDatasetLineBytes / (1024 * 1024));
            return result;
        }
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        QString problem;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            problem = phrase("Dataset", "not JSON (%1 at column %2)")
                          .arg(parseError.errorString())
                          .arg(parseError.offset + 1);
        else if (!doc.isObject())
            problem = phrase("Dataset", "not a JSON object");
        else
            problem = parse(doc.object(), lineNo);
        if (!problem.isEmpty()) {
            const QString message = QStringLiteral("%1:%2: %3").arg(path).arg(lineNo).arg(problem);
            if (strict) {
                result.error = message;
                return result;
            }
            if (++skipped <= 20)
                result.warnings << message;
            continue;
        }
        ++usable;
    }
    if (file.error() != QFileDevice::NoError) {
        result.error
            = phrase("Dataset", "%1: read error after line %2: %3").arg(path).arg(lineNo).arg(file.errorString());
        return result;
    }
    result.badLines = skipped;
    if (skipped > 20)
        result.warnings << phrase("Dataset", "%1: %2 more bad lines skipped").arg(path).arg(skipped - 20);
    if (skipped > 0)
        result.warnings << phrase("Dataset", "%1: skipped %2 of %3 lines").arg(path).arg(skipped).arg(lineNo);
    return result;
}

} // namespace detail

DatasetResult loadJsonl(const QString& path, int defaultOutputTokens, bool strict)
{
    return readLines(path, strict, [defaultOutputTokens](const QJsonObject& obj, qsizetype, Prompt& p) {
        return readPromptObject(obj, defaultOutputTokens, p);
    });
}

QString detail::logSpanError(const QString& path, qsizetype line, double spanS)
{
    return phrase("Dataset",
        "%1:%2: the timestamp is %3 s after the log's earliest; a replayed log may span at most %4 s (ten days at "
        "replay_speed 1000)")
        .arg(path)
        .arg(line)
        .arg(spanS, 0, 'g', 6)
        .arg(kMaxLogSpanS, 0, 'f', 0);
}

DatasetResult loadReplay(const QString& path, int defaultOutputTokens, bool strict)
{
    // The first usable line decides the kind of timestamp: ISO-8601 text or numbers.
    enum class Kind { Unknown, Iso, Seconds } kind = Kind::Unknown;
    std::vector<double> seconds;
    std::vector<qsizetype> lines;
    DatasetResult result = readLines(path, strict, [&](const QJsonObject& obj, qsizetype lineNo, Prompt& p) -> QString {
        const QJsonValue ts = obj.value(QLatin1String("timestamp"));
        std::optional<double> at;
        if (ts.isString()) {
            if (kind == Kind::Seconds)
                return phrase("Dataset", "\"timestamp\" is ISO-8601 text where earlier lines have numbers");
            at = isoSeconds(ts.toString());
            if (!at)
                return phrase("Dataset", "\"timestamp\" \"%1\" is not ISO-8601 (e.g. 2024-05-01T12:00:00.250Z)")
                    .arg(ts.toString());
        } else if (ts.isDouble()) {
            if (kind == Kind::Iso)
                return phrase("Dataset", "\"timestamp\" is a number where earlier lines have ISO-8601 text");
            at = ts.toDouble();
            if (!std::isfinite(*at))
                return phrase("Dataset", "needs a \"timestamp\": ISO-8601 text or seconds");
        } else {
            return phrase("Dataset", "needs a \"timestamp\": ISO-8601 text or seconds");
        }
        const QString problem = readPromptObject(obj, defaultOutputTokens, p);
        if (!problem.isEmpty())
            return problem;
        if (kind == Kind::Unknown)
            kind = ts.isString() ? Kind::Iso : Kind::Seconds;
        seconds.push_back(*at);
        lines.push_back(lineNo);
        return {};
    });
    if (!result.ok())
        return result;
    // Time order (stable: equal timestamps keep their file order), relative to the earliest.
    std::vector<std::size_t> order(result.prompts.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const bool sorted = std::is_sorted(seconds.begin(), seconds.end());
    if (!sorted) {
        std::stable_sort(
            order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return seconds[a] < seconds[b]; });
        result.warnings
            << phrase("Dataset", "%1: timestamps are not in order; requests are replayed in time order").arg(path);
    }
    const double first = seconds[order.front()];
    if (const std::size_t last = order.back(); seconds[last] - first > kMaxLogSpanS) {
        result.error = detail::logSpanError(path, lines[last], seconds[last] - first);
        result.prompts.clear();
        return result;
    }
    std::vector<Prompt> prompts;
    prompts.reserve(order.size());
    for (std::size_t i : order) {
        Prompt p = std::move(result.prompts[i]);
        p.atNs = std::llround((seconds[i] - first) * 1e9);
        prompts.push_back(std::move(p));
    }
    result.prompts = std::move(prompts);
    return result;
}

DatasetResult sharedPrefixDataset(
    const RandomDatasetOptions& options, int prefixLen, int numPrefixes, int suffixesPerPrefix)
{
    DatasetResult result;
    if (prefixLen < 1 || numPrefixes < 1 || suffixesPerPrefix < 1) {
        result.error
            = phrase("Dataset", "shared-prefix dataset: prefix_len, num_prefixes and suffixes per prefix must be >= 1");
        return result;
    }
    if (options.inputLen < 1 || options.outputLen < 1 || options.rangeRatio < 0.0 || options.rangeRatio >= 1.0) {
        result.error
            = phrase("Dataset", "shared-prefix dataset: input_len and output_len must be >= 1, range_ratio in [0, 1)");
        return result;
    }
    RandomDatasetOptions suffixOptions = options; // the context left after the shared prefix
    if (suffixOptions.maxModelLen)
        suffixOptions.maxModelLen = std::max(2, *suffixOptions.maxModelLen - prefixLen);
    std::mt19937_64 rng(options.seed ^ 0x5ca1ab1e0ddba11ULL);
    result.prompts.reserve(static_cast<std::size_t>(numPrefixes) * static_cast<std::size_t>(suffixesPerPrefix));
    for (int n = 0; n < numPrefixes; ++n) {
        // The prefix number leads, so that prefixes differ from their first token on.
        const QString prefix = QStringLiteral("prefix-%1 ").arg(n) + randomWords(rng, prefixLen - 1);
        for (int m = 0; m < suffixesPerPrefix; ++m) {
            Prompt p;
            int suffixLen = 0;
            std::tie(suffixLen, p.outputTokens) = detail::drawLengths(rng, suffixOptions);
            p.text = prefix + (prefixLen > 1 ? QStringLiteral(" ") : QString());
            p.sharedChars = static_cast<int>(p.text.size());
            p.sharedTokens = prefixLen;
            p.synthetic = true;
            p.text += randomWords(rng, suffixLen);
            p.promptTokens = prefixLen + suffixLen;
            result.prompts.push_back(std::move(p));
        }
    }
    return result;
}

namespace {

// The workload's ShareGPT reading: its count, seed, fixed output length and the reference's filters.
ShareGptOptions shareGptOptions(const Workload& workload, const DatasetProgress& progress)
{
    ShareGptOptions options;
    options.numPrompts = workload.numPrompts;
    options.seed = static_cast<quint64>(workload.seed);
    options.fixedOutputTokens = workload.fixedOutputLen.value_or(0);
    options.filter.enabled = workload.filterLengths;
    options.filter.minLen = workload.minLen;
    options.filter.maxPromptLen = workload.maxPromptLen;
    options.filter.maxTotalLen = workload.maxTotalLen;
    options.progress = progress;
    return options;
}

// The sessions of a multi-turn workload: enough for numPrompts turns, seeded.
DatasetResult loadSessions(const Workload& workload, RandomDatasetOptions random, const DatasetProgress& progress)
{
    const int fixedOutput = workload.fixedOutputLen.value_or(0);
    const bool strict = workload.badLines == QLatin1String("fail");
    const QString& dataset = workload.dataset;
    DatasetResult source;
    bool sampled = false; // sharegpt and random come back shuffled (or synthetic) already
    if (dataset == QLatin1String("random")) {
        random.outputLen = workload.outputLen;
        return randomSessions(random, workload.turns, workload.systemPromptLen);
    } else if (dataset != QLatin1String("sharegpt") && dataset != QLatin1String("jsonl")
        && dataset != QLatin1String("custom")) {
        source.error = phrase("Dataset",
            "workload.multi_turn: the %1 dataset has no conversations; use sharegpt, "
            "jsonl or random")
                           .arg(dataset);
        return source;
    } else if (workload.datasetPath.isEmpty()) {
        source.error = phrase("Dataset", "workload.dataset_path: required for the %1 dataset").arg(dataset);
        return source;
    } else if (dataset == QLatin1String("sharegpt")) {
        ShareGptOptions options = shareGptOptions(workload, progress);
        options.multiTurn = true;
        options.strict = strict;
        source = loadShareGpt(workload.datasetPath, options);
        sampled = true;
    } else {
        source = loadJsonlConversations(
            workload.datasetPath, fixedOutput > 0 ? fixedOutput : workload.outputLen, fixedOutput, strict);
    }
    if (!source.ok())
        return source;
    const qint64 turns = detail::countTurns(source.sessions);
    const qint64 available = static_cast<qint64>(source.sessions.size());
    if (sampled)
        source.sessions = detail::fillSessions(std::move(source.sessions), workload.numPrompts);
    else
        source.sessions = sampleSessions(source.sessions, workload.numPrompts, static_cast<quint64>(workload.seed));
    if (turns < workload.numPrompts)
        source.warnings << phrase(
            "Dataset", "%1: %2 turns in %3 conversations for %4 requests: conversations are reused")
                               .arg(workload.datasetPath)
                               .arg(turns)
                               .arg(available)
                               .arg(workload.numPrompts);
    return source;
}

} // namespace

namespace {

// prompt_pool N > 0: only the first N prompts (or sessions) are sent, over and over.
DatasetResult limitToPool(DatasetResult result, const Workload& workload)
{
    const auto pool = static_cast<std::size_t>(std::max(0, workload.promptPool));
    if (!result.ok() || pool == 0)
        return result;
    // The pool's texts are sent as they are, again and again: none is made anew.
    for (Prompt& p : result.prompts)
        p.synthetic = false;
    for (Conversation& c : result.sessions)
        c.synthetic = false;
    if (result.prompts.size() > pool && result.prompts.front().atNs < 0 && result.prompts.front().hashIds.empty())
        result.prompts.resize(pool);
    if (result.sessions.size() > pool)
        result.sessions.resize(pool);
    return result;
}

DatasetResult loadWorkloadSource(const Workload& workload, const DatasetProgress& progress);

} // namespace

DatasetResult loadWorkload(const Workload& workload, const DatasetProgress& progress)
{
    return limitToPool(loadWorkloadSource(workload, progress), workload);
}

namespace {

DatasetResult loadWorkloadSource(const Workload& workload, const DatasetProgress& progress)
{
    DatasetResult source;
    const int fixedOutput = workload.fixedOutputLen.value_or(0);
    const bool strict = workload.badLines == QLatin1String("fail");
    RandomDatasetOptions random;
    random.numPrompts = workload.numPrompts;
    random.inputLen = workload.inputLen;
    random.outputLen = fixedOutput > 0 ? fixedOutput : workload.outputLen;
    random.rangeRatio = workload.rangeRatio;
    random.seed = static_cast<quint64>(workload.seed);
    random.inputShape = lengthShapeFromName(workload.inputLenDist).value_or(LengthShape::Uniform);
    random.outputShape = lengthShapeFromName(workload.outputLenDist).value_or(LengthShape::Uniform);
    random.inputStd = workload.inputLenStd.value_or(0);
    random.outputStd = workload.outputLenStd.value_or(0);
    random.maxModelLen = workload.maxModelLen;
    if (workload.multiTurn)
        return loadSessions(workload, random, progress);
    if (workload.dataset == QLatin1String("mooncake")) {
        if (workload.datasetPath.isEmpty()) {
            source.error
                = phrase("Dataset", "workload.dataset_path: required for the %1 dataset").arg(workload.dataset);
            return source;
        }
        MooncakeOptions options;
        options.numPrompts = workload.numPrompts;
        options.fixedOutputTokens = fixedOutput;
        options.maxModelLen = workload.maxModelLen;
        options.strict = strict;
        return loadMooncake(workload.datasetPath, options);
    }
    if (workload.dataset == QLatin1String("random")) {
        random.outputLen = workload.outputLen;
        source = randomDataset(random);
        if (source.ok() && workload.prefixLen > 0) {
            std::mt19937_64 rng(static_cast<quint64>(workload.seed) ^ 0x9e3779b97f4a7c15ULL);
            const QString prefix = randomWords(rng, workload.prefixLen) + QLatin1Char(' ');
            for (Prompt& p : source.prompts) {
                p.text.prepend(prefix);
                p.promptTokens += workload.prefixLen;
                p.sharedChars = static_cast<int>(prefix.size());
                p.sharedTokens = workload.prefixLen;
            }
        }
        return source;
    }
    if (workload.dataset == QLatin1String("shared-prefix")) {
        if (workload.prefixLen < 1) {
            source.error = phrase("Dataset", "workload.prefix_len: must be >= 1 for the shared-prefix dataset");
            return source;
        }
        const int perPrefix = workload.suffixesPerPrefix > 0
            ? workload.suffixesPerPrefix
            : std::max(1, (workload.numPrompts + workload.numPrefixes - 1) / std::max(1, workload.numPrefixes));
        source = sharedPrefixDataset(random, workload.prefixLen, workload.numPrefixes, perPrefix);
    } else if (workload.datasetPath.isEmpty()) {
        source.error = phrase("Dataset", "workload.dataset_path: required for the %1 dataset").arg(workload.dataset);
        return source;
    } else if (workload.dataset == QLatin1String("sharegpt")) {
        ShareGptOptions options = shareGptOptions(workload, progress);
        options.strict = strict;
        return loadShareGpt(workload.datasetPath, options); // already sampled
    } else if (workload.dataset == QLatin1String("replay")) {
        return loadReplay(workload.datasetPath, fixedOutput > 0 ? fixedOutput : workload.outputLen, strict);
    } else if (workload.dataset == QLatin1String("jsonl") || workload.dataset == QLatin1String("custom")) {
        source = loadJsonl(workload.datasetPath, fixedOutput > 0 ? fixedOutput : workload.outputLen, strict);
    } else {
        source.error = phrase("Dataset", "workload.dataset: unknown dataset \"%1\"").arg(workload.dataset);
    }
    if (!source.ok())
        return source;
    DatasetResult result;
    result.warnings = source.warnings;
    result.badLines = source.badLines;
    result.prompts = samplePrompts(source.prompts, workload.numPrompts, static_cast<quint64>(workload.seed));
    if (static_cast<int>(source.prompts.size()) < workload.numPrompts)
        result.warnings << phrase("Dataset", "%1: %2 prompts available for %3 requests: prompts are reused")
                               .arg(workload.datasetPath.isEmpty() ? workload.dataset : workload.datasetPath)
                               .arg(source.prompts.size())
                               .arg(workload.numPrompts);
    return result;
}

} // namespace

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
    for (int i = 0; i < numPrompts; ++i) {
        const std::size_t from = order[static_cast<std::size_t>(i) % order.size()];
        out.push_back(source[from]);
        if (out.back().id < 0)
            out.back().id = static_cast<int>(from);
    }
    return out;
}

namespace {

// A generator for one position of a run: seed and position mixed (splitmix64), so that neighbouring
// positions and seeds give unrelated streams.
std::mt19937_64 positionRng(quint64 seed, qint64 position)
{
    quint64 z = seed ^ (static_cast<quint64>(position) * 0x9e3779b97f4a7c15ULL) ^ 0xf7e5a3c1b2d4e6f8ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return std::mt19937_64(z ^ (z >> 31));
}

} // namespace

QString freshText(const Prompt& prompt, quint64 seed, qint64 position)
{
    std::mt19937_64 rng = positionRng(seed, position);
    const int words = std::max(0, prompt.promptTokens - prompt.sharedTokens);
    return prompt.text.left(prompt.sharedChars) + randomWords(rng, words);
}

Conversation freshSession(const Conversation& session, quint64 seed, qint64 position)
{
    std::mt19937_64 rng = positionRng(seed ^ 0x7a3c5e1f2b4d6a8cULL, position);
    Conversation c = session;
    for (Turn& t : c.turns) {
        t.user = randomWords(rng, t.userTokens);
        t.answer = randomWords(rng, t.answerTokens);
    }
    return c;
}

bool validOutputTokens(const QJsonValue& value)
{
    if (value.isUndefined())
        return true;
    const double v = value.toDouble(-1);
    return value.isDouble() && v == std::floor(v) && v >= 1 && v <= kMaxDatasetOutputTokens;
}

} // namespace kp
