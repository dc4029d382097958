#pragma once

#include "metrics/requestrecord.h"
#include "metrics/stepmetrics.h"
#include "metrics/stepsetup.h"
#include "profile/profile.h"

#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>
#include <vector>

namespace kp {

// Result files of other tools, turned into native run directories.
enum class ImportFormat {
    Auto, // by structure
    Vllm, // vLLM's serving benchmark: one JSON object per file (a folder of per-rate files), any key variant
    Sglang, // SGLang's bench_serving: JSON Lines, one object per step
    Guidellm, // GuideLLM's benchmarks report: {"benchmarks": [...]}
    Aiperf, // AIPerf's profile_export_aiperf.json / .csv, GenAI-Perf's profile_export_genai_perf.json
};
QString importFormatName(ImportFormat format); // "auto", "vllm", "sglang", "guidellm", "aiperf"
std::optional<ImportFormat> importFormatFromName(QStringView name);

struct ImportOptions
{
    ImportFormat format = ImportFormat::Auto;
    QString name; // empty: the files' label, else the name of the first path
};

// One step as a file gave it. Figures the file lacks are unknown (kUnknown, kUnknownCount); those its
// own fields give are in metrics.derived.
struct ImportedFileStep
{
    StepSetup setup;
    StepMetrics metrics;
    LoadMode mode = LoadMode::Rate;
    double offered = 0.0;
    QString sourceFile; // path of the file the step came from
    int repeat = -1; // `vllm bench sweep`'s run number; -1: none
    std::vector<RequestRecord> records;
    // The records' times count from each request's own send (the file keeps no send times): their
    // latencies hold, a timeline of the step does not. Written as run.json's entry "no_timeline".
    bool recordsWithoutSendTimes = false;
};

// Steps that measured the same thing (tool, model, backend, endpoint, metadata) at several loads.
struct ImportedCurve
{
    QString source; // vllm | sglang | guidellm | aiperf | genai-perf
    QString name;
    QString model, target, label, toolVersion;
    std::vector<std::pair<QString, QString>> identity; // what sets this curve apart from the others read with it
    std::vector<ImportedFileStep> steps; // ordered by load on `axis`
    LoadMode axis = LoadMode::Rate;
    // A concurrency sweep whose every step the client also paced at this rate (vLLM's --request-rate
    // with --max-concurrency); kUnknown otherwise.
    double fixedRate = kUnknown;
    QStringList files;
};

struct ImportContents
{
    std::vector<ImportedCurve> curves;
    QStringList warnings; // each names the file and key
    // Files found in a folder that could not be imported, each "path: why"; the others are imported.
    QStringList refused;
    QString error; // names the file and key or line
    bool ok() const { return error.isEmpty(); }
    // When the curves measured different things: "framework=vllm, framework=sgl" (what tells them apart).
    QString difference() const;
};

// Reads `paths` (files, or folders read recursively: *.json, *.jsonl, AIPerf's *.csv when no JSON
// export of the same name lies next to it; a `vllm bench sweep` folder's run=N.json files as repeats,
// its summary.json only when the runs are not there) and groups the steps
// into curves: steps that differ in tool, model, backend, endpoint or metadata never share one.
ImportContents readImport(const QStringList& paths, const ImportOptions& options = {});

struct ImportResult
{
    QString dir; // the first new run directory; empty on failure
    QString id;
    QStringList dirs; // every new run directory, one per curve
    QStringList ids;
    QString source; // "vllm", "sglang", "guidellm", "aiperf", "genai-perf": the first run's
    QStringList sources; // every tool the runs came from, in run order
    int stepCount = 0; // over all runs
    int requestCount = 0; // per-request records written (from detail lists)
    QString difference; // with several runs: what tells them apart
    QStringList warnings; // each names the file and key
    QStringList refused; // files found in a folder and not imported, each "path: why"
    QString error; // names the file and key or line; nothing is left behind
    bool ok() const { return error.isEmpty(); }
};

// Reads `paths` as readImport does and writes one run per curve under runsRoot: run.json with "source",
// steps/NNN.json (ResultJson), steps/NNN.requests.jsonl when the files carry per-request lists. Each
// run is assembled in a hidden temporary directory under runsRoot and renamed into place at the end: a
// failed import leaves nothing behind.
ImportResult importRun(const QStringList& paths, const QString& runsRoot, const ImportOptions& options = {});

} // namespace kp
