#pragma once

// The readers of other tools' result files, shared by the importer's per-format sources.
#include "runs/importers.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace kp::importdetail {

// The steps one file holds, before they are grouped into curves.
struct FileContents
{
    QString source; // vllm | sglang | guidellm | aiperf | genai-perf
    std::vector<ImportedFileStep> steps;
    QString model, target, label, toolVersion;
    // What the file states that the run cannot hold, each naming the file and key.
    QStringList warnings;
};

// GuideLLM's benchmarks report ({"benchmarks": [...]}): one step per benchmark.
bool readGuidellm(const QString& path, const QJsonObject& report, FileContents& out, QString* error);

// AIPerf's profile_export_aiperf.json and GenAI-Perf's profile_export_genai_perf.json: metric objects
// ({"unit", "avg", "p50", ...}) with the settings under "input_config". One step; its load comes from
// input_config (the measured phase, loadgen, or the top level), else the file is refused.
bool isAiperfExport(const QJsonObject& file);
bool readAiperfJson(const QString& path, const QJsonObject& file, FileContents& out, QString* error);
// AIPerf's CSV export of the same figures (rounded to two decimals). It states neither the load nor the
// model: the step's offered load is unknown (NaN), and the importer refuses it on its own.
bool isAiperfCsv(const QByteArray& bytes);
bool readAiperfCsv(const QString& path, const QByteArray& bytes, FileContents& out, QString* error);

} // namespace kp::importdetail
