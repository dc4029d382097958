#include "runs/importers.h"

#include "runs/importformats.h"

#include "metrics/boundedread.h"
#include "metrics/jsonvalues.h"
#include "metrics/resultjson.h"
#include "profile/profile.h"
#include "runs/runcatalog.h"
#include "store/runwriter.h"
#include "sweep/kneeanalysis.h"
#include "sweep/sweepplanner.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace kp {

namespace {

using importdetail::FileContents;
using Step = ImportedFileStep;

QString lineColumn(const QByteArray& bytes, int offset)
{
    int line = 1;
    int column = 1;
    for (int i = 0; i < offset && i < bytes.size(); ++i) {
        if (bytes[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return QStringLiteral("%1:%2").arg(line).arg(column);
}

// Python's json writes bare Infinity and NaN; QJsonDocument takes neither.
QByteArray quoteNonFinite(const QByteArray& bytes)
{
    if (!bytes.contains("Infinity") && !bytes.contains("NaN"))
        return bytes;
    static const QRegularExpression literal(QStringLiteral("([:\\[,]\\s*)(-?Infinity|NaN)(?=\\s*[,}\\]])"));
    QString text = QString::fromUtf8(bytes);
    text.replace(literal, QStringLiteral("\\1\"\\2\""));
    return text.toUtf8();
}

// The objects of a file in the order ResultJson::read sees them: one object, an array, or JSON Lines.
QList<QJsonObject> stepObjects(const QByteArray& bytes)
{
    QList<QJsonObject> out;
    const QByteArray text = quoteNonFinite(bytes);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error == QJsonParseError::NoError) {
        if (doc.isObject())
            out << doc.object();
        for (const QJsonValue& v : doc.array())
            out << v.toObject();
        return out;
    }
    for (const QByteArray& line : text.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        out << QJsonDocument::fromJson(line).object();
    }
    return out;
}

qint64 nanoseconds(double seconds)
{
    return static_cast<qint64>(std::llround(seconds * 1e9));
}

// The per-request lists the reference writes with --save-detailed (and SGLang with --output-details).
// Current vLLM adds `start_times` (each send, s, on one clock) and `latencies` (E2EL, s): then the
// records are on the step's clock, from its first send. Without `start_times` the times count from
// each request's own send: `*withoutSendTimes` is set, and no timeline may be drawn from them.
bool detailRecords(const QJsonObject& o, const QString& where, std::vector<RequestRecord>& records,
    bool* withoutSendTimes, QString* error)
{
    const QJsonValue ttfts = o.value(u"ttfts");
    if (!ttfts.isArray())
        return true;
    const QJsonArray t = ttfts.toArray();
    const QJsonArray itls = o.value(u"itls").toArray();
    const QJsonArray inputs = o.value(u"input_lens").toArray();
    const QJsonArray outputs = o.value(u"output_lens").toArray();
    const QJsonArray errors = o.value(u"errors").toArray();
    const QJsonArray starts = o.value(u"start_times").toArray();
    const QJsonArray latencies = o.value(u"latencies").toArray();
    auto checkLength = [&](const QJsonArray& a, const char* key) {
        if (!a.isEmpty() && a.size() != t.size()) {
            *error = QStringLiteral("%1.%2: %3 entries, but ttfts has %4")
                         .arg(where, QLatin1String(key))
                         .arg(a.size())
                         .arg(t.size());
            return false;
        }
        return true;
    };
    if (!checkLength(itls, "itls") || !checkLength(inputs, "input_lens") || !checkLength(outputs, "output_lens")
        || !checkLength(errors, "errors") || !checkLength(starts, "start_times")
        || !checkLength(latencies, "latencies"))
        return false;
    // The first send is the step's zero; vLLM's clock (time.perf_counter()) has no meaningful zero.
    const bool onOneClock = !starts.isEmpty();
    double firstStart = std::numeric_limits<double>::infinity();
    for (qsizetype i = 0; i < starts.size(); ++i) {
        if (!starts[i].isDouble()) {
            *error = QStringLiteral("%1.start_times[%2]: expected seconds").arg(where).arg(i);
            return false;
        }
        firstStart = std::min(firstStart, starts[i].toDouble());
    }
    *withoutSendTimes = !onOneClock && !t.isEmpty();
    records.reserve(std::size_t(t.size()));
    for (qsizetype i = 0; i < t.size(); ++i) {
        if (!t[i].isDouble()) {
            *error = QStringLiteral("%1.ttfts[%2]: expected seconds").arg(where).arg(i);
            return false;
        }
        RequestRecord r;
        r.index = i;
        r.promptTokens = inputs.isEmpty() ? 0 : inputs[i].toInt();
        r.outputTokens = outputs.isEmpty() ? 0 : outputs[i].toInt();
        const QString message = errors.isEmpty() ? QString() : errors[i].toString();
        const double sent = onOneClock ? starts[i].toDouble() - firstStart : 0.0;
        r.sentNs = nanoseconds(sent);
        if (!message.isEmpty()) {
            // The files keep the message, not a class.
            r.failure = FailureClass::Network;
            r.errorMessage = message;
            records.push_back(std::move(r));
            continue;
        }
        r.httpStatus = 200;
        r.firstTokenNs = r.firstContentNs = nanoseconds(sent + t[i].toDouble());
        r.chunkNs.push_back(r.firstTokenNs);
        const QJsonArray gaps = itls.isEmpty() ? QJsonArray() : itls[i].toArray();
        double at = sent + t[i].toDouble();
        for (qsizetype g = 0; g < gaps.size(); ++g) {
            if (!gaps[g].isDouble()) {
                *error = QStringLiteral("%1.itls[%2][%3]: expected seconds").arg(where).arg(i).arg(g);
                return false;
            }
            at += gaps[g].toDouble();
            r.chunkNs.push_back(nanoseconds(at));
        }
        r.lastTokenNs = r.endNs = r.chunkNs.back();
        if (!latencies.isEmpty() && latencies[i].isDouble())
            r.endNs = std::max(r.lastTokenNs, nanoseconds(sent + latencies[i].toDouble()));
        records.push_back(std::move(r));
    }
    return true;
}

enum class FileRead { Steps, NotAResult, Failed };

// Whether a parsed document looks like a result of a known tool at all: a folder may hold other JSON
// (parameter files, configurations), which a recursive read passes over.
bool looksLikeResult(const QJsonDocument& doc)
{
    const auto isResult = [](const QJsonObject& o) {
        return o.contains(u"completed") || o.contains(u"duration") || o.contains(u"request_throughput")
            || o.contains(u"benchmarks") || o.contains(u"mean_ttft_ms") || o.contains(u"median_ttft_ms")
            || o.contains(u"p99_ttft_ms");
    };
    if (doc.isObject())
        return isResult(doc.object());
    const QJsonArray a = doc.array();
    return !a.isEmpty() && isResult(a.first().toObject());
}

FileRead readFile(const QString& path, ImportFormat format, bool explicitFile, FileContents& out, QStringList& warnings,
    QString* error)
{
    const std::optional<QByteArray> read = readBoundedFile(path, kMaxResultFileBytes, error);
    if (!read)
        return FileRead::Failed;
    const QByteArray& bytes = *read;
    if (bytes.trimmed().isEmpty()) {
        *error = QStringLiteral("%1: empty file").arg(path);
        return FileRead::Failed;
    }
    if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) {
        if (format != ImportFormat::Auto && format != ImportFormat::Aiperf) {
            *error = QStringLiteral("%1: a CSV file, not a %2 result file").arg(path, importFormatName(format));
            return FileRead::Failed;
        }
        if (!importdetail::isAiperfCsv(bytes)) {
            if (!explicitFile)
                return FileRead::NotAResult;
            *error = QStringLiteral("%1: line 1: not an AIPerf CSV export (one starts with \"Metric,\")").arg(path);
            return FileRead::Failed;
        }
        if (!importdetail::readAiperfCsv(path, bytes, out, error))
            return FileRead::Failed;
        *error = QStringLiteral("%1: the CSV export states no load (concurrency or request rate): import the "
                                "profile_export_*.json of the same run, whose input_config does")
                     .arg(path);
        return FileRead::Failed;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(quoteNonFinite(bytes), &parseError);
    const bool parsed = parseError.error == QJsonParseError::NoError;
    const bool guidellm = parsed && doc.isObject() && doc.object().contains(u"benchmarks");
    if (format == ImportFormat::Guidellm || (format == ImportFormat::Auto && guidellm)) {
        if (!parsed) {
            *error = QStringLiteral("%1:%2: invalid JSON: %3")
                         .arg(path, lineColumn(bytes, parseError.offset), parseError.errorString());
            return FileRead::Failed;
        }
        if (!guidellm) {
            *error = QStringLiteral("%1: benchmarks: missing: not a GuideLLM report").arg(path);
            return FileRead::Failed;
        }
        if (!doc.object().value(u"benchmarks").isArray()) {
            *error = QStringLiteral("%1: benchmarks: expected an array").arg(path);
            return FileRead::Failed;
        }
        return importdetail::readGuidellm(path, doc.object(), out, error) ? FileRead::Steps : FileRead::Failed;
    }
    if (guidellm) {
        *error = QStringLiteral("%1: a GuideLLM report (it has \"benchmarks\"), not a %2 result file")
                     .arg(path, importFormatName(format));
        return FileRead::Failed;
    }
    const bool aiperf = parsed && doc.isObject() && importdetail::isAiperfExport(doc.object());
    if (format == ImportFormat::Aiperf || (format == ImportFormat::Auto && aiperf)) {
        if (!parsed) {
            *error = QStringLiteral("%1:%2: invalid JSON: %3")
                         .arg(path, lineColumn(bytes, parseError.offset), parseError.errorString());
            return FileRead::Failed;
        }
        if (!aiperf) {
            *error = QStringLiteral("%1: request_throughput, time_to_first_token, request_latency, benchmark_duration: "
                                    "no metric object ({\"unit\": ..., \"avg\": ...}): not an AIPerf or GenAI-Perf "
                                    "export")
                         .arg(path);
            return FileRead::Failed;
        }
        return importdetail::readAiperfJson(path, doc.object(), out, error) ? FileRead::Steps : FileRead::Failed;
    }
    if (aiperf) {
        *error = QStringLiteral("%1: an AIPerf or GenAI-Perf export (its figures are objects with \"unit\"), not a "
                                "%2 result file")
                     .arg(path, importFormatName(format));
        return FileRead::Failed;
    }
    if (parsed && !explicitFile && !looksLikeResult(doc))
        return FileRead::NotAResult;
    const ResultFileContents contents = ResultJson::read(bytes, path);
    if (!contents.ok()) {
        *error = contents.error;
        return FileRead::Failed;
    }
    if (contents.steps.empty()) {
        *error = QStringLiteral("%1: no benchmark result in the file").arg(path);
        return FileRead::Failed;
    }
    const QString detected
        = contents.steps.front().format == QLatin1String("sglang") ? QStringLiteral("sglang") : QStringLiteral("vllm");
    out.source = format == ImportFormat::Auto ? detected : importFormatName(format);
    const QList<QJsonObject> objects = stepObjects(bytes);
    const bool pair = objects.size() == qsizetype(contents.steps.size());
    const bool jsonLines = !parsed;
    for (std::size_t i = 0; i < contents.steps.size(); ++i) {
        const ImportedStep& imported = contents.steps[i];
        warnings << imported.warnings;
        Step step;
        step.setup = imported.setup;
        step.metrics = imported.metrics;
        const SweepPoint p = SweepPoint::fromStep(imported.setup, imported.metrics);
        step.mode = p.concurrencyMode ? LoadMode::Concurrency : LoadMode::Rate;
        step.offered = p.offered;
        const QString where = jsonLines ? QStringLiteral("%1: line %2").arg(path).arg(i + 1)
            : objects.size() > 1        ? QStringLiteral("%1: $[%2]").arg(path).arg(i)
                                        : QStringLiteral("%1: $").arg(path);
        if (std::isnan(step.offered)) {
            *error
                = QStringLiteral("%1: request_rate: missing (and no max_concurrency): the load of the step is unknown")
                      .arg(where);
            return FileRead::Failed;
        }
        if (pair) {
            const QJsonObject& o = objects[qsizetype(i)];
            if (o.value(u"run_number").isDouble()) {
                step.repeat = o.value(u"run_number").toInt();
                // `vllm bench sweep --warmup-num-prompts` writes its warm-up as run -1: not a measurement.
                if (step.repeat < 0) {
                    warnings
                        << QStringLiteral("%1: run_number %2: a warm-up run, left out").arg(where).arg(step.repeat);
                    continue;
                }
            }
            if (!detailRecords(o, where, step.records, &step.recordsWithoutSendTimes, error))
                return FileRead::Failed;
        }
        if (out.model.isEmpty())
            out.model = imported.setup.modelId;
        if (out.label.isEmpty())
            out.label = imported.setup.label;
        out.steps.push_back(std::move(step));
    }
    return FileRead::Steps;
}

struct FileEntry
{
    QString path;
    bool explicitFile = false; // named on the command line, not found in a folder
};

// The result files under `dir`, recursively, in path order. In a `vllm bench sweep` setting's folder
// the run=N.json files are the measurements and summary.json repeats them; failures are reported.
void collectFolder(const QString& dir, std::vector<FileEntry>& files, QStringList& warnings)
{
    QStringList paths;
    QDirIterator it(dir, { QStringLiteral("*.json"), QStringLiteral("*.jsonl"), QStringLiteral("*.csv") }, QDir::Files,
        QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << it.next();
    paths.sort();
    QSet<QString> foldersWithRuns;
    static const QRegularExpression runFile(QStringLiteral("^run=\\d+\\.json$"));
    for (const QString& p : paths) {
        const QFileInfo info(p);
        if (runFile.match(info.fileName()).hasMatch())
            foldersWithRuns.insert(info.absolutePath());
    }
    for (const QString& p : paths) {
        const QFileInfo info(p);
        if (info.fileName().endsWith(QLatin1String(".failure.json"))) {
            warnings << QStringLiteral("%1: a run that failed (no result), left out").arg(p);
            continue;
        }
        if (info.fileName() == QLatin1String("summary.json") && foldersWithRuns.contains(info.absolutePath()))
            continue;
        if (info.suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0) {
            // AIPerf writes its CSV export next to the JSON export of the same run: the run is read once,
            // from the JSON. Other CSV files (`vllm bench sweep`'s summary.csv) are no result files.
            if (QFileInfo::exists(QDir(info.absolutePath()).filePath(info.completeBaseName() + QLatin1String(".json"))))
                continue;
            QFile f(p);
            if (!f.open(QIODevice::ReadOnly) || !importdetail::isAiperfCsv(f.read(16)))
                continue;
        }
        // A saved Kneepoint run inside the folder is opened, not imported.
        if (QFileInfo::exists(QDir(info.absolutePath()).filePath(QStringLiteral("run.json")))
            || info.absolutePath().endsWith(QLatin1String("/steps"))) {
            continue;
        }
        files.push_back({ p, false });
    }
}

QString metadataText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return QString::number(value.toDouble(), 'g', 17);
}

// The API a step's requests went to, where the tool's backend name says it. vLLM's backends "vllm",
// "openai", "lmdeploy", ... all send completions, its "openai-chat" chat completions: the backend name
// alone is not a difference. SGLang's "sglang" backend posts to the server's native /generate. A
// backend whose API the tool does not fix is named as it is, not guessed.
QString apiOf(const QString& source, const StepSetup& setup)
{
    const QString name = (setup.endpointType.isEmpty() ? setup.backend : setup.endpointType).toLower();
    if (name.isEmpty())
        return {};
    if (name.contains(QLatin1String("chat")))
        return QStringLiteral("chat");
    for (const char* other : { "embeddings", "audio", "responses", "messages", "pooling", "rerank" }) {
        if (name.contains(QLatin1String(other)))
            return QString::fromLatin1(other);
    }
    if (source == QLatin1String("sglang")) {
        if (name == QLatin1String("sglang") || name == QLatin1String("sglang-native"))
            return QStringLiteral("generate");
        if (name.contains(QLatin1String("oai")) || name == QLatin1String("vllm") || name == QLatin1String("lmdeploy"))
            return QStringLiteral("completions");
        return name;
    }
    static const QStringList completions { QStringLiteral("vllm"), QStringLiteral("openai"),
        QStringLiteral("openai-comp"), QStringLiteral("completions"), QStringLiteral("lmdeploy"),
        QStringLiteral("scalellm"), QStringLiteral("sglang"), QStringLiteral("llama.cpp") };
    return completions.contains(name) ? QStringLiteral("completions") : name;
}

// The concurrency cap of a step paced at a finite rate: part of what the step measured (a cap of 1
// at 10 req/s is another load than a cap of 128), so steps that differ in it never share a load.
std::optional<int> capWithRate(const Step& s)
{
    if (s.mode != LoadMode::Rate || !std::isfinite(s.setup.requestRate) || !s.setup.maxConcurrency)
        return std::nullopt;
    return s.setup.maxConcurrency;
}

// What a step measured, apart from its load: the curve it belongs on.
std::vector<std::pair<QString, QString>> identityOf(const QString& source, const Step& s)
{
    std::vector<std::pair<QString, QString>> id;
    id.emplace_back(QStringLiteral("tool"), source);
    id.emplace_back(QStringLiteral("model"), s.setup.modelId);
    id.emplace_back(QStringLiteral("api"), apiOf(source, s.setup));
    if (const auto cap = capWithRate(s))
        id.emplace_back(QStringLiteral("max_concurrency"), QString::number(*cap));
    // vLLM's --label names what a result measured (a deployment, a router setting): another label is
    // another curve.
    if (!s.setup.label.isEmpty())
        id.emplace_back(QStringLiteral("label"), s.setup.label);
    for (const auto& [key, value] : s.setup.metadata)
        id.emplace_back(key, metadataText(value));
    std::sort(id.begin() + 3, id.end());
    return id;
}

// Keys that every file names (tool, model, API): a file that leaves one out says nothing against the
// others. Any other key is a setting: one file stating it (num_instances=2) and another not is a difference.
bool isCoreIdentityKey(const QString& key)
{
    return key == QLatin1String("tool") || key == QLatin1String("model") || key == QLatin1String("api");
}

QString identityValue(const std::vector<std::pair<QString, QString>>& id, const QString& key)
{
    for (const auto& [k, v] : id) {
        if (k == key)
            return v;
    }
    return {};
}

// The keys whose values differ between curves.
QStringList differingKeys(const std::vector<std::vector<std::pair<QString, QString>>>& ids)
{
    QStringList keys;
    for (const auto& id : ids) {
        for (const auto& [k, v] : id) {
            if (!keys.contains(k))
                keys << k;
        }
    }
    QStringList out;
    for (const QString& k : keys) {
        QSet<QString> values;
        bool lacking = false;
        for (const auto& id : ids) {
            if (const QString v = identityValue(id, k); !v.isEmpty())
                values.insert(v);
            else
                lacking = true;
        }
        // A setting one curve states and another lacks tells them apart as well as two values do.
        if (values.size() > 1 || (!values.isEmpty() && lacking && !isCoreIdentityKey(k)))
            out << k;
    }
    return out;
}

// The settings the files state, key by key: one value, or the list of values when the steps differ.
QJsonObject fileSettings(const ImportedCurve& curve)
{
    std::vector<std::pair<QString, QJsonArray>> settings;
    const auto add = [&](const QString& key, const QJsonValue& value) {
        if (value.isNull() || value.isUndefined() || (value.isString() && value.toString().isEmpty()))
            return;
        auto it = std::find_if(settings.begin(), settings.end(), [&](const auto& kv) { return kv.first == key; });
        if (it == settings.end()) {
            settings.emplace_back(key, QJsonArray());
            it = std::prev(settings.end());
        }
        if (!it->second.contains(value))
            it->second.append(value);
    };
    for (const Step& s : curve.steps) {
        add(QStringLiteral("backend"), s.setup.backend);
        add(QStringLiteral("endpoint_type"), s.setup.endpointType);
        add(QStringLiteral("model_id"), s.setup.modelId);
        add(QStringLiteral("tokenizer_id"), s.setup.tokenizerId);
        add(QStringLiteral("label"), s.setup.label);
        if (isKnown(s.setup.numPrompts))
            add(QStringLiteral("num_prompts"), s.setup.numPrompts);
        add(QStringLiteral("request_rate"), jsonvalues::numberOrText(s.setup.requestRate));
        add(QStringLiteral("burstiness"), jsonvalues::numberOrText(s.setup.burstiness));
        if (s.setup.maxConcurrency)
            add(QStringLiteral("max_concurrency"), *s.setup.maxConcurrency);
        for (const auto& [key, value] : s.setup.metadata)
            add(key, value);
    }
    QJsonObject out;
    for (const auto& [key, values] : settings)
        out.insert(key, values.size() == 1 ? values.first() : QJsonValue(values));
    if (!curve.toolVersion.isEmpty())
        out.insert(QStringLiteral("tool_version"), curve.toolVersion);
    return out;
}

} // namespace

QString ImportContents::difference() const
{
    if (curves.size() < 2)
        return {};
    QStringList parts;
    for (const ImportedCurve& c : curves) {
        QStringList words;
        for (const auto& [k, v] : c.identity)
            words << QStringLiteral("%1=%2").arg(k, v.isEmpty() ? QStringLiteral("(none)") : v);
        parts << words.join(QLatin1Char(' '));
    }
    return parts.join(QStringLiteral(" | "));
}

ImportContents readImport(const QStringList& paths, const ImportOptions& options)
{
    ImportContents result;
    if (paths.isEmpty()) {
        result.error = QStringLiteral("nothing to import: give result files or folders");
        return result;
    }
    std::vector<FileEntry> files;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (!info.exists()) {
            result.error = QStringLiteral("%1: no such file or folder").arg(path);
            return result;
        }
        if (!info.isDir()) {
            files.push_back({ info.absoluteFilePath(), true });
            continue;
        }
        const std::size_t before = files.size();
        collectFolder(info.absoluteFilePath(), files, result.warnings);
        if (files.size() == before) {
            result.error
                = QStringLiteral("%1: no result files (*.json, *.jsonl, AIPerf *.csv) in the folder or below it")
                      .arg(path);
            return result;
        }
    }

    // Every step with the curve it belongs on, in the order the files give them.
    struct Group
    {
        std::vector<std::pair<QString, QString>> identity;
        ImportedCurve curve;
    };
    std::vector<Group> groups;
    int read = 0;
    for (const FileEntry& file : files) {
        FileContents contents;
        switch (readFile(file.path, options.format, file.explicitFile, contents, result.warnings, &result.error)) {
        case FileRead::Failed:
            // A file named on the command line is what was asked for; one found in a folder is one of
            // many: the others are imported, and this one is listed with the reason.
            if (file.explicitFile)
                return result;
            result.refused << result.error;
            result.error.clear();
            continue;
        case FileRead::NotAResult:
            result.warnings << QStringLiteral("%1: not a benchmark result (no completed, duration, "
                                              "request_throughput or TTFT figure), left out")
                                   .arg(file.path);
            continue;
        case FileRead::Steps:
            break;
        }
        ++read;
        result.warnings << contents.warnings;
        for (Step& s : contents.steps) {
            s.sourceFile = file.path;
            const auto id = identityOf(contents.source, s);
            // Tool, model or API one step leaves empty says nothing against the others; a setting
            // (--metadata, a sweep parameter, the concurrency cap) one states and the other lacks does.
            const auto conflicts = [&](const Group& x) {
                const bool differ = std::any_of(id.begin(), id.end(), [&](const auto& kv) {
                    const QString other = identityValue(x.identity, kv.first);
                    if (isCoreIdentityKey(kv.first))
                        return !kv.second.isEmpty() && !other.isEmpty() && other != kv.second;
                    return other != kv.second;
                });
                return differ || std::any_of(x.identity.begin(), x.identity.end(), [&](const auto& kv) {
                    return !isCoreIdentityKey(kv.first) && !kv.second.isEmpty()
                        && identityValue(id, kv.first).isEmpty();
                });
            };
            auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return !conflicts(x); });
            if (g != groups.end()) {
                for (const std::pair<QString, QString>& entry : id) {
                    if (entry.second.isEmpty())
                        continue;
                    auto it = std::find_if(g->identity.begin(), g->identity.end(),
                        [&entry](const auto& kv) { return kv.first == entry.first; });
                    if (it == g->identity.end())
                        g->identity.push_back(entry);
                    else if (it->second.isEmpty())
                        it->second = entry.second;
                }
            }
            if (g == groups.end()) {
                Group fresh;
                fresh.identity = id;
                fresh.curve.source = contents.source;
                fresh.curve.model = s.setup.modelId.isEmpty() ? contents.model : s.setup.modelId;
                fresh.curve.target = contents.target;
                fresh.curve.label = s.setup.label.isEmpty() ? contents.label : s.setup.label;
                fresh.curve.toolVersion = contents.toolVersion;
                groups.push_back(std::move(fresh));
                g = std::prev(groups.end());
            }
            if (!g->curve.files.contains(file.path))
                g->curve.files << file.path;
            g->curve.steps.push_back(std::move(s));
        }
    }
    if (read == 0 || groups.empty()) {
        result.error
            = QStringLiteral("%1: no benchmark result among the files read").arg(paths.join(QStringLiteral(", ")));
        if (!result.refused.isEmpty())
            result.error += QStringLiteral("; refused: ") + result.refused.join(QStringLiteral("; "));
        return result;
    }

    // `--request-rate 10 --max-concurrency {1,16,128}`: every step paced at one rate, the caps differ.
    // The caps are the load that was swept: one curve on the concurrency axis, whose rate is a setting
    // every step shares (kept in the curve's identity and in each step's file).
    std::vector<bool> merged(groups.size(), false);
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const auto rateOf = [](const Group& g) -> std::optional<double> {
            const double rate = g.curve.steps.front().setup.requestRate;
            for (const Step& st : g.curve.steps) {
                if (!capWithRate(st) || st.setup.requestRate != rate)
                    return std::nullopt;
            }
            return rate;
        };
        const auto withoutCap = [](std::vector<std::pair<QString, QString>> id) {
            std::erase_if(id, [](const auto& kv) { return kv.first == QLatin1String("max_concurrency"); });
            return id;
        };
        const std::optional<double> rate = merged[i] ? std::nullopt : rateOf(groups[i]);
        if (!rate)
            continue;
        std::vector<std::size_t> same { i };
        for (std::size_t j = i + 1; j < groups.size(); ++j) {
            if (!merged[j] && rateOf(groups[j]) == rate
                && withoutCap(groups[j].identity) == withoutCap(groups[i].identity)
                && groups[j].curve.source == groups[i].curve.source)
                same.push_back(j);
        }
        if (same.size() < 2)
            continue;
        Group& into = groups[i];
        for (std::size_t k = 1; k < same.size(); ++k) {
            Group& from = groups[same[k]];
            for (Step& st : from.curve.steps)
                into.curve.steps.push_back(std::move(st));
            for (const QString& f : std::as_const(from.curve.files)) {
                if (!into.curve.files.contains(f))
                    into.curve.files << f;
            }
            merged[same[k]] = true;
        }
        for (Step& st : into.curve.steps) {
            st.mode = LoadMode::Concurrency;
            st.offered = double(*st.setup.maxConcurrency);
        }
        into.identity = withoutCap(into.identity);
        into.curve.fixedRate = *rate;
    }
    for (std::size_t i = merged.size(); i-- > 0;) {
        if (merged[i])
            groups.erase(groups.begin() + std::ptrdiff_t(i));
    }

    std::vector<std::vector<std::pair<QString, QString>>> ids;
    for (const Group& g : groups)
        ids.push_back(g.identity);
    const QStringList differing = differingKeys(ids);

    QString base = options.name.trimmed();
    if (base.isEmpty() && !differing.contains(QStringLiteral("label")))
        base = groups.front().curve.label;
    if (base.isEmpty()) {
        const QFileInfo info(paths.constFirst());
        base = info.isDir() ? QDir(info.absoluteFilePath()).dirName() : info.completeBaseName();
    }
    for (Group& g : groups) {
        ImportedCurve& c = g.curve;
        for (const QString& k : differing)
            c.identity.emplace_back(k, identityValue(g.identity, k));
        if (isKnown(c.fixedRate))
            c.identity.emplace_back(QStringLiteral("request_rate"), formatRate(c.fixedRate));
        QStringList words;
        for (const auto& [k, v] : c.identity) {
            if (!v.isEmpty())
                words << (k == QLatin1String("model") ? v.section(QLatin1Char('/'), -1)
                                                      : QStringLiteral("%1=%2").arg(k, v));
        }
        c.name = words.isEmpty() ? base : QStringLiteral("%1 (%2)").arg(base, words.join(QStringLiteral(", ")));

        // The load axis: the mode most steps use; the others (GuideLLM's synchronous step in a rate
        // sweep) come first, then the axis in load order, repeats of one load in run order.
        const auto onRate
            = std::count_if(c.steps.begin(), c.steps.end(), [](const Step& s) { return s.mode == LoadMode::Rate; });
        c.axis = onRate * 2 >= qsizetype(c.steps.size()) ? LoadMode::Rate : LoadMode::Concurrency;
        std::stable_sort(c.steps.begin(), c.steps.end(), [axis = c.axis](const Step& a, const Step& b) {
            if ((a.mode == axis) != (b.mode == axis))
                return a.mode != axis;
            if (a.offered != b.offered)
                return a.offered < b.offered;
            return a.repeat < b.repeat;
        });
        result.curves.push_back(std::move(c));
    }
    return result;
}

