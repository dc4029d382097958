#include "clianalysis.h"

#include "metrics/boundedread.h"
#include "metrics/resultjson.h"
#include "profile/profilestore.h"
#include "runs/importers.h"
#include "runs/savedrun.h"
#include "store/rundocument.h"
#include "sweep/analysisjson.h"
#include "sweep/analysistext.h"
#include "sweep/slospec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace kp::cli {

QStringList parseAnalysisFlags(const QStringList& slo, const QString& peak, const QString& redundancy,
    const QString& kneeMetric, AnalysisRequest& request)
{
    QStringList errors;
    if (!slo.isEmpty()) {
        Slo parsed;
        if (const QString e = parseSloSpecs(slo, parsed); !e.isEmpty())
            errors << QStringLiteral("--slo: %1").arg(e);
        else
            request.options.slo = parsed;
    }
    if (!peak.isEmpty()) {
        PeakDemand demand;
        if (const QString e = parsePeakDemand(peak, demand); !e.isEmpty())
            errors << QStringLiteral("--peak: %1").arg(e);
        else
            request.peak = demand;
    }
    if (!redundancy.isEmpty()) {
        if (const QString e = parseRedundancy(redundancy, request.redundancy); !e.isEmpty())
            errors << QStringLiteral("--redundancy: %1").arg(e);
    }
    request.options = analysisOptionsFor(request.options.slo);
    if (!kneeMetric.isEmpty()) {
        if (auto metric = latencyMetricFromKey(kneeMetric))
            request.options.metric = *metric;
        else
            errors << QStringLiteral("--knee-metric: unknown metric \"%1\" (ttft, tpot, itl, e2el)").arg(kneeMetric);
    }
    return errors;
}

AnalysisOutput analyse(const std::vector<SweepPoint>& points, const AnalysisRequest& request)
{
    AnalysisOutput out;
    out.result = KneeAnalysis::analyze(points, request.options);
    if (request.peak)
        out.plan = CapacityPlan::fromAnalysis(out.result, *request.peak, request.redundancy);
    const CapacityPlan* plan = out.plan ? &*out.plan : nullptr;
    out.json = analysisJson(out.result, plan);
    out.lines = analysisWords(out.result, out.plan);
    return out;
}

QStringList analysisWords(const AnalysisResult& result, const std::optional<CapacityPlan>& plan)
{
    QStringList lines = analysisLines(result, plan ? &*plan : nullptr);
    if (plan && !plan->ok())
        lines << QStringLiteral("No capacity plan: %1").arg(plan->error.text());
    return lines;
}

namespace {

QByteArray readAll(const QString& path, QStringList& errors)
{
    QString error;
    std::optional<QByteArray> bytes = readBoundedFile(path, kMaxResultFileBytes, &error);
    if (!bytes) {
        errors << error;
        return {};
    }
    return *std::move(bytes);
}

void addFile(const QString& path, LoadedPoints& out, bool partial = false, bool clientBound = false)
{
    const QByteArray bytes = readAll(path, out.errors);
    if (bytes.isNull())
        return;
    const ResultFileContents contents = ResultJson::read(bytes, path);
    if (!contents.ok()) {
        out.errors << contents.error;
        return;
    }
    for (const ImportedStep& step : contents.steps) {
        for (const QString& w : step.warnings)
            out.warnings << w;
        SweepPoint point = SweepPoint::fromStep(step.setup, step.metrics);
        point.partial = partial;
        point.clientBound = clientBound;
        out.points.push_back(std::move(point));
    }
}

void addRunDirectory(const QDir& dir, LoadedPoints& out)
{
    const QString runPath = dir.filePath(QStringLiteral("run.json"));
    const RunDocumentRead read = readRunDocument(runPath);
    if (!read.ok()) {
        out.errors << read.error;
        return;
    }
    const RunDocument& run = *read.document;
    const ProfileLoadResult profile = ProfileStore::fromJsonObject(run.profile.value_or(QJsonObject()), runPath);
    if (profile.ok() && !profile.profile->slo.isEmpty())
        out.runSlo = profile.profile->slo;
    for (const RunStepEntry& s : run.steps) {
        const std::size_t before = out.points.size();
        addFile(dir.filePath(QStringLiteral("steps/") + s.file.value_or(QString())), out, s.partial.value_or(false),
            s.clientBound.value_or(false));
        // What the server's /metrics said about the step, for the analysis' server sentences.
        if (const auto server = ServerStepStats::fromJson(s.server.value_or(QJsonObject()))) {
            for (std::size_t i = before; i < out.points.size(); ++i)
                out.points[i].server = server;
        }
    }
    // A step cut short by a kill (a soak's, say): rebuilt from its requests.jsonl as every reader of saved
    // runs rebuilds it, and analysed as partial.
    const std::optional<int> cut = run.currentStep ? run.currentStep->index : std::nullopt;
    if (cut
        && std::none_of(run.steps.begin(), run.steps.end(), [&](const RunStepEntry& s) { return s.index == *cut; })) {
        const SavedRunRead saved = readSavedRun(dir.absolutePath());
        for (const SavedStep& step : saved.run ? saved.run->steps : std::vector<SavedStep>()) {
            if (step.index != *cut)
                continue;
            SweepPoint point = SweepPoint::fromStep(step.setup, step.metrics);
            point.partial = true;
            out.points.push_back(std::move(point));
        }
        if (saved.run)
            out.warnings << saved.run->warnings;
    }
    if (out.points.empty() && run.steps.empty())
        out.warnings << QStringLiteral("%1: the run has no finished step yet").arg(runPath);
}

} // namespace

LoadedPoints readPoints(const QStringList& paths)
{
    LoadedPoints out;
    QStringList foreign; // other tools' result files and folders: read as `import` reads them
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (!info.exists()) {
            out.errors << QStringLiteral("%1: no such file or directory").arg(path);
            continue;
        }
        const QDir dir(path);
        if (info.isDir() && dir.exists(QStringLiteral("run.json"))) {
            addRunDirectory(dir, out);
            continue;
        }
        // A step file of ours reads as it always did; everything else goes through the importers.
        foreign << path;
    }
    if (!foreign.isEmpty()) {
        const ImportContents contents = readImport(foreign);
        out.warnings << contents.warnings;
        if (!contents.ok()) {
            out.errors << contents.error;
        } else if (contents.curves.size() > 1) {
            out.errors << QStringLiteral("%1: the files measured different things (%2): kneepoint-cli import "
                                         "turns them into one run each, to analyse or compare")
                              .arg(foreign.join(QStringLiteral(", ")), contents.difference());
        } else {
            for (const ImportedFileStep& step : contents.curves.front().steps) {
                SweepPoint point = SweepPoint::fromStep(step.setup, step.metrics);
                if (step.mode == LoadMode::Concurrency && !point.concurrencyMode) {
                    point.concurrencyMode = true;
                    point.offered = step.offered;
                    point.takeClientLimits(step.setup);
                }
                out.points.push_back(std::move(point));
            }
        }
    }
    std::stable_sort(out.points.begin(), out.points.end(),
        [](const SweepPoint& a, const SweepPoint& b) { return a.offered < b.offered; });
    return out;
}

} // namespace kp::cli
