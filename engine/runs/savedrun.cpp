#include "runs/savedrun.h"

#include "metrics/inerttext.h"

#include "metrics/boundedread.h"
#include "metrics/phrase.h"
#include "metrics/resultjson.h"
#include "profile/profilestore.h"
#include "store/runwriter.h"
#include "sweep/sweepplan.h"
#include "sweep/sweepplanner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace kp {

namespace {

QString stepFileName(int index, const char* suffix)
{
    return QStringLiteral("%1%2").arg(index, 3, 10, QLatin1Char('0')).arg(QLatin1String(suffix));
}

// "40 req/s", "inf req/s", "32 users" -> mode and load.
std::optional<std::pair<LoadMode, double>> parseLoadWord(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\S+)\\s*(req/s|users?)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const bool users = match.captured(2).startsWith(QLatin1String("user"));
    const QString number = match.captured(1);
    if (!users && number.compare(QLatin1String("inf"), Qt::CaseInsensitive) == 0)
        return std::pair { LoadMode::Rate, std::numeric_limits<double>::infinity() };
    bool ok = false;
    const double value = number.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return std::pair { users ? LoadMode::Concurrency : LoadMode::Rate, value };
}

// The run directories this code names start with the time they were created: "20260130-141502-name".
QDateTime timeFromId(const QString& id)
{
    if (id.size() < 15)
        return {};
    return QDateTime::fromString(id.left(15), QStringLiteral("yyyyMMdd-HHmmss"));
}

QByteArray readFile(const QString& path, QString* error)
{
    std::optional<QByteArray> read = readBoundedFile(path, kMaxResultFileBytes, error);
    if (!read)
        return {};
    QByteArray bytes = *std::move(read);
    if (bytes.isNull())
        bytes = QByteArray("");
    return bytes;
}

// Reads steps/NNN.json into step; false with a warning naming the file when it cannot be used.
bool readStepFile(SavedStep& step, QStringList& warnings)
{
    QString error;
    const QByteArray bytes = readFile(step.resultPath, &error);
    if (!error.isEmpty()) {
        warnings << error;
        return false;
    }
    const ResultFileContents contents = ResultJson::read(bytes, step.resultPath);
    if (!contents.ok()) {
        warnings << contents.error;
        return false;
    }
    if (contents.steps.size() != 1) {
        warnings
            << QStringLiteral("%1: expected one step result, found %2").arg(step.resultPath).arg(contents.steps.size());
        return false;
    }
    const ImportedStep& imported = contents.steps.front();
    warnings << imported.warnings;
    step.setup = imported.setup;
    step.metrics = imported.metrics;
    return true;
}

// The step's mode and load: the run.json entry's words, else the result file's setup.
void settleLoad(SavedStep& step, const std::optional<std::pair<LoadMode, double>>& fromEntry)
{
    if (fromEntry) {
        step.mode = fromEntry->first;
        step.offered = fromEntry->second;
        return;
    }
    const SweepPoint p = SweepPoint::fromStep(step.setup, step.metrics);
    step.mode = p.concurrencyMode ? LoadMode::Concurrency : LoadMode::Rate;
    step.offered = p.offered;
    step.load = formatLoad(step.mode, step.offered);
}

// What made a predicted run, from run.json's "prediction" (absent: an unnamed twin, one replica).
Prediction readPrediction(const std::optional<RunPrediction>& from)
{
    Prediction p;
    const RunPrediction o = from.value_or(RunPrediction {});
    for (const QString& run : o.sourceRuns)
        p.sourceRuns << inertText(run);
    for (auto it = o.overrides.begin(); it != o.overrides.end(); ++it)
        p.overrides << inertText(QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString()));
    p.replicas = std::max(1, o.replicas);
    p.twinFile = inertText(o.twinFile);
    return p;
}

} // namespace