QString importFormatName(ImportFormat format)
{
    switch (format) {
    case ImportFormat::Auto:
        return QStringLiteral("auto");
    case ImportFormat::Vllm:
        return QStringLiteral("vllm");
    case ImportFormat::Sglang:
        return QStringLiteral("sglang");
    case ImportFormat::Guidellm:
        return QStringLiteral("guidellm");
    case ImportFormat::Aiperf:
        return QStringLiteral("aiperf");
    }
    return {};
}

std::optional<ImportFormat> importFormatFromName(QStringView name)
{
    for (ImportFormat f : { ImportFormat::Auto, ImportFormat::Vllm, ImportFormat::Sglang, ImportFormat::Guidellm,
             ImportFormat::Aiperf }) {
        if (name.compare(importFormatName(f), Qt::CaseInsensitive) == 0)
            return f;
    }
    return std::nullopt;
}

namespace {

// One curve as a run directory: written in a hidden temporary folder, renamed into place at the end.
bool writeCurve(
    const ImportedCurve& curve, const QString& runsRoot, const QString& group, ImportResult& result, QString& dirOut)
{
    // The profile as far as the files tell: target, model and the loads; nothing else is known.
    QJsonObject target;
    if (!curve.target.isEmpty())
        target.insert(QLatin1String("base_url"), curve.target);
    if (!curve.model.isEmpty())
        target.insert(QLatin1String("model"), curve.model);
    const QString backend = curve.steps.empty() ? QString() : curve.steps.front().setup.backend;
    if (const auto b = backendFromName(backend))
        target.insert(QLatin1String("backend"), backendName(*b));
    QJsonObject load;
    load.insert(QLatin1String("mode"), loadModeName(curve.axis));
    QJsonArray loads;
    for (const Step& s : curve.steps) {
        if (s.mode != curve.axis)
            continue;
        const QJsonValue v
            = curve.axis == LoadMode::Rate ? QJsonValue(formatRate(s.offered)) : QJsonValue(qint64(s.offered));
        if (!loads.contains(v))
            loads.append(v);
    }
    load.insert(curve.axis == LoadMode::Rate ? QLatin1String("rates") : QLatin1String("concurrencies"), loads);
    QJsonObject profile;
    profile.insert(QLatin1String("schema"), profileSchemaId());
    profile.insert(QLatin1String("name"), curve.name);
    profile.insert(QLatin1String("target"), target);
    profile.insert(QLatin1String("load"), load);

    QTemporaryDir temporary(QDir(runsRoot).filePath(QStringLiteral(".import-XXXXXX")));
    if (!temporary.isValid()) {
        result.error
            = QStringLiteral("%1: cannot create a temporary folder: %2").arg(runsRoot, temporary.errorString());
        return false;
    }
    RunWriter writer;
    if (!writer.open(temporary.path(), &result.error))
        return false;
    RunDocument run;
    for (std::size_t i = 0; i < curve.steps.size(); ++i) {
        const Step& s = curve.steps[i];
        const int index = int(i);
        RunStepEntry entry;
        entry.index = index;
        entry.load = formatLoad(s.mode, s.offered);
        entry.file = QFileInfo(writer.stepPath(index)).fileName();
        entry.completed = s.metrics.completed; // kUnknownCount: null
        entry.failed = s.metrics.failed;
        entry.partial = false;
        entry.clientBound = false;
        entry.sourceFile = QFileInfo(s.sourceFile).fileName();
        entry.sourcePath = s.sourceFile;
        if (s.repeat >= 0)
            entry.repeat = s.repeat;
        if (s.recordsWithoutSendTimes)
            entry.noTimeline
                = QStringLiteral("%1 times each request from its own send and does not say when it was sent: "
                                 "the requests' latencies are known, a timeline of the step is not")
                      .arg(QFileInfo(s.sourceFile).fileName());
        run.steps.push_back(std::move(entry));
        if (!writer.writeStep(index, ResultJson::write(s.setup, s.metrics, {}, 2), &result.error))
            return false;
        if (!s.records.empty()) {
            QByteArray lines;
            for (const RequestRecord& r : s.records)
                lines += requestRecordToJson(r) + '\n';
            if (!writeFileAtomically(writer.requestsPath(index), lines, &result.error))
                return false;
            result.requestCount += int(s.records.size());
        }
    }
    const QDateTime now = QDateTime::currentDateTime();
    run.status = QStringLiteral("finished");
    run.source = curve.source;
    run.name = curve.name;
    run.created = now;
    run.updated = now;
    run.importedFrom = curve.files;
    if (!group.isEmpty()) {
        // Runs read together that measured different things: comparable at once.
        run.importGroup = group;
        QJsonObject identity;
        for (const auto& [k, v] : curve.identity)
            identity.insert(k, v);
        run.importIdentity = identity;
    }
    // What the files say about the settings, and nothing else (the profile below holds only the loads).
    run.fileSettings = fileSettings(curve);
    run.profile = profile;
    QJsonObject environment;
    environment.insert(QLatin1String("kneepoint_version"), QLatin1String(KNEEPOINT_VERSION));
    environment.insert(QLatin1String("source_tool"), curve.source);
    if (!curve.toolVersion.isEmpty())
        environment.insert(QLatin1String("source_tool_version"), curve.toolVersion);
    run.environment = environment;
    RunPlan plan;
    plan.kind = QStringLiteral("list");
    run.plan = plan;
    if (!writer.writeRun(run, &result.error))
        return false;
    writer.close();

    const QString dir = newRunDirectory(runsRoot, curve.name);
    if (!QDir().rename(temporary.path(), dir)) {
        result.error = QStringLiteral("%1: cannot move the imported run into place").arg(dir);
        return false;
    }
    temporary.setAutoRemove(false);
    dirOut = dir;
    return true;
}

} // namespace

