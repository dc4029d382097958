#pragma once

#include "requestrecord.h"
#include "stepmetrics.h"
#include "stepsetup.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <span>
#include <vector>

namespace kp {

// One step read back from a result file (ours, vLLM's benchmark_serving / `vllm bench serve`, SGLang's).
struct ImportedStep
{
    StepSetup setup;
    StepMetrics metrics; // what the file holds; statistics it lacks stay 0
    QString format; // "kneepoint", "vllm" or "sglang"
    QStringList warnings; // values that were present but unusable, each naming its JSON path
};

struct ResultFileContents
{
    std::vector<ImportedStep> steps;
    QString error; // names the source, line and column, or the JSON path

    bool ok() const { return error.isEmpty(); }
};

// The per-step result file, with the reference's keys in the reference's order (METRICS.md), then
// Kneepoint's extras under "kneepoint".
class ResultJson
{
public:
    // `details`: the step's requests, in prompt order, to add input_lens, output_lens, ttfts (s),
    // itls (s, one list per request), generated_texts and errors; empty leaves them out.
    // `indent` < 0 writes one line (what the reference's --append-result expects: one object per line).
    static QByteArray write(const StepSetup& setup, const StepMetrics& metrics,
        std::span<const RequestRecord> details = {}, int indent = -1);

    // The reference's default file name: {label}-{rate}qps[-concurrency{N}]-{model}-{date}.json, the
    // backend in place of an empty label
    static QString defaultFileName(const StepSetup& setup);

    // A key the reference's result file (or Kneepoint's) writes itself: "date", "request_rate",
    // "mean_ttft_ms", "p99.9_itl_ms", "kneepoint", ... A --metadata key must not be one of them.
    static bool isReferenceKey(const QString& key);

    // A single object, an array of objects, or JSON Lines (one object per line, as --append-result and
    // SGLang write). Accepts older and foreign spellings: "request_goodput:", output_token_throughput,
    // mean_tps, total_throughput, *_e2e_latency_ms, and bare Infinity/NaN.
    static ResultFileContents read(QByteArrayView bytes, const QString& sourceName);
};

} // namespace kp
