#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace kp {

// Result files of other tools, turned into native run directories.
enum class ImportFormat {
    Auto, // by content
    Vllm, // vLLM's serving benchmark: one JSON object per file (a folder of per-rate files), any key variant
    Sglang, // SGLang's bench_serving: JSON Lines, one object per step
    Guidellm, // GuideLLM's benchmarks report: {"benchmarks": [...]}
};
QString importFormatName(ImportFormat format); // "auto", "vllm", "sglang", "guidellm"
std::optional<ImportFormat> importFormatFromName(QStringView name);

struct ImportOptions
{
    ImportFormat format = ImportFormat::Auto;
    QString name; // empty: the files' label, else the name of the first path
};

struct ImportResult
{
    QString dir; // the new run directory; empty on failure
    QString id;
    QString source; // "vllm", "sglang", "guidellm"
    int stepCount = 0;
    int requestCount = 0; // per-request records written (from detail lists)
    QStringList warnings; // each names the file and key
    QString error; // names the file and key or line; nothing is left behind
    bool ok() const { return error.isEmpty(); }
};

// Reads `paths` (files, or folders whose *.json and *.jsonl files are read in name order) and writes one
// run under runsRoot: run.json with "source", steps/NNN.json (ResultJson), steps/NNN.requests.jsonl when
// the files carry per-request lists (ttfts, itls, input_lens, output_lens, errors). Steps are ordered by
// offered load. The run is assembled in a hidden temporary directory under runsRoot and renamed into
// place at the end: a failed import leaves nothing behind.
ImportResult importRun(const QStringList& paths, const QString& runsRoot, const ImportOptions& options = {});

} // namespace kp