ImportResult importRun(const QStringList& paths, const QString& runsRoot, const ImportOptions& options)
{
    ImportResult result;
    ImportContents contents = readImport(paths, options);
    result.warnings = contents.warnings;
    result.refused = contents.refused;
    if (!contents.ok()) {
        result.error = contents.error;
        return result;
    }
    if (!QDir().mkpath(runsRoot)) {
        result.error = QStringLiteral("%1: cannot create the runs folder").arg(runsRoot);
        return result;
    }
    result.source = contents.curves.front().source;
    for (const ImportedCurve& curve : contents.curves) {
        if (!result.sources.contains(curve.source))
            result.sources << curve.source;
    }
    result.difference = contents.difference();
    const QString group = contents.curves.size() > 1
        ? QStringLiteral("import-%1").arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddHHmmsszzz")))
        : QString();
    for (const ImportedCurve& curve : contents.curves) {
        QString dir;
        if (!writeCurve(curve, runsRoot, group, result, dir)) {
            // All or nothing: the runs already written go again.
            for (const QString& written : std::as_const(result.dirs))
                QDir(written).removeRecursively();
            result.dirs.clear();
            result.ids.clear();
            return result;
        }
        result.dirs << dir;
        result.ids << QFileInfo(dir).fileName();
        result.stepCount += int(curve.steps.size());
    }
    result.dir = result.dirs.constFirst();
    result.id = result.ids.constFirst();
    return result;
}

} // namespace kp