Sentence predictionSentence(const Prediction& p)
{
    const Sentence runs = p.sourceRuns.isEmpty() ? sentence("Prediction", "an unnamed run")
                                                 : Sentence::plain(p.sourceRuns.join(QStringLiteral(", ")));
    const Sentence overrides = p.overrides.isEmpty()
        ? sentence("Prediction", "without overrides")
        : sentence("Prediction", "with overrides %1").arg(p.overrides.join(QStringLiteral(", ")));
    const Sentence replicas
        = p.replicas > 1 ? sentence("Prediction", ", %1 replicas").arg(p.replicas) : Sentence::plain(QString());
    return sentence("Prediction", "Predicted by a twin fitted to %1, %2%3; not a measurement")
        .arg(runs, overrides, replicas);
}

Sentence noRecordsPredicted()
{
    return sentence("Prediction", "no per-request records: predicted");
}

QString SavedRun::target() const
{
    if (prediction)
        return QStringLiteral("twin of %1 (predicted)").arg(prediction->sourceRuns.join(QStringLiteral(", ")));
    return runTarget(profile, source);
}

QString runTarget(const Profile& profile, const QString& source)
{
    const QString& engine = profile.server.engine;
    const QString& serverNotes = profile.server.notes;
    static const QLatin1String simNote("built-in simulator, ");
    if (engine == QLatin1String("kneepoint-sim") && serverNotes.startsWith(simNote))
        return QStringLiteral("built-in simulator (%1)").arg(serverNotes.mid(simNote.size()));
    if (profile.target.isBuiltinSimulator()) {
        const QString preset = QUrl(profile.target.baseUrl).host();
        return QStringLiteral("built-in simulator (preset %1)")
            .arg(preset.isEmpty() ? QStringLiteral("default") : preset);
    }
    if (!profile.target.baseUrl.isEmpty())
        return profile.target.baseUrl;
    if (!source.isEmpty() && source != QLatin1String("kneepoint"))
        return QStringLiteral("imported %1 results").arg(source);
    return {};
}

QString SavedRun::model() const
{
    if (!profile.target.model.isEmpty())
        return profile.target.model;
    for (const SavedStep& s : steps) {
        if (!s.setup.modelId.isEmpty())
            return s.setup.modelId;
    }
    return {};
}

std::vector<SweepPoint> SavedRun::sweepPoints() const
{
    // The run's load axis: the profile's mode; a step on the other axis (the auto plan's one-user floor
    // step of a rate sweep) is not on the curve.
    LoadMode axis = profile.load.mode;
    const bool anyOnAxis = std::any_of(steps.begin(), steps.end(), [&](const SavedStep& s) { return s.mode == axis; });
    if (!anyOnAxis && !steps.empty())
        axis = steps.front().mode;
    std::vector<SweepPoint> points;
    for (const SavedStep& s : steps) {
        if (s.mode != axis)
            continue;
        SweepPoint p;
        p.concurrencyMode = s.mode == LoadMode::Concurrency;
        p.offered = s.offered;
        p.metrics = s.metrics;
        p.partial = s.partial;
        p.clientBound = s.clientBound;
        p.planned = std::max<qint64>(0, s.setup.numPrompts);
        p.server = s.server;
        p.takeClientLimits(s.setup);
        points.push_back(std::move(p));
    }
    std::stable_sort(
        points.begin(), points.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.offered < b.offered; });
    return points;
}

AnalysisResult SavedRun::analyze() const
{
    return KneeAnalysis::analyze(sweepPoints(), analysisOptions());
}

AnalysisOptions SavedRun::analysisOptions() const
{
    AnalysisOptions options = analysisOptionsFor(profile.slo);
    options.mode = profile.load.mode; // the sweep's axis (an import's: the mode most of its steps ran in)
    return options;
}

