#pragma once

// The readers of other tools' result files, shared by the importer's per-format sources.
#include "runs/importers.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace kp::importdetail {

// The steps one file holds, before they are grouped into curves.
struct FileContents
{
    QString source; // vllm | sglang | guidellm | aiperf | genai-perf
    std::vector<ImportedFileStep> steps;
    QString model, target, label, toolVersion;
};

} // namespace kp::importdetail