SavedRunRead readSavedRun(const QString& directory, SavedRunDepth depth)
{
    SavedRunRead out;
    const QFileInfo dirInfo(directory);
    if (!dirInfo.isDir()) {
        out.error = QStringLiteral("%1: no such run directory").arg(directory);
        return out;
    }
    const QDir dir(dirInfo.absoluteFilePath());
    const QString runPath = dir.filePath(QStringLiteral("run.json"));
    if (!QFileInfo::exists(runPath)) {
        out.error = QStringLiteral("%1: not a run directory (no run.json)").arg(dir.path());
        return out;
    }
    QString error;
    const QByteArray bytes = readFile(runPath, &error);
    if (!error.isEmpty()) {
        out.error = error;
        return out;
    }
    RunDocumentRead read = parseRunDocument(bytes, runPath);
    if (!read.ok()) {
        out.error = read.error;
        return out;
    }

    SavedRun run;
    run.dir = dir.path();
    run.id = dir.dirName();
    run.document = *std::move(read.document);
    run.json = run.document.toJson();
    run.warnings = read.warnings;
    const RunDocument& json = run.document;
    if (json.profile) {
        QJsonObject snapshot = *json.profile;
        // An imported run does not know the server's URL, which a profile requires: read the rest.
        QJsonObject target = snapshot.value(u"target").toObject();
        const bool noUrl = target.value(u"base_url").toString().isEmpty();
        if (noUrl) {
            target.insert(QLatin1String("base_url"), QLatin1String("http://unknown.invalid"));
            snapshot.insert(QLatin1String("target"), target);
        }
        const ProfileLoadResult profile = ProfileStore::fromJsonObject(snapshot, runPath + QStringLiteral(": profile"));
        if (profile.ok()) {
            run.profile = *profile.profile;
            if (noUrl)
                run.profile.target.baseUrl.clear();
        } else {
            for (const QString& e : profile.errors)
                run.warnings << e;
        }
    }
    run.environment = json.environment.value_or(QJsonObject());
    run.name = json.name.value_or(QString());
    if (run.name.isEmpty())
        run.name = run.profile.name;
    if (run.name.isEmpty())
        run.name = run.id;
    for (const QString& tag : json.tags.value_or(QStringList()))
        if (!tag.isEmpty())
            run.tags << tag;
    run.notes = json.notes.value_or(QString());
    run.source = json.source.value_or(QString());
    if (run.source.isEmpty())
        run.source = QStringLiteral("kneepoint");
    if (json.predicted.value_or(false))
        run.prediction = readPrediction(json.prediction);
    const QString status = json.status.value_or(QString());
    // A run.json left "running" is still being written while its writer holds run.lock; otherwise its
    // writer died (killed, crashed) and the run was interrupted.
    const bool unfinished = status == QLatin1String("running");
    const bool live = unfinished && RunWriter::isLive(dir.path());
    run.status = unfinished ? (live ? QStringLiteral("running") : QStringLiteral("interrupted"))
        : status.isEmpty()  ? QStringLiteral("finished")
                            : status;
    run.updated = json.updated;

    std::set<int> listed;
    for (std::size_t i = 0; i < json.steps.size(); ++i) {
        const QString where = QStringLiteral("%1: steps[%2]").arg(runPath).arg(i);
        const RunStepEntry& e = json.steps[i];
        SavedStep step;
        step.index = e.index;
        QString file = e.file.value_or(QString());
        if (file.isEmpty())
            file = stepFileName(step.index, ".json");
        if (file.contains(QLatin1Char('/')) || file.contains(QLatin1Char('\\')) || file.startsWith(QLatin1Char('.'))) {
            run.warnings << QStringLiteral("%1.file: \"%2\" is not a file name in steps/").arg(where, file);
            continue;
        }
        listed.insert(step.index);
        step.resultPath = dir.filePath(QStringLiteral("steps/") + file);
        const QString requests = dir.filePath(QStringLiteral("steps/") + stepFileName(step.index, ".requests.jsonl"));
        if (QFileInfo::exists(requests))
            step.requestsPath = requests;
        step.load = e.load.value_or(QString());
        step.purpose = e.purpose.value_or(QString());
        step.partial = e.partial.value_or(false);
        step.clientBound = e.clientBound.value_or(false);
        step.noTimeline = inertText(e.noTimeline.value_or(QString()));
        // null (NaN): not measured, as an absent one
        step.dispatchLagP99Ms = e.dispatchLagP99Ms && !std::isnan(*e.dispatchLagP99Ms) ? *e.dispatchLagP99Ms : 0.0;
        step.meetsSlo = e.meetsSlo;
        if (e.server) {
            step.server = ServerStepStats::fromJson(*e.server);
            if (!step.server)
                run.warnings << QStringLiteral("%1.server: expected an object with a string \"engine\"; the step's "
                                               "server metrics are left out")
                                    .arg(where);
            const QJsonArray servers = e.servers.value_or(QJsonArray());
            for (qsizetype k = 0; step.server && k < servers.size(); ++k) {
                if (auto one = ServerStepStats::fromJson(servers[k].toObject()))
                    step.server->servers.push_back(std::move(*one));
                else
                    run.warnings << QStringLiteral("%1.servers[%2]: expected an object with a string \"engine\"; "
                                                   "left out")
                                        .arg(where)
                                        .arg(k);
            }
        }
        const QString metricsFile = e.metricsFile.value_or(QString());
        if (metricsFile.contains(QLatin1Char('/')) || metricsFile.contains(QLatin1Char('\\'))
            || metricsFile.startsWith(QLatin1Char('.'))) {
            run.warnings
                << QStringLiteral("%1.metrics_file: \"%2\" is not a file name in steps/").arg(where, metricsFile);
        } else {
            const QString metrics = dir.filePath(QStringLiteral("steps/")
                + (metricsFile.isEmpty() ? stepFileName(step.index, ".metrics.jsonl") : metricsFile));
            if (QFileInfo::exists(metrics))
                step.metricsPath = metrics;
            else if (!metricsFile.isEmpty())
                run.warnings << QStringLiteral("%1.metrics_file: %2 does not exist").arg(where, metrics);
        }
        if (depth == SavedRunDepth::Full && !readStepFile(step, run.warnings))
            continue;
        step.intervals = step.metrics.intervals;
        if (e.intervals) {
            QString problem;
            const StepIntervals fromEntry = intervalsFromJson(*e.intervals, &problem);
            if (!problem.isEmpty())
                run.warnings << QStringLiteral("%1.intervals.%2").arg(where, problem);
            if (!fromEntry.isEmpty())
                step.intervals = fromEntry;
        }
        // kUnknownCount (null in the file): a count the imported file did not give.
        step.completed = e.completed.value_or(step.metrics.completed);
        step.failed = e.failed.value_or(step.metrics.failed);
        std::optional<std::pair<LoadMode, double>> fromEntry;
        if (e.offered && e.mode) {
            const auto mode = loadModeFromName(*e.mode);
            const auto offered
                = parseRate(e.offered->isString() ? e.offered->toString() : formatRate(e.offered->toDouble()));
            if (mode && offered)
                fromEntry = std::pair { *mode, *offered };
        }
        if (!fromEntry && !step.load.isEmpty()) {
            fromEntry = parseLoadWord(step.load);
            if (!fromEntry)
                run.warnings << QStringLiteral("%1.load: \"%2\" is not a load such as \"40 req/s\" or \"32 users\"; "
                                               "using the result file's")
                                    .arg(where, step.load);
        }
        if (depth == SavedRunDepth::Full)
            settleLoad(step, fromEntry);
        else if (fromEntry)
            std::tie(step.mode, step.offered) = *fromEntry;
        run.steps.push_back(std::move(step));
    }

    // In a run still running or killed, a step whose result was written after run.json was last
    // updated still counts; the step under way is kept as far as its requests tell, marked partial.
    if (unfinished && depth == SavedRunDepth::Full) {
        const QDir steps(dir.filePath(QStringLiteral("steps")));
        static const QRegularExpression stepFile(QStringLiteral("^(\\d{3,})\\.json$"));
        static const QRegularExpression requestsFile(QStringLiteral("^(\\d{3,})\\.requests\\.jsonl$"));
        std::set<int> found;
        for (const QString& name : steps.entryList(QDir::Files, QDir::Name)) {
            QRegularExpressionMatch m = stepFile.match(name);
            if (!m.hasMatch())
                m = requestsFile.match(name);
            if (m.hasMatch() && !listed.count(m.captured(1).toInt()))
                found.insert(m.captured(1).toInt());
        }
        const bool plannedInOrder = run.profile.load.plan.kind != PlanKind::Auto;
        const std::vector<RunPlannedStep> planned
            = json.plan ? json.plan->planned.value_or(std::vector<RunPlannedStep> {}) : std::vector<RunPlannedStep> {};
        for (int index : found) {
            SavedStep step;
            step.index = index;
            step.partial = true;
            const QString result = steps.filePath(stepFileName(index, ".json"));
            const QString requests = steps.filePath(stepFileName(index, ".requests.jsonl"));
            if (QFileInfo::exists(requests))
                step.requestsPath = requests;
            if (const QString metrics = steps.filePath(stepFileName(index, ".metrics.jsonl"));
                QFileInfo::exists(metrics))
                step.metricsPath = metrics;
            if (QFileInfo::exists(result)) {
                step.resultPath = result;
                if (!readStepFile(step, run.warnings))
                    continue;
                step.partial = false;
                settleLoad(step, std::nullopt);
            } else {
                std::optional<std::pair<LoadMode, double>> load;
                // run.json names the step under way before it starts (any plan, auto included).
                if (const RunCurrentStep current = json.currentStep.value_or(RunCurrentStep {});
                    current.index.value_or(-1) == index) {
                    const auto mode = loadModeFromName(current.mode.value_or(QString()));
                    const QJsonValue v = current.offered.value_or(QJsonValue());
                    const auto value = v.isString() ? parseRate(v.toString())
                        : v.isDouble()              ? std::optional<double>(v.toDouble())
                                                    : std::nullopt;
                    if (mode && value) {
                        load = std::pair { *mode, *value };
                        step.purpose = current.purpose.value_or(QString());
                    }
                }
                if (!load && plannedInOrder && std::size_t(index) < planned.size()) {
                    const RunPlannedStep& p = planned[std::size_t(index)];
                    const auto mode = loadModeFromName(p.mode.value_or(QString()));
                    const QJsonValue v = p.load.value_or(QJsonValue());
                    const auto value = v.isString() ? parseRate(v.toString()) : std::optional<double>(v.toDouble());
                    if (mode && value)
                        load = std::pair { *mode, *value };
                    step.purpose = p.purpose.value_or(QString());
                }
                if (!load) {
                    run.warnings << (live ? QStringLiteral("%1: the step is still running, and run.json does not "
                                                           "say its load; left out until it ends")
                                          : QStringLiteral("%1: the step was interrupted before its "
                                                           "result was written, and run.json does not "
                                                           "say its load; left out"))
                                        .arg(requests);
                    continue;
                }
                std::vector<RequestRecord> records;
                if (!readRequestRecords(requests, &records, &error, &run.warnings)) {
                    run.warnings << error;
                    continue;
                }
                step.metrics = StepMetrics::fromRecords(
                    records, double(StepMetrics::stepDurationNs(records)) / 1e9, metricsOptions(run.profile));
                step.mode = load->first;
                step.offered = load->second;
                step.load = formatLoad(step.mode, step.offered);
                step.setup.modelId = run.profile.target.requestModel();
                step.setup.numPrompts = qint64(records.size());
                if (step.mode == LoadMode::Rate) {
                    step.setup.requestRate = step.offered;
                    step.setup.maxConcurrency = run.profile.load.maxConcurrency;
                } else {
                    step.setup.maxConcurrency = int(step.offered);
                }
                run.warnings << (live ? QStringLiteral("%1: the step is still running; its numbers so far come "
                                                       "from the %2 requests that finished")
                                      : QStringLiteral("%1: the step was interrupted; its numbers come "
                                                       "from the %2 requests that finished"))
                                    .arg(requests)
                                    .arg(records.size());
            }
            step.completed = step.metrics.completed;
            step.failed = step.metrics.failed;
            run.steps.push_back(std::move(step));
        }
    }
    std::stable_sort(
        run.steps.begin(), run.steps.end(), [](const SavedStep& a, const SavedStep& b) { return a.index < b.index; });

    run.created = json.created;
    if (!run.created.isValid())
        run.created = timeFromId(run.id);
    if (!run.created.isValid() && !run.steps.empty())
        run.created = QDateTime::fromString(run.steps.front().setup.date, QStringLiteral("yyyyMMdd-HHmmss"));
    if (!run.created.isValid()) { // read to run.json alone: the first step's start on the wall clock
        const double start = json.steps.empty() ? 0.0 : json.steps.front().startUnixS.value_or(0.0);
        if (start > 0)
            run.created = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(start * 1000.0));
    }
    if (!run.created.isValid())
        run.created = QFileInfo(runPath).lastModified();
    if (!run.updated.isValid())
        run.updated = QFileInfo(runPath).lastModified();
    out.run = std::move(run);
    return out;
}

std::optional<RequestRecord> requestRecordFromJson(QByteArrayView line, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("invalid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("expected an object");
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    QStringList problems;
    auto integer = [&](const char* key, auto& target, bool required) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() && !required)
            return;
        if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble())) {
            problems << QStringLiteral("%1: expected a whole number").arg(QLatin1String(key));
            return;
        }
        target = static_cast<std::remove_reference_t<decltype(target)>>(v.toDouble());
    };
    auto nanoseconds = [](double seconds) { return static_cast<qint64>(std::llround(seconds * 1e9)); };
    // Nanoseconds in a qint64 reach 292 years; a time beyond is no time of a step.
    constexpr double kMaxSeconds = 9.0e9;
    auto time = [&](const char* key, qint64& target) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isNull() || v.isUndefined()) {
            target = -1;
        } else if (v.isDouble() && !(std::abs(v.toDouble()) <= kMaxSeconds)) {
            problems << QStringLiteral("%1: %2 s is out of range").arg(QLatin1String(key)).arg(v.toDouble());
        } else if (v.isDouble()) {
            target = nanoseconds(v.toDouble());
        } else {
            problems << QStringLiteral("%1: expected seconds or null").arg(QLatin1String(key));
        }
    };
    RequestRecord r;
    integer("index", r.index, true);
    const QJsonValue id = o.value(u"request_id");
    if (id.isString())
        r.requestId = id.toString();
    else if (!id.isUndefined() && !id.isNull())
        problems << QStringLiteral("request_id: expected a string");
    const QJsonValue success = o.value(u"success");
    if (!success.isBool()) {
        problems << QStringLiteral("success: expected true or false");
    } else if (!success.toBool()) {
        const QString key = o.value(u"error_class").toString();
        const auto failure = failureClassFromKey(key);
        if (!failure || *failure == FailureClass::None)
            problems << QStringLiteral("error_class: unknown failure class \"%1\"").arg(key);
        else
            r.failure = *failure;
        r.errorMessage = o.value(u"error").toString();
        const QJsonValue response = o.value(u"response");
        if (response.isObject()) {
            const QJsonObject f = response.toObject();
            r.response.location = inertText(f.value(u"location").toString());
            r.response.contentEncoding = inertText(f.value(u"content_encoding").toString());
            r.response.contextExceeded = f.value(u"context_exceeded").toBool();
            if (const QJsonValue v = f.value(u"retry_after_s"); v.isDouble() && v.toDouble() >= 0)
                r.response.retryAfterS = v.toDouble();
            if (const QJsonValue v = f.value(u"context_limit");
                v.isDouble() && v.toDouble() >= 1 && v.toDouble() <= 1e12)
                r.response.contextLimit = qint64(v.toDouble());
        } else if (!response.isUndefined()) {
            problems << QStringLiteral("response: expected an object");
        }
    }
    integer("http_status", r.httpStatus, false);
    integer("attempts", r.attempts, false);
    if (r.attempts < 1) {
        problems << QStringLiteral("attempts: expected 1 or more");
        r.attempts = 1;
    }
    time("scheduled", r.scheduledNs);
    time("sent", r.sentNs);
    time("first_byte", r.firstByteNs);
    time("first_token", r.firstTokenNs);
    time("first_content", r.firstContentNs);
    time("last_token", r.lastTokenNs);
    time("end", r.endNs);
    time("connect", r.connectNs);
    const QJsonValue chunks = o.value(u"chunks");
    if (chunks.isArray()) {
        const QJsonArray a = chunks.toArray();
        r.chunkNs.reserve(std::size_t(a.size()));
        for (const QJsonValue& c : a) {
            if (!c.isDouble()) {
                problems << QStringLiteral("chunks: expected seconds");
                break;
            }
            if (!(std::abs(c.toDouble()) <= kMaxSeconds)) {
                problems << QStringLiteral("chunks: %1 s is out of range").arg(c.toDouble());
                break;
            }
            r.chunkNs.push_back(nanoseconds(c.toDouble()));
        }
    } else if (!chunks.isUndefined()) {
        problems << QStringLiteral("chunks: expected an array");
    }
    integer("prompt_tokens", r.promptTokens, false);
    integer("server_prompt_tokens", r.serverPromptTokens, false);
    integer("cached_tokens", r.cachedTokens, false);
    if (const QJsonValue model = o.value(u"model"); model.isString())
        r.model = inertText(model.toString());
    else if (!model.isUndefined())
        problems << QStringLiteral("model: expected a string");
    integer("session", r.session, false);
    integer("turn", r.turn, false);
    integer("output_tokens", r.outputTokens, false);
    integer("reasoning_tokens", r.reasoningTokens, false);
    integer("max_tokens", r.requestedOutputTokens, false);
    const QJsonValue fromUsage = o.value(u"output_tokens_from_usage");
    if (fromUsage.isBool())
        r.outputTokensFromUsage = fromUsage.toBool();
    else if (!fromUsage.isUndefined())
        problems << QStringLiteral("output_tokens_from_usage: expected true or false");
    if (!problems.isEmpty()) {
        *error = problems.join(QStringLiteral("; "));
        return std::nullopt;
    }
    return r;
}

bool readRequestRecords(const QString& path, std::vector<RequestRecord>* records, QString* error, QStringList* skipped)
{
    constexpr int kNamedSkips = 10; // bad lines named one by one; the rest are counted
    qint64 skips = 0;
    QString readError;
    const QByteArray bytes = readFile(path, &readError);
    if (!readError.isEmpty()) {
        *error = readError;
        return false;
    }
    records->clear();
    qsizetype start = 0;
    int number = 0;
    while (start < bytes.size()) {
        qsizetype end = bytes.indexOf('\n', start);
        const bool last = end < 0;
        if (last)
            end = bytes.size();
        ++number;
        const QByteArrayView line = QByteArrayView(bytes).sliced(start, end - start).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        QString lineError;
        auto record = requestRecordFromJson(line, &lineError);
        if (!record) {
            // Records are appended and flushed one line at a time: a kill can cut the last one short.
            if (last)
                break;
            if (!skipped) {
                *error = QStringLiteral("%1:%2: %3").arg(path).arg(number).arg(lineError);
                return false;
            }
            if (++skips <= kNamedSkips)
                skipped->append(QStringLiteral("%1:%2: %3; the line is skipped").arg(path).arg(number).arg(lineError));
            continue;
        }
        records->push_back(std::move(*record));
    }
    if (skips > kNamedSkips)
        skipped->append(QStringLiteral("%1: %2 more bad lines skipped").arg(path).arg(skips - kNamedSkips));
    return true;
}

} // namespace kp
